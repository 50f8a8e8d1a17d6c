# selftest/kat/hash-2_33-skip (cmake -P): KAT_2_33 is SKIP (exit 77), never
# PASS, in reduced mode and when the memory limit leaves no room for its
# 1 GiB message, and the verdict says how to run it.
# -D inputs: KAT (ngcc-kat-hash) LIB BUILD_RECORD WORK
#            EMULATOR (optional, comma-separated: a cross tree's emulator command)
string(REPLACE "," ";" emulator "${EMULATOR}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(case reduced memory)
  if(case STREQUAL "reduced")
    set(extra --mode reduced)
    set(want "SKIP: reduced mode: KAT_2_33 .* run it with -DNGCC_HASH_KAT_2_33=full")
  else()
    set(extra --mode full --mem-limit-mb 512)
    set(want "SKIP: KAT_2_33 needs a 1 GiB message buffer .* the memory limit is 512 MB: raise the \"memory_limit_mb\" override or NGCC_MEMORY_LIMIT_MB")
  endif()
  execute_process(COMMAND ${emulator} "${KAT}" --lib "${LIB}" --name "selftest/${case}" --file 2_33 ${extra}
    --record-out "${WORK}/${case}.json" --build-record "${BUILD_RECORD}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 77 OR NOT out MATCHES "${want}")
    message(FATAL_ERROR "hash-2_33-skip/${case}: expected exit 77 and /${want}/, got exit ${rc}:\n${out}\n${err}")
  endif()
  file(READ "${WORK}/${case}.json" rec)
  string(JSON v GET "${rec}" verdict)
  if(NOT v STREQUAL "SKIP")
    message(FATAL_ERROR "hash-2_33-skip/${case}: the record says ${v}, not SKIP")
  endif()
  message(STATUS "hash-2_33-skip/${case}: SKIP as expected")
endforeach()

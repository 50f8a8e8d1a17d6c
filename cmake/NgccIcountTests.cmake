# The icount label: instructions per operation, one test per instance and
# operation (icount/<cand>/<key>/<op>), counted deterministically by
# ngcc-icount (tests/perf/icount_measure.h: the hardware instruction counter
# where perf_event_open offers it, else callgrind with collection toggled
# around each API call) over the first KAT records, and gated at
# NGCC_ICOUNT_TOLERANCE against the committed baseline of this architecture
# and compiler (tests/perf/icount/<arch>-<compilerid>-<version>.json, written
# by the icount-baseline target) and against the instance's same-run
# reference (override "perf": {"reference": ...}). Counts do not depend on
# the load: no RUN_SERIAL.
include(NgccPerfReference)
include(NgccKexPasses)
# every type perf times: KEX per call and exchange, HASH per message length
set(NGCC_LABEL_TYPES_icount SIG KEM KEX HASH)

set(NGCC_ICOUNT_TOLERANCE 0.005 CACHE STRING
  "Tolerance of the icount gates: fail when the median exceeds baseline x (1 + tol), or the ratio to the reference 1 + tol")
set(NGCC_ICOUNT_RECORDS 0 CACHE STRING
  "KAT records counted per operation (0: 3 under valgrind, 10 with the hardware counter)")
set(NGCC_ICOUNT_METHOD auto CACHE STRING "Instruction counter: auto (perf_event, else valgrind), perf, valgrind")
set(NGCC_ICOUNT_MAX_VALGRIND_S 60 CACHE STRING
  "Operations predicted (KAT op_seconds x callgrind slowdown) to need longer under valgrind are SKIPped")
# measured here: a counted call takes 4-16 x its native time under callgrind
# (compute-bound fixture ops of 20-90 ms); small ops pay ~30-60 ms per call
set(NGCC_ICOUNT_SLOWDOWN 10 CACHE STRING "Callgrind slowdown assumed by that prediction")
set(NGCC_TIMEOUT_icount 300 CACHE STRING "Default timeout of an icount test (s)")
find_program(NGCC_VALGRIND valgrind)

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}-${CMAKE_C_COMPILER_ID}-${CMAKE_C_COMPILER_VERSION}" _ngcc_icount_id)
set(NGCC_ICOUNT_BASELINE "${PROJECT_SOURCE_DIR}/tests/perf/icount/${_ngcc_icount_id}.json" CACHE FILEPATH
  "icount baseline file (keyed by arch, compiler id and version; not by CPU model)")
set(NGCC_ICOUNT_REFRESH "cmake --build ${CMAKE_BINARY_DIR} --target icount-baseline")

# The refresh command over this build's records:
#   ctest -L icount && cmake --build <build> --target icount-baseline
add_custom_target(icount-baseline
  COMMAND ngcc-icount-baseline --records ${CMAKE_BINARY_DIR}/records --out ${NGCC_ICOUNT_BASELINE}
    --arch ${CMAKE_SYSTEM_PROCESSOR} "--compiler=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
  COMMENT "Recording icount baselines into ${NGCC_ICOUNT_BASELINE}"
  VERBATIM USES_TERMINAL)

# The same-run reference of instance n for icount: the "perf" override's,
# else, for a zoo variant (one with an icount expectation of its own, e.g. a
# deliberately slower sign), the instance it derives from.
function(ngcc_icount_reference n out_index out_err)
  ngcc_perf_reference(${n} r err)
  foreach(f IN ITEMS id key zoo perf_reference)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  if(perf_reference STREQUAL "" AND zoo)
    string(REGEX REPLACE "~.*$" "" pkey "${key}")
    ngcc_find_instance(${id} ${pkey} r)
  endif()
  set(${out_index} "${r}" PARENT_SCOPE)
  set(${out_err} "${err}" PARENT_SCOPE)
endfunction()

function(ngcc_add_icount_tests n)
  foreach(f IN ITEMS id key zoo type ai blank root records kat_records perf_reference)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  # as perf: no zoo variants but those compared with a reference, or with an
  # icount expectation of their own ("expect": {"icount.<op>": ...})
  if(zoo AND perf_reference STREQUAL "")
    ngcc_perf_ops(${type} ops)
    ngcc_kex_extra_passes(${n} ops)
    set(own FALSE)
    foreach(op IN LISTS ops)
      ngcc_iget(${n} expect_icount.${op} e)
      if(NOT e STREQUAL "")
        set(own TRUE)
      endif()
    endforeach()
    if(NOT own)
      return()
    endif()
  endif()
  if(blank AND ai STREQUAL "AlgorithmInstance")
    return() # the untouched official template's operations are empty stubs
  endif()
  ngcc_icount_reference(${n} r ref_err)
  ngcc_timeout(${n} icount t)
  math(EXPR inner "${t} - 5")
  set(fixtures "ngcc.build.plain.${id}.${key}" "ngcc.kat.${id}.${key}")
  set(ref)
  if(ref_err)
    set(ref --ref-error "${ref_err}")
  elseif(NOT r STREQUAL "")
    foreach(f IN ITEMS id key root)
      ngcc_iget(${r} ${f} r_${f})
    endforeach()
    set(ref --ref-lib "${r_root}/libngcc_plain.so" --ref-name "${r_id}/${r_key}")
    list(APPEND fixtures "ngcc.build.plain.${r_id}.${r_key}")
  endif()
  set(vg)
  if(NGCC_VALGRIND)
    set(vg --valgrind "${NGCC_VALGRIND}")
  endif()
  set(anyway)
  ngcc_kat_verdict_record(${n} kat_json)
  set(kat --kat-record "${kat_json}")
  if(NGCC_TIME_ANYWAY)
    set(anyway --time-anyway)
    list(REMOVE_ITEM fixtures "ngcc.kat.${id}.${key}")
  endif()
  ngcc_perf_kat_gated(${n} gated)
  if(NOT gated) # a type the kat label does not replay yet: no KAT verdict to wait for
    set(kat)
    list(REMOVE_ITEM fixtures "ngcc.kat.${id}.${key}")
  endif()
  ngcc_perf_ops(${type} ops)
  ngcc_kex_extra_passes(${n} ops)
  foreach(op IN LISTS ops)
    ngcc_expect(${n} icount.${op} PASS expect)
    set(name "icount/${id}/${key}/${op}")
    add_test(NAME "${name}" COMMAND ngcc-icount --lib "${root}/libngcc_plain.so" --name "${id}/${key}" --op ${op}
      --build-record "${records}/build-plain.json" ${kat} ${anyway}
      --record-out "${records}/icount-${op}.json" --log "${records}/icount-${op}.child.log"
      --method ${NGCC_ICOUNT_METHOD} ${vg} --records ${NGCC_ICOUNT_RECORDS} --kat-records ${kat_records}
      --baseline "${NGCC_ICOUNT_BASELINE}" --refresh "${NGCC_ICOUNT_REFRESH}" --tolerance ${NGCC_ICOUNT_TOLERANCE}
      --max-valgrind-s ${NGCC_ICOUNT_MAX_VALGRIND_S} --slowdown ${NGCC_ICOUNT_SLOWDOWN} ${ref}
      --timeout ${inner} --expect ${expect})
    set_tests_properties("${name}" PROPERTIES LABELS "icount;${id};${key};${op}" FIXTURES_REQUIRED "${fixtures}"
      TIMEOUT ${t} SKIP_RETURN_CODE 77)
    if(NGCC_TIME_ANYWAY)
      set_tests_properties("${name}" PROPERTIES DEPENDS "kat/${id}/${key}")
    endif()
  endforeach()
endfunction()

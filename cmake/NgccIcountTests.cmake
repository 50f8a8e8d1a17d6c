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
if(TARGET ngcc-icount-baseline)
  add_custom_target(icount-baseline
    COMMAND ngcc-icount-baseline --records ${CMAKE_BINARY_DIR}/records --out ${NGCC_ICOUNT_BASELINE}
      --arch ${CMAKE_SYSTEM_PROCESSOR} "--compiler=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}"
    COMMENT "Recording icount baselines into ${NGCC_ICOUNT_BASELINE}"
    VERBATIM USES_TERMINAL)
endif()

# The same-run reference of instance n for icount: the "perf" override's,
# else, for the zoo variant slow-sign, the instance it derives from.
function(ngcc_icount_reference n out_index out_err)
  ngcc_perf_reference(${n} r err)
  foreach(f IN ITEMS id key zoo perf_reference)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  if(perf_reference STREQUAL "" AND zoo STREQUAL "slow-sign")
    string(REPLACE "~slow-sign" "" pkey "${key}")
    ngcc_find_instance(${id} ${pkey} r)
  endif()
  set(${out_index} "${r}" PARENT_SCOPE)
  set(${out_err} "${err}" PARENT_SCOPE)
endfunction()

function(ngcc_add_icount_tests n)
  foreach(f IN ITEMS id key zoo type ai blank root records kat_records perf_reference)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  if(NOT TARGET ngcc-icount)
    return()
  endif()
  # as perf: no zoo variants but those compared with a reference
  if(zoo AND perf_reference STREQUAL "" AND NOT zoo STREQUAL "slow-sign")
    return()
  endif()
  if(blank AND ai STREQUAL "AlgorithmInstance")
    return() # the untouched official template's operations are empty stubs
  endif()
  if(NOT zoo)
    ngcc_icount_bench_instance(${n})
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
  if(NGCC_TIME_ANYWAY)
    set(anyway --time-anyway)
    list(REMOVE_ITEM fixtures "ngcc.kat.${id}.${key}")
  endif()
  ngcc_perf_ops(${type} ops)
  foreach(op IN LISTS ops)
    ngcc_expect(${n} icount.${op} PASS expect)
    set(name "icount/${id}/${key}/${op}")
    add_test(NAME "${name}" COMMAND ngcc-icount --lib "${root}/libngcc_plain.so" --name "${id}/${key}" --op ${op}
      --build-record "${records}/build-plain.json" --kat-record "${records}/kat.json" ${anyway}
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
  if(zoo STREQUAL "copy" AND NOT r STREQUAL "")
    ngcc_add_icount_selftests(${n} ${r})
  endif()
endfunction()

# Selftests of the icount label (tests/perf/icount_selftest.cmake), registered
# with the zoo variant "copy" (identical to its reference):
#   selftest/icount/copy: every op of the copy's records within 0.1% of the reference;
#   selftest/icount/baseline: no baseline NOBASELINE, a lowered one REGRESSION,
#     a raised one PASS, another method or flag set NOBASELINE (synthetic files);
#   selftest/icount/determinism: two runs of one op give identical counts.
function(ngcc_add_icount_selftests n r)
  foreach(f IN ITEMS id key records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  foreach(f IN ITEMS id key root records)
    ngcc_iget(${r} ${f} r_${f})
  endforeach()
  ngcc_iget(${n} type type)
  ngcc_perf_ops(${type} ops)
  set(script ${PROJECT_SOURCE_DIR}/tests/perf/icount_selftest.cmake)
  set(vg)
  if(NGCC_VALGRIND)
    set(vg "-DVALGRIND=${NGCC_VALGRIND}")
  endif()
  set(common -DICOUNT=$<TARGET_FILE:ngcc-icount> "-DLIB=${r_root}/libngcc_plain.so" "-DNAME=${r_id}/${r_key}"
    "-DRECORDS_DIR=${r_records}" -DMETHOD=${NGCC_ICOUNT_METHOD} ${vg})
  set(copy_tests)
  foreach(op IN LISTS ops)
    list(APPEND copy_tests "icount/${id}/${key}/${op}")
  endforeach()
  add_test(NAME selftest/icount/copy COMMAND ${CMAKE_COMMAND} -DSCENARIO=copy "-DCOPY_RECORDS=${records}"
    "-DOPS=${ops}" ${common} -P ${script})
  # the copy's icount tests are its setup: ctest -R selftest/icount/copy runs them first
  set_tests_properties(${copy_tests} PROPERTIES FIXTURES_SETUP "ngcc.icount.${id}.${key}")
  set_tests_properties(selftest/icount/copy PROPERTIES LABELS "selftest;icount" TIMEOUT 60
    FIXTURES_REQUIRED "ngcc.icount.${id}.${key}")
  # selftest/resume/icount: a finished record is kept on a rerun with unchanged
  # inputs (tests/perf/resume_selftest.cmake), and counted again when the KAT
  # record's op_seconds (the valgrind prediction's input) change
  if(NGCC_VALGRIND)
    set(dir ${CMAKE_BINARY_DIR}/selftest/resume)
    add_test(NAME selftest/resume/icount COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:ngcc-icount>
      "-DARGS=--lib|${r_root}/libngcc_plain.so|--name|${r_id}/${r_key}|--op|verify|--records|1|--valgrind|${NGCC_VALGRIND}|--kat-record|${dir}/icount-kat.json|--log|${dir}/icount.log|--record-out|${dir}/icount.json"
      "-DRECORD=${dir}/icount.json" "-DKAT_JSON=${dir}/icount-kat.json" -P ${PROJECT_SOURCE_DIR}/tests/perf/resume_selftest.cmake)
    set_tests_properties(selftest/resume/icount PROPERTIES LABELS "selftest;resume;icount" TIMEOUT 300
      FIXTURES_REQUIRED "ngcc.build.plain.${r_id}.${r_key}")
  endif()
  foreach(s IN ITEMS baseline determinism)
    add_test(NAME selftest/icount/${s} COMMAND ${CMAKE_COMMAND} -DSCENARIO=${s} ${common}
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/icount-${s}" -P ${script})
    set_tests_properties(selftest/icount/${s} PROPERTIES LABELS "selftest;icount" TIMEOUT 240
      FIXTURES_REQUIRED "ngcc.build.plain.${r_id}.${r_key};ngcc.kat.${r_id}.${r_key}")
  endforeach()
endfunction()

# ---- benchmark of the method (label bench; -DNGCC_BENCH=ON) ----
# bench/icount/spread/<cand>-<key>/<op>: the count over 5 runs, printing the
# spread (max-min)/median (0 expected) and the cost of the method (a counted
# call's wall time over the KAT's native op_seconds).
set(NGCC_ICOUNT_BENCH_CASES "fx-wots/WOTS-128:sign" "fx-wots/WOTS-128:verify" "fx-xkem/XKEM-128:enc"
  "fx-xkem/XKEM-128:dec")
function(ngcc_icount_bench_instance n)
  if(NOT NGCC_BENCH OR NOT TARGET ngcc-icount)
    return()
  endif()
  foreach(f IN ITEMS id key root records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  set(vg)
  if(NGCC_VALGRIND)
    set(vg "-DVALGRIND=${NGCC_VALGRIND}")
  endif()
  foreach(c IN LISTS NGCC_ICOUNT_BENCH_CASES)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 inst)
    list(GET c 1 op)
    if(inst STREQUAL "${id}/${key}")
      set(name "bench/icount/spread/${id}-${key}/${op}")
      add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} -DSCENARIO=spread -DICOUNT=$<TARGET_FILE:ngcc-icount>
        "-DLIB=${root}/libngcc_plain.so" "-DNAME=${id}/${key}" "-DRECORDS_DIR=${records}" -DOP=${op}
        -DMETHOD=${NGCC_ICOUNT_METHOD} ${vg} "-DWORK=${CMAKE_BINARY_DIR}/bench/icount/${id}-${key}-${op}"
        -P ${PROJECT_SOURCE_DIR}/tests/perf/icount_selftest.cmake)
      set_tests_properties("${name}" PROPERTIES LABELS "bench" TIMEOUT 900
        FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key};ngcc.kat.${id}.${key}")
    endif()
  endforeach()
endfunction()

# Selftests of the icount label (moved out of cmake/NgccIcountTests.cmake;
# scenarios: tests/perf/icount_selftest.cmake), on the zoo variant "copy" of
# fx-wots/WOTS-128 (identical to its reference, fixtures/fx-wots/ngcc.json):
#   selftest/icount/copy: every op of the copy's records within 0.1% of the reference;
#   selftest/icount/baseline: no baseline NOBASELINE, a lowered one REGRESSION,
#     a raised one PASS, another method or flag set NOBASELINE (synthetic files);
#   selftest/icount/determinism: two runs of one op give identical counts;
#   selftest/resume/icount: a finished record is kept on a rerun.
set(NGCC_ICOUNT_SELFTEST_FIXTURE fx-wots/WOTS-128~copy)

function(ngcc_add_icount_selftests)
  ngcc_selftest_instance(selftest/icount/copy ${NGCC_ICOUNT_SELFTEST_FIXTURE} n)
  if(n STREQUAL "")
    return()
  endif()
  ngcc_icount_reference(${n} r err)
  if(r STREQUAL "")
    ngcc_selftest_fail(selftest/icount/copy "fixture ${NGCC_ICOUNT_SELFTEST_FIXTURE} has no icount reference \
(${err}): fixtures/fx-wots/ngcc.json must give it \"perf\": {\"reference\": ...}")
    return()
  endif()
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

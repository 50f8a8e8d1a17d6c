# Selftests of the ct label (the zoo variants' LEAK verdicts are asserted
# from their ngcc.json expectations by cmake/NgccCtTests.cmake):
#   selftest/ct/harness-error: the flow branching on sk itself (a harness bug
#     on purpose, --selftest-harness-leak) must be ERROR naming the harness
#     site, not LEAK (exit code via --expect ERROR);
#   selftest/ct/harness-error-detail: that detail, asserted from the record.
# On fx-xkem/XKEM-128's ct library; a missing fixture is a failing test.
set(NGCC_CT_SELFTEST_FIXTURE fx-xkem/XKEM-128)

function(ngcc_add_ct_selftests)
  set(name "selftest/ct/harness-error")
  ngcc_selftest_instance("${name}" ${NGCC_CT_SELFTEST_FIXTURE} n)
  if(n STREQUAL "")
    return()
  endif()
  foreach(f IN ITEMS id key root records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  set(r "${CMAKE_BINARY_DIR}/records/selftest-ct-harness")
  add_test(NAME "${name}" COMMAND ngcc-ct --valgrind "${NGCC_VALGRIND}"
    --suppressions "${PROJECT_SOURCE_DIR}/tests/ct/ct.supp"
    --lib "${root}/libngcc_ct.so" --name "${id}/${key}"
    --build-record "${records}/build-ct.json"
    --record-out "${r}/ct.json" --log "${r}/ct.log" --timeout 120 --expect ERROR --selftest-harness-leak)
  set_tests_properties("${name}" PROPERTIES
    LABELS "selftest;ct"
    FIXTURES_REQUIRED "ngcc.build.ct.${id}.${key}"
    FIXTURES_SETUP "ngcc.ct.selftest-harness"
    ENVIRONMENT "NGCC_SCRATCH_DIR=${CMAKE_BINARY_DIR}/scratch/${name}"
    TIMEOUT 150)
  add_test(NAME "${name}-detail" COMMAND ${CMAKE_COMMAND}
    "-DRECORD=${r}/ct.json" -DVERDICT=ERROR "-DNAME=harness-error"
    "-DDETAIL=^harness.bug:.[0-9]+.secret-dependent.use.s..outside.the.instance:.branch.on.sk.in.kem_record.[(]ct_flow.c:[0-9]+[)]"
    -P "${PROJECT_SOURCE_DIR}/tests/ct/NgccCtSelftest.cmake")
  set_tests_properties("${name}-detail" PROPERTIES
    LABELS "selftest;ct" FIXTURES_REQUIRED "ngcc.ct.selftest-harness" TIMEOUT 60)
endfunction()

# selftest/style/format: the suite's own C code follows .clang-format
# (tests/style/format_check.cmake). clang-format comes from tools/install-deps;
# without it the test fails saying so, never passes unchecked.
find_program(NGCC_CLANG_FORMAT NAMES clang-format clang-format-14 clang-format-15 clang-format-16)
add_test(NAME selftest/style/format COMMAND ${CMAKE_COMMAND} "-DCLANG_FORMAT=${NGCC_CLANG_FORMAT}"
  "-DSOURCE_DIR=${PROJECT_SOURCE_DIR}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/style"
  -P ${PROJECT_SOURCE_DIR}/tests/style/format_check.cmake)
set_tests_properties(selftest/style/format PROPERTIES LABELS "selftest;style" TIMEOUT 300)

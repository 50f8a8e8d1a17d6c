# selftest/readme-tools, selftest/readme-campaign: the commands README.md and
# docs/ show (manifest writer, report generator, kat-overhead benchmark, the
# campaign command, its resume, summary and baseline commands) run as written,
# and every command the documents show known (tests/real/readme_commands.cmake).
# The campaign test configures and builds a second tree for one small fixture.
# (Moved here from cmake/NgccReadmeTests.cmake.)
function(ngcc_add_readme_selftests)
  set(script "${PROJECT_SOURCE_DIR}/tests/real/readme_commands.cmake")
  foreach(part tools campaign)
    set(name "selftest/readme-${part}")
    add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} "-DSRC=${PROJECT_SOURCE_DIR}"
      "-DBUILD=${CMAKE_BINARY_DIR}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/readme-${part}" -DPART=${part}
      -P "${script}")
    set_tests_properties("${name}" PROPERTIES LABELS "selftest;readme" TIMEOUT 1500)
  endforeach()
  # the campaign's perf tests time operations: nothing else runs beside them
  set_tests_properties(selftest/readme-campaign PROPERTIES RUN_SERIAL TRUE)
  # the tools part reads fx-wots' libraries and records (a missing fixture fails the test)
  set_tests_properties(selftest/readme-tools PROPERTIES
    FIXTURES_REQUIRED "ngcc.kat.fx-wots.WOTS-128;ngcc.kat.fx-wots.WOTS-192")
endfunction()

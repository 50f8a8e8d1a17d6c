# The coverage target (cmake -P): zero the gcov counters, run the tests,
# capture with lcov, render with genhtml, and print per-area line coverage
# and where the HTML is. -D: BUILD SOURCE LCOV GENHTML CTEST LABELS SUBMISSIONS
cmake_minimum_required(VERSION 3.25)
set(out "${BUILD}/coverage")
file(REMOVE_RECURSE "${out}")
file(MAKE_DIRECTORY "${out}")
set(quiet --quiet --rc lcov_branch_coverage=1)

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ngcc: coverage: ${what} failed (rc ${rc}):\n${o}${e}")
  endif()
endfunction()

run("lcov --zerocounters" ${LCOV} ${quiet} --zerocounters --directory "${BUILD}")
# counters of sandboxed children: GCOV_PREFIX, the one extra folder their sandbox allows
file(REMOVE_RECURSE "${PREFIX}")
file(MAKE_DIRECTORY "${PREFIX}")
set(ENV{GCOV_PREFIX} "${PREFIX}")
set(ENV{NGCC_SANDBOX_WRITABLE} "${PREFIX}")
set(select -LE "^(perf|bench|slow)$")
if(LABELS)
  string(REPLACE ";" "|" alt "${LABELS}")
  set(select -L "^(${alt})$")
endif()
message("ngcc: coverage: ctest ${select} -j2")
# a failing test does not stop the report: coverage is about what ran
execute_process(COMMAND ${CTEST} --test-dir "${BUILD}" ${select} -j2 --output-on-failure RESULT_VARIABLE test_rc)

# lcov reads each .gcda beside its .gcno: mirror the .gcno files into the prefix tree
file(GLOB_RECURSE gcnos "${BUILD}/*.gcno")
foreach(g IN LISTS gcnos)
  string(FIND "${g}" "${PREFIX}/" in_prefix)
  get_filename_component(d "${g}" DIRECTORY)
  if(in_prefix EQUAL 0 OR NOT EXISTS "${PREFIX}${d}")
    continue() # nothing ran from that folder under the prefix
  endif()
  file(COPY "${g}" DESTINATION "${PREFIX}${d}")
endforeach()
run("lcov --capture" ${LCOV} ${quiet} --capture --directory "${BUILD}" --output-file "${out}/all.info")
run("lcov --remove /usr" ${LCOV} ${quiet} --remove "${out}/all.info" "/usr/*" --output-file "${out}/all.info")

# per-area figures: "lines......: 93.1% (1234 of 1325 lines)"
set(areas iccs harness tools tests)
set(summary "")
foreach(a IN LISTS areas)
  execute_process(COMMAND ${LCOV} ${quiet} --extract "${out}/all.info" "${SOURCE}/${a}/*" --output-file "${out}/${a}.info"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  execute_process(COMMAND ${LCOV} --rc lcov_branch_coverage=1 --summary "${out}/${a}.info"
    OUTPUT_VARIABLE s ERROR_VARIABLE s2 RESULT_VARIABLE rc2)
  string(REGEX MATCH "lines\\.*: [^\n]*" lines "${s}${s2}")
  string(REGEX MATCH "branches\\.*: [^\n]*" branches "${s}${s2}")
  if(NOT lines)
    set(lines "no data")
  endif()
  string(APPEND summary "  ${a}/: ${lines}; ${branches}\n")
endforeach()
set(suite_patterns "")
foreach(a IN LISTS areas)
  list(APPEND suite_patterns "${SOURCE}/${a}/*")
endforeach()
run("lcov --extract suite" ${LCOV} ${quiet} --extract "${out}/all.info" ${suite_patterns} --output-file "${out}/suite.info")
run("genhtml suite" ${GENHTML} --quiet --branch-coverage --legend --title "ngcc-ctest suite"
  "${out}/suite.info" --output-directory "${out}/suite")
message("ngcc: coverage of the suite's own code (line and branch), tests exit code ${test_rc}:\n${summary}"
  "ngcc: coverage report: ${out}/suite/index.html")

if(SUBMISSIONS)
  # everything else that ran: the submissions' sources (fixtures/ or external trees)
  run("lcov --remove suite" ${LCOV} ${quiet} --remove "${out}/all.info" ${suite_patterns} "${SOURCE}/cmake/*"
    --output-file "${out}/submissions.info")
  execute_process(COMMAND ${LCOV} --summary "${out}/submissions.info" OUTPUT_VARIABLE s ERROR_VARIABLE s2)
  string(REGEX MATCH "lines\\.*: [^\n]*" lines "${s}${s2}")
  run("genhtml submissions" ${GENHTML} --quiet --branch-coverage --legend --title "ngcc-ctest: submission code"
    "${out}/submissions.info" --output-directory "${out}/submissions")
  message("ngcc: coverage of the submissions' code reached by the tests: ${lines}\n"
    "ngcc: coverage report: ${out}/submissions/index.html (lines never run by the KAT/security tests are red)")
endif()

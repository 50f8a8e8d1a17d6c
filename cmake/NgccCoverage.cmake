# Coverage with lcov/genhtml (the "coverage" presets set NGCC_COVERAGE=ON).
#   NGCC_COVERAGE=ON              --coverage -O0 -g on the suite's own code (iccs/, harness/,
#                                 tools/, tests/): every target of this project
#   NGCC_COVERAGE_SUBMISSIONS=ON  also --coverage on the instance libraries, so a submitter
#                                 sees which lines of the scheme the KAT and security tests
#                                 never reach
# The report: cmake --build <build> --target coverage (zeroes the counters, runs ctest
# without the timing labels, captures, prints the per-area line coverage and the paths of
# <build>/coverage/suite/index.html and, with submissions, <build>/coverage/submissions/).
# Coverage builds never feed perf thresholds: their perf and bench tests are disabled. Their
# sandboxed children write gcov counters under <build>/gcov-sandboxed (GCOV_PREFIX) and nowhere else.
option(NGCC_COVERAGE "Instrument the suite's own code for lcov" OFF)
option(NGCC_COVERAGE_SUBMISSIONS "With NGCC_COVERAGE: instrument the instance libraries too" OFF)
set(NGCC_COVERAGE_LABELS "" CACHE STRING
  "Labels run by the coverage target (;-list, e.g. unit;kat;security); empty: all but perf, bench and slow")

if(NOT NGCC_COVERAGE)
  if(NGCC_COVERAGE_SUBMISSIONS)
    message(WARNING "ngcc: NGCC_COVERAGE_SUBMISSIONS needs NGCC_COVERAGE=ON; ignored")
  endif()
  return()
endif()
if(NOT CMAKE_C_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "ngcc: NGCC_COVERAGE needs GCC (gcov data for lcov); the compiler is ${CMAKE_C_COMPILER_ID}")
endif()
find_program(NGCC_LCOV lcov)
find_program(NGCC_GENHTML genhtml)
if(NOT NGCC_LCOV OR NOT NGCC_GENHTML)
  message(FATAL_ERROR "ngcc-ctest: lcov/genhtml not found. Install them with: apt-get install lcov")
endif()

add_compile_options(--coverage -O0 -g)
add_link_options(--coverage)
# Risky calls run in forked children that end with _exit(), which skips gcov's
# exit-time dump: every executable gets an _exit wrapper that dumps first.
add_library(ngcc_coverage_flush STATIC ${CMAKE_CURRENT_LIST_DIR}/NgccCoverageFlush.c)
target_link_libraries(ngcc_coverage_flush PUBLIC ${CMAKE_DL_LIBS})
link_libraries(ngcc_coverage_flush)
add_link_options(LINKER:--wrap=_exit LINKER:--undefined=__wrap__exit)

function(ngcc_coverage_finish)
  # coverage builds never feed perf thresholds
  get_property(tests DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TESTS)
  foreach(t IN LISTS tests)
    # The children's sandbox (harness/ngcc_sandbox.c) allows writes only in their scratch
    # folder: their gcov counters go to one extra folder (GCOV_PREFIX) that the sandbox lets
    # them write, nothing else of the build tree (NgccCoverageRun.cmake pairs them with the .gcno).
    set_property(TEST "${t}" APPEND PROPERTY ENVIRONMENT
      "GCOV_PREFIX=${NGCC_GCOV_PREFIX}" "NGCC_SANDBOX_WRITABLE=${NGCC_GCOV_PREFIX}")
    get_test_property("${t}" LABELS labels)
    if(labels MATCHES "(^|;)(perf|bench)(;|$)")
      set_tests_properties("${t}" PROPERTIES DISABLED TRUE)
    endif()
    if(NGCC_COVERAGE_SUBMISSIONS AND labels MATCHES "(^|;)build(;|$)")
      # read by cmake/instance/NgccInstanceLibrary.cmake
      set_property(TEST "${t}" APPEND PROPERTY ENVIRONMENT "NGCC_INSTANCE_COVERAGE_FLAGS=--coverage")
    endif()
  endforeach()
endfunction()
set(NGCC_GCOV_PREFIX ${CMAKE_BINARY_DIR}/gcov-sandboxed)
file(MAKE_DIRECTORY ${NGCC_GCOV_PREFIX}) # the sandbox can only allow a folder that exists
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL ngcc_coverage_finish)

add_custom_target(coverage
  COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR} -DSOURCE=${CMAKE_SOURCE_DIR}
    -DLCOV=${NGCC_LCOV} -DGENHTML=${NGCC_GENHTML} -DCTEST=${CMAKE_CTEST_COMMAND} -DPREFIX=${NGCC_GCOV_PREFIX}
    "-DLABELS=${NGCC_COVERAGE_LABELS}" -DSUBMISSIONS=${NGCC_COVERAGE_SUBMISSIONS}
    -P ${CMAKE_CURRENT_LIST_DIR}/NgccCoverageRun.cmake
  USES_TERMINAL VERBATIM
  COMMENT "Coverage: zero counters, run ctest, capture with lcov, render with genhtml")
message(STATUS "ngcc: coverage build (lcov); report: cmake --build ${CMAKE_BINARY_DIR} --target coverage")

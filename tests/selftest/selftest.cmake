# Helpers of the suite's own selftests (tests/selftest/<label>.cmake). The
# production modules (cmake/Ngcc*Tests.cmake) register tests for whatever was
# discovered and name no fixture; the selftests here name the fixtures they
# prove a check on, and read their expectations from the fixture's ngcc.json
# ("selftest": {...} of the instance or variant, "expect" for verdicts).
#
# They are registered when the bundled fixtures are evaluated (NGCC_SUBMISSIONS
# empty, or naming the fixtures/ folder itself). Then a fixture or a selftest
# entry that is missing is a failing test that says so, never a test that
# silently disappears.
set(NGCC_SELFTEST_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(ngcc_selftests_wanted out)
  set(r FALSE)
  if(NOT NGCC_SUBMISSIONS)
    set(r TRUE)
  endif()
  foreach(s IN LISTS NGCC_SUBMISSIONS)
    get_filename_component(s "${s}" ABSOLUTE BASE_DIR "${PROJECT_SOURCE_DIR}")
    if(s STREQUAL "${PROJECT_SOURCE_DIR}/fixtures")
      set(r TRUE)
    endif()
  endforeach()
  set(${out} ${r} PARENT_SCOPE)
endfunction()

# A test <name> that fails with the one-line message msg.
function(ngcc_selftest_fail name msg)
  if(TEST "${name}")
    return()
  endif()
  add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} "-DMSG=${msg}" -P ${NGCC_SELFTEST_DIR}/fail.cmake)
  set_tests_properties("${name}" PROPERTIES LABELS "selftest" TIMEOUT 30)
endfunction()

# ngcc_selftest_instance(<test name> <cand>/<key> <out>): the instance number
# of a fixture instance test <test name> needs; if it was not discovered,
# <test name> becomes a failing test naming the fixture and out is empty.
function(ngcc_selftest_instance name item out)
  string(REGEX MATCH "^([^/]+)/(.+)$" ok "${item}")
  ngcc_find_instance("${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}" n)
  if(NOT n STREQUAL "" AND NGCC_SHARD)
    # a shard build registers the tests of its own instances only: a selftest
    # on an instance of another shard is that shard's (or an unsharded build's)
    ngcc_shard_selected(${n} here)
    if(NOT here)
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
  endif()
  if(n STREQUAL "")
    ngcc_selftest_fail("${name}" "fixture ${item} not found: ${name} needs it (fixtures/${CMAKE_MATCH_1} \
renamed, removed or not discovered; restore it or update tests/selftest/)")
  endif()
  set(${out} "${n}" PARENT_SCOPE)
endfunction()

# ngcc_selftest_data(<test name> <instance n> <entry> <out>): "selftest":
# {"<entry>": ...} of the instance's ngcc.json; if absent, <test name> becomes
# a failing test naming the file and the entry, and out is empty.
function(ngcc_selftest_data name n entry out)
  ngcc_iget(${n} selftest_${entry} v)
  if("${v}" STREQUAL "")
    ngcc_iget(${n} id id)
    ngcc_iget(${n} key key)
    ngcc_iget(${n} tree tree)
    ngcc_selftest_fail("${name}" "fixture ${id}/${key}: ${tree}/ngcc.json has no \"selftest\": {\"${entry}\": ...} \
for this instance; add it (${name} reads it)")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# One file per label; each defines ngcc_add_<label>_selftests().
set(NGCC_SELFTEST_LABELS kat prof perf resume icount ct bench quirk readme)
set(NGCC_SELFTEST_SCRATCH_LABELS prof perf resume icount bench)
foreach(l IN LISTS NGCC_SELFTEST_LABELS)
  include(${NGCC_SELFTEST_DIR}/${l}.cmake)
endforeach()

# Called after every instance's tests are registered (NgccInstanceTests.cmake).
function(ngcc_add_selftests)
  ngcc_selftests_wanted(wanted)
  if(NOT wanted)
    message(STATUS "ngcc: NGCC_SUBMISSIONS does not include fixtures/: the fixture selftests are not registered")
    return()
  endif()
  foreach(l IN LISTS NGCC_SELFTEST_LABELS)
    get_property(before DIRECTORY PROPERTY TESTS)
    cmake_language(CALL ngcc_add_${l}_selftests)
    # those that run a driver on the library directly get a scratch folder of
    # their own, as instance tests do (the others run scripts or a nested ctest)
    if(l IN_LIST NGCC_SELFTEST_SCRATCH_LABELS)
      ngcc_give_scratch("${before}")
    endif()
  endforeach()
endfunction()

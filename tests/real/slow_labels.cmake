# selftest/slow-labels (cmake -P): the "slow_labels" override marks exactly
# the tests of the labels it names with the label slow (which the ci preset
# leaves out), and nothing else of the instance: fxq-slow/SLOWKG-128 names
# security and katx, fxq-runtime/SLOW-128 perf and katx; their kat tests (the
# class 21 budget cases) keep running everywhere. Read from ctest -N.
# -D inputs: BUILD CTEST
cmake_minimum_required(VERSION 3.25)
# the names of "Test #N: <name>" lines of a ctest -N listing
function(listed out)
  execute_process(COMMAND "${CTEST}" --test-dir "${BUILD}" -N ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ngcc: verdict selftest slow-labels: ERROR: ctest -N ${ARGN} failed (${rc}): ${err}")
  endif()
  string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" lines "${text}")
  list(TRANSFORM lines REPLACE "^Test +#[0-9]+: " "")
  set(${out} "${lines}" PARENT_SCOPE)
endfunction()
listed(all)
# -FA: no fixture setup tests added to the listing, only those labelled slow
listed(slow -L "^slow$" -FA ".*")
set(errors "")
foreach(t security/fxq-slow/SLOWKG-128 security-asan/fxq-slow/SLOWKG-128 selftest/quirk-security-slow
          perf/fxq-runtime/SLOW-128/keygen mem/fxq-runtime/SLOW-128/sign sizes/fxq-runtime/SLOW-128)
  if(NOT t IN_LIST all)
    string(APPEND errors "  - ${t} is not registered\n")
  elseif(NOT t IN_LIST slow)
    string(APPEND errors "  - ${t} lacks the label slow\n")
  endif()
endforeach()
foreach(t kat/fxq-slow/SLOWKG-128 memcheck/fxq-slow/SLOWKG-128 ct/fxq-slow/SLOWKG-128 build/fxq-slow/SLOWKG-128
          kat/fxq-runtime/SLOW-128 ct/fxq-runtime/SLOW-128 icount/fxq-runtime/SLOW-128/keygen
          kat/fxq-runtime/VAR-128 security/fx-wots/WOTS-128)
  if(t IN_LIST slow)
    string(APPEND errors "  - ${t} has the label slow; its instance's \"slow_labels\" do not name its label\n")
  endif()
endforeach()
if(errors)
  message(FATAL_ERROR "ngcc: verdict selftest slow-labels: FAIL\n${errors}")
endif()
list(LENGTH slow ns)
message("ngcc: verdict selftest slow-labels: PASS: ${ns} tests labelled slow; the named labels of fxq-slow/SLOWKG-128 and fxq-runtime/SLOW-128 are, their kat, memcheck, ct and icount tests are not")

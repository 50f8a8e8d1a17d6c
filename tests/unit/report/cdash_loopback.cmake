# The cdash test: runs tools/ngcc-dashboard.cmake (ctest -S) on the tiny
# project in cdash_project/ with labels kat;perf, submitting to
# ngcc-cdash-receiver on 127.0.0.1, then checks what arrived: the parts
# (Configure, Build, Test, Done), their checksums, the model in the file
# names, the selected tests only, and the measurement names and values.
#
# -D inputs: RECEIVER CTEST DASHBOARD PROJECT WORK
#            [LABELS (default kat;perf)] [EXPECT_ERRORS: ;-list of the exact
#            check failures expected, to prove that the checks can fail]
cmake_minimum_required(VERSION 3.25)
if(NOT LABELS)
  set(LABELS "kat;perf")
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(rx "${WORK}/received")
execute_process(
  COMMAND "${RECEIVER}" --out "${rx}" --timeout 120 --
    "${CTEST}" -DNGCC_DASHBOARD_MODEL=Experimental "-DNGCC_DASHBOARD_LABELS=${LABELS}"
    "-DNGCC_DASHBOARD_SOURCE=${PROJECT}" "-DNGCC_DASHBOARD_BUILD=${WORK}/build"
    -DNGCC_DASHBOARD_SITE=loopback -DNGCC_DASHBOARD_BUILD_NAME=cdash-selftest
    -S "${DASHBOARD}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
set(errors "")
set(failed "")
# check(<message> <condition...>): records the message when the condition is false
macro(check what)
  if(NOT (${ARGN}))
    string(APPEND errors "  - ${what}\n")
    list(APPEND failed "${what}")
  endif()
endmacro()
check("ctest -S with the receiver exited with ${rc}" rc EQUAL 0)

file(READ "${rx}/requests.log" log)
message("received:\n${log}")
foreach(part Configure Build Test Done)
  file(GLOB f "${rx}/loopback___cdash-selftest___*-Experimental___XML___${part}.xml")
  check("no ${part}.xml arrived (expected a file named loopback___cdash-selftest___<stamp>-Experimental___XML___${part}.xml)" f)
endforeach()
check("an upload arrived truncated or with a wrong MD5" NOT log MATCHES " ERROR ")
check("uploads are not HTTP PUT requests" log MATCHES "^PUT ")

file(GLOB test_xml "${rx}/*___XML___Test.xml")
if(test_xml)
  file(READ "${test_xml}" t)
  check("Test.xml lacks the kat test" t MATCHES "<Name>kat/fx-demo/DEMO-128</Name>")
  check("Test.xml lacks the perf test" t MATCHES "<Name>perf/fx-demo/DEMO-128/sign</Name>")
  check("Test.xml has the security test although only kat and perf were selected" NOT t MATCHES "<Name>security/fx-demo/DEMO-128</Name>")
  foreach(m "records_match;10" "median_cycles;37078728" "mean_ns;14310000.5")
    list(GET m 0 name)
    list(GET m 1 value)
    string(REGEX MATCH "name=\"${name}\"[^>]*>[ \t\r\n]*<Value>([^<]*)</Value>" hit "${t}")
    check("measurement ${name} missing or not ${value} in Test.xml (got '${CMAKE_MATCH_1}')" hit AND CMAKE_MATCH_1 STREQUAL "${value}")
  endforeach()
  check("Test.xml lacks the test labels" t MATCHES "<Label>kat</Label>")
endif()

if(DEFINED EXPECT_ERRORS)
  # negative run: exactly the expected checks must fail
  if(NOT failed STREQUAL EXPECT_ERRORS)
    message(FATAL_ERROR "ngcc: cdash loopback (negative): expected exactly these failed checks:\n"
      "  ${EXPECT_ERRORS}\ngot:\n${errors}")
  endif()
  message("ngcc: verdict cdash loopback-negative: PASS: with labels ${LABELS} exactly the expected checks failed:\n${errors}")
  return()
endif()
if(errors)
  message(FATAL_ERROR "ngcc: cdash loopback: FAIL\n${errors}")
endif()
message("ngcc: verdict cdash loopback: PASS: Configure, Build, Test and Done arrived with matching MD5; "
  "Test.xml holds exactly the kat and perf tests and their measurements")

# selftest/shard/cdash: a campaign of two shards submitted to one dashboard.
# tools/ngcc-dashboard.cmake runs twice on the tiny project of
# tests/unit/report/cdash_project (NGCC_DASHBOARD_SHARD=1/2, then 2/2, labels
# kat;perf), both submitting to one ngcc-cdash-receiver on 127.0.0.1; then the
# arrivals are checked: two builds (build names ...-shard-1of2 and -2of2) of
# one site and one build group, each with Configure, Build, Test and Done; each
# shard's Test.xml holds its own tests only, together exactly the kat and perf
# tests with their labels and measurements. A bad shard value must stop the
# script with a one-line error naming NGCC_DASHBOARD_SHARD.
#
# -D inputs: RECEIVER CTEST DASHBOARD PROJECT WORK   (RUN_SHARDS: internal)
cmake_minimum_required(VERSION 3.25)
if(RUN_SHARDS)
  # the receiver's command: both shards, one after the other, to the same receiver
  foreach(k 1 2)
    execute_process(COMMAND "${CTEST}" -DNGCC_DASHBOARD_MODEL=Experimental "-DNGCC_DASHBOARD_LABELS=kat;perf"
      "-DNGCC_DASHBOARD_SOURCE=${PROJECT}" "-DNGCC_DASHBOARD_BUILD=${WORK}/build-${k}"
      -DNGCC_DASHBOARD_SITE=loopback -DNGCC_DASHBOARD_BUILD_NAME=cdash-selftest -DNGCC_DASHBOARD_SHARD=${k}/2
      -S "${DASHBOARD}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "shard ${k}/2: ctest -S exited with ${rc}")
    endif()
  endforeach()
  return()
endif()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(rx "${WORK}/received")
execute_process(COMMAND "${RECEIVER}" --out "${rx}" --timeout 140 --
    "${CMAKE_COMMAND}" -DRUN_SHARDS=ON "-DCTEST=${CTEST}" "-DPROJECT=${PROJECT}" "-DWORK=${WORK}"
    "-DDASHBOARD=${DASHBOARD}" -P "${CMAKE_CURRENT_LIST_FILE}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
set(errors "")
macro(check what)
  if(NOT (${ARGN}))
    string(APPEND errors "  - ${what}\n")
  endif()
endmacro()
check("the two shard submissions exited with ${rc}" rc EQUAL 0)
file(READ "${rx}/requests.log" log)
check("an upload arrived truncated or with a wrong MD5" NOT log MATCHES " ERROR ")
set(groups "")
set(sites "")
foreach(k 1 2)
  set(b "cdash-selftest-shard-${k}of2")
  foreach(part Configure Build Test Done)
    file(GLOB f "${rx}/*___${b}___*___XML___${part}.xml")
    check("shard ${k}/2: no ${part}.xml of build ${b} arrived" f)
  endforeach()
  file(GLOB f "${rx}/*___${b}___*___XML___Test.xml")
  if(f)
    get_filename_component(n "${f}" NAME)
    string(REGEX MATCH "^(.*)___${b}___[0-9]+-[0-9]+-(.*)___XML___Test.xml$" m "${n}")
    list(APPEND sites "${CMAKE_MATCH_1}")
    list(APPEND groups "${CMAKE_MATCH_2}")
    file(READ "${f}" t_${k})
    check("shard ${k}/2: Test.xml does not carry the build name ${b}" t_${k} MATCHES "BuildName=\"${b}\"")
  endif()
endforeach()
list(REMOVE_DUPLICATES groups)
list(REMOVE_DUPLICATES sites)
list(LENGTH groups ng)
check("the shards arrived in ${ng} build groups (${groups}), not one" ng EQUAL 1)
check("the shards arrived from sites '${sites}', not the one site loopback" sites STREQUAL "loopback")
check("shard 1/2 lacks the kat test" t_1 MATCHES "<Name>kat/fx-demo/DEMO-128</Name>")
check("shard 1/2 also ran the perf test of shard 2/2" NOT t_1 MATCHES "<Name>perf/fx-demo/DEMO-128/sign</Name>")
check("shard 2/2 lacks the perf test" t_2 MATCHES "<Name>perf/fx-demo/DEMO-128/sign</Name>")
check("shard 2/2 also ran the kat test of shard 1/2" NOT t_2 MATCHES "<Name>kat/fx-demo/DEMO-128</Name>")
set(t_all "${t_1}${t_2}")
check("the security test arrived although only kat and perf were selected"
  NOT t_all MATCHES "<Name>security/fx-demo/DEMO-128</Name>")
foreach(m "1;records_match;10" "2;median_cycles;37078728" "2;mean_ns;14310000.5")
  list(GET m 0 k)
  list(GET m 1 name)
  list(GET m 2 value)
  string(REGEX MATCH "name=\"${name}\"[^>]*>[ \t\r\n]*<Value>([^<]*)</Value>" hit "${t_${k}}")
  check("shard ${k}/2: measurement ${name} missing or not ${value} (got '${CMAKE_MATCH_1}')"
    hit AND CMAKE_MATCH_1 STREQUAL "${value}")
endforeach()
check("shard 1/2 lacks the kat label" t_1 MATCHES "<Label>kat</Label>")
check("shard 2/2 lacks the perf label" t_2 MATCHES "<Label>perf</Label>")

# a bad shard value: one line naming the variable and the fix, nothing submitted
execute_process(COMMAND "${CTEST}" -DNGCC_DASHBOARD_SHARD=3/2 -DNGCC_DASHBOARD_SUBMIT=OFF
  "-DNGCC_DASHBOARD_SOURCE=${PROJECT}" "-DNGCC_DASHBOARD_BUILD=${WORK}/build-bad" -S "${DASHBOARD}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
check("NGCC_DASHBOARD_SHARD=3/2 was accepted (rc ${rc}): ${o}"
  NOT rc EQUAL 0 AND o MATCHES "NGCC_DASHBOARD_SHARD=3/2 is not K/N" AND o MATCHES "-DNGCC_DASHBOARD_SHARD=2/3")
if(errors)
  message(FATAL_ERROR "ngcc: verdict selftest shard/cdash: FAIL\n${errors}")
endif()
message("ngcc: verdict selftest shard/cdash: PASS: two builds (cdash-selftest-shard-1of2, -2of2) of site loopback "
  "in build group ${groups} arrived with Configure, Build, Test and Done; each holds its own shard's tests, "
  "together the kat and perf tests with their labels and measurements")

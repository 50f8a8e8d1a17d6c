# ngcc-dashboard: a CTest dashboard client (ctest -S) that configures,
# builds and tests the suite, optionally collects coverage and runs memcheck,
# and submits everything to a CDash server.
#
#   ctest -S tools/ngcc-dashboard.cmake [-DNGCC_DASHBOARD_MODEL=Experimental|Nightly|Continuous]
#         [-DNGCC_DASHBOARD_LABELS="kat;security"] [-DNGCC_DASHBOARD_COVERAGE=ON]
#         [-DNGCC_DASHBOARD_MEMCHECK=ON] [-DNGCC_DASHBOARD_SUBMIT=OFF]
#         [-DNGCC_CDASH_URL=https://cdash.example/submit.php?project=ngcc-ctest]
#         [-DNGCC_DASHBOARD_BUILD=<dir>] [-DNGCC_DASHBOARD_SOURCE=<dir>]
#         [-DNGCC_DASHBOARD_SITE=<name>] [-DNGCC_DASHBOARD_BUILD_NAME=<name>]
#         [-DNGCC_DASHBOARD_CONFIGURE_OPTIONS="-DNGCC_SUBMISSIONS=/path/a;-DX=Y"]
#         [-DNGCC_DASHBOARD_SHARD=K/N] [-DNGCC_DASHBOARD_GROUP=<build group>]
#
# Shards: with NGCC_DASHBOARD_SHARD=K/N the build is configured with
# NGCC_SHARD=K/N (that part of the instances, cmake/NgccShard.cmake) and
# submitted as its own build "<build name>-shard-KofN" of the build group
# NGCC_DASHBOARD_GROUP (default: the model's group), site = this machine, so the N
# shards of one campaign appear side by side in one group of the dashboard,
# with the same labels and measurements as an unsharded build.
#
# Default labels per model: Continuous runs kat;security (quick, on every
# change), Nightly and Experimental run every label (perf included: timing
# tests are RUN_SERIAL, so the parallel level does not disturb them).
# The submit URL comes from NGCC_CDASH_URL (variable or environment), else
# from CTestConfig.cmake. The script fails when the submission fails.
cmake_minimum_required(VERSION 3.25)

macro(ngcc_default var value)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    set(${var} "${value}")
  endif()
endmacro()

get_filename_component(_src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
ngcc_default(NGCC_DASHBOARD_MODEL Experimental)
if(NOT NGCC_DASHBOARD_MODEL MATCHES "^(Experimental|Nightly|Continuous)$")
  message(FATAL_ERROR "ngcc-dashboard: NGCC_DASHBOARD_MODEL=${NGCC_DASHBOARD_MODEL}: use Experimental, Nightly or Continuous")
endif()
if(NGCC_DASHBOARD_MODEL STREQUAL "Continuous")
  ngcc_default(NGCC_DASHBOARD_LABELS "kat;security")
endif()
ngcc_default(NGCC_DASHBOARD_SOURCE "${_src}")
string(TOLOWER "${NGCC_DASHBOARD_MODEL}" _model)
ngcc_default(NGCC_DASHBOARD_BUILD "${NGCC_DASHBOARD_SOURCE}/build/dashboard-${_model}")
cmake_host_system_information(RESULT _host QUERY HOSTNAME)
ngcc_default(NGCC_DASHBOARD_SITE "${_host}")
ngcc_default(NGCC_DASHBOARD_BUILD_NAME "${CMAKE_SYSTEM_NAME}-${CMAKE_HOST_SYSTEM_PROCESSOR}-ngcc")
ngcc_default(NGCC_DASHBOARD_SUBMIT ON)
ngcc_default(NGCC_DASHBOARD_GROUP "${NGCC_DASHBOARD_MODEL}")
if(DEFINED NGCC_DASHBOARD_SHARD AND NOT NGCC_DASHBOARD_SHARD STREQUAL "")
  if(NOT NGCC_DASHBOARD_SHARD MATCHES "^([0-9]+)/([0-9]+)$" OR CMAKE_MATCH_1 LESS 1 OR CMAKE_MATCH_2 LESS 1
     OR CMAKE_MATCH_1 GREATER CMAKE_MATCH_2)
    message(FATAL_ERROR "ngcc-dashboard: NGCC_DASHBOARD_SHARD=${NGCC_DASHBOARD_SHARD} is not K/N with 1 <= K <= N; "
      "use e.g. -DNGCC_DASHBOARD_SHARD=2/3")
  endif()
  string(APPEND NGCC_DASHBOARD_BUILD_NAME "-shard-${CMAKE_MATCH_1}of${CMAKE_MATCH_2}")
else()
  set(NGCC_DASHBOARD_SHARD "")
endif()

set(CTEST_SOURCE_DIRECTORY "${NGCC_DASHBOARD_SOURCE}")
set(CTEST_BINARY_DIRECTORY "${NGCC_DASHBOARD_BUILD}")
set(CTEST_SITE "${NGCC_DASHBOARD_SITE}")
set(CTEST_BUILD_NAME "${NGCC_DASHBOARD_BUILD_NAME}")
find_program(_ninja ninja)
if(_ninja)
  set(CTEST_CMAKE_GENERATOR Ninja)
else()
  set(CTEST_CMAKE_GENERATOR "Unix Makefiles")
endif()
set(CTEST_BUILD_FLAGS -j2)

# Project name and submit URL: CTestConfig.cmake, then NGCC_CDASH_URL.
include("${CTEST_SOURCE_DIRECTORY}/CTestConfig.cmake" OPTIONAL)
ngcc_default(CTEST_PROJECT_NAME ngcc-ctest)
ngcc_default(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")
if(DEFINED NGCC_CDASH_URL AND NOT NGCC_CDASH_URL STREQUAL "")
  set(CTEST_SUBMIT_URL "${NGCC_CDASH_URL}")
elseif(DEFINED ENV{NGCC_CDASH_URL})
  set(CTEST_SUBMIT_URL "$ENV{NGCC_CDASH_URL}")
endif()

# NGCC_SHARD is always passed, so a reused build folder drops an earlier shard choice
set(_opts -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DNGCC_SHARD=${NGCC_DASHBOARD_SHARD}" ${NGCC_DASHBOARD_CONFIGURE_OPTIONS})
if(NGCC_DASHBOARD_COVERAGE)
  # coverage builds never feed perf thresholds: NgccCoverage disables the perf tests
  set(_opts -DCMAKE_BUILD_TYPE=Debug -DNGCC_COVERAGE=ON "-DNGCC_SHARD=${NGCC_DASHBOARD_SHARD}"
    ${NGCC_DASHBOARD_CONFIGURE_OPTIONS})
  find_program(CTEST_COVERAGE_COMMAND gcov)
endif()
if(NGCC_DASHBOARD_MEMCHECK)
  find_program(CTEST_MEMORYCHECK_COMMAND valgrind)
  set(CTEST_MEMORYCHECK_COMMAND_OPTIONS "--error-exitcode=99 --track-origins=yes --leak-check=no")
  if(EXISTS "${CTEST_SOURCE_DIRECTORY}/tests/security/valgrind.supp")
    set(CTEST_MEMORYCHECK_SUPPRESSIONS_FILE "${CTEST_SOURCE_DIRECTORY}/tests/security/valgrind.supp")
  endif()
endif()

set(_include "")
if(NGCC_DASHBOARD_LABELS)
  string(REPLACE ";" "|" _alt "${NGCC_DASHBOARD_LABELS}")
  set(_include INCLUDE_LABEL "^(${_alt})$")
endif()
if(NOT NGCC_DASHBOARD_LABELS)
  set(NGCC_DASHBOARD_LABELS "(all)")
endif()
set(_shard_text "")
if(NGCC_DASHBOARD_SHARD)
  set(_shard_text ", shard ${NGCC_DASHBOARD_SHARD} as build ${CTEST_BUILD_NAME} of group ${NGCC_DASHBOARD_GROUP}")
endif()
message("ngcc-dashboard: ${NGCC_DASHBOARD_MODEL} of ${CTEST_SOURCE_DIRECTORY} in ${CTEST_BINARY_DIRECTORY}, "
  "labels: ${NGCC_DASHBOARD_LABELS}${_shard_text}")

ctest_start(${NGCC_DASHBOARD_MODEL} GROUP "${NGCC_DASHBOARD_GROUP}")
ctest_configure(OPTIONS "${_opts}" RETURN_VALUE _rc)
if(NOT _rc EQUAL 0)
  message("ngcc-dashboard: configure failed (rc ${_rc}); submitting what there is")
else()
  # CTestCustom.cmake: on shards 2..N the tests of no instance are left to shard 1
  ctest_read_custom_files("${CTEST_BINARY_DIRECTORY}")
  ctest_build(RETURN_VALUE _rc NUMBER_ERRORS _nerr)
  ctest_test(${_include} PARALLEL_LEVEL 2 RETURN_VALUE _trc)
  if(NGCC_DASHBOARD_COVERAGE)
    ctest_coverage()
  endif()
  if(NGCC_DASHBOARD_MEMCHECK)
    ctest_memcheck(${_include} PARALLEL_LEVEL 2)
  endif()
endif()
if(NGCC_DASHBOARD_SUBMIT)
  if(NOT CTEST_SUBMIT_URL)
    message(FATAL_ERROR "ngcc-dashboard: no submit URL: set NGCC_CDASH_URL (variable or environment) "
      "or -DNGCC_DASHBOARD_SUBMIT=OFF")
  endif()
  ctest_submit(RETRY_COUNT 2 RETRY_DELAY 5 RETURN_VALUE _src)
  if(NOT _src EQUAL 0)
    message(FATAL_ERROR "ngcc-dashboard: submission to ${CTEST_SUBMIT_URL} failed")
  endif()
  message("ngcc-dashboard: submitted to ${CTEST_SUBMIT_URL}")
endif()

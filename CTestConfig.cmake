# CDash submission settings. The submit URL comes from the cache variable or
# environment variable NGCC_CDASH_URL (HTTP(S) only), so evaluators point the
# suite at their own dashboard without editing this file.
set(CTEST_PROJECT_NAME "ngcc-ctest")
set(CTEST_NIGHTLY_START_TIME "01:00:00 UTC")
if(DEFINED NGCC_CDASH_URL AND NOT NGCC_CDASH_URL STREQUAL "")
  set(CTEST_SUBMIT_URL "${NGCC_CDASH_URL}")
elseif(DEFINED ENV{NGCC_CDASH_URL})
  set(CTEST_SUBMIT_URL "$ENV{NGCC_CDASH_URL}")
else()
  # placeholder: no dashboard is assumed here (ctest -L cdash tests against a loopback receiver)
  set(CTEST_SUBMIT_URL "http://127.0.0.1:8080/submit.php?project=ngcc-ctest")
endif()
set(CTEST_DROP_SITE_CDASH TRUE)

# selftest/readme-tools and selftest/readme-campaign (cmake -P): the commands
# README.md shows, run as written, on the bundled fixtures. Each command's
# text is first looked up in README.md, so a README edit that changes a
# command without changing this script (or the reverse) fails here.
# -D inputs: SRC (source tree), BUILD (build tree), WORK (scratch folder),
#            PART (tools|campaign)
cmake_minimum_required(VERSION 3.25)
file(READ "${SRC}/README.md" readme)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/record_expect.cmake") # fail(), ok()

# the README must show this command text literally
function(documented text)
  string(FIND "${readme}" "${text}" at)
  if(at LESS 0)
    fail("README.md no longer shows '${text}': update README.md or tests/real/readme_commands.cmake")
  else()
    message("ok   README shows '${text}'")
  endif()
  set(failures ${failures} PARENT_SCOPE)
endfunction()

# runs a command; it must exit 0 and its output must match every regex given
# after EXPECT
function(run what)
  cmake_parse_arguments(R "" "" "COMMAND;EXPECT" ${ARGN})
  execute_process(COMMAND ${R_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  file(WRITE "${WORK}/${what}.log" "${out}")
  if(NOT rc EQUAL 0)
    fail("${what}: exit ${rc}, log ${WORK}/${what}.log")
  else()
    foreach(rx IN LISTS R_EXPECT)
      if(NOT out MATCHES "${rx}")
        fail("${what}: output does not match '${rx}' (log ${WORK}/${what}.log)")
      endif()
    endforeach()
    message("ok   ${what}")
  endif()
  set(failures ${failures} PARENT_SCOPE)
endfunction()

set(wots "${SRC}/fixtures/fx-wots/API_PKC/Test_Vector/KAT_SIG_WOTS_128.txt")

if(PART STREQUAL "tools")
  # KAT digests: write, then update with a reduced nolen line
  documented("<build>/tools/ngcc-manifest [--update kat.sha256] [--mode nolen] [--records N] <label>/<file>=<path>")
  file(WRITE "${WORK}/kat.sha256" "")
  run(manifest-write COMMAND "${BUILD}/tools/ngcc-manifest" --update "${WORK}/kat.sha256"
    "WOTS-128/KAT_SIG_WOTS_128.txt=${wots}")
  file(STRINGS "${WORK}/kat.sha256" lines)
  if(NOT lines MATCHES "^[0-9a-f]+ strict WOTS-128/KAT_SIG_WOTS_128\\.txt$")
    fail("ngcc-manifest --update: wanted one strict line, got '${lines}'")
  endif()
  # an update replaces the file's line
  run(manifest-update COMMAND "${BUILD}/tools/ngcc-manifest" --update "${WORK}/kat.sha256"
    --mode nolen --records 5 "WOTS-128/KAT_SIG_WOTS_128.txt=${wots}")
  file(STRINGS "${WORK}/kat.sha256" lines)
  if(NOT lines MATCHES "^[0-9a-f]+ nolen:5 WOTS-128/KAT_SIG_WOTS_128\\.txt$")
    fail("ngcc-manifest --update --mode nolen --records 5: wanted one nolen:5 line, got '${lines}'")
  endif()

  # report pages from the records of this build tree
  documented("<build>/tools/report/ngcc-report --records <build>/records")
  run(report COMMAND "${BUILD}/tools/report/ngcc-report" --records "${BUILD}/records" --out "${WORK}/report")
  foreach(page index.html index.md)
    if(NOT EXISTS "${WORK}/report/${page}")
      fail("ngcc-report wrote no ${page}")
    endif()
  endforeach()

  # benchmark of the suite itself
  documented("cmake -DBUILD=<build> -DCAND=fx-wots -DINST=WOTS-192 -P tools/bench/kat-overhead.cmake")
  run(kat-overhead COMMAND ${CMAKE_COMMAND} -DBUILD=${BUILD} -DCAND=fx-wots -DINST=WOTS-192 -DREPEAT=3
    -P "${SRC}/tools/bench/kat-overhead.cmake" EXPECT "[Rr]atio")
elseif(PART STREQUAL "campaign")
  # the campaign command on one small tree, default labels: configure, build,
  # kat, security, memcheck, ct, prof, perf, icount, system record, report, summary
  documented("cmake -P tools/ngcc-campaign.cmake -DSUBMISSIONS=")
  # (the perf gates get the ci preset's tolerance: this runs beside other tests)
  set(campaign ${CMAKE_COMMAND} -DBUILD_DIR=${WORK}/build "-DSUBMISSIONS=${SRC}/fixtures/fx-xkem"
    -DCONFIGURE_OPTIONS=-DNGCC_PERF_TOLERANCE=0.75 -P "${SRC}/tools/ngcc-campaign.cmake")
  run(campaign COMMAND ${campaign}
    EXPECT "plan: kat [1-9][0-9]*, security [1-9][0-9]*, memcheck [1-9][0-9]*, ct [1-9][0-9]*, prof [1-9][0-9]*, perf [1-9][0-9]*, icount [1-9][0-9]*"
           "ngcc campaign verdicts" "not PASS, unexpected:\n  none\n" "ngcc campaign report: .*index\\.html")
  if(NOT EXISTS "${WORK}/build/report/index.html")
    fail("the campaign wrote no report/index.html")
  endif()
  # a rerun keeps every finished record whose inputs are unchanged (the
  # README's promise): the records of the labels that resume keep their bytes
  # and modification times
  file(GLOB_RECURSE kept "${WORK}/build/records/*/build-*.json" "${WORK}/build/records/*/kat.json")
  set(before "")
  foreach(r IN LISTS kept)
    file(TIMESTAMP "${r}" t "%s")
    file(SHA256 "${r}" h)
    list(APPEND before "${r}=${t}:${h}")
  endforeach()
  list(LENGTH kept nkept)
  if(nkept EQUAL 0)
    fail("the campaign wrote no build or kat record")
  endif()
  run(campaign-rerun COMMAND ${campaign} EXPECT "rerunning a finished campaign")
  foreach(item IN LISTS before)
    string(REGEX REPLACE "=[^=]*$" "" r "${item}")
    file(TIMESTAMP "${r}" t "%s")
    file(SHA256 "${r}" h)
    if(NOT item STREQUAL "${r}=${t}:${h}")
      fail("the rerun rewrote ${r} (not resumed)")
    endif()
  endforeach()
  message("ok   the rerun kept ${nkept} build and kat records")
else()
  message(FATAL_ERROR "readme_commands.cmake: PART must be tools or campaign, got '${PART}'")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} README command check(s) failed")
endif()
message("all README command checks passed (${PART})")

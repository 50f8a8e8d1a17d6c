# ngcc-campaign: one command for a whole campaign over the configured
# submissions (default: submissions/* and the bundled fixtures):
#
#   cmake -P tools/ngcc-campaign.cmake [-DBUILD_DIR=build/campaign]
#         [-DSUBMISSIONS=<dir;...>] [-DLABELS=kat;security;memcheck;prof;perf;icount]
#         [-DRESUME=OFF] [-DCMOCKA_XML=OFF] [-DCONFIGURE_OPTIONS=-DX=Y;...]
#   cmake -DSUMMARY_ONLY=ON -DBUILD_DIR=<build> -P tools/ngcc-campaign.cmake
#         (only the verdict summary of <build>/records; runs nothing)
#
# Steps: configure, build, then each label in order (kat, security,
# memcheck, prof, perf, icount; perf alone with -j1; a label without tests is skipped), then the
# system/info record and the report pages. A failing verdict never stops the
# campaign. Progress: each label announces its test count and how many tests
# remain; ctest numbers every test (n/N) and names it (label/candidate/instance).
# Resuming: an interrupted campaign is rerun with the same command. Builds are
# incremental and NGCC_RESUME=1 (the default; -DRESUME=OFF redoes everything)
# makes the drivers reuse every finished record whose inputs are unchanged.
# Outputs under <build>: records/ (JSON, the source of truth), report/index.html
# (and .md), campaign/junit/<label>.xml (ctest --output-junit),
# campaign/cmocka/<label>/<candidate>/<instance>.xml (CMocka XML per group).
cmake_minimum_required(VERSION 3.25)
get_filename_component(src "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT BUILD_DIR)
  set(BUILD_DIR "${src}/build/campaign")
endif()
get_filename_component(BUILD_DIR "${BUILD_DIR}" ABSOLUTE BASE_DIR "${src}")
if(NOT LABELS)
  set(LABELS kat security memcheck ct prof perf icount)
endif()
if(NOT DEFINED RESUME)
  set(RESUME ON)
endif()
if(NOT DEFINED CMOCKA_XML)
  set(CMOCKA_XML ON)
endif()
# ---- summary of verdicts, read back from the records (the source of truth) ----
# PASS, RECORDED and NOBASELINE pass (RECORDED: measured, nothing committed
# to gate against, e.g. prof without an expectation; NOBASELINE: a perf, mem
# or sizes figure without a baseline of this machine class, listed with the
# command that records them); every other verdict is listed,
# as declared (the record's expected verdict) or unexpected. Prof records keep
# their expected verdict in "expected_verdict" ("expected" is the expectation).
function(campaign_summary records)
  file(GLOB_RECURSE recs "${records}/*.json")
  list(SORT recs)
  set(unexpected "")
  set(notpass "")
  set(recorded "")
  set(nrec 0)
  set(nobaseline "")
  set(nnob 0)
  set(kinds "")
  foreach(r IN LISTS recs)
    file(READ "${r}" j)
    string(JSON kind ERROR_VARIABLE e GET "${j}" kind)
    if(e)
      string(APPEND unexpected "  ${r}: unreadable record\n")
      continue()
    endif()
    if(kind MATCHES "^(build|system)$")
      continue()
    endif()
    string(JSON name ERROR_VARIABLE e GET "${j}" name)
    string(JSON verdict ERROR_VARIABLE e GET "${j}" verdict)
    string(JSON expected ERROR_VARIABLE e GET "${j}" expected_verdict)
    if(e)
      string(JSON expected ERROR_VARIABLE e GET "${j}" expected)
      if(e OR NOT expected MATCHES "^[A-Z]+$")
        set(expected PASS)
      endif()
    endif()
    string(JSON op ERROR_VARIABLE e GET "${j}" op)
    if(e OR op STREQUAL "")
      set(op "")
    else()
      set(op " ${op}")
    endif()
    list(APPEND kinds ${kind})
    math(EXPR n_${kind}_${verdict} "${n_${kind}_${verdict}} + 1")
    list(APPEND verdicts_${kind} ${verdict})
    if(verdict STREQUAL "RECORDED" AND expected MATCHES "^(PASS|RECORDED)$")
      string(APPEND recorded " ${name}${op};")
      math(EXPR nrec "${nrec} + 1")
    elseif(verdict STREQUAL "NOBASELINE" AND expected MATCHES "^(PASS|NOBASELINE)$")
      string(APPEND nobaseline " ${kind} ${name}${op};")
      math(EXPR nnob "${nnob} + 1")
    elseif(NOT verdict STREQUAL "PASS")
      if(verdict STREQUAL expected)
        string(APPEND notpass "  ${kind} ${name}${op}: ${verdict} (as expected)\n")
      else()
        string(APPEND unexpected "  ${kind} ${name}${op}: ${verdict}, expected ${expected}\n")
      endif()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES kinds)
  set(counts "")
  foreach(k IN LISTS kinds)
    list(REMOVE_DUPLICATES verdicts_${k})
    set(one "")
    foreach(v IN LISTS verdicts_${k})
      string(APPEND one " ${n_${k}_${v}} ${v}")
    endforeach()
    string(APPEND counts "  ${k}:${one}\n")
  endforeach()
  if(recorded)
    set(recorded "  ${nrec}, no expectation committed (record them with the prof-expect target):${recorded}\n")
  endif()
  if(nobaseline)
    get_filename_component(build "${records}" DIRECTORY)
    set(nobaseline "  ${nnob}, no baseline of this machine class (record them: ctest --test-dir ${build} -L perf && cmake --build ${build} --target perf-baseline):${nobaseline}\n")
  endif()
  foreach(v notpass unexpected recorded nobaseline)
    if(NOT ${v})
      set(${v} "  none\n")
    endif()
  endforeach()
  message("ngcc campaign verdicts (${records}):\n${counts}"
    "RECORDED (passing, nothing to gate against):\n${recorded}"
    "NOBASELINE (passing, no baseline to gate against):\n${nobaseline}"
    "not PASS, as declared for zoo variants and fixtures:\n${notpass}"
    "not PASS, unexpected:\n${unexpected}")
endfunction()

# -DSUMMARY_ONLY=ON: only the summary of an existing build's records
if(SUMMARY_ONLY)
  campaign_summary("${BUILD_DIR}/records")
  return()
endif()

set(state "${BUILD_DIR}/campaign")
string(TIMESTAMP t0 "%s" UTC)

function(step what)
  string(TIMESTAMP now "%H:%M:%S")
  message("[ngcc ${now}] ${what}")
endfunction()

# number of tests ctest would run for these arguments
function(count_tests out)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${BUILD_DIR}" -N ${ARGN}
    OUTPUT_VARIABLE o ERROR_QUIET)
  string(REGEX MATCH "Total Tests: ([0-9]+)" m "${o}")
  set(n 0)
  if(m)
    set(n ${CMAKE_MATCH_1})
  endif()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# ---- configure and build ----
# campaign/started and campaign/finished tell an interrupted campaign from a finished one
file(MAKE_DIRECTORY "${state}")
if(EXISTS "${state}/started" AND NOT EXISTS "${state}/finished")
  file(READ "${state}/started" prev)
  if(RESUME)
    step("resuming the interrupted campaign started ${prev}: finished tests are reused (NGCC_RESUME=1)")
  else()
    step("restarting the interrupted campaign started ${prev} from scratch (RESUME=OFF)")
  endif()
else()
  if(EXISTS "${state}/finished")
    step("rerunning a finished campaign: tests whose inputs did not change are reused (RESUME=${RESUME})")
  endif()
  string(TIMESTAMP now "%Y-%m-%dT%H:%M:%SZ" UTC)
  file(WRITE "${state}/started" "${now}")
  file(REMOVE "${state}/finished")
endif()
set(ENV{NGCC_RESUME} 0)
if(RESUME)
  set(ENV{NGCC_RESUME} 1)
endif()

set(cfg -S "${src}" -B "${BUILD_DIR}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CONFIGURE_OPTIONS})
if(SUBMISSIONS)
  list(APPEND cfg "-DNGCC_SUBMISSIONS=${SUBMISSIONS}")
endif()
step("configure ${BUILD_DIR}")
execute_process(COMMAND ${CMAKE_COMMAND} ${cfg} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ngcc-campaign: configure failed (see above)")
endif()
step("build the harness")
execute_process(COMMAND ${CMAKE_COMMAND} --build "${BUILD_DIR}" -j2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ngcc-campaign: the harness did not build (see above)")
endif()

# ---- plan: tests per label (self-tests of the suite are not part of a campaign) ----
set(select_out -LE "^selftest$")
set(plan "")
set(total 0)
foreach(label IN LISTS LABELS)
  count_tests(n -L "^${label}$" ${select_out})
  set(count_${label} ${n})
  math(EXPR total "${total} + ${n}")
  string(APPEND plan " ${label} ${n},")
endforeach()
list(LENGTH LABELS nlabels)
step("plan:${plan} ${total} tests in ${nlabels} labels (build tests run first as fixtures)")

# CMocka XML per group: CMOCKA_XML_FILE=<dir>/%g.xml puts each group in a
# file named after it; CMocka does not create folders, and the drivers name
# their groups "<candidate>/<instance>[/<op>]", "<label>/<candidate>/...",
# "<label> <candidate>/...", so those folders are made beforehand (a group
# whose folder is missing writes its XML to stderr instead, nothing is lost).
# An existing file would get a second document appended: start empty.
function(prepare_cmocka dir label)
  file(REMOVE_RECURSE "${dir}")
  file(MAKE_DIRECTORY "${dir}")
  file(GLOB cands LIST_DIRECTORIES true "${BUILD_DIR}/records/*")
  foreach(c IN LISTS cands)
    if(NOT IS_DIRECTORY "${c}")
      continue()
    endif()
    get_filename_component(cn "${c}" NAME)
    file(MAKE_DIRECTORY "${dir}/${label} ${cn}" "${dir}/sanitizer ${cn}")
    foreach(prefix "" "${label}/" "mem/" "sizes/")
      file(MAKE_DIRECTORY "${dir}/${prefix}${cn}")
      file(GLOB keys LIST_DIRECTORIES true "${c}/*")
      foreach(k IN LISTS keys)
        if(IS_DIRECTORY "${k}")
          get_filename_component(kn "${k}" NAME)
          file(MAKE_DIRECTORY "${dir}/${prefix}${cn}/${kn}")
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

# ---- the labels ----
set(done 0)
set(i 0)
file(MAKE_DIRECTORY "${state}/junit")
foreach(label IN LISTS LABELS)
  math(EXPR i "${i} + 1")
  set(n ${count_${label}})
  if(n EQUAL 0)
    step("label ${i}/${nlabels} ${label}: no tests registered, skipped")
    continue()
  endif()
  math(EXPR left "${total} - ${done}")
  set(jobs 2)
  if(label STREQUAL "perf")
    set(jobs 1)
  endif()
  step("label ${i}/${nlabels} ${label}: ${n} tests, -j${jobs} (${left} of ${total} campaign tests remaining)")
  if(CMOCKA_XML)
    prepare_cmocka("${state}/cmocka/${label}" ${label})
    set(ENV{CMOCKA_MESSAGE_OUTPUT} xml)
    set(ENV{CMOCKA_XML_FILE} "${state}/cmocka/${label}/%g.xml")
  endif()
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${BUILD_DIR}" -L "^${label}$" ${select_out}
    -j${jobs} --progress --output-junit "${state}/junit/${label}.xml" RESULT_VARIABLE rc)
  unset(ENV{CMOCKA_MESSAGE_OUTPUT})
  unset(ENV{CMOCKA_XML_FILE})
  math(EXPR done "${done} + ${n}")
  if(NOT rc EQUAL 0)
    step("label ${label}: some tests failed (their verdicts are in the records and the report)")
  endif()
endforeach()

# ---- environment record and report ----
step("system/info: the assessment environment")
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${BUILD_DIR}" -L "^system$"
  --output-junit "${state}/junit/system.xml" OUTPUT_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  step("system/info failed: section 2 of the pages will show gaps")
endif()
step("report pages")
file(REMOVE_RECURSE "${BUILD_DIR}/report")
execute_process(COMMAND "${BUILD_DIR}/tools/report/ngcc-report" --records "${BUILD_DIR}/records"
  --out "${BUILD_DIR}/report" RESULT_VARIABLE rc)

campaign_summary("${BUILD_DIR}/records")
string(TIMESTAMP t1 "%s" UTC)
math(EXPR secs "${t1} - ${t0}")
math(EXPR mins "${secs} / 60")
math(EXPR rest "${secs} % 60")

message("ngcc campaign: wall time ${mins} min ${rest} s; JUnit: ${state}/junit/<label>.xml")
file(WRITE "${state}/finished" "${mins} min ${rest} s")
if(rc EQUAL 0)
  message("ngcc campaign report: ${BUILD_DIR}/report/index.html (Markdown: ${BUILD_DIR}/report/index.md)")
else()
  message(FATAL_ERROR "ngcc-campaign: the report could not be written (see above); the records are in ${BUILD_DIR}/records")
endif()

# selftest/quirk-kat (cmake -P): manifest-only KATs (quirk class 14) and the
# kat record budget (class 21), read back from records only:
#   - kat/fxq-manifest/Mani-{1,2,3}: no KAT file, kat.sha256 keyed by the
#     ALGORITHM_INSTANCE name, the folder label and another label -> PASS,
#     each with its own manifest line (number and text recorded)
#   - kat/fxq-slow/SLOWKG-128 with default settings: PASS inside the budget,
#     reduced (10 records do not fit 120 s here) and saying so, op_seconds
#   - scenarios run here with ngcc-kat on the fxq-manifest/fxq-slow libraries
#     (and ngcc-manifest's help and bad arguments):
#     a reference KAT file cut mid-record or mid-line -> NOKAT naming it;
#     a malformed line for the file (a bad hex digit, sha256sum's format) ->
#     NOKAT naming the line and the fault; two manifest lines for one file
#     name -> ERROR naming both; a sibling's
#     line only -> NOKAT (never MISMATCH against the sibling); an option whose
#     value is missing -> a clear error; a budget that allows one record ->
#     the ':1' line preferred, a whole-file line "cannot be checked" (NOKAT
#     without a KAT file, a note with one), a ':3' line alone -> the run goes
#     on to 3 records (they fit the timeout); a record beyond the timeout ->
#     TIMEOUT naming the operation; op_seconds on a non-PASS verdict.
# A fixture that is missing (not discovered, not built, no record) FAILS.
# -D inputs: BUILD, SRC, KAT (ngcc-kat), MANIFEST_TOOL (ngcc-manifest), WORK
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/record_expect.cmake") # fail(), ok()

# check(<json text> <label> <json path...> EQUALS|MATCHES|GE <value>)
function(check j label)
  set(args ${ARGN})
  list(LENGTH args n)
  math(EXPR iop "${n} - 2")
  math(EXPR ival "${n} - 1")
  list(GET args ${iop} op)
  list(GET args ${ival} want)
  list(SUBLIST args 0 ${iop} jpath)
  string(JSON got ERROR_VARIABLE e GET "${j}" ${jpath})
  if(e)
    set(got "<missing>")
  endif()
  set(ok FALSE)
  if(op STREQUAL "EQUALS" AND got STREQUAL want)
    set(ok TRUE)
  elseif(op STREQUAL "MATCHES" AND got MATCHES "${want}")
    set(ok TRUE)
  elseif(op STREQUAL "GE" AND NOT got STREQUAL "<missing>" AND got GREATER_EQUAL want)
    set(ok TRUE)
  endif()
  string(REPLACE ";" "/" p "${jpath}")
  if(ok)
    message("ok   ${label} ${p} ${op} ${want}")
  else()
    string(SUBSTRING "${got}" 0 400 shown)
    fail("${label} ${p}: wanted ${op} '${want}', got '${shown}'")
    set(failures ${failures} PARENT_SCOPE)
  endif()
endfunction()

function(load var path)
  if(EXISTS "${path}")
    file(READ "${path}" j)
  else()
    fail("${path}: missing (fixture not discovered, built or run)")
    set(failures ${failures} PARENT_SCOPE)
    set(j "{}")
  endif()
  set(${var} "${j}" PARENT_SCOPE)
endfunction()

# ---- 1. manifest-only fixture, from the kat tests' records ----
set(mf "${SRC}/fixtures/fxq-manifest/kat.sha256")
foreach(item "Mani-1|MANI_128/KAT_SIG_MANI_128.txt|2" "Mani-2|Mani-2/KAT_SIG_MANI_96.txt|3"
             "mani-3|mani64-ref/KAT_SIG_MANI_64.txt|4")
  string(REPLACE "|" ";" parts "${item}")
  list(GET parts 0 inst)
  list(GET parts 1 path)
  list(GET parts 2 line)
  if(inst STREQUAL "mani-3")
    set(inst "Mani-3")
  endif()
  load(j "${BUILD}/records/fxq-manifest/${inst}/kat.json")
  set(l "fxq-manifest/${inst}")
  check("${j}" ${l} verdict EQUALS PASS)
  check("${j}" ${l} detail MATCHES "^10/10 records match the manifest digest .*line ${line} ")
  check("${j}" ${l} reference file MATCHES "^$")
  check("${j}" ${l} reference manifest EQUALS "${mf}")
  check("${j}" ${l} reference manifest_line line EQUALS ${line})
  check("${j}" ${l} reference manifest_line path EQUALS "${path}")
  check("${j}" ${l} reference manifest_line match EQUALS ON)
  check("${j}" ${l} op_seconds sign n EQUALS 10)
endforeach()

# ---- 2. the slow fixture with default settings ----
load(j "${BUILD}/records/fxq-slow/SLOWKG-128/kat.json")
set(l "fxq-slow/SLOWKG-128")
check("${j}" ${l} verdict EQUALS PASS)
check("${j}" ${l} op_seconds keygen median GE 5)
check("${j}" ${l} op_seconds keygen n GE 1)
check("${j}" ${l} op_seconds sign max MATCHES "^([01]([.][0-9]*)?|[0-9.]+e-[0-9]+)$")
check("${j}" ${l} op_seconds verify n GE 1)
check("${j}" ${l} budget budget_s EQUALS 120)
check("${j}" ${l} budget timeout_s GE 175)
check("${j}" ${l} budget reduced EQUALS ON)
check("${j}" ${l} budget records_run GE 1)
check("${j}" ${l} detail MATCHES "^([0-9]+)/[0-9]+ records match .*KAT_SIG_SLOWKG_128.txt.*. reduced: 10 records would take ~[0-9]+ s > budget 120 s: ran the first [0-9]")
check("${j}" ${l} child end EQUALS stopped_at_budget)
string(JSON run ERROR_VARIABLE e GET "${j}" budget records_run)
string(JSON rs ERROR_VARIABLE e GET "${j}" budget record_seconds)
string(JSON nrs ERROR_VARIABLE e LENGTH "${j}" budget record_seconds)
check("${j}" ${l} records_complete EQUALS "${run}")
string(JSON det ERROR_VARIABLE e GET "${j}" detail)
if(NOT det MATCHES "^${run}/${run} records match .*ran the first ${run} ")
  fail("${l}: the detail does not say ${run}/${run} records and 'ran the first ${run}': ${det}")
endif()
if(NOT nrs STREQUAL run)
  fail("${l}: budget/record_seconds has ${nrs} entries, records_run ${run}")
endif()
# the manifest line used: the ':N' one for the records run when there is one
file(STRINGS "${SRC}/fixtures/fxq-slow/kat.sha256" slow_lines REGEX "strict:${run} ")
if(slow_lines)
  check("${j}" ${l} reference manifest_line text MATCHES "strict:${run} ")
  check("${j}" ${l} reference manifest_line match EQUALS ON)
else()
  message("note ${l}: no ':${run}' line in fxq-slow/kat.sha256 (this run's count); the KAT file decided")
endif()

# ---- 3. scenarios ----
set(lib1 "${BUILD}/instances/fxq-manifest/Mani-1/libngcc_plain.so")
set(libslow "${BUILD}/instances/fxq-slow/SLOWKG-128/libngcc_plain.so")
foreach(f "${lib1}" "${libslow}")
  if(NOT EXISTS "${f}")
    fail("${f}: missing (build the fixture first)")
  endif()
endforeach()

# run_kat(<scenario> <lib> <expected verdict> <regex on the verdict line> args...)
function(run_kat scenario lib expect regex)
  execute_process(COMMAND "${KAT}" --lib "${lib}" --name "quirk-kat/${scenario}"
    --record-out "${WORK}/${scenario}.json" "--expect=${expect}" ${ARGN}
    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "ngcc: verdict kat[^\n]*" line "${out}")
  if(NOT rc EQUAL 0 OR NOT line MATCHES "${regex}")
    fail("${scenario}: rc=${rc}, wanted ${expect} matching '${regex}', got: ${line}\n${err}")
    set(failures ${failures} PARENT_SCOPE)
  else()
    message("ok   ${scenario}: ${line}")
  endif()
endfunction()

file(STRINGS "${mf}" m1 REGEX "MANI_128/KAT_SIG_MANI_128.txt$")
file(STRINGS "${mf}" m2 REGEX "Mani-2/KAT_SIG_MANI_96.txt$")
set(key1 "Mani-1/KAT_SIG_MANI_128.txt")

# a. two lines for one file name (another label) -> ERROR naming both
string(REPLACE "MANI_128/" "Mani-1/" m1b "${m1}")
string(SUBSTRING "${m1b}" 0 1 c0)
string(SUBSTRING "${m1b}" 1 -1 crest)
if(c0 STREQUAL "0")
  set(m1b "1${crest}")
else()
  set(m1b "0${crest}")
endif()
file(WRITE "${WORK}/two.sha256" "${m2}\n${m1}\n${m1b}\n")
run_kat(two_lines "${lib1}" ERROR
  "ERROR: ambiguous manifest: .*two.sha256: line 2 [(].*MANI_128/KAT_SIG_MANI_128.txt.[)] and line 3 [(].*Mani-1/KAT_SIG_MANI_128.txt.[)] both name KAT_SIG_MANI_128.txt; keep only"
  --manifest "${WORK}/two.sha256" --manifest-key "${key1}")
load(j "${WORK}/two_lines.json")
check("${j}" two_lines reference manifest_ambiguous EQUALS ON)
check("${j}" two_lines reference manifest_candidates 1 line EQUALS 3)
check("${j}" two_lines op_seconds keygen n EQUALS 10)

# b. only a sibling's line -> NOKAT, never MISMATCH against the sibling
file(WRITE "${WORK}/sibling.sha256" "${m2}\n")
run_kat(sibling_only "${lib1}" NOKAT "NOKAT: no submitted KAT file .*no kat.sha256 manifest line for that file name"
  --manifest "${WORK}/sibling.sha256" --manifest-key "${key1}")

# b2. this file's line with a bad hex digit, and in sha256sum's own format
# (no mode) -> NOKAT naming the line and what is wrong, never "no line"
string(SUBSTRING "${m1}" 2 -1 m1rest)
string(SUBSTRING "${m1}" 0 1 m1bad)
string(APPEND m1bad "g${m1rest}") # (REGEX REPLACE "^..." would repeat the match)
file(WRITE "${WORK}/badhex.sha256" "${m1bad}\n")
run_kat(bad_hex "${lib1}" NOKAT
  "NOKAT: .*badhex.sha256 line 1 names this KAT file but is malformed [(]the digest is not 64 hexadecimal digits[)]"
  --manifest "${WORK}/badhex.sha256" --manifest-key "${key1}")
string(REPLACE " strict " "  " m1sum "${m1}")
file(WRITE "${WORK}/sha256sum.sha256" "${m1sum}\n")
run_kat(sha256sum_format "${lib1}" NOKAT
  "NOKAT: .*sha256sum.sha256 line 1 names this KAT file but is malformed [(]no mode: '<sha256>  <file>' is sha256sum's format"
  --manifest "${WORK}/sha256sum.sha256" --manifest-key "${key1}")

# b3. ngcc-manifest: help on stdout with exit 0; a bad value, an empty file
# or a folder is an error naming it (exit 2 or 1), never a digest
file(WRITE "${WORK}/empty.txt" "\n\n")
foreach(case "help;0;^usage: ngcc-manifest;--help"
             "mode;2;--mode 'x': expected strict or nolen;--mode;x;a/b=${WORK}/empty.txt"
             "records;2;--records '0': expected a whole number;--records;0;a/b=${WORK}/empty.txt"
             "empty;1;empty.txt: no text [(]empty or blank lines only[)];a/KAT_SIG_X.txt=${WORK}/empty.txt"
             "folder;1;: not a regular file;a/KAT_SIG_X.txt=${WORK}")
  list(POP_FRONT case name want_rc want)
  execute_process(COMMAND "${MANIFEST_TOOL}" ${case} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(name STREQUAL "help")
    set(err "${out}")
  endif()
  if(rc EQUAL want_rc AND err MATCHES "${want}")
    message("ok   manifest_${name}: rc ${rc}")
  else()
    fail("manifest_${name}: wanted rc ${want_rc} and '${want}', got rc ${rc}, stdout '${out}', stderr '${err}'")
  endif()
endforeach()

# b4. a reference KAT file cut in the middle of a record, or in its last
# line -> NOKAT naming the damaged file, never the candidate's MISMATCH
run_kat(full_text "${lib1}" NOKAT "NOKAT" --write-kat "${WORK}/full.txt")
file(STRINGS "${WORK}/full.txt" lines)
list(LENGTH lines nl)
set(cut "")
set(i 0)
foreach(l IN LISTS lines) # up to the third line of record 1
  string(APPEND cut "${l}\n")
  if(l MATCHES "^Count = 1$")
    math(EXPR stop "${i} + 2")
  endif()
  if(DEFINED stop AND i EQUAL stop)
    break()
  endif()
  math(EXPR i "${i} + 1")
endforeach()
file(WRITE "${WORK}/cut-record.txt" "${cut}")
run_kat(ref_cut_record "${lib1}" NOKAT
  "NOKAT: the reference .*cut-record.txt is damaged: it ends in the middle of record 1, after line [0-9]+ .*the 1 records before it matched"
  --ref "${WORK}/cut-record.txt")
string(LENGTH "${cut}" n)
math(EXPR n "${n} - 9")
string(SUBSTRING "${cut}" 0 ${n} cutline)
file(WRITE "${WORK}/cut-line.txt" "${cutline}")
run_kat(ref_cut_line "${lib1}" NOKAT
  "NOKAT: the reference .*cut-line.txt is damaged: its last line [(]line [0-9]+, in record 1[)] is cut short"
  --ref "${WORK}/cut-line.txt")

# c. an option whose value is missing (an empty CMake variable) -> error
execute_process(COMMAND "${KAT}" --lib "${lib1}" --name quirk-kat/noval --record-out "${WORK}/noval.json"
  --ref --manifest "${mf}" --manifest-key "${key1}"
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 2 AND err MATCHES "option --ref got \"--manifest\" as its value: its value is missing")
  message("ok   missing_value: ${err}")
else()
  fail("missing_value: rc=${rc}, stderr: ${err}")
endif()

# d. a budget that allows record 0 only: the ':1' line is preferred
execute_process(COMMAND "${KAT}" --lib "${lib1}" --name quirk-kat/write --record-out "${WORK}/write.json"
  --write-kat "${WORK}/KAT_SIG_MANI_128.txt" --manifest "${mf}" --manifest-key "${key1}"
  WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_QUIET)
# keyed like the manifest's own line: one path for the file (another label would be ambiguous)
execute_process(COMMAND "${MANIFEST_TOOL}" --records 1 "MANI_128/KAT_SIG_MANI_128.txt=${WORK}/KAT_SIG_MANI_128.txt"
  OUTPUT_VARIABLE one RESULT_VARIABLE rc2)
string(STRIP "${one}" one)
if(NOT rc EQUAL 0 OR NOT rc2 EQUAL 0)
  fail("writing the Mani-1 KAT file / its ':1' line: rc ${rc} ${rc2}")
endif()
file(WRITE "${WORK}/one.sha256" "${m1}\n${one}\n")
run_kat(budget_one "${lib1}" PASS
  "PASS: 1/1 records match the manifest digest .*line 2 .*strict:1 .*as many as were run.*. reduced: 10 records would take ~[0-9]+ s > budget 0 s: ran the first 1 "
  --manifest "${WORK}/one.sha256" --manifest-key "${key1}" --budget 0.000001)
load(j "${WORK}/budget_one.json")
check("${j}" budget_one budget reduced EQUALS ON)
check("${j}" budget_one budget records_run EQUALS 1)
check("${j}" budget_one budget decision MATCHES "^10 records would take")
check("${j}" budget_one reference manifest_line line EQUALS 2)
check("${j}" budget_one records 1 text EQUALS notrun_budget)

# e. the same budget with only the whole-file line and no KAT file -> NOKAT, saying so
file(WRITE "${WORK}/full.sha256" "${m1}\n")
run_kat(budget_full_only "${lib1}" NOKAT
  "NOKAT: the only reference, .*covers 10 records but 1 were run; add a ':1' manifest line .* or raise NGCC_KAT_BUDGET_S"
  --manifest "${WORK}/full.sha256" --manifest-key "${key1}" --budget 0.000001)

# f. ... with the KAT file as well -> PASS on the file's first record, the line not checked
run_kat(budget_full_ref "${lib1}" PASS
  "PASS: 1/1 records match .*KAT_SIG_MANI_128.txt. not checked: .*more than were run: it cannot be checked. reduced:"
  --ref "${WORK}/KAT_SIG_MANI_128.txt" --manifest "${WORK}/full.sha256" --manifest-key "${key1}" --budget 0.000001)
load(j "${WORK}/budget_full_ref.json")
check("${j}" budget_full_ref reference manifest_line checked EQUALS OFF)

# f2. no KAT file, only a ':3' line: the run goes on past the budget to 3
#     records (they fit the timeout), then stops
execute_process(COMMAND "${MANIFEST_TOOL}" --records 3 "MANI_128/KAT_SIG_MANI_128.txt=${WORK}/KAT_SIG_MANI_128.txt"
  OUTPUT_VARIABLE three)
file(WRITE "${WORK}/three.sha256" "${three}")
run_kat(budget_extend "${lib1}" PASS
  "PASS: 3/3 records match the manifest digest .*strict:3 .*reduced: 10 records would take .*ran the first 3, past the budget because the only reference covers 3 records"
  --manifest "${WORK}/three.sha256" --manifest-key "${key1}" --budget 0.000001 --timeout 100)
load(j "${WORK}/budget_extend.json")
check("${j}" budget_extend budget extended_to EQUALS 3)
check("${j}" budget_extend budget records_run EQUALS 3)
# ... but not when the KAT file is there (it can be compared at any count)
run_kat(budget_noextend "${lib1}" PASS "PASS: 1/1 records match .*KAT_SIG_MANI_128.txt"
  --ref "${WORK}/KAT_SIG_MANI_128.txt" --manifest "${WORK}/three.sha256" --manifest-key "${key1}"
  --budget 0.000001 --timeout 100)

# g. a record beyond the timeout: TIMEOUT naming the operation
run_kat(timeout_op "${libslow}" TIMEOUT "TIMEOUT: no result after 3 s, in record 0 inside sig_keygen"
  --records 2 --timeout 3 --budget 1)

# h. op_seconds on a non-PASS verdict (a wrong digest)
string(SUBSTRING "${m1}" 1 -1 wrest)
string(SUBSTRING "${m1}" 0 1 w0)
if(w0 STREQUAL "0")
  set(w0 "1")
else()
  set(w0 "0")
endif()
file(WRITE "${WORK}/wrong.sha256" "${w0}${wrest}\n")
run_kat(wrong_digest "${lib1}" MISMATCH "MISMATCH: canonical SHA-256 of the first 10 records"
  --manifest "${WORK}/wrong.sha256" --manifest-key "${key1}")
load(j "${WORK}/wrong_digest.json")
check("${j}" wrong_digest op_seconds verify n EQUALS 10)
check("${j}" wrong_digest reference manifest_line match EQUALS OFF)

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} quirk-kat check(s) failed")
endif()

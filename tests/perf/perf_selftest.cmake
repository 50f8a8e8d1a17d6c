# Selftests of the perf label (label selftest;perf), run with -P.
#
# SCENARIO=gate: the absolute cycle gate's logic on one measurement of the
#   fixture's sign: without thresholds -> NOBASELINE naming the command that
#   records one; a synthetic thresholds file with baseline = median / 3 ->
#   REGRESSION naming both numbers; baseline = median x 3 -> PASS (the same
#   run options). The factor 3 is far beyond the noise of separate runs on a
#   shared 2-core VM (medians up to 1.63 x apart), so it holds under load
#   and still fails when the gate does not compare.
# SCENARIO=ab: the same-run A/B gate at 3%: the variant with ~19% more sign
#   work (NGCC_ZOO_SLOW_SIGN, same output) against the fixture -> REGRESSION
#   naming the ratio and its interval; the identical copy against the
#   fixture -> PASS. The PASS case alone may be retried (at most
#   PASS_ATTEMPTS, each attempt printed): a false alarm is the one failure
#   host noise can cause; the REGRESSION case is never retried.
# SCENARIO=errors: bad input gives a clear verdict and still a record:
#   missing library -> LOADFAIL; an operation of the other type -> ERROR;
#   malformed thresholds file -> ERROR naming it; KAT record not PASS ->
#   not measured (its verdict) unless --time-anyway (then flagged); bad
#   arguments -> exit 2 with the usage; zoo variants whose sign crashes /
#   hangs on one KAT message -> CRASH / TIMEOUT naming the phase of the
#   measurement, or returns a length above the claimed one -> OVERFLOW
#   (when those variants exist).
#
# SCENARIO=mem: heap, stack and RSS gates: the baseline from the fixture's
#   sign; the instance with the taller tree (more stack) against it ->
#   REGRESSION naming stack_hwm_bytes; a rerun -> PASS; lowered heap / RSS
#   baselines -> REGRESSION naming both. The heap figure must be exactly the
#   fixture's one allocation.
# SCENARIO=sizes: claimed sizes gated exactly: the longer-signature instance
#   against the fixture's baseline -> REGRESSION naming sn; a rerun -> PASS;
#   a variant returning sn_len above the claimed maximum -> OVERFLOW.
#
# -D inputs: PERF BASELINE LIB NAME WORK; gate: [BUDGET] [OP (default sign)]; ab: SLOW_LIB SLOW_NAME
#            SLOW_KAT COPY_LIB COPY_NAME COPY_KAT REF_KAT [BUDGET] [PASS_ATTEMPTS]; errors: [CRASH_LIB] [HANG_LIB] [LENOVER_LIB];
#            mem: MEM LIB2 NAME2; sizes: SIZES LIB2 NAME2 [LENOVER_LIB]
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
if(NOT BUDGET)
  set(BUDGET 2)
endif()
if(NOT PASS_ATTEMPTS)
  set(PASS_ATTEMPTS 2)
endif()
set(failures 0)

# Runs a driver (ngcc-perf by default, ${TOOL} if set); out_line = its
# verdict line, out_rc = exit code.
function(perf_run out_rc out_line)
  if(NOT TOOL)
    set(TOOL "${PERF}")
  endif()
  execute_process(COMMAND "${TOOL}" --system selftest ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "ngcc: verdict [^\n]*" line "${out}")
  if(NOT line)
    set(line "(no verdict line) ${err}")
  endif()
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_line} "${line}" PARENT_SCOPE)
endfunction()

# One check: rc 0 and the verdict line matching regex.
function(expect_run what regex)
  perf_run(rc line ${ARGN})
  if(NOT rc EQUAL 0 OR NOT line MATCHES "${regex}")
    message("FAIL ${what}: rc=${rc}, wanted '${regex}', got: ${line}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message("ok   ${what}: ${line}")
  endif()
endfunction()

function(expect_record what file field value)
  if(NOT EXISTS "${file}")
    message("FAIL ${what}: no record ${file}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
    return()
  endif()
  file(READ "${file}" j)
  string(JSON got ERROR_VARIABLE e GET "${j}" ${field})
  if(NOT got STREQUAL "${value}")
    message("FAIL ${what}: ${file} has ${field} = '${got}', wanted '${value}'")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message("ok   ${what}: ${field} = ${value} in ${file}")
  endif()
endfunction()

# ---- gate: the absolute gate's logic on one measurement ----
if(SCENARIO STREQUAL "gate")
  if(NOT OP) # the operation gated: sign; KEX and hash ops (exchange, hash-4096) prove their names gate too
    set(OP sign)
  endif()
  set(common --op ${OP} --budget-s ${BUDGET} --tolerance 0.05 --build-dir "${WORK}/build")
  set(rec "${WORK}/records/base/perf-${OP}.json")
  expect_run(gate_nobaseline "NOBASELINE: median [0-9]+ ticks, no baseline .*record it: ctest --test-dir .*/build -L perf && cmake --build .*/build --target perf-baseline"
    --lib "${LIB}" --name "${NAME}" ${common} --record-out "${rec}")
  file(READ "${rec}" j)
  string(JSON median ERROR_VARIABLE e GET "${j}" stats median)
  if(e OR NOT median GREATER 0)
    message(FATAL_ERROR "gate: no median in ${rec}: ${e}")
  endif()
  set(thr "${WORK}/thresholds.json")
  execute_process(COMMAND "${BASELINE}" --records "${WORK}/records" --out "${thr}" --system selftest
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${thr}")
    message(FATAL_ERROR "gate: ngcc-baseline did not write ${thr}: ${out}${err}")
  endif()
  file(READ "${thr}" t)
  string(REGEX REPLACE "\\..*$" "" median "${median}") # a per-trial-mean median has decimals
  math(EXPR low "${median} / 3")
  math(EXPR high "${median} * 3")
  foreach(case "low;${low};REGRESSION;>" "high;${high};PASS;<=")
    list(GET case 0 tag)
    list(GET case 1 b)
    list(GET case 2 v)
    list(GET case 3 op)
    string(JSON t2 SET "${t}" instances "${NAME}" ${OP} median ${b})
    file(WRITE "${WORK}/${tag}.json" "${t2}")
    math(EXPR limit "${b} * 105 / 100")
    expect_run(gate_${tag} "${v}: median [0-9]+ ticks ${op} limit [0-9]+ = baseline ${b} x 1.050"
      --lib "${LIB}" --name "${NAME}" ${common} --thresholds "${WORK}/${tag}.json" --expect=${v}
      --record-out "${WORK}/${tag}-perf-${OP}.json")
  endforeach()
  if(failures GREATER 0)
    message(FATAL_ERROR "${failures} gate selftest check(s) failed")
  endif()
  return()
endif()

# ---- ab: the same-run A/B gate ----
if(SCENARIO STREQUAL "ab")
  set(ab --op sign --budget-s ${BUDGET} --ref-lib "${LIB}" --ref-name "${NAME}" --ref-kat-record "${REF_KAT}"
    --ab-tolerance 0.03)
  set(ratio "ratio ([0-9.]+) [[]([0-9.]+), ([0-9.]+)[]] vs ${NAME}")
  expect_run(ab_slow_regression "REGRESSION: ${ratio} > 1.03"
    --lib "${SLOW_LIB}" --name "${SLOW_NAME}" --kat-record "${SLOW_KAT}" ${ab} --expect=REGRESSION
    --record-out "${WORK}/slow-perf-sign.json")
  expect_record(ab_slow_record "${WORK}/slow-perf-sign.json" "ab;exceeded" ON)
  set(passed FALSE)
  foreach(k RANGE 1 ${PASS_ATTEMPTS})
    perf_run(rc line --lib "${COPY_LIB}" --name "${COPY_NAME}" --kat-record "${COPY_KAT}" ${ab}
      --record-out "${WORK}/copy-perf-sign.json")
    if(rc EQUAL 0 AND line MATCHES "PASS: ${ratio} <= 1.03")
      message("ok   ab_copy_pass (attempt ${k} of at most ${PASS_ATTEMPTS}): ${line}")
      set(passed TRUE)
      break()
    endif()
    message("     ab_copy_pass attempt ${k} of at most ${PASS_ATTEMPTS} (a false alarm is retried): rc=${rc}: ${line}")
  endforeach()
  if(NOT passed)
    message("FAIL ab_copy_pass: the identical copy was not PASS in ${PASS_ATTEMPTS} attempts")
    math(EXPR failures "${failures} + 1")
  endif()
  if(failures GREATER 0)
    message(FATAL_ERROR "${failures} ab selftest check(s) failed")
  endif()
  return()
endif()

# ---- mem: heap, stack and RSS gates ----
if(SCENARIO STREQUAL "mem")
  set(TOOL "${MEM}")
  set(thr "${WORK}/thresholds.json")
  set(rec "${WORK}/records/base/mem-sign.json")
  expect_run(mem_base "NOBASELINE: peak_rss_kb [0-9]+ kB, no baseline; heap_peak_bytes 232 bytes.*record it: ctest"
    --lib "${LIB}" --name "${NAME}" --op sign --record-out "${rec}")
  # the fixture's only allocation: malloc(3 * 32 + m_len), m_len <= 128 -> 224 bytes, usable size 232
  expect_record(mem_heap_exact "${rec}" heap_peak_bytes 232)
  # VmHWM reset between setup and operation (clear_refs, allowed through the sandbox)
  expect_record(mem_hwm_reset "${rec}" hwm_reset ON)
  execute_process(COMMAND "${BASELINE}" --records "${WORK}/records" --out "${thr}" --system selftest
    RESULT_VARIABLE rc OUTPUT_QUIET)
  expect_run(mem_bigger_stack "REGRESSION: .*stack_hwm_bytes [0-9]+ bytes > limit [0-9]+ = baseline [0-9]+ x 1.050"
    --lib "${LIB2}" --name "${NAME2}" --baseline-key "${NAME}" --op sign --thresholds "${thr}"
    --record-out "${WORK}/bigger.json" --expect=REGRESSION)
  # A rerun of the unchanged fixture passes: heap and stack exactly (5%
  # gates), peak RSS within its own tolerance (--rss-tolerance, default 25%:
  # RSS of a 2.3 MB process moves by a few pages between runs, +5.4% seen
  # once in CI); mem_bigger_stack above proves the 5% gate itself.
  set(rss "peak_rss_kb [0-9]+ kB <= limit [0-9]+ = baseline [0-9]+ x 1.250")
  expect_run(mem_rerun "PASS: ${rss}.*heap_peak_bytes 232 bytes <= limit 244 = baseline 232 x 1.050"
    --lib "${LIB}" --name "${NAME}" --op sign --thresholds "${thr}" --record-out "${WORK}/rerun.json")
  file(READ "${thr}" j)
  string(JSON j SET "${j}" instances "${NAME}" mem-sign heap_peak_bytes 100)
  string(JSON j SET "${j}" instances "${NAME}" mem-sign peak_rss_kb 1000)
  file(WRITE "${WORK}/low.json" "${j}")
  set(both "peak_rss_kb [0-9]+ kB > limit 1250 = baseline 1000 x 1.250.*heap_peak_bytes 232 bytes > limit 105")
  expect_run(mem_heap_rss_gates "REGRESSION: ${both} = baseline 100"
    --lib "${LIB}" --name "${NAME}" --op sign --thresholds "${WORK}/low.json" --record-out "${WORK}/low-rec.json"
    --expect=REGRESSION)
endif()

# ---- sizes: exact claimed sizes, observed maximum, OVERFLOW ----
if(SCENARIO STREQUAL "sizes")
  set(TOOL "${SIZES}")
  set(thr "${WORK}/thresholds.json")
  expect_run(sizes_base "NOBASELINE: pk 64 bytes, no baseline; sk 96 bytes, no baseline; sn 2308 bytes.*record it: ctest"
    --lib "${LIB}" --name "${NAME}" --record-out "${WORK}/records/base/sizes.json")
  execute_process(COMMAND "${BASELINE}" --records "${WORK}/records" --out "${thr}" --system selftest
    RESULT_VARIABLE rc OUTPUT_QUIET)
  expect_run(sizes_longer_signature "REGRESSION: .*sn 2340 bytes > limit 2308 = baseline 2308 x 1.000"
    --lib "${LIB2}" --name "${NAME2}" --baseline-key "${NAME}" --thresholds "${thr}"
    --record-out "${WORK}/longer.json" --expect=REGRESSION)
  expect_run(sizes_rerun "PASS: pk 64 bytes <= limit 64"
    --lib "${LIB}" --name "${NAME}" --thresholds "${thr}" --record-out "${WORK}/rerun.json")
  if(LENOVER_LIB)
    expect_run(sizes_overflow "OVERFLOW: sig_sign returned sn_len 2309 > claimed 2308"
      --lib "${LENOVER_LIB}" --name lenover --record-out "${WORK}/lenover.json" --expect=OVERFLOW)
  endif()
endif()

if(NOT SCENARIO STREQUAL "errors")
  if(failures GREATER 0)
    message(FATAL_ERROR "${failures} ${SCENARIO} selftest check(s) failed")
  endif()
  return()
endif()

# ---- errors ----
set(quick --op sign --budget-s 0.2 --warmup-s 0 --trials 3)
expect_run(missing_library "LOADFAIL: .*nothing.so: No such file or directory; run its build test first"
  --lib "${WORK}/nothing.so" --name "${NAME}" ${quick} --record-out "${WORK}/missing.json" --expect=LOADFAIL)
expect_record(missing_library_record "${WORK}/missing.json" verdict LOADFAIL)

expect_run(wrong_op "ERROR: --op enc is not an operation of a SIG instance"
  --lib "${LIB}" --name "${NAME}" --op enc --record-out "${WORK}/wrong-op.json" --expect=ERROR)

file(WRITE "${WORK}/broken.json" "{ not json")
expect_run(malformed_thresholds "ERROR: .*broken.json: not a thresholds file"
  --lib "${LIB}" --name "${NAME}" ${quick} --thresholds "${WORK}/broken.json" --record-out "${WORK}/broken-thr.json"
  --expect=ERROR)
file(WRITE "${WORK}/other.json" "{\"system\": \"other\", \"instances\": {}}")
expect_run(other_system_thresholds "ERROR: .*other.json: thresholds of system \"other\""
  --lib "${LIB}" --name "${NAME}" ${quick} --thresholds "${WORK}/other.json" --record-out "${WORK}/other-thr.json"
  --expect=ERROR)

file(WRITE "${WORK}/kat-mismatch.json" "{\"kind\": \"kat\", \"verdict\": \"MISMATCH\"}")
expect_run(kat_not_passed "MISMATCH: not measured: the KAT verdict is MISMATCH"
  --lib "${LIB}" --name "${NAME}" ${quick} --kat-record "${WORK}/kat-mismatch.json"
  --record-out "${WORK}/kat-gate.json" --expect=MISMATCH)
expect_run(time_anyway "NOBASELINE: .*TIMED ANYWAY"
  --lib "${LIB}" --name "${NAME}" ${quick} --kat-record "${WORK}/kat-mismatch.json" --time-anyway
  --record-out "${WORK}/anyway.json")
expect_record(time_anyway_record "${WORK}/anyway.json" timed_anyway ON)

# same-run A/B inputs: an unresolved reference, a missing reference library,
# a reference whose KAT did not pass
expect_run(ab_ref_error "ERROR: perf reference \"WOTS-999\" of x names no instance"
  --lib "${LIB}" --name "${NAME}" ${quick} "--ref-error=perf reference \"WOTS-999\" of x names no instance"
  --record-out "${WORK}/ref-error.json" --expect=ERROR)
expect_record(ab_ref_error_record "${WORK}/ref-error.json" verdict ERROR)
expect_run(ab_ref_missing "ERROR: reference .*nothing.so: .*No such file"
  --lib "${LIB}" --name "${NAME}" ${quick} --ref-lib "${WORK}/nothing.so" --record-out "${WORK}/ref-missing.json"
  --expect=ERROR)
expect_run(ab_ref_kat "ERROR: not measured: the KAT verdict of the reference ref/x is MISMATCH"
  --lib "${LIB}" --name "${NAME}" ${quick} --ref-lib "${LIB}" --ref-name ref/x
  --ref-kat-record "${WORK}/kat-mismatch.json" --record-out "${WORK}/ref-kat.json" --expect=ERROR)

execute_process(COMMAND "${PERF}" --lib "${LIB}" --name "${NAME}" --record-out "${WORK}/x.json" --budget-s abc
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 2 AND err MATCHES "--budget-s abc: expected a number" AND err MATCHES "usage: ngcc-perf")
  message("ok   bad_arguments: exit 2 with the problem and the usage")
else()
  message("FAIL bad_arguments: rc=${rc}: ${err}")
  math(EXPR failures "${failures} + 1")
endif()

# one trial of exactly 10 calls: records 0..9, so the bad message is always reached
set(all10 --op sign --budget-s 0.01 --warmup-s 0 --trials 1 --iter-min 10 --iter-max 10)
if(CRASH_LIB)
  expect_run(crashing_sign "CRASH: killed by signal 11 [(]Segmentation fault[)] while (warming up|in trial)"
    --lib "${CRASH_LIB}" --name crash ${all10} --record-out "${WORK}/crash.json" --expect=CRASH)
  expect_record(crashing_sign_record "${WORK}/crash.json" verdict CRASH)
endif()
if(LENOVER_LIB)
  expect_run(overlong_signature "OVERFLOW: sign returned a length of 2309 bytes > claimed 2308"
    --lib "${LENOVER_LIB}" --name lenover ${quick} --record-out "${WORK}/lenover.json" --expect=OVERFLOW)
endif()
if(HANG_LIB)
  # the phase it names depends on how far a loaded host got in 3 s
  expect_run(hanging_sign "TIMEOUT: no result after 3 s while (making the first timed call|warming up|in trial)"
    --lib "${HANG_LIB}" --name hang ${all10} --timeout 3 --record-out "${WORK}/hang.json" --expect=TIMEOUT)
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} perf selftest check(s) failed")
endif()

# Selftests of the perf label (label selftest;perf), run with -P.
#
# SCENARIO=gate: the cycle gate proven in one run, on the fixture's sign:
#   1. time the fixture (no thresholds: PASS, "no baseline");
#   2. ngcc-baseline takes that record as the baseline;
#   3. the zoo variant with ~19% more sign work (NGCC_ZOO_SLOW_SIGN, same
#      output: its KAT passes) must give REGRESSION at 5%, printing its
#      median, the limit and the baseline;
#   4. a rerun of the unchanged fixture must PASS at 5%.
#   Steps 1-4 form one attempt. It proves the gate only if the host held
#   still: the two runs of the unchanged fixture agree within 5% both ways.
#   Noise on a shared host can spoil an attempt; it is then repeated, at
#   most ATTEMPTS times, and every attempt is printed.
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
# -D inputs: PERF BASELINE LIB NAME WORK; gate: SLOW_LIB SLOW_NAME SLOW_KAT
#            [BUDGET] [ATTEMPTS]; errors: [CRASH_LIB] [HANG_LIB] [LENOVER_LIB];
#            mem: MEM LIB2 NAME2; sizes: SIZES LIB2 NAME2 [LENOVER_LIB]
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
if(NOT BUDGET)
  set(BUDGET 2)
endif()
if(NOT ATTEMPTS)
  set(ATTEMPTS 4)
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

# ---- gate ----
function(gate_attempt k ok)
  set(${ok} FALSE PARENT_SCOPE)
  set(dir "${WORK}/attempt${k}")
  set(thr "${dir}/thresholds.json")
  set(common --op sign --budget-s ${BUDGET} --tolerance 0.05)
  perf_run(rc line --lib "${LIB}" --name "${NAME}" ${common} --record-out "${dir}/records/base/perf-sign.json")
  message("     [${k}] baseline run: ${line}")
  if(NOT rc EQUAL 0 OR NOT line MATCHES "PASS: median ([0-9]+) ticks, no baseline")
    message("FAIL [${k}] the baseline run must PASS with 'no baseline'")
    return()
  endif()
  set(base ${CMAKE_MATCH_1})
  execute_process(COMMAND "${BASELINE}" --records "${dir}/records" --out "${thr}" --system selftest
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("     [${k}] ${out}${err}")
  if(NOT rc EQUAL 0 OR NOT EXISTS "${thr}")
    message("FAIL [${k}] ngcc-baseline did not write ${thr}")
    return()
  endif()
  perf_run(rc slow --lib "${SLOW_LIB}" --name "${SLOW_NAME}" --baseline-key "${NAME}" --kat-record "${SLOW_KAT}"
    ${common} --thresholds "${thr}" --expect=REGRESSION --record-out "${dir}/slow-perf-sign.json")
  message("     [${k}] slow variant: ${slow}")
  set(slow_ok FALSE)
  if(rc EQUAL 0 AND slow MATCHES "REGRESSION: median ([0-9]+) ticks > limit ([0-9]+) = baseline ([0-9]+) x 1.050")
    set(slow_ok TRUE)
  endif()
  perf_run(rc rerun --lib "${LIB}" --name "${NAME}" ${common} --thresholds "${thr}"
    --record-out "${dir}/rerun-perf-sign.json")
  message("     [${k}] fixture rerun: ${rerun}")
  set(rerun_ok FALSE)
  set(stable FALSE)
  if(rc EQUAL 0 AND rerun MATCHES "PASS: median ([0-9]+) ticks <= limit ([0-9]+) = baseline ([0-9]+) x 1.050")
    set(rerun_ok TRUE)
    # the host stayed stable: the rerun is also no more than 5% faster
    math(EXPR lhs "${CMAKE_MATCH_1} * 100")
    math(EXPR rhs "${base} * 95")
    if(lhs GREATER_EQUAL rhs)
      set(stable TRUE)
    endif()
  endif()
  if(slow_ok AND rerun_ok AND stable)
    set(${ok} TRUE PARENT_SCOPE)
  elseif(NOT rerun_ok OR NOT stable)
    message("     [${k}] inconclusive: the unchanged fixture moved by more than 5% between its two runs (host noise)")
  else()
    message("     [${k}] the slow variant was not reported as a REGRESSION with both numbers")
  endif()
endfunction()

if(SCENARIO STREQUAL "gate")
  set(passed FALSE)
  foreach(k RANGE 1 ${ATTEMPTS})
    gate_attempt(${k} ok)
    if(ok)
      message("ok   gate: slow variant REGRESSION at 5% and unchanged fixture PASS "
        "(attempt ${k} of at most ${ATTEMPTS})")
      set(passed TRUE)
      break()
    endif()
  endforeach()
  if(NOT passed)
    message(FATAL_ERROR "gate selftest failed in all ${ATTEMPTS} attempts")
  endif()
  return()
endif()

# ---- mem: heap, stack and RSS gates ----
if(SCENARIO STREQUAL "mem")
  set(TOOL "${MEM}")
  set(thr "${WORK}/thresholds.json")
  set(rec "${WORK}/records/base/mem-sign.json")
  expect_run(mem_base "PASS: peak_rss_kb [0-9]+ kB, no baseline; heap_peak_bytes 232 bytes"
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
  expect_run(sizes_base "PASS: pk 64 bytes, no baseline; sk 96 bytes, no baseline; sn 2308 bytes"
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
expect_run(time_anyway "PASS: .*TIMED ANYWAY"
  --lib "${LIB}" --name "${NAME}" ${quick} --kat-record "${WORK}/kat-mismatch.json" --time-anyway
  --record-out "${WORK}/anyway.json")
expect_record(time_anyway_record "${WORK}/anyway.json" timed_anyway ON)

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

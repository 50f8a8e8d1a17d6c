# The perf label: per instance, one timing test per operation
# (perf/<cand>/<key>/<op>), one memory test per operation (mem/...) and one
# size test (sizes/<cand>/<key>), gated against the thresholds file of this
# system (tests/perf/thresholds/<NGCC_SYSTEM>.json, written by ngcc-baseline).
# Timing tests run alone (RUN_SERIAL) after the instance's build and KAT.

include(NgccPerfReference)
include(NgccKexPasses)

# perf covers every type: SIG/KEM per operation, KEX per call of the official
# flow and the whole exchange, HASH per message length.
set(NGCC_LABEL_TYPES_perf SIG KEM KEX HASH)
# The message lengths (bytes) a hash instance is timed at, one test each
# (perf/<cand>/<key>/hash-<bytes>); the report plots cost per byte over them.
set(NGCC_PERF_HASH_LENGTHS "16;64;256;1024;4096;16384;65536;1048576" CACHE STRING
  "Message lengths (bytes) of the hash timing tests")

option(NGCC_TIME_ANYWAY "Also measure instances whose KAT did not pass (every record flags them)" OFF)
option(NGCC_BENCH "Register the benchmarks of the suite itself (label bench)" OFF)
# The default suits an evaluation host. The ci preset sets 0.75: on the shared
# 2-vCPU VMs of CI the host's speed shifts for seconds to minutes, whatever the
# VM itself runs, and whole runs' medians were measured up to 1.63 x the
# median of ten runs (0.5-6% otherwise); see docs/labels.md.
set(NGCC_PERF_TOLERANCE 0.05 CACHE STRING
  "Tolerance of the cycle gates: fail when the median exceeds baseline x (1 + tolerance)")
# Same-run A/B (override "perf": {"reference": ...}): fail when the lower
# bound of the ratio's bootstrap interval exceeds 1 + this.
set(NGCC_PERF_AB_TOLERANCE 0.03 CACHE STRING
  "Tolerance of the same-run A/B cycle gate (ratio instance/reference of trial medians)")
set(NGCC_PERF_AB_CONFIDENCE 0.95 CACHE STRING "Confidence of the A/B gate's bootstrap interval")
set(NGCC_MEM_TOLERANCE 0.05 CACHE STRING "Tolerance of the heap, stack and static-size gates")
# Peak RSS is a figure of the whole process (loader, libc, harness pages):
# runs of one fixture moved by 1.5% here and by 5.4% once in CI.
set(NGCC_RSS_TOLERANCE 0.25 CACHE STRING "Tolerance of the peak-RSS gate")
set(NGCC_PERF_BUDGET_S 2 CACHE STRING "Measured time per operation (s): sets the iterations per trial")
set(NGCC_PERF_TRIALS 21 CACHE STRING "Trials per operation")
set(NGCC_PERF_ITER_MIN 1 CACHE STRING "Floor of the iterations per trial")
set(NGCC_PERF_ITER_MAX 1000 CACHE STRING "Ceiling of the iterations per trial")
set(NGCC_PERF_WARMUP_S 0.2 CACHE STRING "Warm-up time per operation (s)")
set(NGCC_PERF_ONE_SHOT_S 10 CACHE STRING "Operations whose first call takes this long (s) are timed 1 x 1")
set(NGCC_PERF_COUNTER auto CACHE STRING
  "Counter: auto (perf_event cycles, else TSC / cntvct), perf, tsc, cntvct, monotonic")
set(NGCC_PERF_PIN fastest CACHE STRING
  "CPU of a timing test: fastest (probe the allowed CPUs, pin to the fastest), none, or a CPU number")
set(NGCC_MEM_STACK_MB 32 CACHE STRING "Size of the painted stack of the stack high-water mark (MiB)")
set(NGCC_TIMEOUT_perf 300 CACHE STRING "Default timeout of a perf, mem or sizes test (s)")

# System id: architecture, CPU model (name, family, model; implementer and
# part on ARM) and core count, slugified: hosts of one machine type share it,
# and thresholds of another CPU generation never apply by accident.
function(ngcc_perf_default_system out)
  cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
  set(model "")
  if(EXISTS /proc/cpuinfo)
    file(STRINGS /proc/cpuinfo lines REGEX "^(model name|cpu family|model|CPU implementer|CPU part)[ \t]*:")
    set(seen "")
    foreach(l IN LISTS lines)
      string(REGEX REPLACE "^([^:]*[^ \t:])[ \t]*:[ \t]*(.*)$" "\\1;\\2" kv "${l}")
      list(GET kv 0 k)
      list(GET kv 1 v)
      if(k IN_LIST seen)
        continue()
      endif()
      list(APPEND seen "${k}")
      if(k STREQUAL "model name")
        set(model "${v} ${model}")
      elseif(k STREQUAL "cpu family")
        string(APPEND model " f${v}")
      elseif(k STREQUAL "model")
        string(APPEND model " m${v}")
      else()
        string(APPEND model " ${v}")
      endif()
    endforeach()
  endif()
  if(model STREQUAL "")
    cmake_host_system_information(RESULT model QUERY PROCESSOR_DESCRIPTION)
  endif()
  string(TOLOWER "${CMAKE_HOST_SYSTEM_PROCESSOR}-${model}-${cores}c" id)
  string(REGEX REPLACE "[^a-z0-9_.]+" "-" id "${id}")
  string(REGEX REPLACE "^-|-$" "" id "${id}")
  set(${out} "${id}" PARENT_SCOPE)
endfunction()

ngcc_perf_default_system(_ngcc_system)
set(NGCC_SYSTEM "${_ngcc_system}" CACHE STRING "System id of the thresholds file (default from the host)")
set(NGCC_PERF_THRESHOLDS "" CACHE FILEPATH
  "Thresholds file (default: tests/perf/thresholds/<NGCC_SYSTEM>.json)")
if(NGCC_PERF_THRESHOLDS)
  set(NGCC_PERF_THRESHOLDS_FILE "${NGCC_PERF_THRESHOLDS}")
else()
  set(NGCC_PERF_THRESHOLDS_FILE "${PROJECT_SOURCE_DIR}/tests/perf/thresholds/${NGCC_SYSTEM}.json")
endif()
if(EXISTS "${NGCC_PERF_THRESHOLDS_FILE}")
  message(STATUS "ngcc: perf: system ${NGCC_SYSTEM}, thresholds ${NGCC_PERF_THRESHOLDS_FILE}, "
    "tolerance ${NGCC_PERF_TOLERANCE}")
else()
  message(STATUS "ngcc: perf: system ${NGCC_SYSTEM} has no thresholds file ${NGCC_PERF_THRESHOLDS_FILE}: "
    "perf, mem and sizes tests give NOBASELINE (passing); record baselines with the perf-baseline target")
endif()

# The baseline command over this build's records:
#   ctest -L perf && cmake --build <build> --target perf-baseline
add_custom_target(perf-baseline
  COMMAND ngcc-baseline --records ${CMAKE_BINARY_DIR}/records --out ${NGCC_PERF_THRESHOLDS_FILE}
    --system ${NGCC_SYSTEM}
  COMMENT "Recording perf/mem/sizes baselines of ${NGCC_SYSTEM} into ${NGCC_PERF_THRESHOLDS_FILE}"
  VERBATIM USES_TERMINAL)

# Arguments every perf/mem/sizes driver gets for instance n.
# 1 when the kat label covers the type of instance n: its KAT verdict gates
# the measurement. Else (a type kat does not replay yet) there is no KAT
# verdict to wait for: measured without, and the record's kat_verdict is null.
function(ngcc_perf_kat_gated n out)
  ngcc_iget(${n} type type)
  if(type IN_LIST NGCC_LABEL_TYPES_kat)
    set(${out} 1 PARENT_SCOPE)
  else()
    set(${out} 0 PARENT_SCOPE)
  endif()
endfunction()

function(ngcc_perf_common_args n out)
  foreach(f IN ITEMS id key root records kat_records memory_limit_mb)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  ngcc_timeout(${n} perf t)
  math(EXPR inner "${t} - 5")
  ngcc_perf_kat_gated(${n} gated)
  set(kat)
  if(gated)
    ngcc_kat_verdict_record(${n} kat_json)
    set(kat --kat-record "${kat_json}")
  endif()
  set(args --lib "${root}/libngcc_plain.so" --name "${id}/${key}"
    --build-record "${records}/build-plain.json" ${kat}
    --thresholds "${NGCC_PERF_THRESHOLDS_FILE}" --system "${NGCC_SYSTEM}"
    --records ${kat_records} --timeout ${inner} --build-dir "${CMAKE_BINARY_DIR}")
  if(memory_limit_mb)
    list(APPEND args --mem-limit-mb ${memory_limit_mb})
  endif()
  if(NGCC_TIME_ANYWAY)
    list(APPEND args --time-anyway)
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()

# Properties every perf/mem/sizes test of instance n gets: build first, and
# the KAT first unless the run measures anyway (then only ordered after it).
function(ngcc_perf_props n name labels)
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  ngcc_timeout(${n} perf t)
  set(anyway ${NGCC_TIME_ANYWAY})
  if(ARGC GREATER 3)
    set(anyway ${ARGV3})
  endif()
  ngcc_perf_kat_gated(${n} gated)
  if(NOT gated)
    set(anyway ON) # no kat test of this type to wait for
  endif()
  set(fixtures "ngcc.build.plain.${id}.${key}")
  if(NOT anyway)
    list(APPEND fixtures "ngcc.kat.${id}.${key}")
  endif()
  # exit 77: the build test skipped the instance (the driver frame's SKIP)
  set_tests_properties("${name}" PROPERTIES LABELS "${labels}" FIXTURES_REQUIRED "${fixtures}" TIMEOUT ${t}
    SKIP_RETURN_CODE 77)
  if(anyway)
    set_tests_properties("${name}" PROPERTIES DEPENDS "kat/${id}/${key}")
  endif()
endfunction()

function(ngcc_perf_ops type out)
  if(type STREQUAL "KEM")
    set(${out} keygen enc dec PARENT_SCOPE)
  elseif(type STREQUAL "KEX")
    # pass3 of a 2-pass protocol: the test says SKIP (the pass count is the
    # library's kex_get_passes_num(), not known at configure time)
    set(${out} init_a init_b pass1 pass2 pass3 derive_a derive_b exchange PARENT_SCOPE)
  elseif(type STREQUAL "HASH")
    set(ops)
    foreach(len IN LISTS NGCC_PERF_HASH_LENGTHS)
      list(APPEND ops hash-${len})
    endforeach()
    set(${out} ${ops} PARENT_SCOPE)
  else()
    set(${out} keygen sign verify PARENT_SCOPE)
  endif()
endfunction()

# A/B arguments of the timing tests of instance n: out_args (--ref-lib ...
# or --ref-error "<reason>", empty without a reference) and out_fixtures (the
# reference's build and KAT)
function(ngcc_perf_ab_args n out_args out_fixtures)
  ngcc_perf_reference(${n} r err)
  set(args)
  set(fix)
  if(NOT err STREQUAL "")
    set(args "--ref-error=${err}")
  elseif(NOT r STREQUAL "")
    foreach(f IN ITEMS id key root records)
      ngcc_iget(${r} ${f} r_${f})
    endforeach()
    set(args --ref-lib "${r_root}/libngcc_plain.so" --ref-name "${r_id}/${r_key}"
      --ref-kat-record "${r_records}/kat.json" --ab-tolerance ${NGCC_PERF_AB_TOLERANCE}
      --ab-confidence ${NGCC_PERF_AB_CONFIDENCE})
    set(fix "ngcc.build.plain.${r_id}.${r_key};ngcc.kat.${r_id}.${r_key}")
  endif()
  set(${out_args} "${args}" PARENT_SCOPE)
  set(${out_fixtures} "${fix}" PARENT_SCOPE)
endfunction()

function(ngcc_add_perf_tests n)
  foreach(f IN ITEMS id key zoo type ai blank records perf_reference)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  # a zoo variant is timed when it names a reference (same-run A/B) or
  # expects a perf verdict of its own ("expect": {"perf": ...}): a bug the
  # timed calls' checks must find. It is built to fail its KAT, so it is
  # measured anyway (the checks, not the KAT verdict, must give the verdict).
  ngcc_iget(${n} expect_perf zoo_expect)
  set(zoo_anyway OFF)
  if(zoo AND perf_reference STREQUAL "")
    if(zoo_expect STREQUAL "")
      return() # other zoo variants prove other labels' checks; timing them proves nothing
    endif()
    set(zoo_anyway ON)
  endif()
  set(anyway_arg)
  if(zoo_anyway AND NOT NGCC_TIME_ANYWAY)
    set(anyway_arg --time-anyway)
  endif()
  if(blank AND ai STREQUAL "AlgorithmInstance")
    message(STATUS "ngcc: ${id}/${key}: no perf tests: the untouched official template's operations are empty stubs")
    return()
  endif()
  ngcc_perf_common_args(${n} common)
  ngcc_perf_ab_args(${n} ab ab_fixtures)
  ngcc_expect(${n} perf PASS expect_all)
  ngcc_expect(${n} mem PASS expect_mem)
  ngcc_expect(${n} sizes PASS expect_sizes)
  ngcc_perf_ops(${type} ops)
  ngcc_kex_extra_passes(${n} ops)
  # override "perf": {"mode": "1x1"}: one trial of one call (the first) per operation
  ngcc_iget(${n} perf_mode mode)
  set(one_shot ${NGCC_PERF_ONE_SHOT_S})
  if(mode STREQUAL "1x1")
    set(one_shot 0)
  endif()
  foreach(op IN LISTS ops)
    # "expect": {"perf.sign": ...} for one operation, else "perf"
    # "none": no verdict of this operation holds reliably on the hosts the
    # suite runs on (e.g. a 6% slowdown against a 3% A/B tolerance): not registered
    ngcc_iget(${n} expect_perf.${op} expect)
    if(expect STREQUAL "none")
      message(STATUS "ngcc: ${id}/${key}: no perf/${id}/${key}/${op}: its expectation is \"none\"")
      continue()
    elseif(NOT expect)
      set(expect ${expect_all})
    endif()
    set(name "perf/${id}/${key}/${op}")
    add_test(NAME "${name}" COMMAND ngcc-perf ${common} --op ${op}
      --record-out "${records}/perf-${op}.json" --log "${records}/perf-${op}.child.log"
      --tolerance ${NGCC_PERF_TOLERANCE} --counter ${NGCC_PERF_COUNTER} --pin ${NGCC_PERF_PIN}
      --budget-s ${NGCC_PERF_BUDGET_S} --warmup-s ${NGCC_PERF_WARMUP_S} --trials ${NGCC_PERF_TRIALS}
      --iter-min ${NGCC_PERF_ITER_MIN} --iter-max ${NGCC_PERF_ITER_MAX} --one-shot-s ${one_shot}
      ${ab} ${anyway_arg} --expect ${expect})
    set(labels "perf;${id};${key};${op}")
    if(zoo)
      list(APPEND labels selftest)
    endif()
    if(zoo_anyway)
      ngcc_perf_props(${n} "${name}" "${labels}" ON)
    else()
      ngcc_perf_props(${n} "${name}" "${labels}")
    endif()
    set_tests_properties("${name}" PROPERTIES RUN_SERIAL TRUE)
    if(ab_fixtures)
      get_test_property("${name}" FIXTURES_REQUIRED fix)
      set_tests_properties("${name}" PROPERTIES FIXTURES_REQUIRED "${fix};${ab_fixtures}")
    endif()
    if(zoo)
      continue() # a zoo variant with a reference: only its same-run timing
    endif()

    # memory figures are per process and deterministic: no RUN_SERIAL needed
    set(name "mem/${id}/${key}/${op}")
    add_test(NAME "${name}" COMMAND ngcc-mem ${common} --op ${op}
      --record-out "${records}/mem-${op}.json" --log "${records}/mem-${op}.child.log"
      --tolerance ${NGCC_MEM_TOLERANCE} --rss-tolerance ${NGCC_RSS_TOLERANCE} --stack-mb ${NGCC_MEM_STACK_MB}
      --expect ${expect_mem})
    ngcc_perf_props(${n} "${name}" "perf;mem;${id};${key};${op}")
  endforeach()
  if(zoo)
    return()
  endif()
  set(name "sizes/${id}/${key}")
  add_test(NAME "${name}" COMMAND ngcc-sizes ${common}
    --record-out "${records}/sizes.json" --log "${records}/sizes.child.log"
    --tolerance ${NGCC_MEM_TOLERANCE} --expect ${expect_sizes})
  ngcc_perf_props(${n} "${name}" "perf;sizes;${id};${key}")
endfunction()

# system/info: the host the figures come from, records/system.json, written
# only by ngcc-system-info (tools/report/ngcc_system_info.c)
add_test(NAME system/info COMMAND ngcc-system-info --out ${CMAKE_BINARY_DIR}/records/system.json
  --system-id ${NGCC_SYSTEM} --counter ${NGCC_PERF_COUNTER}
  "--compiler=${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}" --cmake-version ${CMAKE_VERSION})
set_tests_properties(system/info PROPERTIES LABELS "perf;system" TIMEOUT 60)

# ---- benchmarks of the suite itself (label bench; -DNGCC_BENCH=ON) ----
# bench/perf/counters: overhead and resolution of every counter here.
# bench/perf/repeat/<idle|busy>/<case>: spread of ngcc-perf's medians over 5
#   runs, the other core idle or kept busy. bench/perf/ratio/<case>:
#   ngcc-perf's median over an independent minimal rdtsc loop's.
# Cases: the synthetic ~0.1 ms / 1 ms / 100 ms operations (bench/SYNTH) and
# fixture operations (registered with their instances).
function(ngcc_perf_bench_case label lib op fixtures)
  set(work "${CMAKE_BINARY_DIR}/bench/perf/${label}/${op}")
  foreach(mode idle busy)
    set(busy)
    if(mode STREQUAL "busy")
      set(busy --busy)
    endif()
    set(name "bench/perf/repeat/${mode}/${label}/${op}")
    add_test(NAME "${name}" COMMAND ngcc-bench repeat --perf $<TARGET_FILE:ngcc-perf> --lib "${lib}" --op ${op}
      --runs 5 ${busy} --budget-s ${NGCC_PERF_BUDGET_S} --work "${work}/${mode}" --out "${work}/repeat-${mode}.json")
    set_tests_properties("${name}" PROPERTIES LABELS "bench" RUN_SERIAL TRUE TIMEOUT 900
      FIXTURES_REQUIRED "${fixtures}")
  endforeach()
  set(name "bench/perf/ratio/${label}/${op}")
  # short rounds, many of them: the host's speed shifts over seconds, a
  # round's two measurements lie within about two seconds of each other
  add_test(NAME "${name}" COMMAND ngcc-bench ratio --perf $<TARGET_FILE:ngcc-perf> --lib "${lib}" --op ${op}
    --rounds 11 --budget-s 1 --work "${work}/ratio" --out "${work}/ratio.json")
  set_tests_properties("${name}" PROPERTIES LABELS "bench" RUN_SERIAL TRUE TIMEOUT 900
    FIXTURES_REQUIRED "${fixtures}")
endfunction()

# bench/perf/ab/aa: false alarms of the same-run A/B gate at
#   NGCC_PERF_AB_TOLERANCE over 20 runs, an identical copy of the synthetic
#   instance against it (verify, ~1 ms). bench/perf/ab/detect: its
#   detection rate over 10 runs for copies slowed by 1% ... 20%, and the
#   smallest slowdown detected in >= 90% of the runs.
function(ngcc_perf_ab_bench name runs budget out)
  set(cases)
  foreach(c IN LISTS ARGN)
    list(APPEND cases --case "s${c}=$<TARGET_FILE:ngcc_bench_synth_s${c}>")
  endforeach()
  add_test(NAME "${name}" COMMAND ngcc-bench ab --perf $<TARGET_FILE:ngcc-perf>
    --ref-lib $<TARGET_FILE:ngcc_bench_synth> ${cases} --op verify --runs ${runs} --budget-s ${budget}
    --ab-tolerance ${NGCC_PERF_AB_TOLERANCE} --pin ${NGCC_PERF_PIN} --work "${CMAKE_BINARY_DIR}/bench/perf/ab/${out}"
    --out "${CMAKE_BINARY_DIR}/bench/perf/ab/${out}.json")
endfunction()

if(NGCC_BENCH)
  add_test(NAME bench/perf/counters COMMAND ngcc-bench counters
    --out ${CMAKE_BINARY_DIR}/bench/perf/counters.json)
  set_tests_properties(bench/perf/counters PROPERTIES LABELS "bench" RUN_SERIAL TRUE TIMEOUT 60)
  foreach(op keygen verify sign)
    ngcc_perf_bench_case(SYNTH $<TARGET_FILE:ngcc_bench_synth> ${op} "")
  endforeach()
  ngcc_perf_ab_bench(bench/perf/ab/aa 20 1 aa 0)
  ngcc_perf_ab_bench(bench/perf/ab/detect 10 1 detect ${NGCC_BENCH_SLOWDOWNS})
  set_tests_properties(bench/perf/ab/aa bench/perf/ab/detect PROPERTIES LABELS "bench" RUN_SERIAL TRUE TIMEOUT 1800)
endif()

# selftest/bench-smoke/<name>: every benchmark command the README documents,
# with short budgets, so none of them rots (they prove it runs and writes
# its figures, not the figures themselves)
set(smoke "${CMAKE_BINARY_DIR}/selftest/bench-smoke")
add_test(NAME selftest/bench-smoke/counters COMMAND ngcc-bench counters --out "${smoke}/counters.json")
add_test(NAME selftest/bench-smoke/repeat COMMAND ngcc-bench repeat --perf $<TARGET_FILE:ngcc-perf>
  --lib $<TARGET_FILE:ngcc_bench_synth> --op keygen --runs 2 --budget-s 0.1 --work "${smoke}/repeat"
  --out "${smoke}/repeat.json")
add_test(NAME selftest/bench-smoke/ratio COMMAND ngcc-bench ratio --perf $<TARGET_FILE:ngcc-perf>
  --lib $<TARGET_FILE:ngcc_bench_synth> --op keygen --rounds 1 --budget-s 0.1 --work "${smoke}/ratio"
  --out "${smoke}/ratio.json")
add_test(NAME selftest/bench-smoke/ab COMMAND ngcc-bench ab --perf $<TARGET_FILE:ngcc-perf>
  --ref-lib $<TARGET_FILE:ngcc_bench_synth> --case "s0=$<TARGET_FILE:ngcc_bench_synth_s0>"
  --case "s200=$<TARGET_FILE:ngcc_bench_synth_s200>" --op verify --runs 1 --budget-s 0.2 --pin ${NGCC_PERF_PIN}
  --work "${smoke}/ab" --out "${smoke}/ab.json")
set_tests_properties(selftest/bench-smoke/counters selftest/bench-smoke/repeat selftest/bench-smoke/ratio
  selftest/bench-smoke/ab PROPERTIES LABELS "selftest;bench-smoke" RUN_SERIAL TRUE TIMEOUT 120)
# (selftest/bench-smoke/kat-overhead and the fixture cases of the benchmarks:
# tests/selftest/bench.cmake; the perf and resume selftests: tests/selftest/)


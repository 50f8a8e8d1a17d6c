# The perf label: per instance, one timing test per operation
# (perf/<cand>/<key>/<op>), one memory test per operation (mem/...) and one
# size test (sizes/<cand>/<key>), gated against the thresholds file of this
# system (tests/perf/thresholds/<NGCC_SYSTEM>.json, written by ngcc-baseline).
# Timing tests run alone (RUN_SERIAL) after the instance's build and KAT.

include(NgccPerfReference)

option(NGCC_TIME_ANYWAY "Also measure instances whose KAT did not pass (every record flags them)" OFF)
option(NGCC_BENCH "Register the benchmarks of the suite itself (label bench)" OFF)
# The default suits an evaluation host. The ci preset sets 0.75: on the shared
# 2-vCPU VMs of CI the host's speed shifts for seconds to minutes, whatever the
# VM itself runs, and whole runs' medians were measured up to 1.63 x the
# median of ten runs (0.5-6% otherwise); see the README.
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
if(TARGET ngcc-baseline)
  add_custom_target(perf-baseline
    COMMAND ngcc-baseline --records ${CMAKE_BINARY_DIR}/records --out ${NGCC_PERF_THRESHOLDS_FILE}
      --system ${NGCC_SYSTEM}
    COMMENT "Recording perf/mem/sizes baselines of ${NGCC_SYSTEM} into ${NGCC_PERF_THRESHOLDS_FILE}"
    VERBATIM USES_TERMINAL)
endif()

# Arguments every perf/mem/sizes driver gets for instance n.
function(ngcc_perf_common_args n out)
  foreach(f IN ITEMS id key root records kat_records memory_limit_mb)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  ngcc_timeout(${n} perf t)
  math(EXPR inner "${t} - 5")
  set(args --lib "${root}/libngcc_plain.so" --name "${id}/${key}"
    --build-record "${records}/build-plain.json" --kat-record "${records}/kat.json"
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
  set(fixtures "ngcc.build.plain.${id}.${key}")
  if(NOT NGCC_TIME_ANYWAY)
    list(APPEND fixtures "ngcc.kat.${id}.${key}")
  endif()
  # exit 77: the build test skipped the instance (the driver frame's SKIP)
  set_tests_properties("${name}" PROPERTIES LABELS "${labels}" FIXTURES_REQUIRED "${fixtures}" TIMEOUT ${t}
    SKIP_RETURN_CODE 77)
  if(NGCC_TIME_ANYWAY)
    set_tests_properties("${name}" PROPERTIES DEPENDS "kat/${id}/${key}")
  endif()
endfunction()

function(ngcc_perf_ops type out)
  if(type STREQUAL "KEM")
    set(${out} keygen enc dec PARENT_SCOPE)
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
  if(COMMAND ngcc_add_perf_selftests AND zoo STREQUAL "slow-sign")
    ngcc_add_perf_selftests(${n})
    return()
  endif()
  if(zoo AND perf_reference STREQUAL "")
    return() # other zoo variants prove other labels' checks; timing them proves nothing
  endif()
  if(blank AND ai STREQUAL "AlgorithmInstance")
    message(STATUS "ngcc: ${id}/${key}: no perf tests: the untouched official template's operations are empty stubs")
    return()
  endif()
  if(NOT zoo)
    ngcc_perf_bench_instance(${n})
    ngcc_bench_smoke_kat_overhead(${id} ${key})
  endif()
  ngcc_perf_common_args(${n} common)
  ngcc_perf_ab_args(${n} ab ab_fixtures)
  ngcc_expect(${n} perf PASS expect_all)
  ngcc_expect(${n} mem PASS expect_mem)
  ngcc_expect(${n} sizes PASS expect_sizes)
  ngcc_perf_ops(${type} ops)
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
      ${ab} --expect ${expect})
    set(labels "perf;${id};${key};${op}")
    if(zoo)
      list(APPEND labels selftest)
    endif()
    ngcc_perf_props(${n} "${name}" "${labels}")
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

# Selftests of the perf label, registered with the zoo variant "slow-sign"
# (sign ~19% slower, same output) of the fixture it derives from:
# selftest/perf/gate (the absolute gate on one measurement), selftest/perf/ab
# (slow-sign and the identical "copy" variant against the fixture in the
# same run) and selftest/perf/errors (tests/perf/perf_selftest.cmake),
# which also uses the fixture's crash-mlen80 / hang-record / sign-len-over
# variants if present, and the mem and sizes gate selftests.
function(ngcc_add_perf_selftests n)
  foreach(f IN ITEMS id key root records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  string(REPLACE "~slow-sign" "" pkey "${key}")
  ngcc_find_instance(${id} ${pkey} p)
  if(p STREQUAL "")
    message(WARNING "ngcc: ${id}/${key}: no parent instance ${id}/${pkey}; perf selftests not registered")
    return()
  endif()
  ngcc_iget(${p} root proot)
  set(script ${PROJECT_SOURCE_DIR}/tests/perf/perf_selftest.cmake)
  set(common -DPERF=$<TARGET_FILE:ngcc-perf> -DBASELINE=$<TARGET_FILE:ngcc-baseline>
    "-DLIB=${proot}/libngcc_plain.so" "-DNAME=${id}/${pkey}")
  add_test(NAME selftest/perf/gate COMMAND ${CMAKE_COMMAND} -DSCENARIO=gate ${common}
    "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-gate" -P ${script})
  set_tests_properties(selftest/perf/gate PROPERTIES LABELS "selftest;perf" RUN_SERIAL TRUE TIMEOUT 240
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${pkey}")
  # the same-run A/B gate: slow-sign (REGRESSION) and the identical copy (PASS)
  ngcc_find_instance(${id} "${pkey}~copy" c)
  if(NOT c STREQUAL "")
    ngcc_iget(${c} root croot)
    ngcc_iget(${c} records crecords)
    ngcc_iget(${p} records precords)
    add_test(NAME selftest/perf/ab COMMAND ${CMAKE_COMMAND} -DSCENARIO=ab ${common}
      "-DSLOW_LIB=${root}/libngcc_plain.so" "-DSLOW_NAME=${id}/${key}" "-DSLOW_KAT=${records}/kat.json"
      "-DCOPY_LIB=${croot}/libngcc_plain.so" "-DCOPY_NAME=${id}/${pkey}~copy" "-DCOPY_KAT=${crecords}/kat.json"
      "-DREF_KAT=${precords}/kat.json" -DBUDGET=6
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-ab" -P ${script})
    set_tests_properties(selftest/perf/ab PROPERTIES LABELS "selftest;perf" RUN_SERIAL TRUE TIMEOUT 240
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${pkey};ngcc.kat.${id}.${pkey};ngcc.build.plain.${id}.${key};ngcc.kat.${id}.${key};ngcc.build.plain.${id}.${pkey}~copy;ngcc.kat.${id}.${pkey}~copy")
  endif()

  set(fixtures "ngcc.build.plain.${id}.${pkey}")
  set(zoo_args)
  foreach(v IN ITEMS crash-mlen80:CRASH_LIB hang-record:HANG_LIB sign-len-over:LENOVER_LIB)
    string(REPLACE ":" ";" v "${v}")
    list(GET v 0 vname)
    list(GET v 1 var)
    ngcc_find_instance(${id} "${pkey}~${vname}" z)
    if(NOT z STREQUAL "")
      ngcc_iget(${z} root zroot)
      list(APPEND zoo_args "-D${var}=${zroot}/libngcc_plain.so")
      list(APPEND fixtures "ngcc.build.plain.${id}.${pkey}~${vname}")
    endif()
  endforeach()
  add_test(NAME selftest/perf/errors COMMAND ${CMAKE_COMMAND} -DSCENARIO=errors ${common} ${zoo_args}
    "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-errors" -P ${script})
  set_tests_properties(selftest/perf/errors PROPERTIES LABELS "selftest;perf" TIMEOUT 120
    FIXTURES_REQUIRED "${fixtures}")

  ngcc_add_resume_selftests(${id} ${pkey} ${proot})

  # memory and size gates: the fixture's taller-tree sibling (more stack, a
  # longer signature) against the fixture's baseline
  ngcc_find_instance(${id} WOTS-192 sib)
  if(NOT id STREQUAL "fx-wots" OR sib STREQUAL "")
    return()
  endif()
  ngcc_iget(${sib} root sroot)
  set(pair "-DLIB2=${sroot}/libngcc_plain.so" "-DNAME2=${id}/WOTS-192")
  set(fixtures "ngcc.build.plain.${id}.${pkey};ngcc.build.plain.${id}.WOTS-192")
  add_test(NAME selftest/perf/mem COMMAND ${CMAKE_COMMAND} -DSCENARIO=mem ${common} ${pair}
    -DMEM=$<TARGET_FILE:ngcc-mem> "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-mem" -P ${script})
  set(lenover)
  ngcc_find_instance(${id} "${pkey}~sign-len-over" z)
  if(NOT z STREQUAL "")
    ngcc_iget(${z} root zroot)
    set(lenover "-DLENOVER_LIB=${zroot}/libngcc_plain.so")
    list(APPEND fixtures "ngcc.build.plain.${id}.${pkey}~sign-len-over")
  endif()
  add_test(NAME selftest/perf/sizes COMMAND ${CMAKE_COMMAND} -DSCENARIO=sizes ${common} ${pair} ${lenover}
    -DSIZES=$<TARGET_FILE:ngcc-sizes> "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-sizes" -P ${script})
  set_tests_properties(selftest/perf/mem selftest/perf/sizes PROPERTIES LABELS "selftest;perf" TIMEOUT 120
    FIXTURES_REQUIRED "${fixtures}")
endfunction()

# selftest/resume/<label>: every driver on the shared frame keeps a finished
# record on a rerun with unchanged inputs and runs again when one changes
# (tests/perf/resume_selftest.cmake), on the fixture id/key (library folder
# root): perf, mem, sizes, kat, security, and prof, memcheck and sanitizer
# (the security-asan mode) when registered. security and sanitizer plan a
# budget from a KAT record the script writes (KAT_JSON): a rewrite that changes
# only its timestamps keeps the record, a changed op_seconds runs again.
function(ngcc_add_resume_selftests id key root)
  set(script ${PROJECT_SOURCE_DIR}/tests/perf/resume_selftest.cmake)
  set(dir ${CMAKE_BINARY_DIR}/selftest/resume)
  set(lib ${root}/libngcc_plain.so)
  set(base "--lib|${lib}|--name|${id}/${key}")
  set(fix "ngcc.build.plain.${id}.${key}")
  set(runs
    "perf|ngcc-perf|${base}|--op|verify|--budget-s|0.05|--warmup-s|0|--trials|3|--pin|none"
    "mem|ngcc-mem|${base}|--op|verify"
    "sizes|ngcc-sizes|${base}"
    "kat|ngcc-kat|${base}|--records|2")
  if(TARGET ngcc-prof)
    list(APPEND runs "prof|ngcc-prof|--lib|${root}/libngcc_prof.so|--name|${id}/${key}|--op|verify|--records|2|--max-reps|2")
    list(APPEND fix "ngcc.build.prof.${id}.${key}")
  endif()
  set(sec "--keys|2|--kat-records|2|--budget|600")
  list(APPEND runs "security|ngcc-security|${base}|${sec}|--kat-record|${dir}/security-kat.json|--log-dir|${dir}/security.logs")
  set(envs "security|")
  if(NGCC_ASAN_RUNTIME)
    list(APPEND runs "sanitizer|ngcc-security|--lib|${root}/libngcc_asan.so|--name|${id}/${key}|--sanitizer|--max-flips|64|${sec}|--kat-record|${dir}/sanitizer-kat.json|--log-dir|${dir}/sanitizer.logs")
    string(REPLACE ";" "|" e "${NGCC_SANITIZER_ENV}")
    list(APPEND envs "sanitizer|${e}")
    list(APPEND fix "ngcc.build.asan.${id}.${key}")
  endif()
  if(TARGET ngcc-memcheck AND NGCC_VALGRIND)
    list(APPEND runs "memcheck|ngcc-memcheck|${base}|--valgrind|${NGCC_VALGRIND}|--suppressions|${PROJECT_SOURCE_DIR}/tests/security/valgrind.supp|--log|${dir}/memcheck.log")
  endif()
  set(names "")
  foreach(r IN LISTS runs)
    string(REPLACE "|" ";" parts "${r}")
    list(POP_FRONT parts label tool)
    string(REPLACE ";" "|" args "${parts}")
    set(rec "${dir}/${label}.json")
    set(extra "")
    if(tool STREQUAL "ngcc-security")
      set(mine ${envs})
      list(FILTER mine INCLUDE REGEX "^${label}[|]")
      string(REGEX REPLACE "^${label}[|]" "" e "${mine}")
      set(extra "-DKAT_JSON=${dir}/${label}-kat.json" "-DTOOL_ENV=${e}")
    endif()
    add_test(NAME selftest/resume/${label} COMMAND ${CMAKE_COMMAND} -DTOOL=$<TARGET_FILE:${tool}>
      "-DARGS=${args}|--record-out|${rec}" "-DRECORD=${rec}" ${extra} -P ${script})
    list(APPEND names selftest/resume/${label})
  endforeach()
  set_tests_properties(${names} PROPERTIES LABELS "selftest;resume" TIMEOUT 300 FIXTURES_REQUIRED "${fix}")
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
# the README's kat-overhead command, as written, on fx-wots/WOTS-192 (when that fixture is built)
function(ngcc_bench_smoke_kat_overhead id key)
  if(NOT id STREQUAL "fx-wots" OR NOT key STREQUAL "WOTS-192")
    return()
  endif()
  add_test(NAME selftest/bench-smoke/kat-overhead COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR}
    -DCAND=fx-wots -DINST=WOTS-192 -DREPEAT=1 -P ${PROJECT_SOURCE_DIR}/tools/bench/kat-overhead.cmake)
  set_tests_properties(selftest/bench-smoke/kat-overhead PROPERTIES LABELS "selftest;bench-smoke" RUN_SERIAL TRUE
    TIMEOUT 300 FIXTURES_REQUIRED "ngcc.build.plain.fx-wots.WOTS-192")
endfunction()

# fixture operations of the benchmarks, by instance
set(NGCC_PERF_BENCH_CASES "fx-wots/WOTS-128:sign" "fx-wots/WOTS-128:verify" "fx-xkem/XKEM-128:dec"
  "fx-xkem/XKEM-128:enc")
function(ngcc_perf_bench_instance n)
  if(NOT NGCC_BENCH)
    return()
  endif()
  foreach(f IN ITEMS id key root)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  foreach(c IN LISTS NGCC_PERF_BENCH_CASES)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 inst)
    list(GET c 1 op)
    if(inst STREQUAL "${id}/${key}")
      ngcc_perf_bench_case(${id}-${key} "${root}/libngcc_plain.so" ${op}
        "ngcc.build.plain.${id}.${key};ngcc.kat.${id}.${key}")
    endif()
  endforeach()
endfunction()

# selftest/campaign/eta (cmake -P): the campaign's predictions from measured
# op times (cmake/NgccEta.cmake) on a records folder made here: the number
# parsing, a test's predicted time per kind (overhead x machine percent +
# work), a label's wall time, the measured/predicted ratio, times.txt's table
# (a missing label or a malformed line stops it) and ngcc-eta-watch's ETA.
#   -DSRC=<source> -DWORK=<scratch> -DWATCH=<ngcc-eta-watch>
#   (-DMODE=table -DFILE=<times.txt> -DLABELS=<a;b>: only the table, for the failing cases)
cmake_minimum_required(VERSION 3.25)
include("${SRC}/cmake/NgccEta.cmake")
# the arithmetic below is checked with these overheads (ms), whatever the calibration holds
foreach(kv kat=150 security=2000 security-asan=6500 rerun=100 rerun-build=2500 memcheck=5000 ct=4000 perf=500
    other=300 resumed=100 icount=2500 mem=900)
  string(REGEX MATCH "^[^=]+" k "${kv}")
  string(REGEX REPLACE "^[^=]+=" "" v "${kv}")
  set(NGCC_ETA_OVERHEAD_MS_${k} ${v})
endforeach()
set(NGCC_ETA_BUILD_VARIANT_PER_PLAIN_PCT 160)
set(NGCC_ETA_BUILD_PCT_ct 80)

if(MODE STREQUAL "table")
  ngcc_eta_times_table("${FILE}" "${LABELS}" t)
  message("${t}")
  return()
endif()

set(failures "")
function(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    set(failures "${failures}  ${what}: got '${got}', want '${want}'\n" PARENT_SCOPE)
  endif()
endfunction()

# ---- seconds -> microseconds ----
foreach(c "3e-05=30" "0.019050315999720624=19050" "12=12000000" "1.5E+01=15000000" "0.2=200000" "abc=" "2.5e-07=0")
  string(REGEX MATCH "^[^=]+" num "${c}")
  string(REGEX REPLACE "^[^=]+=" "" want "${c}")
  ngcc_eta_us("${num}" got)
  expect("ngcc_eta_us(${num})" "${got}" "${want}")
endforeach()

# ---- a records folder and a build cache ----
file(REMOVE_RECURSE "${WORK}")
set(records "${WORK}/records")
file(WRITE "${records}/c1/SIG-1/kat.json" [=[{"kind": "kat", "records_run": 10, "op_seconds": {
  "keygen": {"max": 0.02, "median": 0.01, "n": 10}, "sign": {"max": 0.03, "median": 0.02, "n": 10},
  "verify": {"max": 5e-05, "median": 3e-05, "n": 10}}}]=])
file(WRITE "${records}/c1/KEM-1/kat.json" [=[{"kind": "kat", "records_run": 2, "op_seconds": {
  "keygen": {"max": 1, "median": 1, "n": 2}, "enc": {"max": 40, "median": 1.5, "n": 2},
  "dec": {"max": 1, "median": 1, "n": 2}}}]=])
file(MAKE_DIRECTORY "${records}/c1/NOKAT")
file(WRITE "${records}/c1/HASH-1/kat-2_12.json" [=[{"kind": "kat", "records_complete": 4097, "cpu_seconds": 0.031,
  "hashing": {"calls": 4097, "bits": 8390656, "hash_seconds": 0.006428}}]=])
file(WRITE "${records}/c3/H/kat-2_12.json" [=[{"kind": "kat", "records_complete": 1, "cpu_seconds": 0.001}]=])
file(WRITE "${WORK}/build/CMakeCache.txt" "NGCC_SECURITY_SCALE_S:STRING=3\nNGCC_PERF_BUDGET_S:STRING=2\n")
ngcc_eta_settings("${WORK}/build")
expect("settings: security scale" "${cfg_NGCC_SECURITY_SCALE_S}" 3)
expect("settings: perf budget (us)" "${cfg_NGCC_PERF_BUDGET_US}" 2000000)
expect("settings: default security budget" "${cfg_NGCC_SECURITY_BUDGET}" 600)

ngcc_eta_kat_costs("${records}" c1/SIG-1)
expect("SIG-1 has op times" "${eta_ok}" TRUE)
expect("SIG-1 one record (us, medians)" "${eta_rec}" 30030)
expect("SIG-1 one record (us, maxima)" "${eta_recmax}" 50050)
expect("SIG-1 records" "${eta_records}" 10)
expect("SIG-1 sign median" "${eta_op_sign}" 20000)
ngcc_eta_kat_costs("${records}" c1/KEM-1)
expect("KEM-1 one record (us, medians, maxima)" "${eta_rec} ${eta_recmax}" "3500000 42000000")
ngcc_eta_kat_costs("${records}" c1/HASH-1)
expect("HASH-1: one call (us, rounded up)" "${eta_ok} ${eta_rec} ${eta_recmax} ${eta_records}" "TRUE 8 16 4097")

# ---- what kat's JUnit teaches; overheads at twice the calibrated ones (NGCC_ETA_MACHINE_PCT=200) ----
file(WRITE "${WORK}/kat.xml" "<testsuite>\n<testcase name=\"kat/c1/SIG-1\" classname=\"kat\" time=\"0.6003\" status=\"run\">\n"
  "<testcase name=\"build/c1/SIG-1\" classname=\"build\" time=\"20\" status=\"run\">\n</testsuite>\n")
ngcc_eta_junit("${WORK}/kat.xml" times)
expect("JUnit times" "${times}" "kat/c1/SIG-1=600300;build/c1/SIG-1=20000000")
ngcc_eta_learn(kat "${WORK}/kat.xml" "${records}")
expect("after kat: measured" "${eta_measured}" TRUE)
set(eta_machine 200)
expect("SIG-1's plain build (us)" "${eta_build_c1_SIG_1}" 20000000)
expect("mean plain build (us)" "${eta_build_mean}" 20000000)
expect("kat/c1/SIG-1 ran" "${eta_ran_kat_c1_SIG_1}" TRUE)

# ---- one test: overhead x 2 + work ----
foreach(c
    # 2000 ms x 2 + 20 records x 50050 us (maxima) + 3 s of honest scale
    "security/c1/SIG-1=8001000"
    # 6500 ms x 2 + 20 x 50050 x 2 (ASan) + 1 s
    "security-asan/c1/SIG-1=16002000"
    # a hash instance: no honest flows; 2000 ms x 2 + 20 x 16 us
    "security/c1/HASH-1=4000320"
    # 5000 ms x 2 + 1 record x 30030 x 20 (valgrind)
    "memcheck/c1/SIG-1=10600600"
    # 500 ms x 2 + max(21 trials x 20000, 2 s budget) + 0.2 s warm-up
    "perf/c1/SIG-1/sign=3200000"
    # 4000 ms x 2 + 10% of one record (30030 us) x 60 (memcheck with origins)
    "ct/c1/SIG-1=8180180"
    # the plain build measured by kat (20 s) x 1.6
    "build/c1/SIG-1/asan=32000000"
    # a fixture test an earlier label ran (eta_ran_*): a reused record, 100 ms x 2
    "kat/c1/SIG-1=200000"
    # an up-to-date build: 2500 ms x 2
    "build/c1/SIG-1=5000000"
    # the ct build: 80% of the plain one
    "build/c1/SIG-1/ct=16000000"
    # a plain build kat did not run: the mean of those it measured x 1.6
    "build/c1/KEM-1=32000000"
    # 20 x 42 s planned down to the 600-s budget, + 3 s + 4 s
    "security/c1/KEM-1=607000000"
    # ct predicted above its 30-s budget: skipped at once, overhead only
    "ct/c1/KEM-1=8000000"
    # perf: 21 trials of a 1.5-s enc exceed the 2-s budget
    "perf/c1/KEM-1/enc=32700000"
    # no kat record: the overhead only
    "memcheck/c1/NOKAT=10000000"
    "system/info=600000"
    # a variant kat did not run: the op times of the instance it varies, 2500 ms x 2 + 2 x 20000 us x 30,
    # twice: icount counts the instance beside it (its reference)
    "icount/c1/SIG-1~var/sign=12400000"
    # a hash length: 1 MiB at kat's speed (8390656 bits in 6428 us) is 6427 us a call; 900 ms x 2 + 10 calls
    "mem/c1/HASH-1/hash-1048576=1864270"
    # a candidate-wide test of a hash candidate: no honest flows, 2000 ms x 2
    "security/c3/hash-widths=4000000")
  string(REGEX MATCH "^[^=]+" t "${c}")
  string(REGEX REPLACE "^[^=]+=" "" want "${c}")
  ngcc_eta_test_us("${records}" "${t}" got)
  expect("predicted us of ${t}" "${got}" "${want}")
endforeach()

# ---- a resumed campaign: a record from before it is reused (overhead only), unless kat.json is newer ----
string(TIMESTAMP now "%s" UTC)
math(EXPR since "${now} + 100")
file(WRITE "${records}/c1/SIG-1/security.json" "{}")
file(WRITE "${records}/c1/SIG-1/memcheck.json" "{}")
file(WRITE "${records}/c1/SIG-1/perf-sign.json" "{}")
file(WRITE "${records}/c1/NOKAT/memcheck.json" "{}")
file(WRITE "${records}/c1/NOKAT/build-plain.json" "{}")
set(eta_resume_since ${since})
foreach(c "security/c1/SIG-1=200000" "memcheck/c1/SIG-1=200000" "perf/c1/SIG-1/sign=200000"
    "perf/c1/SIG-1/keygen=3200000" # no record of its own: runs
    "security-asan/c1/SIG-1=16002000" # its record (sanitizer.json) is missing: runs
    "memcheck/c1/NOKAT=200000") # a variant without kat: its plain build record is the anchor
  string(REGEX MATCH "^[^=]+" t "${c}")
  string(REGEX REPLACE "^[^=]+=" "" want "${c}")
  ngcc_eta_test_us("${records}" "${t}" got)
  expect("resumed campaign: predicted us of ${t}" "${got}" "${want}")
endforeach()
math(EXPR later "${since} + 100")
execute_process(COMMAND touch -d "@${later}" "${records}/c1/SIG-1/kat.json" RESULT_VARIABLE rc)
expect("touch -d (rc)" "${rc}" 0)
ngcc_eta_test_us("${records}" "security/c1/SIG-1" got)
expect("kat.json rewritten by this campaign (a rebuilt library): security runs" "${got}" 8001000)
execute_process(COMMAND touch -d "@${later}" "${records}/c1/NOKAT/build-plain.json")
ngcc_eta_test_us("${records}" "memcheck/c1/NOKAT" got)
expect("a variant rebuilt by this campaign: memcheck runs" "${got}" 10000000)
set(eta_resume_since "")
ngcc_eta_test_us("${records}" "memcheck/c1/SIG-1" got)
expect("not resuming (RESUME=OFF): memcheck runs" "${got}" 10600600)
file(REMOVE "${records}/c1/SIG-1/security.json" "${records}/c1/SIG-1/memcheck.json" "${records}/c1/SIG-1/perf-sign.json"
  "${records}/c1/NOKAT/memcheck.json" "${records}/c1/NOKAT/build-plain.json")

# ---- a build whose record and its plain one predate the campaign is up to date; a rebuilt plain one is not ----
set(eta_campaign_since ${since})
file(WRITE "${records}/c1/KEM-1/build-asan.json" "{}")
file(WRITE "${records}/c1/KEM-1/build-plain.json" "{}")
ngcc_eta_test_us("${records}" "build/c1/KEM-1/asan" got)
expect("an up-to-date ASan build: 2500 ms x 2" "${got}" 5000000)
execute_process(COMMAND touch -d "@${later}" "${records}/c1/KEM-1/build-plain.json")
ngcc_eta_test_us("${records}" "build/c1/KEM-1/asan" got)
expect("its plain build rewritten by this campaign: a real build, the mean plain build x 1.6" "${got}" 32000000)
set(eta_campaign_since "")
file(REMOVE "${records}/c1/KEM-1/build-asan.json" "${records}/c1/KEM-1/build-plain.json")

# ---- the machine factor: ngcc-eta-probe over the calibration probe; no probe or a failing one: "" and why ----
ngcc_eta_probe("${WORK}/no-build" 2 pct why)
expect("no probe built: factor" "${pct}" "")
if(NOT why MATCHES "no .*/no-build/tools/ngcc-eta-probe \\(build the tree first\\)")
  string(APPEND failures "  no probe: note '${why}'\n")
endif()
file(WRITE "${WORK}/bad-build/tools/ngcc-eta-probe" "#!/bin/sh\necho 'cannot write /tmp' >&2\nexit 3\n")
file(CHMOD "${WORK}/bad-build/tools/ngcc-eta-probe" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
ngcc_eta_probe("${WORK}/bad-build" 2 pct why)
expect("a failing probe: factor" "${pct}" "")
expect("a failing probe: note" "${why}" "ngcc-eta-probe failed (3): cannot write /tmp")
file(WRITE "${WORK}/fixed-build/tools/ngcc-eta-probe" "#!/bin/sh\necho probe_us $((${NGCC_ETA_PROBE_REF_US} * 3 / 2))\n")
file(CHMOD "${WORK}/fixed-build/tools/ngcc-eta-probe" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
ngcc_eta_probe("${WORK}/fixed-build" 2 pct why)
expect("a probe 1.5 x the calibration one: factor (%)" "${pct}" 150)
file(WRITE "${WORK}/fixed-build/tools/ngcc-eta-probe" "#!/bin/sh\necho probe_us 1\n")
ngcc_eta_probe("${WORK}/fixed-build" 2 pct why)
expect("a probe far below the calibration: factor clamped (%)" "${pct}" 25)
file(MAKE_DIRECTORY "${WORK}/real-build/tools")
file(COPY "${PROBE}" DESTINATION "${WORK}/real-build/tools")
ngcc_eta_probe("${WORK}/real-build" 2 pct why)
if(NOT pct MATCHES "^[0-9]+$" OR pct LESS 25 OR pct GREATER 2000 OR NOT why MATCHES "^probe [0-9]+ us at -j2")
  string(APPEND failures "  the real probe: factor '${pct}', note '${why}'\n")
endif()

# a build folder built before: kat's builds (mean 2 s) took less than 1.5 up-to-date builds (1.5 x 5 s): no x 1.6
set(eta_build_mean 2000000)
ngcc_eta_test_us("${records}" "build/c1/KEM-1/asan" got)
expect("a variant in a folder built before" "${got}" 2000000)
set(eta_build_mean 20000000)

# ---- a label: the sum over -j, at least the longest test; the per-test file ----
ngcc_eta_label_s("${records}" "memcheck/c1/SIG-1;memcheck/c1/NOKAT" 1 s "${WORK}/eta-memcheck.txt")
expect("memcheck label at -j1 (s): 20.6006 rounded" "${s}" 21)
expect("memcheck label at -j1 (tenths of a second)" "${s_ds}" 206)
ngcc_eta_ds_text(${s_ds} txt)
expect("20.6 s as text" "${txt}" "20.6")
ngcc_eta_ds_text(7 txt)
expect("0.7 s as text" "${txt}" "0.7")
file(READ "${WORK}/eta-memcheck.txt" listing)
expect("per-test predictions" "${listing}" "memcheck/c1/SIG-1 10600600\nmemcheck/c1/NOKAT 10000000\n")
ngcc_eta_label_s("${records}" "security/c1/SIG-1;memcheck/c1/NOKAT" 2 s)
expect("security label at -j2: its longest test (s)" "${s}" 10)
# a small label waits for its fixtures: the up-to-date build (5 s) and the reused kat record (0.2 s), then
# its 3 icount tests over 2 jobs (16.8 s / 2): 13.6 s, where the sum over the jobs says 11.0 s
ngcc_eta_label_s("${records}"
  "build/c1/SIG-1;kat/c1/SIG-1;icount/c1/SIG-1/keygen;icount/c1/SIG-1/sign;icount/c1/SIG-1/verify" 2 s)
expect("icount label at -j2 (tenths): one instance's chain" "${s_ds}" 136)

# ---- measured/predicted ----
foreach(c "1288;82;15.71" "9;12;0.75" "10;0;-" "100;100;1.00" "1;20;0.05")
  list(GET c 0 m)
  list(GET c 1 p)
  list(GET c 2 want)
  ngcc_eta_ratio(${m} ${p} got)
  expect("ratio ${m}/${p}" "${got}" "${want}")
endforeach()

# ---- times.txt: the table; a missing label and a malformed line stop it ----
file(WRITE "${WORK}/times.txt" "${NGCC_ETA_TIMES_HEADER}\nkat 16 1288 82 15.71 static\nsecurity 16 900 840 1.07 measured\n"
  "prof 6 1.4 1.6 0.88 measured\n")
ngcc_eta_times_table("${WORK}/times.txt" "kat;security;prof" table)
if(NOT table MATCHES "measured_s  predicted_s  measured/predicted  basis\n  kat +16 +1288 +82 +15\\.71 +static\n  security +16 +900 +840 +1\\.07 +measured\n  prof +6 +1\\.4 +1\\.6 +0\\.88 +measured\n$")
  string(APPEND failures "  times table:\n${table}\n")
endif()
file(WRITE "${WORK}/bad.txt" "${NGCC_ETA_TIMES_HEADER}\nkat 16 1288 82 15.71\n")
foreach(c "times.txt|kat\\;security\\;memcheck|no line for label memcheck" "bad.txt|kat|malformed line 'kat 16 1288 82 15.71'")
  string(REPLACE "|" ";" c "${c}")
  list(GET c 0 f)
  list(GET c 1 labels)
  list(GET c 2 want)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${SRC} -DMODE=table "-DFILE=${WORK}/${f}" "-DLABELS=${labels}"
    -P "${CMAKE_CURRENT_LIST_FILE}" RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  string(REGEX REPLACE "[ \n]+" " " o "${o}") # CMake wraps long messages
  if(rc EQUAL 0 OR NOT o MATCHES "${want}")
    string(APPEND failures "  ${f} with labels ${labels}: rc ${rc}, expected a failure naming '${want}':\n${o}\n")
  endif()
endforeach()

# ---- ngcc-eta-watch: ctest's lines through, the ETA after each test (-every-s 0) ----
file(WRITE "${WORK}/eta-perf.txt" "perf/c/a/x 2000000\nperf/c/a/y 2000000\nperf/c/a/z 4000000\n")
file(WRITE "${WORK}/ctest.out" "Test project /b\n"
  "    Start  7: perf/c/a/x\n"
  "1/3 Test  #7: perf/c/a/x .......................   Passed    4.00 sec\n"
  "2/3 Test  #8: perf/c/a/y .......................***Failed    2.00 sec\n"
  "3/3 Test  #9: perf/c/a/z .......................   Passed    5.50 sec\n"
  "100% tests passed\n")
execute_process(COMMAND "${WATCH}" --predicted "${WORK}/eta-perf.txt" --jobs 1 --later-s 60 --every-s 0
  INPUT_FILE "${WORK}/ctest.out" OUTPUT_VARIABLE o RESULT_VARIABLE rc)
# after x: 4 s / 2 s predicted = 2.00, (8 - 2) x 2 = 12 s left; after y: 6/4, 4 x 1.5 = 6 s; after z: 0 s
set(want "Test project /b\n    Start  7: perf/c/a/x\n1/3 Test  #7: perf/c/a/x .......................   Passed    4.00 sec\n"
  "[ngcc eta] 1 tests done (measured/predicted 2.00): this label ~12 s left, the campaign ~1 min 12 s\n"
  "2/3 Test  #8: perf/c/a/y .......................***Failed    2.00 sec\n"
  "[ngcc eta] 2 tests done (measured/predicted 1.50): this label ~6 s left, the campaign ~1 min 6 s\n"
  "3/3 Test  #9: perf/c/a/z .......................   Passed    5.50 sec\n"
  "[ngcc eta] 3 tests done (measured/predicted 1.44): this label ~0 s left, the campaign ~1 min 0 s\n"
  "100% tests passed\n")
string(CONCAT want ${want})
expect("ngcc-eta-watch (rc ${rc})" "${o}" "${want}")

if(failures)
  message(FATAL_ERROR "selftest/campaign/eta:\n${failures}")
endif()
message("selftest/campaign/eta: predictions, times.txt and ngcc-eta-watch as computed by hand")

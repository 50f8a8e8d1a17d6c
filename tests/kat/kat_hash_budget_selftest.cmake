# selftest/kat/hash-budget (cmake -P): KAT_2_33 and KAT_Loop of a hash
# instance are predicted before they start (kat_hash_speed.h), and a
# prediction x 2 above the cap is SKIP naming the prediction and the command,
# decided before any hashing:
#   records: the slow zoo (fx-hash FXH-256~slow, a few MB/s), KAT_Loop from
#            its own kat-2_12/2_23 records, cap 20 s -> SKIP with the command;
#   probe:   the same library without records, KAT_2_33 -> a speed probe, SKIP;
#   perf:    ngcc-perf's hash-1048576 of the slow zoo under a 1 s timeout:
#            SKIP with the predicted call (perf_hash_budget.h);
#   fits:    FXH-256's own kat/.../loop record: predicted from its records
#            well under the cap, run, PASS.
# -D inputs: KAT (ngcc-kat-hash) PERF (ngcc-perf) SLOW_LIB SLOW_BUILD_RECORD SLOW_RECORDS
#            FAST_RECORDS WORK
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(case records probe)
  if(case STREQUAL "records")
    set(file loop)
    set(extra --speed-records "${SLOW_RECORDS}")
    set(want "SKIP: KAT_Loop would take ~[0-9]+ s at [0-9.e+-]+ MB/s \\(predicted from [^\n]*/kat-2_12.json and kat-2_23.json: [^\n]* x 10\\^6; x 2.0 margin: [0-9]+ s > cap 20 s\\); run: cmake -DNGCC_HASH_KAT_CAP_S=[0-9]+ ${WORK} && ctest --test-dir ${WORK} -R '\\^kat/selftest/records/loop\\$'")
    set(from records)
  else()
    set(file 2_33)
    set(extra)
    set(want "SKIP: KAT_2_33 would take ~[0-9]+ s at [0-9.e+-]+ MB/s \\(predicted from a speed probe \\(no KAT records given\\): [0-9]+-byte messages at [^\n]*, 3 GiB of them \\+ [^\n]* s for the 1 GiB DRNG draw; x 2.0 margin: [0-9]+ s > cap 20 s\\); run: cmake -DNGCC_HASH_KAT_CAP_S=")
    set(from probe)
  endif()
  string(TIMESTAMP t0 "%s")
  execute_process(COMMAND "${KAT}" --lib "${SLOW_LIB}" --name "selftest/${case}/${file}" --file ${file} ${extra}
    --record-out "${WORK}/${case}.json" --build-record "${SLOW_BUILD_RECORD}" --timeout 100
    --cap 20 --cap-knob cache --build-dir "${WORK}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(TIMESTAMP t1 "%s")
  if(NOT rc EQUAL 77 OR NOT out MATCHES "${want}")
    message(FATAL_ERROR "hash-budget/${case}: expected exit 77 and /${want}/, got exit ${rc}:\n${out}\n${err}")
  endif()
  file(READ "${WORK}/${case}.json" rec)
  string(JSON v GET "${rec}" verdict)
  string(JSON f GET "${rec}" prediction from)
  string(JSON d GET "${rec}" prediction decision)
  if(NOT v STREQUAL "SKIP" OR NOT f STREQUAL "${from}" OR NOT d STREQUAL "skip")
    message(FATAL_ERROR "hash-budget/${case}: the record says ${v}, prediction from ${f}, decision ${d}; expected SKIP, ${from}, skip")
  endif()
  math(EXPR took "${t1} - ${t0}")
  if(took GREATER 10)
    message(FATAL_ERROR "hash-budget/${case}: the SKIP took ${took} s: it must be decided before the file is hashed")
  endif()
  message(STATUS "hash-budget/${case}: SKIP as expected, predicted from ${from}, in ${took} s")
endforeach()
# perf: ngcc-perf's hash-1048576 of the slow zoo under a 1 s timeout: its
# call, predicted from the same records, does not fit twice x 2 -> SKIP
execute_process(COMMAND "${PERF}" --lib "${SLOW_LIB}" --name selftest/perf --build-record "${SLOW_BUILD_RECORD}"
  --kat-record "${SLOW_RECORDS}/kat-2_12.json" --timeout 1 --op hash-1048576 --record-out "${WORK}/perf.json"
  --expect SKIP RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(want "SKIP: one CryptHash call on 1048576 bytes would take ~[0-9.e+-]+ s at [0-9.e+-]+ MB/s \\(predicted from [^\n]*/kat-2_12.json and kat-2_23.json: [^\n]*\\); the measurement needs at least 2 [^\n]* > the 1 s timeout; run: raise this instance's \"timeouts\": {\"perf\": [0-9]+} override")
if(NOT rc EQUAL 77 OR NOT out MATCHES "${want}")
  message(FATAL_ERROR "hash-budget/perf: expected exit 77 and /${want}/, got exit ${rc}:\n${out}\n${err}")
endif()
message(STATUS "hash-budget/perf: SKIP as expected")
# fits: the fast instance's own KAT_Loop test ran under the default cap
file(READ "${FAST_RECORDS}/kat-loop.json" rec)
string(JSON v GET "${rec}" verdict)
string(JSON f GET "${rec}" prediction from)
string(JSON d GET "${rec}" prediction decision)
string(JSON p GET "${rec}" prediction seconds)
string(JSON c GET "${rec}" prediction cap_s)
if(NOT v STREQUAL "PASS" OR NOT f STREQUAL "records" OR NOT d STREQUAL "run")
  message(FATAL_ERROR "hash-budget/fits: ${FAST_RECORDS}/kat-loop.json says ${v}, prediction from ${f}, decision ${d}; expected PASS, records, run")
endif()
message(STATUS "hash-budget/fits: KAT_Loop predicted ~${p} s under the ${c} s cap, run, PASS")

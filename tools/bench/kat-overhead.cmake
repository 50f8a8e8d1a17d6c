# Benchmark: time of the KAT test (ngcc-kat: dlopen, child, pipe, streaming
# comparison, digests, record) against the instance's own generator program
# (tools/bench/kat_direct.c linked statically with the same objects) for the
# same 10 records, both run REPEAT times alternately; prints the medians and
# the ratio.   cmake -DBUILD=<build dir> -DCAND=fx-wots -DINST=WOTS-192 [-DREPEAT=7] -P kat-overhead.cmake
cmake_minimum_required(VERSION 3.25)
get_filename_component(src "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT REPEAT)
  set(REPEAT 7)
endif()
set(root "${BUILD}/instances/${CAND}/${INST}")
include("${root}/settings.cmake")
set(work "${BUILD}/bench/kat-overhead/${CAND}/${INST}")
file(MAKE_DIRECTORY "${work}")
# the direct program: instance sources + our iccs + glue + replay, -O2 like the library
set(defs "-DNGCC_CANDIDATE=\"${NGCC_CANDIDATE}\"" "-DNGCC_INSTANCE=\"${NGCC_INSTANCE}\""
  "-DNGCC_ALGORITHM_INSTANCE=\"${NGCC_ALGORITHM_INSTANCE}\"" "-DNGCC_TYPE=\"${NGCC_TYPE}\""
  "-DNGCC_IMPL_VARIANT=\"\"" "-DNGCC_BUILD_VARIANT=\"direct\"" "-DNGCC_FLAGSET=\"guide\""
  "-DNGCC_COMPILER=\"gcc\"" "-DNGCC_FLAGS=\"-O2\"" "-DNGCC_BLANK=${NGCC_BLANK}")
if(NGCC_TYPE STREQUAL "KEM")
  list(APPEND defs -DNGCC_DIRECT_KEM)
endif()
set(objs)
set(i 0)
foreach(s IN LISTS NGCC_SOURCES)
  math(EXPR i "${i} + 1")
  set(incs)
  foreach(d IN LISTS NGCC_INCLUDE_DIRS)
    list(APPEND incs "-I${d}")
  endforeach()
  execute_process(COMMAND gcc -O2 -std=gnu11 -c ${incs} -I${src}/iccs/include "${s}" -o "${work}/s${i}.o"
    COMMAND_ERROR_IS_FATAL ANY)
  list(APPEND objs "${work}/s${i}.o")
endforeach()
execute_process(COMMAND gcc -O2 -std=gnu11 ${defs} -I${src}/iccs/include -I${src}/iccs/src -I${src}/harness
  -I${src}/tests/kat ${objs}
  ${src}/iccs/src/drng.c ${src}/iccs/src/auxfunc.c ${src}/iccs/src/sm3.c ${src}/cmake/instance/ngcc_glue.c
  ${src}/tests/kat/kat_replay.c ${src}/tests/kat/kat_replay_kex.c ${src}/tools/bench/kat_direct.c
  # the rest of the replay's harness calls (guards, DRNG streams, child notes)
  # from the build's own harness library, so this list cannot go stale
  "${BUILD}/harness/libngcc_harness.a" -lcjson -lcrypto -ldl -o "${work}/kat_direct"
  COMMAND_ERROR_IS_FATAL ANY)

function(run_timed out)
  string(TIMESTAMP t0 "%s%f")
  execute_process(COMMAND ${ARGN} OUTPUT_QUIET ERROR_QUIET RESULT_VARIABLE rc)
  string(TIMESTAMP t1 "%s%f")
  math(EXPR us "${t1} - ${t0}")
  set(${out} ${us} PARENT_SCOPE)
endfunction()

set(d_times)
set(k_times)
foreach(r RANGE 1 ${REPEAT})
  run_timed(d "${work}/kat_direct" "${work}/KAT_direct.txt")
  run_timed(k "${BUILD}/tests/kat/ngcc-kat" --lib "${root}/libngcc_plain.so" --name bench
    --record-out "${work}/kat.json" --ref "${work}/KAT_direct.txt")
  list(APPEND d_times ${d})
  list(APPEND k_times ${k})
endforeach()
list(SORT d_times COMPARE NATURAL)
list(SORT k_times COMPARE NATURAL)
math(EXPR mid "${REPEAT} / 2")
list(GET d_times ${mid} dm)
list(GET k_times ${mid} km)
math(EXPR ratio1000 "${km} * 1000 / ${dm}")
math(EXPR ri "${ratio1000} / 1000")
math(EXPR rf "${ratio1000} % 1000")
string(LENGTH "${rf}" rfl)
if(rfl LESS 3)
  string(REPEAT "0" 3 z)
  math(EXPR pad "3 - ${rfl}")
  string(SUBSTRING "${z}" 0 ${pad} z)
  set(rf "${z}${rf}")
endif()
message("kat-overhead ${CAND}/${INST}: generator median ${dm} us, ngcc-kat median ${km} us, "
  "ratio ${ri}.${rf} (n=${REPEAT} each, alternated)")

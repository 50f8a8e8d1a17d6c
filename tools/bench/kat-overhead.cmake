# Benchmark: time of the KAT test (ngcc-kat: dlopen, child, pipe, streaming
# comparison, digests, record) against the instance's own generator program
# (tools/bench/kat_direct.c linked statically with the same objects) for the
# same 10 records, both run REPEAT times alternately; prints the medians and
# the ratio.   cmake -DBUILD=<build dir> -DCAND=fx-wots -DINST=WOTS-192 [-DREPEAT=7] -P kat-overhead.cmake
# ngcc-kat runs with the options the suite's kat test gives it (the child's
# log file, and the build's NGCC_MEMORY_LIMIT_MB as --mem-limit-mb, i.e. the
# RLIMIT_AS of the child), so the ratio is the one the kat label sees.
# Also printed: the ratio of the minimum times (min-of-N), the robust one on a
# shared machine, where noise only ever adds time. -DMAX_RATIO=1.05 fails the
# script when that min-of-N ratio is above it (bench/kat-overhead/*).
# Beside the process times, the time of one operation (-DOP=keygen) as both
# measure it around the call (its total over the records of a run: "#T"
# lines; the kat record's op_seconds.<op>.total): the ratio without the fixed cost of a
# process (start, fork, sandbox, record), which is what an instance's timed
# and budgeted labels inherit. MAX_RATIO gates this one's min-of-N.
# -DKAT_ENV="VAR=value;..." sets variables for the ngcc-kat runs only: the
# selftest that shows the gate fails when the child's malloc is slowed.
# Last, the operation's time record by record and its max/min: at 2x or more
# the operation's work depends on the seed (retries), and the script says
# that only a same-seed comparison measures overhead.
cmake_minimum_required(VERSION 3.25)
get_filename_component(src "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT REPEAT)
  set(REPEAT 7)
endif()
if(NOT OP)
  set(OP keygen)
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
  foreach(d IN LISTS NGCC_DEFINES) # a variant's defines (a zoo variant is its instance plus these)
    list(APPEND incs "-D${d}")
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

# the memory limit the suite's kat tests get (cmake/NgccDiscover.cmake)
set(kat_limit)
file(STRINGS "${BUILD}/CMakeCache.txt" mem_line REGEX "^NGCC_MEMORY_LIMIT_MB:")
if(mem_line MATCHES "=([0-9]+)$" AND NOT CMAKE_MATCH_1 EQUAL 0)
  set(kat_limit --mem-limit-mb ${CMAKE_MATCH_1})
endif()

# (no extra exec in front of ngcc-kat unless asked: it would add to its time)
set(kat_prefix)
if(KAT_ENV)
  set(kat_prefix ${CMAKE_COMMAND} -E env ${KAT_ENV})
endif()

# seconds as text ("0.123456", "4.2e-05") -> integer microseconds
function(to_us out text)
  if(text MATCHES "^([0-9]+)\\.?([0-9]*)[eE]-([0-9]+)$")
    set(mant "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    string(LENGTH "${CMAKE_MATCH_2}" fl)
    math(EXPR shift "6 - ${CMAKE_MATCH_3} - ${fl}")
  elseif(text MATCHES "^([0-9]+)\\.?([0-9]*)$")
    set(mant "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    string(LENGTH "${CMAKE_MATCH_2}" fl)
    math(EXPR shift "6 - ${fl}")
  else()
    message(FATAL_ERROR "kat-overhead: not a time in seconds: '${text}'")
  endif()
  if(mant MATCHES "^0*([0-9]+)$") # one match: REGEX REPLACE would apply "^" again after each match
    set(mant "${CMAKE_MATCH_1}")  # ("0306697" became "36697")
  endif()
  if(shift GREATER_EQUAL 0)
    string(REPEAT "0" ${shift} z)
    set(us "${mant}${z}")
  else()
    math(EXPR cut "-(${shift})")
    string(LENGTH "${mant}" ml)
    if(cut GREATER_EQUAL ml)
      set(us 0)
    else()
      math(EXPR keep "${ml} - ${cut}")
      string(SUBSTRING "${mant}" 0 ${keep} us)
    endif()
  endif()
  math(EXPR us "${us}")
  set(${out} ${us} PARENT_SCOPE)
endfunction()

# the direct program's OP time over one run: the sum of its "#T" lines (out),
# and record by record (<out>_records: " r<i> <us>" each, <out>_min, <out>_max)
function(direct_op_total out file)
  file(STRINGS "${file}" lines REGEX "^#T [0-9]+ ${OP} ")
  if(NOT lines)
    message(FATAL_ERROR "kat-overhead: no ${OP} times in ${file}")
  endif()
  set(sum 0)
  set(per_record "")
  set(min "")
  set(max 0)
  foreach(l IN LISTS lines)
    string(REGEX MATCH "^#T ([0-9]+) ${OP} (.*)$" m "${l}")
    to_us(us "${CMAKE_MATCH_2}")
    math(EXPR sum "${sum} + ${us}")
    string(APPEND per_record " r${CMAKE_MATCH_1} ${us}")
    if(min STREQUAL "" OR us LESS min)
      set(min ${us})
    endif()
    if(us GREATER max)
      set(max ${us})
    endif()
  endforeach()
  set(${out} ${sum} PARENT_SCOPE)
  set(${out}_records "${per_record}" PARENT_SCOPE)
  set(${out}_min ${min} PARENT_SCOPE)
  set(${out}_max ${max} PARENT_SCOPE)
endfunction()

set(d_times)
set(k_times)
set(d_ops)
set(k_ops)
foreach(r RANGE 1 ${REPEAT})
  run_timed(d "${work}/kat_direct" "${work}/KAT_direct.txt" "${work}/direct.times")
  direct_op_total(dop_last "${work}/direct.times")
  list(APPEND d_ops ${dop_last})
  run_timed(k ${kat_prefix} "${BUILD}/tests/kat/ngcc-kat" --lib "${root}/libngcc_plain.so" --name bench
    --record-out "${work}/kat.json" --ref "${work}/KAT_direct.txt" --log "${work}/kat.child.log" ${kat_limit})
  file(READ "${work}/kat.json" record)
  string(JSON ksec ERROR_VARIABLE no_op GET "${record}" op_seconds ${OP} total)
  if(no_op)
    message(FATAL_ERROR "kat-overhead: ${work}/kat.json has no ${OP} time: ${no_op}")
  endif()
  to_us(kop "${ksec}")
  list(APPEND k_ops ${kop})
  list(APPEND d_times ${d})
  list(APPEND k_times ${k})
endforeach()
list(SORT d_times COMPARE NATURAL)
list(SORT k_times COMPARE NATURAL)
math(EXPR mid "${REPEAT} / 2")
list(GET d_times ${mid} dm)
list(GET k_times ${mid} km)
# a ratio a/b as "x.yyy"
function(ratio_text out a b)
  math(EXPR r1000 "${a} * 1000 / ${b}")
  math(EXPR ri "${r1000} / 1000")
  math(EXPR rf "${r1000} % 1000 + 1000")
  string(SUBSTRING "${rf}" 1 3 rf)
  set(${out} "${ri}.${rf}" PARENT_SCOPE)
  set(${out}_1000 ${r1000} PARENT_SCOPE)
endfunction()
ratio_text(ratio ${km} ${dm})
list(GET d_times 0 dmin)
list(GET k_times 0 kmin)
ratio_text(min_ratio ${kmin} ${dmin})
message("kat-overhead ${CAND}/${INST}: generator median ${dm} us, ngcc-kat median ${km} us, "
  "ratio ${ratio} (n=${REPEAT} each, alternated); minimum ${dmin} us vs ${kmin} us, min-of-N ratio ${min_ratio}")
list(SORT d_ops COMPARE NATURAL)
list(SORT k_ops COMPARE NATURAL)
list(GET d_ops 0 dop)
list(GET k_ops 0 kop)
if(dop EQUAL 0)
  set(dop 1)
endif()
ratio_text(op_ratio ${kop} ${dop})
message("kat-overhead ${CAND}/${INST} ${OP} (total over the records, timed around the call): minimum ${dop} us "
  "in the generator, ${kop} us in the kat child, min-of-N ratio ${op_ratio}")
# how much one call's time varies with the record (its seed): the direct program's
# last run record by record, the kat child's minimum and maximum (op_seconds)
string(JSON kmin_s ERROR_VARIABLE e1 GET "${record}" op_seconds ${OP} min)
string(JSON kmax_s ERROR_VARIABLE e2 GET "${record}" op_seconds ${OP} max)
set(kspread "")
if(NOT e1 AND NOT e2)
  to_us(kmin_us "${kmin_s}")
  to_us(kmax_us "${kmax_s}")
  set(kspread "; in the kat child ${kmin_us} .. ${kmax_us} us")
endif()
if(dop_last_min EQUAL 0) # a call under a microsecond: no division by 0
  set(dop_last_min 1)
endif()
ratio_text(spread ${dop_last_max} ${dop_last_min})
message("kat-overhead ${CAND}/${INST} ${OP} per record (us, the generator's last run):${dop_last_records}; "
  "${dop_last_min} .. ${dop_last_max} us, max/min ${spread}${kspread}")
if(spread_1000 GREATER_EQUAL 2000)
  message("kat-overhead ${CAND}/${INST}: ${OP} does seed-dependent work (max/min ${spread} over the records): a "
    "program of your own that times it on another seed, or one record against another, measures other work; "
    "compare the same record's seed, as this benchmark does")
endif()
if(MAX_RATIO)
  # MAX_RATIO as x.yyy in thousandths, without floating point in CMake
  string(REGEX MATCH "^([0-9]+)(\\.([0-9]*))?$" ok "${MAX_RATIO}")
  if(NOT ok)
    message(FATAL_ERROR "kat-overhead: -DMAX_RATIO=${MAX_RATIO}: expected a number such as 1.05")
  endif()
  string(SUBSTRING "${CMAKE_MATCH_3}000" 0 3 frac)
  math(EXPR max1000 "${CMAKE_MATCH_1} * 1000 + ${frac}")
  if(op_ratio_1000 GREATER max1000)
    message(FATAL_ERROR "kat-overhead ${CAND}/${INST}: ${OP} min-of-N ratio ${op_ratio} above ${MAX_RATIO}: the "
      "kat child runs the instance slower than its own program does")
  endif()
endif()

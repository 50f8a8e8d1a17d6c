# selftest/shard/union: configure-only. The bundled fixtures configured whole
# and as NGCC_SHARD=1/N .. N/N: `ctest -N` of the shards lists disjoint tests
# whose union is the whole build's list. Exceptions, by design and checked:
#  - per-machine tests (system/info: each machine describes itself;
#    prof/summary: the table of the records folder it runs in) are on every
#    shard that has instances needing them;
#  - suite selftests registered only when all the instances they run on are
#    in one build (e.g. selftest/resume-kill) may be absent; each such test
#    must carry the selftest label (a campaign never runs them), and the
#    campaign's lists (-LE selftest) must match exactly.
# Also: each shard's records/shard.json names disjoint instances covering
# all, and bad NGCC_SHARD values (0/3, 4/3, x) stop configure with a one-line
# error naming NGCC_SHARD and the fix.
#
# -D inputs: SRC WORK N [GENERATOR]
cmake_minimum_required(VERSION 3.25)
set(errors "")
macro(check what)
  if(NOT (${ARGN}))
    string(APPEND errors "  - ${what}\n")
  endif()
endmacro()
if(NOT GENERATOR)
  set(GENERATOR Ninja)
endif()
set(per_machine system/info prof/summary)

function(configure dir shard out_rc out_log)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SRC}" -B "${dir}" -G "${GENERATOR}" "-DNGCC_SHARD=${shard}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_log} "${o}" PARENT_SCOPE)
endfunction()
# test names of `ctest -N` (extra ctest arguments after out)
function(list_tests dir out)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --test-dir "${dir}" -N ${ARGN} OUTPUT_VARIABLE o ERROR_QUIET)
  string(REGEX MATCHALL "Test +#[0-9]+: [^\n]+" hits "${o}")
  set(names "")
  foreach(h IN LISTS hits)
    string(REGEX REPLACE "^Test +#[0-9]+: " "" n "${h}")
    list(APPEND names "${n}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${WORK}")
configure("${WORK}/full" "" rc log)
check("the whole configure failed (rc ${rc})" rc EQUAL 0)
foreach(k RANGE 1 ${N})
  configure("${WORK}/shard-${k}" "${k}/${N}" rc log)
  check("configure with NGCC_SHARD=${k}/${N} failed (rc ${rc}):\n${log}" rc EQUAL 0)
  string(REGEX MATCH "ngcc: shard ${k}/${N}: [^\n]*" line "${log}")
  message("${line}")
endforeach()
if(errors)
  message(FATAL_ERROR "ngcc: verdict selftest shard/union: FAIL\n${errors}")
endif()

foreach(sel all campaign)
  set(args "")
  if(sel STREQUAL "campaign")
    set(args -LE "^selftest$")
  endif()
  list_tests("${WORK}/full" full ${args})
  list(LENGTH full nfull)
  set(seen "")
  set(nsum 0)
  foreach(k RANGE 1 ${N})
    list_tests("${WORK}/shard-${k}" t ${args})
    list(LENGTH t nk)
    math(EXPR nsum "${nsum} + ${nk}")
    set(count_${sel}_${k} ${nk})
    foreach(name IN LISTS t)
      if(name IN_LIST per_machine)
        continue()
      endif()
      if(name IN_LIST seen)
        check("${sel}: ${name} is on two shards" FALSE)
      endif()
      list(APPEND seen "${name}")
      if(NOT name IN_LIST full)
        check("${sel}: shard ${k}/${N} has ${name}, which the whole build does not" FALSE)
      endif()
    endforeach()
  endforeach()
  set(missing "")
  foreach(name IN LISTS full)
    if(NOT name IN_LIST seen AND NOT name IN_LIST per_machine)
      list(APPEND missing "${name}")
    endif()
  endforeach()
  list(LENGTH missing nmissing)
  if(sel STREQUAL "campaign")
    check("campaign tests of the whole build on no shard: ${missing}" nmissing EQUAL 0)
  else()
    list_tests("${WORK}/full" selftests -L "^selftest$")
    foreach(name IN LISTS missing)
      check("${name} of the whole build is on no shard (and is not a selftest)" name IN_LIST selftests)
    endforeach()
  endif()
  list(LENGTH seen nseen)
  set(summary_${sel} "${nfull} tests whole, ${nsum} over ${N} shards (${count_${sel}_1}")
  foreach(k RANGE 2 ${N})
    string(APPEND summary_${sel} "+${count_${sel}_${k}}")
  endforeach()
  string(APPEND summary_${sel} "), ${nseen} distinct besides the per-machine tests, ${nmissing} selftests on no shard: ${missing}")
endforeach()
foreach(m IN LISTS per_machine)
  foreach(k RANGE 1 ${N})
    list_tests("${WORK}/shard-${k}" t -R "^${m}$")
    list_tests("${WORK}/shard-${k}" inst -L "^(kat|prof)$")
    if(m STREQUAL "system/info" OR "${inst}" MATCHES "(^|;)prof/")
      check("shard ${k}/${N} lacks the per-machine test ${m}" "${t}" STREQUAL "${m}")
    endif()
  endforeach()
endforeach()

# records/shard.json: disjoint instances, all of them
set(all_inst "")
foreach(k RANGE 1 ${N})
  file(READ "${WORK}/shard-${k}/records/shard.json" j)
  string(JSON shard GET "${j}" shard)
  check("shard-${k}/records/shard.json says shard ${shard}" shard STREQUAL "${k}/${N}")
  string(JSON ni LENGTH "${j}" instances)
  string(JSON total GET "${j}" instances_total)
  if(ni GREATER 0)
    math(EXPR last "${ni} - 1")
    foreach(i RANGE ${last})
      string(JSON name GET "${j}" instances ${i} name)
      if(name IN_LIST all_inst)
        check("instance ${name} chosen by two shards" FALSE)
      endif()
      list(APPEND all_inst "${name}")
    endforeach()
  endif()
endforeach()
list(LENGTH all_inst nall)
check("the shards chose ${nall} instances, not all ${total}" nall EQUAL total)

# bad values: one line naming NGCC_SHARD and the fix
foreach(bad "0/3" "4/3" "x")
  configure("${WORK}/bad" "${bad}" rc log)
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${log}") # CMake wraps long messages
  check("NGCC_SHARD=${bad} was accepted or gave no error naming it and the fix (rc ${rc})"
    NOT rc EQUAL 0 AND flat MATCHES "ngcc: NGCC_SHARD=${bad}[: ].*use e.g. -DNGCC_SHARD=")
endforeach()

# the campaign's -DSHARD: refused before anything is configured
foreach(bad "0/3" "4/3" "x")
  execute_process(COMMAND ${CMAKE_COMMAND} "-DSHARD=${bad}" "-DBUILD_DIR=${WORK}/bad-campaign"
    -P "${SRC}/tools/ngcc-campaign.cmake" RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  string(REGEX REPLACE "[ \t\r\n]+" " " flat "${log}")
  check("campaign -DSHARD=${bad} was accepted or gave no error naming it and the fix (rc ${rc})"
    NOT rc EQUAL 0 AND flat MATCHES "ngcc-campaign: SHARD=${bad} is not K/N.*use e.g. -DSHARD=" AND NOT EXISTS "${WORK}/bad-campaign")
endforeach()

if(errors)
  message(FATAL_ERROR "ngcc: verdict selftest shard/union: FAIL\n${errors}")
endif()
message("ngcc: verdict selftest shard/union: PASS: all: ${summary_all}\n"
  "campaign (-LE selftest): ${summary_campaign}\n"
  "per-machine tests on every shard: ${per_machine}; shard.json: ${nall} of ${total} instances, each once")

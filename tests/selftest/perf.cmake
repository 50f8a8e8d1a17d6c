# Selftests of the perf label (moved out of cmake/NgccPerfTests.cmake), on
# fx-wots/WOTS-128 and its zoo variants (fixtures/fx-wots/ngcc.json):
#   selftest/perf/gate    the absolute gate on one measurement
#   selftest/perf/gate-kex, selftest/perf/gate-hash  the same on fx-kex/KEX3-128
#                         exchange and fx-hash/FXH-256 hash-4096
#   selftest/perf/ab      slow-sign (sign ~19% slower, same output) and the
#                         identical "copy" variant against the fixture in the same run
#   selftest/perf/errors  crash-mlen80 / hang-record / sign-len-over: errors, not figures
#   selftest/perf/mem, selftest/perf/sizes  the memory and size gates: the taller-tree
#                         sibling WOTS-192 (more stack, a longer signature) against
#                         the fixture's baseline
# (scenarios: tests/perf/perf_selftest.cmake). A missing fixture instance
# makes the test that needs it fail with its name.
set(NGCC_PERF_SELFTEST_FIXTURE fx-wots/WOTS-128)

# the instance numbers of items (all of them, or the failing test <name>)
function(ngcc_perf_selftest_needs name out)
  set(r "")
  foreach(item IN LISTS ARGN)
    ngcc_selftest_instance("${name}" "${item}" x)
    if(x STREQUAL "")
      set(${out} "" PARENT_SCOPE)
      return()
    endif()
    list(APPEND r ${x})
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# selftest/perf/gate-<tag>: the gate scenario on instance item (cand/key), op
function(ngcc_perf_gate_selftest tag item op script)
  ngcc_perf_selftest_needs(selftest/perf/gate-${tag} gn ${item})
  if(gn STREQUAL "") # (instance numbers start at 0)
    return()
  endif()
  ngcc_iget(${gn} root groot)
  ngcc_iget(${gn} id gid)
  ngcc_iget(${gn} key gkey)
  add_test(NAME selftest/perf/gate-${tag} COMMAND ${CMAKE_COMMAND} -DSCENARIO=gate -DOP=${op}
    -DPERF=$<TARGET_FILE:ngcc-perf> -DBASELINE=$<TARGET_FILE:ngcc-baseline> "-DLIB=${groot}/libngcc_plain.so"
    "-DNAME=${item}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-gate-${tag}" -P ${script})
  set_tests_properties(selftest/perf/gate-${tag} PROPERTIES LABELS "selftest;perf" RUN_SERIAL TRUE TIMEOUT 240
    FIXTURES_REQUIRED "ngcc.build.plain.${gid}.${gkey}")
endfunction()

function(ngcc_add_perf_selftests)
  set(fx ${NGCC_PERF_SELFTEST_FIXTURE})
  string(REGEX MATCH "^([^/]+)/(.+)$" ok "${fx}")
  set(id ${CMAKE_MATCH_1})
  set(pkey ${CMAKE_MATCH_2})
  set(script ${PROJECT_SOURCE_DIR}/tests/perf/perf_selftest.cmake)

  ngcc_perf_selftest_needs(selftest/perf/gate ns ${fx})
  if(ns)
    ngcc_iget(${ns} root proot)
    set(common -DPERF=$<TARGET_FILE:ngcc-perf> -DBASELINE=$<TARGET_FILE:ngcc-baseline>
      "-DLIB=${proot}/libngcc_plain.so" "-DNAME=${id}/${pkey}")
    add_test(NAME selftest/perf/gate COMMAND ${CMAKE_COMMAND} -DSCENARIO=gate ${common}
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-gate" -P ${script})
    set_tests_properties(selftest/perf/gate PROPERTIES LABELS "selftest;perf" RUN_SERIAL TRUE TIMEOUT 240
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${pkey}")
  else()
    return() # the parent is missing: every perf selftest would need it
  endif()
  # the same gate on a KEX op (the whole exchange) and a hash length: thresholds
  # entries, NOBASELINE and REGRESSION work for the new op names
  ngcc_perf_gate_selftest(kex fx-kex/KEX3-128 exchange "${script}")
  ngcc_perf_gate_selftest(hash fx-hash/FXH-256 hash-4096 "${script}")

  # the same-run A/B gate: slow-sign (REGRESSION) and the identical copy (PASS)
  ngcc_perf_selftest_needs(selftest/perf/ab ns ${fx} ${fx}~slow-sign ${fx}~copy)
  if(ns)
    list(GET ns 0 p)
    list(GET ns 1 n)
    list(GET ns 2 c)
    set(key "${pkey}~slow-sign")
    ngcc_iget(${n} root root)
    ngcc_iget(${n} records records)
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
  set(all TRUE)
  foreach(v IN ITEMS crash-mlen80:CRASH_LIB hang-record:HANG_LIB sign-len-over:LENOVER_LIB)
    string(REPLACE ":" ";" v "${v}")
    list(GET v 0 vname)
    list(GET v 1 var)
    ngcc_perf_selftest_needs(selftest/perf/errors z "${fx}~${vname}")
    if(z STREQUAL "")
      set(all FALSE)
      break()
    endif()
    ngcc_iget(${z} root zroot)
    list(APPEND zoo_args "-D${var}=${zroot}/libngcc_plain.so")
    list(APPEND fixtures "ngcc.build.plain.${id}.${pkey}~${vname}")
  endforeach()
  if(all)
    add_test(NAME selftest/perf/errors COMMAND ${CMAKE_COMMAND} -DSCENARIO=errors ${common} ${zoo_args}
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-errors" -P ${script})
    set_tests_properties(selftest/perf/errors PROPERTIES LABELS "selftest;perf" TIMEOUT 120
      FIXTURES_REQUIRED "${fixtures}")
  endif()

  # memory and size gates: the fixture's taller-tree sibling (more stack, a
  # longer signature) against the fixture's baseline
  foreach(t mem sizes)
    ngcc_perf_selftest_needs(selftest/perf/${t} ns ${id}/WOTS-192 ${fx}~sign-len-over)
  endforeach()
  if(NOT ns)
    return()
  endif()
  list(GET ns 0 sib)
  list(GET ns 1 z)
  ngcc_iget(${sib} root sroot)
  ngcc_iget(${z} root zroot)
  set(pair "-DLIB2=${sroot}/libngcc_plain.so" "-DNAME2=${id}/WOTS-192")
  set(fixtures "ngcc.build.plain.${id}.${pkey};ngcc.build.plain.${id}.WOTS-192"
    "ngcc.build.plain.${id}.${pkey}~sign-len-over")
  add_test(NAME selftest/perf/mem COMMAND ${CMAKE_COMMAND} -DSCENARIO=mem ${common} ${pair}
    -DMEM=$<TARGET_FILE:ngcc-mem> "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-mem" -P ${script})
  add_test(NAME selftest/perf/sizes COMMAND ${CMAKE_COMMAND} -DSCENARIO=sizes ${common} ${pair}
    "-DLENOVER_LIB=${zroot}/libngcc_plain.so"
    -DSIZES=$<TARGET_FILE:ngcc-sizes> "-DWORK=${CMAKE_BINARY_DIR}/selftest/perf-sizes" -P ${script})
  set_tests_properties(selftest/perf/mem selftest/perf/sizes PROPERTIES LABELS "selftest;perf" TIMEOUT 120
    FIXTURES_REQUIRED "${fixtures}")
endfunction()

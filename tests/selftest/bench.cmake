# Benchmark cases on fixtures (moved out of cmake/NgccPerfTests.cmake and
# cmake/NgccIcountTests.cmake).
# selftest/bench-smoke/kat-overhead: the README's kat-overhead command, as
#   written, on fx-wots/WOTS-192; selftest/bench-smoke/kat-overhead-alloc the
#   same on the allocation-heavy fxq-runtime/ALLOC-128 (with -DNGCC_BENCH=ON:
#   bench/kat-overhead/fxq-runtime-ALLOC-128, min-of-7 ratio at most 1.05).
# With -DNGCC_BENCH=ON (label bench): the fixture operations of the perf
#   benchmarks (bench/perf/{repeat,ratio}/..., ngcc_perf_bench_case in
#   NgccPerfTests.cmake) and bench/icount/spread/<cand>-<key>/<op>: the count
#   over 5 runs, printing the spread (max-min)/median (0 expected) and the
#   cost of the method (a counted call's wall time over the KAT's op_seconds).
set(NGCC_PERF_BENCH_CASES "fx-wots/WOTS-128:sign" "fx-wots/WOTS-128:verify" "fx-xkem/XKEM-128:dec"
  "fx-xkem/XKEM-128:enc")
set(NGCC_ICOUNT_BENCH_CASES "fx-wots/WOTS-128:sign" "fx-wots/WOTS-128:verify" "fx-xkem/XKEM-128:enc"
  "fx-xkem/XKEM-128:dec")

function(ngcc_add_bench_selftests)
  ngcc_selftest_instance(selftest/bench-smoke/kat-overhead fx-wots/WOTS-192 n)
  if(NOT n STREQUAL "")
    add_test(NAME selftest/bench-smoke/kat-overhead COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR}
      -DCAND=fx-wots -DINST=WOTS-192 -DREPEAT=1 -P ${PROJECT_SOURCE_DIR}/tools/bench/kat-overhead.cmake)
    set_tests_properties(selftest/bench-smoke/kat-overhead PROPERTIES LABELS "selftest;bench-smoke" RUN_SERIAL TRUE
      TIMEOUT 300 FIXTURES_REQUIRED "ngcc.build.plain.fx-wots.WOTS-192")
  endif()
  # the same benchmark on an allocation-heavy instance (issue 24 item 9):
  # a smoke run in CI (the ratio is printed), a min-of-N gate with the bench label
  ngcc_selftest_instance(selftest/bench-smoke/kat-overhead-alloc fxq-runtime/ALLOC-128 n)
  if(NOT n STREQUAL "")
    add_test(NAME selftest/bench-smoke/kat-overhead-alloc COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR}
      -DCAND=fxq-runtime -DINST=ALLOC-128 -DREPEAT=1 -P ${PROJECT_SOURCE_DIR}/tools/bench/kat-overhead.cmake)
    set_tests_properties(selftest/bench-smoke/kat-overhead-alloc PROPERTIES LABELS "selftest;bench-smoke"
      RUN_SERIAL TRUE TIMEOUT 300 FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.ALLOC-128"
      # the ratio, then the per-record spread: its block sizes come from the seed (10 KB .. 10 MB),
      # so one record's keygen does up to ~500x another's work, said as such
      PASS_REGULAR_EXPRESSION "keygen .*min-of-N ratio [0-9]+\\.[0-9]+.*keygen does seed-dependent work \\(max/min [0-9]+\\.[0-9]+ over the records\\)")
    # the gate fails when the child's malloc is slowed: a fixed mmap threshold
    # (as a mallopt or MALLOC_*_ variable would set) mmaps and faults in every
    # block of 128 KiB or more, measured at ~5x on this instance
    add_test(NAME selftest/bench-smoke/kat-overhead-alloc-slowed COMMAND ${CMAKE_COMMAND}
      -DBUILD=${CMAKE_BINARY_DIR} -DCAND=fxq-runtime -DINST=ALLOC-128 -DREPEAT=1 -DMAX_RATIO=1.5
      "-DKAT_ENV=MALLOC_MMAP_THRESHOLD_=131072" -P ${PROJECT_SOURCE_DIR}/tools/bench/kat-overhead.cmake)
    set_tests_properties(selftest/bench-smoke/kat-overhead-alloc-slowed PROPERTIES LABELS "selftest;bench-smoke"
      RUN_SERIAL TRUE TIMEOUT 300 FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.ALLOC-128"
      PASS_REGULAR_EXPRESSION "keygen min-of-N ratio [0-9.]+ above 1.5")
    # a malloc setting inherited from the environment is named in the output
    # (harness/ngcc_allocenv.c): the reason for inflated times is visible
    set(work "${CMAKE_BINARY_DIR}/selftest/allocenv")
    ngcc_iget(${n} root root)
    add_test(NAME selftest/allocenv-warning COMMAND ngcc-kat --lib "${root}/libngcc_plain.so"
      --name allocenv --records 1 --record-out "${work}/kat.json" --log "${work}/kat.child.log"
      --ref "${PROJECT_SOURCE_DIR}/fixtures/fxq-runtime/API_PKC/Test_Vector/KAT_SIG_ALLOC_128.txt")
    set_tests_properties(selftest/allocenv-warning PROPERTIES LABELS "selftest" TIMEOUT 120
      ENVIRONMENT "MALLOC_PERTURB_=165;NGCC_SCRATCH_DIR=${work}/scratch"
      FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.ALLOC-128"
      PASS_REGULAR_EXPRESSION "warning: MALLOC_PERTURB_=165 is set: the instance runs with glibc malloc tuned")
    if(NGCC_BENCH)
      add_test(NAME bench/kat-overhead/fxq-runtime-ALLOC-128 COMMAND ${CMAKE_COMMAND} -DBUILD=${CMAKE_BINARY_DIR}
        -DCAND=fxq-runtime -DINST=ALLOC-128 -DREPEAT=7 -DMAX_RATIO=1.05
        -P ${PROJECT_SOURCE_DIR}/tools/bench/kat-overhead.cmake)
      set_tests_properties(bench/kat-overhead/fxq-runtime-ALLOC-128 PROPERTIES LABELS "bench" RUN_SERIAL TRUE
        TIMEOUT 600 FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.ALLOC-128")
    endif()
  endif()
  if(NOT NGCC_BENCH)
    return()
  endif()
  foreach(c IN LISTS NGCC_PERF_BENCH_CASES)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 inst)
    list(GET c 1 op)
    string(REPLACE "/" "-" label "${inst}")
    ngcc_selftest_instance("bench/perf/ratio/${label}/${op}" "${inst}" n)
    if(n STREQUAL "")
      continue()
    endif()
    foreach(f IN ITEMS id key root)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    ngcc_perf_bench_case(${id}-${key} "${root}/libngcc_plain.so" ${op}
      "ngcc.build.plain.${id}.${key};ngcc.kat.${id}.${key}")
  endforeach()
  set(vg)
  if(NGCC_VALGRIND)
    set(vg "-DVALGRIND=${NGCC_VALGRIND}")
  endif()
  foreach(c IN LISTS NGCC_ICOUNT_BENCH_CASES)
    string(REPLACE ":" ";" c "${c}")
    list(GET c 0 inst)
    list(GET c 1 op)
    string(REPLACE "/" "-" label "${inst}")
    set(name "bench/icount/spread/${label}/${op}")
    ngcc_selftest_instance("${name}" "${inst}" n)
    if(n STREQUAL "")
      continue()
    endif()
    foreach(f IN ITEMS id key root records)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} -DSCENARIO=spread -DICOUNT=$<TARGET_FILE:ngcc-icount>
      "-DLIB=${root}/libngcc_plain.so" "-DNAME=${id}/${key}" "-DRECORDS_DIR=${records}" -DOP=${op}
      -DMETHOD=${NGCC_ICOUNT_METHOD} ${vg} "-DWORK=${CMAKE_BINARY_DIR}/bench/icount/${id}-${key}-${op}"
      -P ${PROJECT_SOURCE_DIR}/tests/perf/icount_selftest.cmake)
    set_tests_properties("${name}" PROPERTIES LABELS "bench" TIMEOUT 900
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key};ngcc.kat.${id}.${key}")
  endforeach()
endfunction()

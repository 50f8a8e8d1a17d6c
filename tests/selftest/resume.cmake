# Resume selftests (moved out of cmake/NgccPerfTests.cmake).
# selftest/resume/<label>: every driver on the shared frame keeps a finished
# record on a rerun with unchanged inputs and runs again when one changes
# (tests/perf/resume_selftest.cmake), on fx-wots/WOTS-128: perf, mem, sizes,
# kat, security, and prof, memcheck and sanitizer
# (the security-asan mode) when registered. security and sanitizer plan a
# budget from a KAT record the script writes (KAT_JSON): a rewrite that changes
# only its timestamps keeps the record, a changed op_seconds runs again.
# (selftest/resume/icount: tests/selftest/icount.cmake.)
set(NGCC_RESUME_SELFTEST_FIXTURE fx-wots/WOTS-128)
function(ngcc_add_resume_selftests)
  ngcc_selftest_instance(selftest/resume/kat ${NGCC_RESUME_SELFTEST_FIXTURE} n)
  if(n STREQUAL "")
    return()
  endif()
  foreach(f IN ITEMS id key root)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
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
  list(APPEND runs "prof|ngcc-prof|--lib|${root}/libngcc_prof.so|--name|${id}/${key}|--op|verify|--records|2|--max-reps|2")
  list(APPEND fix "ngcc.build.prof.${id}.${key}")
  set(sec "--keys|2|--kat-records|2|--budget|600")
  list(APPEND runs "security|ngcc-security|${base}|${sec}|--kat-record|${dir}/security-kat.json|--log-dir|${dir}/security.logs")
  set(envs "security|")
  if(NGCC_ASAN_RUNTIME)
    list(APPEND runs "sanitizer|ngcc-security|--lib|${root}/libngcc_asan.so|--name|${id}/${key}|--sanitizer|--max-flips|64|${sec}|--kat-record|${dir}/sanitizer-kat.json|--log-dir|${dir}/sanitizer.logs")
    string(REPLACE ";" "|" e "${NGCC_SANITIZER_ENV}")
    list(APPEND envs "sanitizer|${e}")
    list(APPEND fix "ngcc.build.asan.${id}.${key}")
  endif()
  if(NGCC_VALGRIND)
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

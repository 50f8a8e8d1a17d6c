# Selftests (label selftest) of the real-world handling, proven on the fxq-*
# quirk fixtures (scripts in tests/real/ and tests/kat/; moved here from
# cmake/NgccRealWorldTests.cmake). A fixture instance they need that was not
# discovered makes the test fail, never vanish:
#   selftest/discovery      discovery and override parsing on synthetic trees
#                           (cmake -P, no build needed)
#   selftest/quirk-kat      manifest-only KATs (fxq-manifest) and the kat
#                           record budget (fxq-slow), from records
#   selftest/quirk-verdicts every fxq instance's build and kat records and
#                           discovery decisions, checked exactly
#   selftest/quirk-names    the same for fxq-nested and fxq-names (folder
#                           labels, resolved names, duplicates, hints)
#   selftest/quirk-flags    fxq-flags: published flag sets, the compat link
#                           fallback, linker first errors, override flags on
#                           the candidate's sources only (tests/real/quirk_flags.cmake)
#   selftest/chatty-output  a chatty instance's output is captured, and the
#                           test log shows a truncated head and a count
#   selftest/sandbox        a hostile instance passes under the sandbox and
#                           fails with NGCC_SANDBOX=off
#   selftest/resume-kill    SIGKILL of a running ctest over tests of every
#                           label that resumes (build, kat, security, perf,
#                           mem, sizes, prof, memcheck, icount), then a rerun
#                           with NGCC_RESUME=1: no record lost, only the
#                           unfinished tests run again, a third run reruns nothing

# Fixtures (CTest FIXTURES_REQUIRED names) of the given "<cand>/<key>" items:
# their KAT test when they have one, else their plain build.
function(ngcc_fixtures_of out)
  set(r "")
  foreach(item IN LISTS ARGN)
    string(REPLACE "/" "." dotted "${item}")
    if(TEST "kat/${item}")
      list(APPEND r "ngcc.kat.${dotted}")
    else()
      list(APPEND r "ngcc.build.plain.${dotted}")
    endif()
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

set(NGCC_QUIRK_INSTANCES
  fxq-build/BAD-128 fxq-build/NTT-128 fxq-build/NTT-128~standin fxq-build/NTT-128~missing fxq-build/PKC-128 fxq-build/GNU-128
  fxq-layout/TINS-128 fxq-layout/TINS-128.opt fxq-layout/TINS-128.add
  fxq-runtime/VAR-128 fxq-runtime/VAR-128~capacity fxq-runtime/SLOW-128 fxq-runtime/MEM-128
  fxq-runtime/MEM-128~new fxq-runtime/ESC-128 fxq-runtime/ALLOC-128)
set(NGCC_NAMES_INSTANCES
  fxq-nested/NST-576 fxq-nested/KTK-128 fxq-names/LAM-128 fxq-names/LAM-192 fxq-names/LAM-256
  fxq-names/STR-128 fxq-names/STR-128~level fxq-names/HDR-128 fxq-names/HDR-128~iccs)
set(NGCC_QUIRK_FLAGS_INSTANCES INL-128 INL-128~gnu89 INL-128~linkflags POSIX-128 POSIX-128~nognu C11-128 C11-128~glibc-clash)
# the real tests the resume selftest runs (and kills) again: every label that
# resumes; the NGCC_RESUME_KILL_VICTIM-th is the one killed mid-run (those
# before it finish, so fx-wots/WOTS-128's build and kat records exist for its
# other labels' tests). memcheck and icount need valgrind (NGCC_VALGRIND).
set(NGCC_RESUME_KILL_TESTS build/fx-wots/WOTS-128 kat/fx-wots/WOTS-128 kat/fxq-build/GNU-128
  kat/fx-wots/WOTS-192 kat/fxq-build/PKC-128 kat/fxq-runtime/VAR-128 kat/fx-xkem/XKEM-128
  security/fx-wots/WOTS-128 perf/fx-wots/WOTS-128/verify mem/fx-wots/WOTS-128/verify sizes/fx-wots/WOTS-128
  prof/fx-wots/WOTS-128/verify)
set(NGCC_RESUME_KILL_VALGRIND_TESTS memcheck/fx-wots/WOTS-128 icount/fx-wots/WOTS-128/verify)
set(NGCC_RESUME_KILL_VICTIM 4)

# selftest/quirk-security (classes 19, 20; fast) and selftest/quirk-security-slow
# (class 21, fxq-slow: minutes): tests/real/quirk_security.cmake. Registered
# even when a fixture is missing, so that a missing fixture fails.
function(ngcc_add_quirk_security_selftests)
  set(fast fxq-iccs/TPL-128 fxq-iccs/TPL-128~official fxq-iccs/UB-128 fx-xkem/XKEM-128
    fx-xkem/XKEM-128~sk-unwritten fx-wots/WOTS-128)
  foreach(mode fast slow)
    set(needs "")
    set(items ${fast})
    set(name selftest/quirk-security)
    if(mode STREQUAL "slow")
      set(items fxq-slow/SLOWKG-128)
      set(name selftest/quirk-security-slow)
    endif()
    foreach(item IN LISTS items)
      string(REPLACE "/" "." dotted "${item}")
      list(APPEND needs "ngcc.security.${dotted}")
      if(NGCC_ASAN_RUNTIME)
        list(APPEND needs "ngcc.sanitizer.${dotted}")
      endif()
    endforeach()
    if(mode STREQUAL "fast")
      list(APPEND needs "ngcc.build.plain.fx-wots.WOTS-128~hang-record") # the stopped-KAT case
    endif()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} "-DBUILD=${CMAKE_BINARY_DIR}" "-DSRC=${PROJECT_SOURCE_DIR}"
      -DMODE=${mode} "-DSECURITY=$<TARGET_FILE:ngcc-security>" -P "${PROJECT_SOURCE_DIR}/tests/real/quirk_security.cmake")
    set(labels "selftest;security")
    if(mode STREQUAL "slow")
      list(APPEND labels slow) # its fixtures' security tests are (fxq-slow's "slow_labels")
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "${labels}" FIXTURES_REQUIRED "${needs}" TIMEOUT 120)
    if(mode STREQUAL "slow" AND TEST memcheck/fxq-slow/SLOWKG-128)
      # ordered only: that memcheck test ends as SKIP (not run), which as a
      # fixture setup would skip this test too
      set_property(TEST ${name} APPEND PROPERTY DEPENDS memcheck/fxq-slow/SLOWKG-128)
    endif()
  endforeach()
endfunction()

function(ngcc_add_quirk_selftests)
  ngcc_add_quirk_security_selftests()
  set(real "${PROJECT_SOURCE_DIR}/tests/real")
  # selftest/slow-labels: the "slow_labels" override, read from ctest's listing
  add_test(NAME selftest/slow-labels COMMAND ${CMAKE_COMMAND} "-DBUILD=${CMAKE_BINARY_DIR}"
    "-DCTEST=${CMAKE_CTEST_COMMAND}" -P "${real}/slow_labels.cmake")
  set_tests_properties(selftest/slow-labels PROPERTIES LABELS "selftest" TIMEOUT 120)
  # selftest/quirk-flags: registered even when fxq-flags instances are
  # missing, which it then reports as failures
  set(missing "")
  set(found "")
  foreach(key IN LISTS NGCC_QUIRK_FLAGS_INSTANCES)
    ngcc_find_instance(fxq-flags ${key} n)
    if(n STREQUAL "")
      list(APPEND missing "fxq-flags/${key}")
    else()
      list(APPEND found "fxq-flags/${key}")
    endif()
  endforeach()
  ngcc_fixtures_of(flags_fixtures ${found})
  string(REPLACE ";" "," missing_arg "${missing}")
  add_test(NAME selftest/quirk-flags COMMAND ${CMAKE_COMMAND} "-DBUILD=${CMAKE_BINARY_DIR}"
    "-DSRC=${PROJECT_SOURCE_DIR}" "-DMISSING=${missing_arg}" -DCOMPILER=${NGCC_INSTANCE_COMPILER}
    -P "${real}/quirk_flags.cmake")
  set_tests_properties(selftest/quirk-flags PROPERTIES LABELS "selftest;kat;build"
    FIXTURES_REQUIRED "${flags_fixtures}" TIMEOUT 120)

  add_test(NAME selftest/discovery COMMAND ${CMAKE_COMMAND}
    "-DSRC=${PROJECT_SOURCE_DIR}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/discovery"
    -P "${real}/discovery_selftest.cmake")
  set_tests_properties(selftest/discovery PROPERTIES LABELS "selftest;build" TIMEOUT 120)
  # selftest/nothing-dropped: broken copies of a fixture configured as a tree of their own
  add_test(NAME selftest/nothing-dropped COMMAND ${CMAKE_COMMAND}
    "-DSRC=${PROJECT_SOURCE_DIR}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/nothing-dropped"
    "-DCTEST=${CMAKE_CTEST_COMMAND}" "-DREPORT=$<TARGET_FILE:ngcc-report>"
    -P "${real}/dropped_selftest.cmake")
  set_tests_properties(selftest/nothing-dropped PROPERTIES LABELS "selftest;build" TIMEOUT 300)

  # selftest/quirk-names: always registered; an instance it expects that was
  # not discovered makes it fail (FOUND lists what was)
  set(found "")
  foreach(item IN LISTS NGCC_NAMES_INSTANCES)
    string(REPLACE "/" ";" parts "${item}")
    list(GET parts 0 id)
    list(GET parts 1 key)
    ngcc_find_instance(${id} ${key} n)
    if(NOT n STREQUAL "")
      list(APPEND found ${item})
    endif()
  endforeach()
  ngcc_fixtures_of(names_fixtures ${found})
  string(REPLACE ";" "," found_arg "${found}")
  add_test(NAME selftest/quirk-names COMMAND ${CMAKE_COMMAND} "-DBUILD=${CMAKE_BINARY_DIR}"
    "-DSRC=${PROJECT_SOURCE_DIR}" "-DFOUND=${found_arg}" -DCOMPILER=${NGCC_INSTANCE_COMPILER}
    -P "${real}/quirk_names.cmake")
  set_tests_properties(selftest/quirk-names PROPERTIES LABELS "selftest;kat;build" TIMEOUT 120)
  if(names_fixtures)
    set_tests_properties(selftest/quirk-names PROPERTIES FIXTURES_REQUIRED "${names_fixtures}")
  endif()

  # selftest/quirk-kat (tests/real/quirk_kat.cmake): manifest-only KATs and
  # the kat budget on fxq-manifest and fxq-slow. Registered even when those
  # fixtures are missing, so that it fails then.
  set(qk_items fxq-manifest/Mani-1 fxq-manifest/Mani-2 fxq-manifest/Mani-3 fxq-slow/SLOWKG-128)
  set(qk_present "")
  foreach(item IN LISTS qk_items)
    if(TEST "build/${item}")
      list(APPEND qk_present ${item})
    endif()
  endforeach()
  ngcc_fixtures_of(qk_fixtures ${qk_present})
  add_test(NAME selftest/quirk-kat COMMAND ${CMAKE_COMMAND}
    "-DBUILD=${CMAKE_BINARY_DIR}" "-DSRC=${PROJECT_SOURCE_DIR}" "-DKAT=$<TARGET_FILE:ngcc-kat>"
    "-DMANIFEST_TOOL=$<TARGET_FILE:ngcc-manifest>" "-DWORK=${CMAKE_BINARY_DIR}/selftest/quirk-kat"
    -P "${real}/quirk_kat.cmake")
  set_tests_properties(selftest/quirk-kat PROPERTIES LABELS "selftest;kat" TIMEOUT 180
    FIXTURES_REQUIRED "${qk_fixtures}")

  # selftest/quirk-budget (tests/real/quirk_budget.cmake): run sizes from the
  # kat test's measured times and the hang marker, on fxq-slow's SLOWMF-128
  # and the hanging variants (native only: their timings are native)
  if(NOT CMAKE_CROSSCOMPILING)
    set(qb_fixtures ngcc.kat.fxq-slow.SLOWMF-128 ngcc.kat.fxq-slow.SLOWMF-128~keygen-hang
      ngcc.kat.fx-wots.WOTS-128~hang-record ngcc.security.fx-wots.WOTS-128~hang-record
      ngcc.security.fxq-slow.SLOWMF-128~keygen-hang ngcc.memcheck.fxq-slow.SLOWMF-128~keygen-hang)
    foreach(op keygen sign verify)
      list(APPEND qb_fixtures ngcc.prof.fxq-slow.SLOWMF-128.${op} ngcc.prof.fxq-slow.SLOWMF-128~keygen-hang.${op})
    endforeach()
    if(TEST "security-asan/fxq-slow/SLOWMF-128~keygen-hang")
      list(APPEND qb_fixtures ngcc.sanitizer.fxq-slow.SLOWMF-128~keygen-hang)
    endif()
    add_test(NAME selftest/quirk-budget COMMAND ${CMAKE_COMMAND}
      "-DBUILD=${CMAKE_BINARY_DIR}" "-DSRC=${PROJECT_SOURCE_DIR}" "-DKAT=$<TARGET_FILE:ngcc-kat>"
      "-DPROF=$<TARGET_FILE:ngcc-prof>" "-DWORK=${CMAKE_BINARY_DIR}/selftest/quirk-budget"
      -P "${real}/quirk_budget.cmake")
    set_tests_properties(selftest/quirk-budget PROPERTIES LABELS "selftest;kat;prof" TIMEOUT 120
      FIXTURES_REQUIRED "${qb_fixtures}")
  endif()

  set(quirk_missing "")
  foreach(item IN LISTS NGCC_QUIRK_INSTANCES)
    string(REPLACE "/" ";" parts "${item}")
    list(GET parts 0 id)
    list(GET parts 1 key)
    ngcc_find_instance(${id} ${key} n)
    if(n STREQUAL "")
      list(APPEND quirk_missing ${item})
    endif()
  endforeach()
  ngcc_add_quirk_instance_selftests("${quirk_missing}")
  ngcc_add_resume_kill_selftest()
endfunction()

# selftest/quirk-verdicts, selftest/chatty-output, selftest/sandbox: need every
# NGCC_QUIRK_INSTANCES instance (missing: the names of those not discovered)
function(ngcc_add_quirk_instance_selftests missing)
  set(real "${PROJECT_SOURCE_DIR}/tests/real")
  if(missing)
    string(REPLACE ";" ", " m "${missing}")
    foreach(t quirk-verdicts chatty-output sandbox)
      ngcc_selftest_fail(selftest/${t} "fixture instances not found: ${m}: selftest/${t} needs every \
fxq-build/fxq-layout/fxq-runtime instance (restore them or update tests/selftest/quirk.cmake)")
    endforeach()
    return()
  endif()
  ngcc_fixtures_of(all_fixtures ${NGCC_QUIRK_INSTANCES})
  add_test(NAME selftest/quirk-verdicts COMMAND ${CMAKE_COMMAND}
    "-DBUILD=${CMAKE_BINARY_DIR}" "-DSRC=${PROJECT_SOURCE_DIR}" -DCOMPILER=${NGCC_INSTANCE_COMPILER}
    -P "${real}/quirk_verdicts.cmake")
  set_tests_properties(selftest/quirk-verdicts PROPERTIES LABELS "selftest;kat;build"
    FIXTURES_REQUIRED "${all_fixtures}" TIMEOUT 120)

  set(inst "${CMAKE_BINARY_DIR}/instances")
  add_test(NAME selftest/chatty-output COMMAND ${CMAKE_COMMAND}
    "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DLIB=${inst}/fxq-runtime/VAR-128/libngcc_plain.so"
    "-DWORK=${CMAKE_BINARY_DIR}/selftest/chatty-output" -P "${real}/chatty_selftest.cmake")
  set_tests_properties(selftest/chatty-output PROPERTIES LABELS "selftest;kat" TIMEOUT 120
    FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.VAR-128")

  add_test(NAME selftest/sandbox COMMAND ${CMAKE_COMMAND}
    "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DLIB=${inst}/fxq-runtime/ESC-128/libngcc_plain.so"
    "-DWORK=${CMAKE_BINARY_DIR}/selftest/sandbox" -P "${real}/sandbox_selftest.cmake")
  set_tests_properties(selftest/sandbox PROPERTIES LABELS "selftest;kat" TIMEOUT 120
    FIXTURES_REQUIRED "ngcc.build.plain.fxq-runtime.ESC-128")
endfunction()

# selftest/resume-kill: needs every test of NGCC_RESUME_KILL_TESTS
function(ngcc_add_resume_kill_selftest)
  set(names ${NGCC_RESUME_KILL_TESTS})
  if(NGCC_VALGRIND)
    list(APPEND names ${NGCC_RESUME_KILL_VALGRIND_TESTS})
  endif()
  set(fixtures "")
  foreach(t IN LISTS names)
    if(NOT TEST "${t}")
      ngcc_selftest_fail(selftest/resume-kill "${t} not registered (fixture missing or its label left out): \
selftest/resume-kill reruns it")
      return()
    endif()
    # the build records it copies: every variant the test reads
    string(REGEX REPLACE "^[a-z-]+/([^/]+)/([^/]+).*$" "\\1.\\2" dotted "${t}")
    list(APPEND fixtures "ngcc.build.plain.${dotted}")
    if(t MATCHES "^prof/")
      list(APPEND fixtures "ngcc.build.prof.${dotted}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES fixtures)
  string(REPLACE ";" "," names_arg "${names}")
  add_test(NAME selftest/resume-kill COMMAND sh "${PROJECT_SOURCE_DIR}/tests/kat/kat_resume_selftest.sh"
    "${CMAKE_BINARY_DIR}" "${CMAKE_BINARY_DIR}/selftest/resume-kill" "${CMAKE_CTEST_COMMAND}" "${names_arg}"
    ${NGCC_RESUME_KILL_VICTIM})
  set_tests_properties(selftest/resume-kill PROPERTIES LABELS "selftest;kat;resume" TIMEOUT 900
    FIXTURES_REQUIRED "${fixtures}")
endfunction()

# Compiler matrix and cross-build KAT agreement (label kat, test katx/<cand>/<key>).
#
# NGCC_INSTANCE_COMPILER=gcc|clang picks the compiler of every instance
# library (plain, asan, prof; the compiler lands in each build record's
# meta.compiler). katx/<cand>/<key> replays the first NGCC_KATX_RECORDS KAT
# records on every built variant of the instance and requires the same text:
#   plain   the guide build (gcc -O2 guide, or the set that built)
#   o3      the same flag set at -O3 (gcc)              } instances matching
#   clang   the same flag set built by clang -O2        } NGCC_KATX_FULL only
#   asan    the ASan+UBSan build security-asan already makes
#   <dir>   the digests another build tree's katx wrote (NGCC_KATX_EXTRA_DIGESTS,
#           e.g. build/aarch64/katx: the AArch64 build under qemu)
# Disagreement is MISMATCH naming the variants and the first differing record
# (and line, for variants of this tree). Each katx writes
# <build>/katx/<cand>/<key>.digests (one line per variant: name, records,
# canonical SHA-256, per-record SHA-256) for another tree to compare with.
# Cost: 2 extra library builds per NGCC_KATX_FULL instance and one
# NGCC_KATX_RECORDS-record replay per variant. An instance with one variant
# only is not compared; in a cross tree its katx just records the digests
# (RECORDED, passing: nothing was compared there).
set(NGCC_INSTANCE_COMPILER gcc CACHE STRING "Compiler of the instance libraries: gcc or clang")
set_property(CACHE NGCC_INSTANCE_COMPILER PROPERTY STRINGS gcc clang)
if(NOT NGCC_INSTANCE_COMPILER MATCHES "^(gcc|clang)$")
  message(FATAL_ERROR "ngcc-ctest: NGCC_INSTANCE_COMPILER='${NGCC_INSTANCE_COMPILER}' is not gcc or clang; "
    "configure again with -DNGCC_INSTANCE_COMPILER=gcc (or clang)")
endif()
if(NGCC_INSTANCE_COMPILER STREQUAL "clang")
  find_program(NGCC_CLANG clang)
  if(NOT NGCC_CLANG)
    message(FATAL_ERROR "ngcc-ctest: NGCC_INSTANCE_COMPILER=clang but clang is not installed: tools/install-deps --clang")
  endif()
  if(CMAKE_CROSSCOMPILING)
    message(FATAL_ERROR "ngcc-ctest: NGCC_INSTANCE_COMPILER=clang is not supported in a cross build (${CMAKE_TOOLCHAIN_FILE}); use gcc")
  endif()
endif()

option(NGCC_KATX "Register the cross-build KAT agreement tests katx/<cand>/<key>" ON)
set(NGCC_KATX_RECORDS 3 CACHE STRING "KAT records each katx variant replays (the first N)")
set(NGCC_KATX_FULL "^[^~]*$" CACHE STRING
  "Regex over <cand>/<key>: instances that also get the o3 and clang variants (2 extra builds each; default every instance but no zoo variant; zoo variants with a katx expectation always do; the ci preset narrows it for time)")
set(NGCC_KATX_EXTRA_DIGESTS "" CACHE STRING
  "katx digest folders of other build trees to agree with (e.g. <src>/build/aarch64/katx)")
set(NGCC_TIMEOUT_katx 600 CACHE STRING "Timeout of a katx test")
find_program(NGCC_CLANG clang)
set(_katx_extra_variants "")
if(NOT CMAKE_CROSSCOMPILING)
  list(APPEND _katx_extra_variants o3)
  if(NGCC_CLANG AND NOT NGCC_INSTANCE_COMPILER STREQUAL "clang")
    list(APPEND _katx_extra_variants clang)
  elseif(NOT NGCC_CLANG)
    message(STATUS "ngcc: clang not found: katx compares no clang build (tools/install-deps --clang)")
  endif()
endif()
set(NGCC_KATX_VARIANTS "${_katx_extra_variants}" CACHE STRING
  "Extra build variants katx compares on NGCC_KATX_FULL instances (o3, clang)")
if(CMAKE_CROSSCOMPILING)
  set(NGCC_KATX_ARCH "${CMAKE_SYSTEM_PROCESSOR}")
else()
  cmake_host_system_information(RESULT NGCC_KATX_ARCH QUERY OS_PLATFORM)
endif()

function(ngcc_add_katx_tests n)
  if(NOT NGCC_KATX)
    return()
  endif()
  foreach(f IN ITEMS id key root records kat_records type)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  # SIG, KEM and KEX records start at "Count = " and ngcc-kat replays them;
  # the hash driver's files have no records of that kind: not compared yet
  if(type STREQUAL "HASH")
    message(STATUS "ngcc: ${id}/${key}: no katx test: the cross-build KAT agreement covers SIG, KEM and KEX instances only")
    return()
  endif()
  ngcc_iget(${n} expect_katx expect)
  ngcc_expect(${n} kat PASS expect_kat)
  # zoo variants whose KAT fails on purpose are not compared, unless they say
  # what katx must find
  if("${expect}" STREQUAL "")
    if(NOT expect_kat STREQUAL "PASS")
      return()
    endif()
    set(expect PASS)
  endif()
  set(variants plain)
  ngcc_iget(${n} expect_katx declared)
  if("${id}/${key}" MATCHES "${NGCC_KATX_FULL}" OR NOT "${declared}" STREQUAL "")
    foreach(v IN LISTS NGCC_KATX_VARIANTS)
      if(NOT TEST "build/${id}/${key}/${v}")
        ngcc_add_build_test(${n} ${v})
      endif()
      list(APPEND variants ${v})
    endforeach()
  endif()
  # The asan build recovers from UBSan reports (the template's UB, or the
  # candidate's own): its output must agree all the same. Instances expected
  # to fail under ASan (a bad access ends the process) are not compared.
  ngcc_expect(${n} sanitizer PASS expect_san)
  if(TEST "build/${id}/${key}/asan" AND expect_san MATCHES "^(PASS|UNDEFINED)$" AND NGCC_ASAN_RUNTIME
     AND NOT CMAKE_CROSSCOMPILING)
    list(APPEND variants asan)
  endif()
  # one variant: nothing to compare here; a cross tree still records its
  # digests for the host tree (RECORDED, passing)
  list(LENGTH variants nv)
  if(nv LESS 2 AND NOT CMAKE_CROSSCOMPILING AND NOT NGCC_KATX_EXTRA_DIGESTS)
    return()
  endif()
  if(nv LESS 2 AND CMAKE_CROSSCOMPILING)
    set(expect RECORDED) # (a zoo variant's katx expectation is for the host tree's comparison)
  endif()
  set(nrec ${NGCC_KATX_RECORDS})
  if(kat_records LESS nrec)
    set(nrec ${kat_records})
  endif()
  string(REPLACE ";" "," variants_arg "${variants}")
  string(REPLACE ";" "," emu_arg "${CMAKE_CROSSCOMPILING_EMULATOR}")
  string(REPLACE ";" "," extra_arg "${NGCC_KATX_EXTRA_DIGESTS}")
  string(REPLACE ";" "," asan_env "${NGCC_SANITIZER_ENV}")
  set(name "katx/${id}/${key}")
  add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND}
    "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DEMULATOR=${emu_arg}" "-DVARIANTS=${variants_arg}"
    "-DROOT=${root}" "-DRECORDS_DIR=${records}" -DN=${nrec} "-DNAME=${id}/${key}"
    "-DWORK=${CMAKE_BINARY_DIR}/katx/${id}/${key}" "-DDIGEST_OUT=${CMAKE_BINARY_DIR}/katx/${id}/${key}.digests"
    "-DARCH=${NGCC_KATX_ARCH}" "-DEXTRA=${extra_arg}" "-DEXPECT=${expect}" "-DASAN_ENV=${asan_env}"
    -P ${PROJECT_SOURCE_DIR}/cmake/NgccKatCrossRun.cmake)
  set(fixtures "")
  foreach(v IN LISTS variants)
    list(APPEND fixtures "ngcc.build.${v}.${id}.${key}")
  endforeach()
  set_tests_properties("${name}" PROPERTIES LABELS "kat;katx;${id};${key}"
    FIXTURES_REQUIRED "${fixtures}" TIMEOUT ${NGCC_TIMEOUT_katx}
    SKIP_REGULAR_EXPRESSION "ngcc: verdict katx [^\n]*: SKIP: ")
  if(TEST "kat/${id}/${key}")
    set_property(TEST "${name}" APPEND PROPERTY DEPENDS "kat/${id}/${key}")
  endif()
endfunction()

# elf/<cand>/<key> (label build, cross trees): the instance library is an
# ELF file for the target, e_machine 183 (EM_AARCH64) on aarch64, read from
# the ELF header itself (bytes 18-19, little-endian).
function(ngcc_add_elf_test n)
  if(NOT CMAKE_CROSSCOMPILING)
    return()
  endif()
  set(want "")
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(want 183)
  elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|amd64)$")
    set(want 62)
  else()
    return()
  endif()
  ngcc_expect(${n} build BUILDOK bexp)
  if(NOT bexp STREQUAL "BUILDOK") # (a BUILDFAIL fixture has no library)
    return()
  endif()
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  ngcc_iget(${n} root root)
  set(name "elf/${id}/${key}")
  add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND} "-DLIB=${root}/libngcc_plain.so" -DWANT=${want}
    "-DNAME=${id}/${key}" -P ${PROJECT_SOURCE_DIR}/cmake/NgccElfCheck.cmake)
  set_tests_properties("${name}" PROPERTIES LABELS "build;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 30)
endfunction()

# Cross trees (preset aarch64): what cannot run as it does natively.
# An instance whose verdict depends on this host's speed or on RLIMIT_AS
# declares "native_only": "<why>" in its ngcc.json (cmake/NgccOverrides.cmake)
# and is not built under emulation (SKIP with the reason).
# Selftests whose scripts run the target's executables directly (cmake -P,
# no CMAKE_CROSSCOMPILING_EMULATOR, no binfmt_misc here; quirk-verdicts also
# wants the records of SLOW-128, not built under emulation; resume-kill
# reruns copies of the test commands without the emulator; quirk-security-slow
# reads the records of SLOWKG-128, not built under emulation; quirk-security
# runs ngcc-security itself and wants WOTS-128~hang-record, native_only;
# selftest/ct/harness-error* want a valgrind verdict, and ct is SKIP under
# emulation): disabled in a cross tree, listed at configure time; they run
# in the host trees.
set(NGCC_CROSS_HOST_ONLY_TESTS "^selftest/(kat/compare|chatty-output|sandbox|quirk-kat|quirk-verdicts|quirk-security|quirk-security-slow|resume-kill|ct/harness-error(-detail)?)$"
  CACHE STRING "Cross trees: regex of tests that run target executables without the emulator (disabled)")

# the instance's skip reason in a cross tree (called by discovery)
function(ngcc_emulation_skip native_only out)
  set(r "")
  if(CMAKE_CROSSCOMPILING AND NOT "${native_only}" STREQUAL "")
    list(JOIN CMAKE_CROSSCOMPILING_EMULATOR " " emu)
    set(r "emulated (${emu}): not built under emulation (\"native_only\": ${native_only})")
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

function(ngcc_cross_disable_host_only)
  if(NOT CMAKE_CROSSCOMPILING)
    return()
  endif()
  # selftest/elf-check: the ELF check fails on a library of another machine
  # (cmake itself, an x86-64 executable here) with the numbers named
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    add_test(NAME selftest/elf-check COMMAND ${CMAKE_COMMAND} "-DLIB=${CMAKE_COMMAND}" -DWANT=183
      -DNAME=selftest/host-cmake -P ${PROJECT_SOURCE_DIR}/cmake/NgccElfCheck.cmake)
    set_tests_properties(selftest/elf-check PROPERTIES LABELS "selftest;build" TIMEOUT 30
      PASS_REGULAR_EXPRESSION "ngcc: verdict elf selftest/host-cmake: ERROR: [^\n]* has e_machine 62, the target needs 183")
  endif()
  get_property(all DIRECTORY PROPERTY TESTS)
  set(off "")
  foreach(t IN LISTS all)
    if(t MATCHES "${NGCC_CROSS_HOST_ONLY_TESTS}")
      set_tests_properties("${t}" PROPERTIES DISABLED TRUE)
      list(APPEND off "${t}")
    endif()
  endforeach()
  if(off)
    list(JOIN off ", " t)
    message(STATUS "ngcc: cross tree: disabled (their scripts run target executables without the emulator): ${t}")
  endif()
endfunction()

# katx/<cand>/<ALGORITHM_INSTANCE>~impls (label kat): the Reference,
# Optimized and Additional builds of one ALGORITHM_INSTANCE (keys <label>,
# <label>.opt, <label>.add) replay the first NGCC_KATX_RECORDS KAT records
# and must produce the same text: a reference and an optimized build that
# derive different keys can each pass against a KAT file of its own, or one
# of them be covered by no file at all. MISMATCH names both builds and the
# first differing record and field (cmake/NgccKatImplsRun.cmake). Members:
# the plain builds of the non-zoo SIG/KEM/KEX instances whose kat is
# expected to PASS and that this host builds; a group of one gets no test.
# Expectation (fixtures): "katx.impls" and "katx.impls.detail" (an ERE) on
# any member. Cost: one N-record replay per member.
function(ngcc_add_katx_impls_tests)
  if(NOT NGCC_KATX)
    return()
  endif()
  get_property(all GLOBAL PROPERTY NGCC_SHARD_SELECTED)
  set(groups "")
  foreach(n IN LISTS all)
    foreach(f IN ITEMS id key ai zoo type impl skip_reason discover_error)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    ngcc_instance_labels(${n} labels)
    ngcc_expect(${n} kat PASS expect_kat)
    ngcc_expect(${n} build BUILDOK expect_build)
    if(NOT zoo STREQUAL "" OR type STREQUAL "HASH" OR NOT "kat" IN_LIST labels OR skip_reason OR discover_error
       OR ai STREQUAL "" OR NOT expect_kat STREQUAL "PASS" OR NOT expect_build STREQUAL "BUILDOK")
      continue()
    endif()
    string(MAKE_C_IDENTIFIER "${id}/${type}/${ai}" g)
    if(NOT g IN_LIST groups)
      list(APPEND groups ${g})
      set(G_${g}_type "${type}")
      set(G_${g}_id "${id}")
      set(G_${g}_ai "${ai}")
      set(G_${g}_members "")
    endif()
    # Reference first: the others are compared with it
    if(impl STREQUAL "Reference")
      list(PREPEND G_${g}_members ${n})
    else()
      list(APPEND G_${g}_members ${n})
    endif()
  endforeach()
  string(REPLACE ";" "," emu_arg "${CMAKE_CROSSCOMPILING_EMULATOR}")
  foreach(g IN LISTS groups)
    list(LENGTH G_${g}_members nm)
    if(nm LESS 2)
      continue()
    endif()
    set(id "${G_${g}_id}")
    set(name "katx/${id}/${G_${g}_ai}~impls")
    if(TEST "${name}") # (one name for a SIG and a KEM instance, as in the template)
      string(APPEND name "-${G_${g}_type}")
    endif()
    set(args "")
    set(fixtures "")
    set(keys "")
    set(expect PASS)
    set(expect_detail "")
    set(nrec ${NGCC_KATX_RECORDS})
    set(slow FALSE)
    foreach(n IN LISTS G_${g}_members)
      foreach(f IN ITEMS key impl root records kat_records slow_labels)
        ngcc_iget(${n} ${f} ${f})
      endforeach()
      if("kat" IN_LIST slow_labels OR "katx" IN_LIST slow_labels)
        set(slow TRUE)
      endif()
      if(kat_records LESS nrec)
        set(nrec ${kat_records})
      endif()
      list(APPEND args "${key}|${impl}|${root}/libngcc_plain.so|${records}")
      list(APPEND fixtures "ngcc.build.plain.${id}.${key}")
      list(APPEND keys "${key}")
      ngcc_iget(${n} expect_katx.impls e)
      if(NOT "${e}" STREQUAL "")
        set(expect "${e}")
      endif()
      ngcc_iget(${n} expect_katx.impls.detail e)
      if(NOT "${e}" STREQUAL "")
        set(expect_detail "${e}")
      endif()
    endforeach()
    string(REPLACE ";" "," members_arg "${args}")
    string(REPLACE "katx/${id}/" "" tname "${name}")
    add_test(NAME "${name}" COMMAND ${CMAKE_COMMAND}
      "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DEMULATOR=${emu_arg}" "-DMEMBERS=${members_arg}" -DN=${nrec}
      "-DNAME=${id}/${tname}" "-DWORK=${CMAKE_BINARY_DIR}/katx/${id}/${tname}"
      "-DEXPECT=${expect}" "-DEXPECT_DETAIL=${expect_detail}"
      -P ${PROJECT_SOURCE_DIR}/cmake/NgccKatImplsRun.cmake)
    set_tests_properties("${name}" PROPERTIES LABELS "kat;katx;${id};${keys}"
      FIXTURES_REQUIRED "${fixtures}" TIMEOUT ${NGCC_TIMEOUT_katx}
      ENVIRONMENT "NGCC_SCRATCH_DIR=${CMAKE_BINARY_DIR}/scratch/${name}"
      SKIP_REGULAR_EXPRESSION "ngcc: verdict katx [^\n]*: SKIP: ")
    foreach(k IN LISTS keys)
      if(TEST "kat/${id}/${k}")
        set_property(TEST "${name}" APPEND PROPERTY DEPENDS "kat/${id}/${k}")
      endif()
    endforeach()
    if(slow) # (a member's "slow_labels" names kat or katx)
      set_property(TEST "${name}" APPEND PROPERTY LABELS slow)
    endif()
    set_property(GLOBAL APPEND PROPERTY NGCC_SHARD_INSTANCE_TESTS "${name}")
  endforeach()
endfunction()

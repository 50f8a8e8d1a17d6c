# Selftests of the kat label (moved out of cmake/NgccKatTests.cmake).
#
# kat-template/<TYPE>: the replay of the blank template fixture must reproduce
#   the official blank template KAT files byte for byte; the SHA-256 of the
#   ICCS template package's KAT_{SIG,KEM}_AlgorithmInstance.txt is
#   fixtures/fx-template/ngcc.json "selftest": {"kat_template_sha256"}.
#   kat-template/KEX reproduces KAT_KEX_AlgorithmInstance.txt (6d985e00...);
#   kat-template/KEX-real the same stubs in real mode (40afdd79..., 4690 bytes).
# selftest/kat/compare: the comparison, manifest and NOKAT paths proven on a
#   correct fixture instance (tests/kat/kat_selftest.cmake has the scenarios).
function(ngcc_add_kat_selftests)
  # KEX-real: the same KEX stubs with OUTPUT_BLANK_TEST_VECTORS 0 (variant
  # ~real-mode) give iccs-kex-hash.md §2.6's "stubs in real mode" vector
  foreach(type SIG KEM KEX KEX-real)
    set(name "kat-template/${type}")
    set(item "fx-template/${type}-Template")
    set(file "KAT_${type}_AlgorithmInstance.txt")
    if(type STREQUAL "KEX-real")
      set(item "fx-template/KEX-Template~real-mode")
      set(file "KAT_KEX_AlgorithmInstance.real-mode.txt")
    endif()
    ngcc_selftest_instance("${name}" "${item}" n)
    if(n STREQUAL "")
      continue()
    endif()
    ngcc_selftest_data("${name}" ${n} kat_template_sha256 sha)
    if(sha STREQUAL "")
      continue()
    endif()
    foreach(f IN ITEMS id key root records)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    add_test(NAME "${name}" COMMAND ngcc-kat --lib "${root}/libngcc_plain.so" --name "${name}"
      --record-out "${records}/kat-template.json" --build-record "${records}/build-plain.json"
      --write-kat "${CMAKE_BINARY_DIR}/kat/template/${file}"
      --kat-sha256 ${sha})
    set_tests_properties("${name}" PROPERTIES LABELS "kat;template;${id}"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 120 SKIP_RETURN_CODE 77)
  endforeach()

  ngcc_add_kat_hash_selftests()

  # a 4-pass KEX: the package's own extended KAT_KEX.c (tests/kat/kat_kex4_selftest.cmake)
  ngcc_selftest_instance("selftest/kat/kex4-package-driver" "fx-kex/KEX4-128" n)
  if(NOT n STREQUAL "")
    foreach(f IN ITEMS id key root katfile api)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    get_filename_component(instdir "${api}" DIRECTORY)
    # a cross tree's driver and package program run under its emulator
    string(REPLACE ";" "," emu "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME "selftest/kat/kex4-package-driver" COMMAND ${CMAKE_COMMAND}
      "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DEMULATOR=${emu}" "-DCC=${CMAKE_C_COMPILER}" "-DLIB=${root}/libngcc_plain.so"
      "-DINSTDIR=${instdir}" "-DICCS=${PROJECT_SOURCE_DIR}/iccs" "-DREF=${katfile}"
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/kat-kex4"
      -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_kex4_selftest.cmake)
    set_tests_properties("selftest/kat/kex4-package-driver" PROPERTIES LABELS "selftest;kat"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 120)
  endif()

  ngcc_selftest_instance("selftest/kat/compare" "fx-wots/WOTS-128" n)
  if(n STREQUAL "")
    return()
  endif()
  foreach(f IN ITEMS id key root katfile mkey)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  add_test(NAME "selftest/kat/compare" COMMAND ${CMAKE_COMMAND}
    "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DMANIFEST_TOOL=$<TARGET_FILE:ngcc-manifest>"
    "-DLIB=${root}/libngcc_plain.so" "-DREF=${katfile}" "-DKEY=${mkey}"
    "-DWORK=${CMAKE_BINARY_DIR}/selftest/kat-compare"
    -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_selftest.cmake)
  set_tests_properties("selftest/kat/compare" PROPERTIES LABELS "selftest;kat"
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 300)
endfunction()

# The hash driver's four files, byte for byte (SHA-256 of the written file):
# kat-template/HASH/<file>: a stub CryptHash in blank mode (d = 512,
#   "AlgorithmInstance") gives the blank templates of iccs-kex-hash.md §3.7;
# kat-sm3ref/<file>: CryptHash = our sm3hash (d = 256, "SM3ref", real mode)
#   gives the four files the official KAT_CryptHash.c + auxfunc.c produced.
# The values are the fixtures' "selftest" entries ("<file>=<sha256> ...").
# KAT_2_33 follows NGCC_HASH_KAT_2_33 (reduced: SKIP naming the option).
function(ngcc_add_kat_hash_selftests)
  foreach(which IN ITEMS template sm3ref)
    if(which STREQUAL "template")
      set(prefix "kat-template/HASH")
      set(item "fx-template/HASH-Template")
      set(entry kat_template_sha256)
    else()
      set(prefix "kat-sm3ref")
      set(item "fx-hash/SM3ref")
      set(entry kat_sm3ref_sha256)
    endif()
    ngcc_selftest_instance("${prefix}" "${item}" n)
    if(n STREQUAL "")
      continue()
    endif()
    ngcc_selftest_data("${prefix}" ${n} ${entry} shas)
    if(shas STREQUAL "")
      continue()
    endif()
    foreach(f IN ITEMS id key ai root records)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    set(files 2_12 2_23 2_33 loop)
    set(kinds 2_12 2_23 2_33 Loop)
    foreach(file kind IN ZIP_LISTS files kinds)
      set(name "${prefix}/${file}")
      if(NOT shas MATCHES "(^| )${file}=([0-9a-f]+)")
        ngcc_selftest_fail("${name}" "fixture ${item}: \"selftest\": {\"${entry}\"} has no ${file}=<sha256>")
        continue()
      endif()
      add_test(NAME "${name}" COMMAND ngcc-kat-hash --lib "${root}/libngcc_plain.so" --name "${name}" --file ${file}
        --record-out "${records}/${which}-${file}.json" --build-record "${records}/build-plain.json"
        --write-kat "${CMAKE_BINARY_DIR}/kat/${which}/KAT_${kind}_${ai}.txt" --mode ${NGCC_HASH_KAT_2_33}
        --kat-sha256 ${CMAKE_MATCH_2} --timeout 895)
      set(labels "kat;template;${id}")
      if(file STREQUAL "2_33")
        list(APPEND labels slow)
      endif()
      set_tests_properties("${name}" PROPERTIES LABELS "${labels}"
        FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 900 SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
  # KAT_2_33 is SKIP naming the way out in reduced mode and without memory
  ngcc_selftest_instance("selftest/kat/hash-2_33-skip" "fx-template/HASH-Template" n)
  if(NOT n STREQUAL "")
    foreach(f IN ITEMS id key root records)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    # a cross tree's driver runs under its emulator (the script calls it itself)
    string(REPLACE ";" "," emu "${CMAKE_CROSSCOMPILING_EMULATOR}")
    add_test(NAME "selftest/kat/hash-2_33-skip" COMMAND ${CMAKE_COMMAND}
      "-DKAT=$<TARGET_FILE:ngcc-kat-hash>" "-DEMULATOR=${emu}" "-DLIB=${root}/libngcc_plain.so"
      "-DBUILD_RECORD=${records}/build-plain.json" "-DWORK=${CMAKE_BINARY_DIR}/selftest/kat-hash-skip"
      -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_hash_selftest.cmake)
    set_tests_properties("selftest/kat/hash-2_33-skip" PROPERTIES LABELS "selftest;kat"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 120)
  endif()
  # KAT_2_33 / KAT_Loop predicted from the speed, SKIP above the cap
  # (kat_hash_budget_selftest.cmake): the slow zoo and FXH-256 itself
  ngcc_selftest_instance("selftest/kat/hash-budget" "fx-hash/FXH-256~slow" slow)
  ngcc_selftest_instance("selftest/kat/hash-budget" "fx-hash/FXH-256" fast)
  if(NOT slow STREQUAL "" AND NOT fast STREQUAL "" AND NOT CMAKE_CROSSCOMPILING)
    foreach(f IN ITEMS id key root records)
      ngcc_iget(${slow} ${f} s_${f})
      ngcc_iget(${fast} ${f} f_${f})
    endforeach()
    add_test(NAME "selftest/kat/hash-budget" COMMAND ${CMAKE_COMMAND}
      "-DKAT=$<TARGET_FILE:ngcc-kat-hash>" "-DPERF=$<TARGET_FILE:ngcc-perf>" "-DSLOW_LIB=${s_root}/libngcc_plain.so"
      "-DSLOW_BUILD_RECORD=${s_records}/build-plain.json" "-DSLOW_RECORDS=${s_records}"
      "-DFAST_RECORDS=${f_records}" "-DWORK=${CMAKE_BINARY_DIR}/selftest/kat-hash-budget"
      -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_hash_budget_selftest.cmake)
    set_tests_properties("selftest/kat/hash-budget" PROPERTIES LABELS "selftest;kat"
      FIXTURES_REQUIRED "ngcc.kat.${s_id}.${s_key};ngcc.kat.${f_id}.${f_key}" TIMEOUT 120)
  endif()
endfunction()

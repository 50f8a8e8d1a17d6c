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

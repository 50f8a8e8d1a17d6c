# kat/<cand>/<key>: replays the official KAT driver on the instance library
# and compares with the submitted KAT file and/or a kat.sha256 manifest.
option(NGCC_WRITE_KAT "Write the produced KAT files to <build>/kat/<candidate>/" OFF)

set(NGCC_KAT_BUDGET_S 120 CACHE STRING
  "Campaign budget of one kat test (s): after each record the driver stops when the next record would end past it (record 0 always runs); the test's TIMEOUT is kept at least 60 s above it")

function(ngcc_add_kat_tests n)
  foreach(f IN ITEMS id key type ai root records katfile manifest mkey kat_records memory_limit_mb timeout_kat)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  ngcc_expect(${n} kat PASS expect)
  ngcc_timeout(${n} kat t)
  # The budget decides, not CTest: with the default timeout, the timeout is
  # raised to stay 60 s above the budget; with a "timeouts" {"kat": S}
  # override, the budget shrinks to fit inside it.
  set(budget ${NGCC_KAT_BUDGET_S})
  if("${timeout_kat}" STREQUAL "")
    math(EXPR low "${budget} + 60")
    if(t LESS low)
      set(t ${low})
    endif()
  else()
    math(EXPR high "${t} - 10")
    if(budget GREATER high)
      set(budget ${high})
    endif()
    if(budget LESS 1)
      set(budget 1)
    endif()
  endif()
  # the driver stops the child itself a little before CTest would kill it
  math(EXPR inner "${t} - 5")
  set(name "kat/${id}/${key}")
  set(args --lib "${root}/libngcc_plain.so" --name "${id}/${key}"
    --record-out "${records}/kat.json" --build-record "${records}/build-plain.json"
    --log "${records}/kat.child.log"
    --records ${kat_records} --timeout ${inner} --budget ${budget} --expect ${expect})
  # options only when set: an empty quoted value is dropped by CMake and the
  # next option would become the value
  if(NOT "${katfile}" STREQUAL "")
    list(APPEND args --ref "${katfile}")
  endif()
  if(NOT "${manifest}" STREQUAL "")
    list(APPEND args --manifest "${manifest}" --manifest-key "${mkey}")
  endif()
  if(memory_limit_mb)
    list(APPEND args --mem-limit-mb ${memory_limit_mb})
  endif()
  if(NGCC_WRITE_KAT)
    list(APPEND args --write-kat "${CMAKE_BINARY_DIR}/kat/${id}/KAT_${type}_${ai}.txt")
  endif()
  add_test(NAME "${name}" COMMAND ngcc-kat ${args})
  set_tests_properties("${name}" PROPERTIES
    LABELS "kat;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}"
    FIXTURES_SETUP "ngcc.kat.${id}.${key}"
    TIMEOUT ${t} SKIP_RETURN_CODE 77) # 77: the build test skipped the instance
endfunction()

# kat-template/<TYPE>: the replay of the blank template fixture must
# reproduce the official blank template KAT files byte for byte (SHA-256 of
# ../shared/data/iccs-template/KAT_{SIG,KEM}_AlgorithmInstance.txt).
set(NGCC_TEMPLATE_SHA256_SIG 19c773d9aac66115f44b37ad8025846138c89047aa2280067c9fdb753ffbea6e)
set(NGCC_TEMPLATE_SHA256_KEM 9562f17acf328f7899bc2e394c2079aaae42c996d4fed1cfa929142fb0a5139b)

function(ngcc_add_template_tests)
  get_property(all GLOBAL PROPERTY NGCC_INSTANCES)
  foreach(n IN LISTS all)
    ngcc_iget(${n} id id)
    ngcc_iget(${n} key key)
    ngcc_iget(${n} type type)
    ngcc_iget(${n} root root)
    ngcc_iget(${n} records records)
    if(NOT id STREQUAL "fx-template" OR NOT key STREQUAL "${type}-Template")
      continue()
    endif()
    set(name "kat-template/${type}")
    add_test(NAME "${name}" COMMAND ngcc-kat --lib "${root}/libngcc_plain.so" --name "${name}"
      --record-out "${records}/kat-template.json" --build-record "${records}/build-plain.json"
      --write-kat "${CMAKE_BINARY_DIR}/kat/template/KAT_${type}_AlgorithmInstance.txt"
      --kat-sha256 ${NGCC_TEMPLATE_SHA256_${type}})
    set_tests_properties("${name}" PROPERTIES LABELS "kat;template;${id}"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 120 SKIP_RETURN_CODE 77)
  endforeach()
endfunction()

# selftest/kat-compare: the comparison, manifest and NOKAT paths proven on a
# correct fixture instance (tests/kat/kat_selftest.cmake has the scenarios).
function(ngcc_add_kat_selftests)
  get_property(all GLOBAL PROPERTY NGCC_INSTANCES)
  foreach(n IN LISTS all)
    ngcc_iget(${n} id id)
    ngcc_iget(${n} key key)
    if(NOT id STREQUAL "fx-wots" OR NOT key STREQUAL "WOTS-128")
      continue()
    endif()
    foreach(f IN ITEMS root katfile mkey)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    add_test(NAME "selftest/kat-compare" COMMAND ${CMAKE_COMMAND}
      "-DKAT=$<TARGET_FILE:ngcc-kat>" "-DMANIFEST_TOOL=$<TARGET_FILE:ngcc-manifest>"
      "-DLIB=${root}/libngcc_plain.so" "-DREF=${katfile}" "-DKEY=${mkey}"
      "-DWORK=${CMAKE_BINARY_DIR}/selftest/kat-compare"
      -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_selftest.cmake)
    set_tests_properties("selftest/kat-compare" PROPERTIES LABELS "selftest;kat"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}" TIMEOUT 300)
  endforeach()
endfunction()

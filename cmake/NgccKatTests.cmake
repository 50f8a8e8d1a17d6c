# kat/<cand>/<key>: replays the official KAT driver on the instance library
# and compares with the submitted KAT file and/or a kat.sha256 manifest.
# KAT_KEX.c is replayed by ngcc-kat like KAT_SIG.c / KAT_KEM.c
set(NGCC_LABEL_TYPES_kat SIG KEM KEX)
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
  # "expect": {"kat": "CRYPTOFAIL", "kat.detail": "<ERE>"}: the detail must say why
  ngcc_iget(${n} expect_kat.detail expect_detail)
  if(NOT "${expect_detail}" STREQUAL "")
    list(APPEND args --expect-detail "${expect_detail}")
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

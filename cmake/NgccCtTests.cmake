# The ct label (tests/ct): constant time, TIMECOP-style. For every instance
# (SIG and KEM):
#   build/<cand>/<key>/ct   the ct library: the plain flags (with -g) plus
#                           --wrap=get_random_number (cmake/instance/ngcc_glue_ct.c
#                           marks the DRNG output secret for valgrind)
#   ct/<cand>/<key>         ngcc-ct: one KAT record under valgrind memcheck with
#                           sk and the DRNG output undefined  labels ct;<cand>;<key>
#   selftest/ct/<cand>/<key>  when the override declares "ct.detail": the record's
#                           verdict and detail asserted   labels selftest;ct;<cand>;<key>
# Not part of the security label's verdict. Override keys: "expect" {"ct":
# VERDICT, "ct.detail": REGEX}, "timeouts" {"ct": S} (also lifts the budget),
# "ct" {"public_randomness": ["sign"]} (operations whose DRNG draws are public
# by design, not marked secret), "ct" {"public_sk": ["32:64"]} (public sk bytes).
# Cost: memcheck with origins is ~60x native; an instance whose KAT record is
# predicted (kat.json op_seconds x NGCC_CT_SLOWDOWN) above NGCC_CT_BUDGET is
# SKIP with the prediction, unless its override gives a ct timeout.
set(NGCC_TIMEOUT_ct 300 CACHE STRING "Default timeout of a ct test (s)")
set(NGCC_CT_BUDGET 30 CACHE STRING "Predicted seconds above which a ct test is SKIP (0: never)")
set(NGCC_LABEL_TYPES_ct SIG KEM KEX HASH)
set(NGCC_CT_SLOWDOWN 60 CACHE STRING "Slowdown of memcheck --track-origins=yes assumed by the ct prediction")
find_program(NGCC_VALGRIND valgrind)

function(ngcc_add_ct_tests n)
  foreach(f IN ITEMS id key root records blank ct_public ct_public_sk timeout_ct expect_ct.detail)
    string(REPLACE "." "_" var "${f}")
    ngcc_iget(${n} ${f} ${var})
  endforeach()
  if(blank OR NOT NGCC_VALGRIND OR NOT TARGET ngcc-ct)
    return() # blank templates (stubs), or no valgrind: no ct tests
  endif()
  get_property(built GLOBAL PROPERTY NGCC_BUILD_TEST_ct_${n})
  if(NOT built)
    ngcc_add_build_test(${n} ct)
    set_property(GLOBAL PROPERTY NGCC_BUILD_TEST_ct_${n} TRUE)
  endif()
  ngcc_expect(${n} ct PASS expect)
  ngcc_timeout(${n} ct t)
  math(EXPR inner "${t} - 5")
  set(budget ${NGCC_CT_BUDGET})
  if(timeout_ct)
    set(budget ${inner}) # an explicit ct timeout: run whatever the prediction
  endif()
  if(NOT ct_public)
    set(ct_public none)
  endif()
  if(NOT ct_public_sk)
    set(ct_public_sk none)
  endif()
  set(name "ct/${id}/${key}")
  add_test(NAME "${name}" COMMAND ngcc-ct --valgrind "${NGCC_VALGRIND}"
    --suppressions "${PROJECT_SOURCE_DIR}/tests/ct/ct.supp"
    --lib "${root}/libngcc_ct.so" --name "${id}/${key}"
    --build-record "${records}/build-ct.json" --record-out "${records}/ct.json"
    --log "${records}/ct.log" --timeout ${inner} --expect ${expect}
    --public-randomness ${ct_public} --public-sk ${ct_public_sk}
    --kat-record "${records}/kat.json" --slowdown ${NGCC_CT_SLOWDOWN} --budget-s ${budget})
  set_tests_properties("${name}" PROPERTIES
    SKIP_RETURN_CODE 77
    LABELS "ct;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.ct.${id}.${key}"
    FIXTURES_SETUP "ngcc.ct.${id}.${key}"
    TIMEOUT ${t})
  if(TEST "kat/${id}/${key}") # its op_seconds predict the cost; a DEPENDS: a failed KAT must not skip ct
    set_property(TEST "${name}" APPEND PROPERTY DEPENDS "kat/${id}/${key}")
  endif()
  # (not in a cross tree: ct is SKIP under emulation, valgrind cannot trace
  # the guest, so the declared verdict and detail cannot be met there)
  if(expect_ct_detail AND NOT CMAKE_CROSSCOMPILING)
    add_test(NAME "selftest/ct/${id}/${key}" COMMAND ${CMAKE_COMMAND}
      "-DRECORD=${records}/ct.json" "-DVERDICT=${expect}" "-DDETAIL=${expect_ct_detail}" "-DNAME=${id}/${key}"
      -P "${PROJECT_SOURCE_DIR}/tests/ct/NgccCtSelftest.cmake")
    set_tests_properties("selftest/ct/${id}/${key}" PROPERTIES
      LABELS "selftest;ct;${id};${key}"
      FIXTURES_REQUIRED "ngcc.ct.${id}.${key}"
      TIMEOUT 60)
  endif()
endfunction()

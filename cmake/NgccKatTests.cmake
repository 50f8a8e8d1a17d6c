# kat/<cand>/<key>: replays the official KAT driver on the instance library
# and compares with the submitted KAT file and/or a kat.sha256 manifest.
# KAT_KEX.c is replayed by ngcc-kat like KAT_SIG.c / KAT_KEM.c; a hash
# instance gets one test per file of KAT_CryptHash.c (ngcc-kat-hash, below)
set(NGCC_LABEL_TYPES_kat SIG KEM KEX HASH)
option(NGCC_WRITE_KAT "Write the produced KAT files to <build>/kat/<candidate>/" OFF)

set(NGCC_KAT_BUDGET_S 120 CACHE STRING
  "Campaign budget of one kat test (s): after each record the driver stops when the next record would end past it (record 0 always runs); the test's TIMEOUT is kept at least 60 s above it")
set(NGCC_KAT_CAP_S 3600 CACHE STRING
  "Campaign cap of one kat test (s) whose only reference is a kat.sha256 line for N records: when N records do not fit the budget nor the timeout but fit the cap (by the measured per-record time), the driver runs on to N with its time limit raised, at most to the cap; per instance: \"timeouts\": {\"kat_cap\": S}")

# KAT_2_33 of a hash instance hashes a 1 GiB message (~3 GiB in all): full
# runs it, reduced makes it SKIP naming this option. Cross trees (AArch64
# under qemu) default to reduced.
if(CMAKE_CROSSCOMPILING)
  set(_ngcc_2_33_default reduced)
else()
  set(_ngcc_2_33_default full)
endif()
set(NGCC_HASH_KAT_2_33 ${_ngcc_2_33_default} CACHE STRING
  "KAT_2_33 of hash instances: full (run it: 1 GiB message buffer) or reduced (SKIP naming how to run it)")
set_property(CACHE NGCC_HASH_KAT_2_33 PROPERTY STRINGS full reduced)
if(NOT NGCC_HASH_KAT_2_33 MATCHES "^(full|reduced)$")
  message(FATAL_ERROR "NGCC_HASH_KAT_2_33=${NGCC_HASH_KAT_2_33}: expected full or reduced (-DNGCC_HASH_KAT_2_33=full)")
endif()

# KAT_2_33 (3 GiB hashed) and KAT_Loop (10^6 calls) of a hash instance are
# predicted by the driver from the instance's KAT_2_12/2_23 speed (else a
# short probe) before they start: a prediction x 2 above the cap is SKIP
# naming the prediction and the command that runs it, never a TIMEOUT. The
# cap is the instance's "timeouts" {"kat": S} override, else this; the
# test's TIMEOUT is the cap + 60 s, so the driver decides, not CTest.
set(NGCC_HASH_KAT_CAP_S 3600 CACHE STRING
  "Longest predicted run (s, x 2 margin) of a hash instance's KAT_2_33 or KAT_Loop: longer ones are SKIP naming the prediction")

# kat/<cand>/<key>/<file>, file = 2_12 2_23 2_33 loop: one test per file of
# KAT_CryptHash.c, each with its own verdict and record (kat-<file>.json).
# The files are found like the SIG/KEM ones (KAT_2_23_<ai>.txt, ...), the
# manifest line by the file name. Expectations: "kat.<file>" (else "kat")
# and "kat.<file>.detail" (else "kat.detail"). A zoo variant gets 2_33 and
# loop only with a "kat.<file>" expectation.
# The record holding instance n's KAT verdict, for the labels gated on it:
# kat.json; for a hash instance kat-2_12.json (its KAT_2_12 replay calls
# CryptHash on every message length from 0 to 4096 bits).
function(ngcc_kat_verdict_record n out)
  ngcc_iget(${n} records records)
  ngcc_iget(${n} type type)
  if(type STREQUAL "HASH")
    set(${out} "${records}/kat-2_12.json" PARENT_SCOPE)
  else()
    set(${out} "${records}/kat.json" PARENT_SCOPE)
  endif()
endfunction()

function(ngcc_add_kat_hash_tests n)
  foreach(f IN ITEMS id key ai root records tree katfile manifest mkey memory_limit_mb zoo timeout_kat)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  ngcc_expect(${n} kat PASS expect_all)
  ngcc_iget(${n} expect_kat.detail detail_all)
  ngcc_timeout(${n} kat t)
  math(EXPR inner "${t} - 5")
  string(REGEX REPLACE "/[^/]*$" "" label "${mkey}")
  set(files 2_12 2_23 2_33 loop)
  set(kinds 2_12 2_23 2_33 Loop) # KAT_<kind>_<ai>.txt
  foreach(file kind IN ZIP_LISTS files kinds)
    ngcc_iget(${n} expect_kat.${file} expect)
    # KAT_2_33 (1 GiB, ~3 GiB hashed) and KAT_Loop (10^6 hashes) of a zoo
    # variant only when its entry asks for them: its bug shows in the
    # smaller files, and CI time is shared
    if(file MATCHES "^(2_33|loop)$" AND zoo AND "${expect}" STREQUAL "")
      message(STATUS "ngcc: ${id}/${key}: no kat/${id}/${key}/${file} test: a zoo variant runs it only with a \"kat.${file}\" expectation")
      continue()
    endif()
    # the fixtures whose files are selftests (kat-template/HASH, kat-sm3ref:
    # byte for byte against the official values) run the 1 GiB file once
    ngcc_iget(${n} selftest_kat_template_sha256 st1)
    ngcc_iget(${n} selftest_kat_sm3ref_sha256 st2)
    if(file STREQUAL "2_33" AND NOT "${st1}${st2}" STREQUAL "")
      message(STATUS "ngcc: ${id}/${key}: no kat/${id}/${key}/2_33 test: its selftest (kat-template/HASH/2_33 or kat-sm3ref/2_33) checks that file byte for byte")
      continue()
    endif()
    if("${expect}" STREQUAL "")
      set(expect ${expect_all})
    endif()
    ngcc_iget(${n} expect_kat.${file}.detail detail)
    if("${detail}" STREQUAL "")
      set(detail "${detail_all}")
    endif()
    set(kat "${katfile}")
    if(NOT file STREQUAL "2_12")
      ngcc_find_kat_file("${tree}" "${kind}" "${ai}" "${label}" kat)
    endif()
    set(name "kat/${id}/${key}/${file}")
    set(file_t ${t})
    set(file_inner ${inner})
    set(budget_args)
    if(file MATCHES "^(2_33|loop)$")
      set(cap ${NGCC_HASH_KAT_CAP_S})
      set(knob cache)
      if(NOT "${timeout_kat}" STREQUAL "")
        set(cap ${timeout_kat})
        set(knob override)
      endif()
      math(EXPR file_t "${cap} + 60")
      math(EXPR file_inner "${file_t} - 5")
      set(budget_args --cap ${cap} --cap-knob ${knob} --build-dir "${CMAKE_BINARY_DIR}" --speed-records "${records}")
    endif()
    set(args --lib "${root}/libngcc_plain.so" --name "${id}/${key}/${file}" --file ${file}
      --record-out "${records}/kat-${file}.json" --build-record "${records}/build-plain.json"
      --log "${records}/kat-${file}.child.log" --timeout ${file_inner} --expect ${expect}
      --mode ${NGCC_HASH_KAT_2_33} ${budget_args})
    if(NOT "${kat}" STREQUAL "")
      list(APPEND args --ref "${kat}")
    endif()
    if(NOT "${manifest}" STREQUAL "")
      list(APPEND args --manifest "${manifest}" --manifest-key "${label}/KAT_${kind}_${ai}.txt")
    endif()
    if(memory_limit_mb)
      list(APPEND args --mem-limit-mb ${memory_limit_mb})
    endif()
    if(NOT "${detail}" STREQUAL "")
      list(APPEND args --expect-detail "${detail}")
    endif()
    if(NGCC_WRITE_KAT)
      list(APPEND args --write-kat "${CMAKE_BINARY_DIR}/kat/${id}/KAT_${kind}_${ai}.txt")
    endif()
    add_test(NAME "${name}" COMMAND ngcc-kat-hash ${args})
    set(labels "kat;${id};${key}")
    if(file STREQUAL "2_33")
      list(APPEND labels slow) # ctest -LE slow leaves the 1 GiB file out
    endif()
    set_tests_properties("${name}" PROPERTIES
      LABELS "${labels}"
      FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}"
      TIMEOUT ${file_t} SKIP_RETURN_CODE 77)
    if(NOT file STREQUAL "2_33")
      # the later labels wait for the kat records; not for the 1 GiB file,
      # which a fixture would otherwise pull into a ctest -LE slow run
      set_tests_properties("${name}" PROPERTIES FIXTURES_SETUP "ngcc.kat.${id}.${key}")
    endif()
    if(file MATCHES "^(2_33|loop)$")
      # their prediction reads the 2_12/2_23 records of this run
      set_tests_properties("${name}" PROPERTIES DEPENDS "kat/${id}/${key}/2_12;kat/${id}/${key}/2_23")
    endif()
  endforeach()
endfunction()

function(ngcc_add_kat_tests n)
  foreach(f IN ITEMS id key type ai root records katfile manifest mkey kat_records memory_limit_mb timeout_kat)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  if(type STREQUAL "HASH")
    ngcc_add_kat_hash_tests(${n})
    return()
  endif()
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
  # manifest only: a line for N records is checked only when N records run,
  # so the driver may go on past the timeout up to the cap (it enforces its
  # own limit; CTest's TIMEOUT, fixed here, only stays above the cap)
  if("${katfile}" STREQUAL "" AND NOT "${manifest}" STREQUAL "")
    ngcc_iget(${n} timeout_kat_cap cap)
    if("${cap}" STREQUAL "")
      set(cap ${NGCC_KAT_CAP_S})
    endif()
    if(cap GREATER inner)
      list(APPEND args --cap ${cap})
      math(EXPR t "${cap} + 15")
    endif()
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

# prof/<cand>/<key>/<op>: ICCS hash and DRNG call counts of one operation over
# the KAT records, measured on the prof variant of the instance library
# (-Wl,--wrap counters, cmake/instance/ngcc_glue_prof.c) and gated exactly
# against the candidate's expectation file (tests/prof/prof_expect.h):
#   <tree>/ngcc-prof.json, else ${NGCC_OVERRIDES_DIR}/<id>.prof.json.
# Without an entry for the instance and operation the verdict is RECORDED
# (passing: measured, nothing to gate against); record the expectation from
# the last run with the build target prof-expect (or prof-expect-<id>).
# prof covers every type: SIG/KEM per operation, KEX per step of KAT_KEX.c's
# flow, hash per CryptHash call (ten message lengths; any DRNG use is CRYPTOFAIL).
set(NGCC_LABEL_TYPES_prof SIG KEM KEX HASH)
set(NGCC_TIMEOUT_prof 300 CACHE STRING "Default timeout of a prof test (seconds)")
set(NGCC_PROF_MAX_REPS 9 CACHE STRING
  "Most runs per record and library in a prof test (at least 2: the counts must repeat; more until the two fastest agree within 1%)")
set(NGCC_PROF_TIME_BUDGET 3 CACHE STRING
  "Seconds after which a prof test stops repeating records for the timing (counts are never cut)")

# A zoo variant is profiled only when its "labels" override names prof; its
# tests are gated against the parent's expectation and carry the selftest
# label. An expected MISMATCH can name the difference the test must print:
# "expect": {"prof.<op>": "MISMATCH", "prof.<op>.output": "<regex>"} (any
# expected verdict but PASS can name its output, e.g. a hash's CRYPTOFAIL).

# pass3 is registered for every KEX instance (the number of passes is known
# only at run time): for a 2-pass exchange its test is SKIP (Not Run), never a pass.
include(NgccKexPasses)
function(ngcc_prof_ops type out)
  if(type STREQUAL "KEM")
    set(${out} keygen enc dec PARENT_SCOPE)
  elseif(type STREQUAL "KEX")
    set(${out} init_a init_b pass1 pass2 pass3 derive_a derive_b PARENT_SCOPE)
  elseif(type STREQUAL "HASH")
    set(${out} hash PARENT_SCOPE)
  else()
    set(${out} keygen sign verify PARENT_SCOPE)
  endif()
endfunction()

# prof-expect-<id>: rewrites the candidate's expectation file from the last
# run: the existing file, else <tree>/ngcc-prof.json for the bundled fixtures
# and ${NGCC_OVERRIDES_DIR}/<id>.prof.json for everything else (a submission
# tree is never written to).
function(ngcc_prof_expect_target id tree)
  # a target name is ASCII: a candidate id in another script (算法甲) gets its
  # target from the id's hash (the prof driver then names the prof-expect target)
  set(target prof-expect-${id})
  if(NOT id MATCHES "^[A-Za-z0-9_.+-]+$")
    string(SHA256 h "${id}")
    string(SUBSTRING "${h}" 0 10 h)
    set(target prof-expect-${h})
  endif()
  if(TARGET ${target})
    return()
  endif()
  set(file "${NGCC_OVERRIDES_DIR}/${id}.prof.json")
  string(FIND "${tree}/" "${PROJECT_SOURCE_DIR}/fixtures/" in_fixtures)
  if(EXISTS "${tree}/ngcc-prof.json" OR (in_fixtures EQUAL 0 AND NOT EXISTS "${file}"))
    set(file "${tree}/ngcc-prof.json")
  endif()
  add_custom_target(${target}
    COMMAND ngcc-prof-expect --records-dir "${CMAKE_BINARY_DIR}/records/${id}" --candidate ${id} --out "${file}"
    COMMENT "Refreshing ${file} from the last prof run" VERBATIM)
  if(NOT TARGET prof-expect)
    add_custom_target(prof-expect)
  endif()
  add_dependencies(prof-expect ${target})
endfunction()

# prof/summary: the per-instance table of every prof record, after the others.
function(ngcc_prof_summary_test name)
  if(NOT TEST prof/summary)
    add_test(NAME prof/summary COMMAND ngcc-prof-summary --records-dir "${CMAKE_BINARY_DIR}/records"
      --out "${CMAKE_BINARY_DIR}/records/prof-summary.md")
    set_tests_properties(prof/summary PROPERTIES LABELS "prof;summary" TIMEOUT 60)
  endif()
  set_property(TEST prof/summary APPEND PROPERTY DEPENDS "${name}")
endfunction()

function(ngcc_add_prof_tests n)
  foreach(f IN ITEMS id key zoo type tree root records kat_records memory_limit_mb)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  if(zoo)
    ngcc_iget(${n} labels wanted)
    if(NOT "prof" IN_LIST wanted)
      return()
    endif()
  endif()
  get_property(built GLOBAL PROPERTY NGCC_BUILD_prof_${n})
  if(NOT built)
    ngcc_add_build_test(${n} prof)
    set_property(GLOBAL PROPERTY NGCC_BUILD_prof_${n} TRUE)
  endif()
  # a zoo variant is gated against its parent's counts
  string(REGEX REPLACE "~.*$" "" expect_key "${key}")
  set(labels "prof;${id};${key}")
  if(zoo)
    list(APPEND labels selftest)
  endif()
  ngcc_timeout(${n} prof t)
  math(EXPR inner "${t} - 5")
  ngcc_prof_ops(${type} ops)
  ngcc_kex_extra_passes(${n} ops)
  foreach(op IN LISTS ops)
    ngcc_iget(${n} expect_prof.${op} expect)
    if(NOT expect)
      ngcc_expect(${n} prof PASS expect)
    endif()
    set(name "prof/${id}/${key}/${op}")
    # (the emulator of a cross tree in front: CTest adds it only to a bare
    # target name, not to $<TARGET_FILE:> nor inside the wrapper below)
    set(cmd ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:ngcc-prof> --lib "${root}/libngcc_prof.so" --plain-lib "${root}/libngcc_plain.so"
      --op ${op} --name "${id}/${key}" --instance "${expect_key}"
      --expectations "${tree}/ngcc-prof.json" --expectations "${NGCC_OVERRIDES_DIR}/${id}.prof.json"
      --record-out "${records}/prof-${op}.json" --build-record "${records}/build-prof.json"
      --objects-root "${root}" --objdump "${NGCC_OBJDUMP}" --log "${records}/prof-${op}.child.log"
      --records ${kat_records} --max-reps ${NGCC_PROF_MAX_REPS} --time-budget ${NGCC_PROF_TIME_BUDGET}
      --timeout ${inner} --expect ${expect})
    if(memory_limit_mb)
      list(APPEND cmd --mem-limit-mb ${memory_limit_mb})
    endif()
    # an expected difference must also be printed: checked on the output
    ngcc_iget(${n} expect_prof.${op}.output output)
    if(NOT expect STREQUAL "PASS" AND NOT output STREQUAL "")
      set(cmd ${CMAKE_COMMAND} "-DREGEX=${output}"
        -P "${PROJECT_SOURCE_DIR}/tests/prof/run_expect_output.cmake" -- ${cmd})
    endif()
    add_test(NAME "${name}" COMMAND ${cmd})
    set_tests_properties("${name}" PROPERTIES
      LABELS "${labels};${op}"
      FIXTURES_REQUIRED "ngcc.build.prof.${id}.${key};ngcc.build.plain.${id}.${key}"
      FIXTURES_SETUP "ngcc.prof.${id}.${key}.${op}"
      TIMEOUT ${t} SKIP_RETURN_CODE 77) # 77: the build test skipped the instance
    # after the kat test: its op_seconds size the run (tests/prof/prof_plan.h)
    # and its hang marker skips it; a DEPENDS: a failed KAT must not skip prof
    if(TEST "kat/${id}/${key}")
      set_property(TEST "${name}" APPEND PROPERTY DEPENDS "kat/${id}/${key}")
    endif()

    ngcc_prof_summary_test("${name}")
  endforeach()
  if(NOT zoo)
    ngcc_prof_expect_target(${id} "${tree}")
  endif()
endfunction()

# The security label (tests/security). For every instance:
#   security/<cand>/<key>        ngcc-security on the plain library   labels security;<cand>;<key>
#   security-asan/<cand>/<key>   ngcc-security on the ASan/UBSan library (build/<cand>/<key>/asan)
#                                                                      labels security;asan;<cand>;<key>
#   memcheck/<cand>/<key>        one KAT record under valgrind memcheck  labels memcheck;<cand>;<key>
#   selftest/<cand>/<key>        the exact per-check verdicts, when the override declares them
#                                                                      labels selftest;<cand>;<key>
# Expected verdicts come from the override "expect" map: "security", "sanitizer",
# "memcheck" (default PASS); timeouts from "timeouts" (same keys). Keys read
# only by the selftest (no spaces in values: the map is stored as a list):
#   "security.checks"   "check=VERDICT,...,*=VERDICT"  every check of security.json
#                       (PASS, FAIL, FINDING, CRASH, TIMEOUT, NOTRUN; FAIL:<verdict>, e.g.
#                       FAIL:MALLEABLE, also asserts the verdict the check fails as)
#   "sanitizer.checks"  the same for sanitizer.json
#   "security.detail", "sanitizer.detail", "memcheck.detail", "kat.detail"
#                       a regular expression the record's detail must match
#   "security.check_detail"  "check=REGEX": that check's own detail in security.json
#                       (a passing check's note)
# Instances whose API header sets OUTPUT_BLANK_TEST_VECTORS 1 (blank
# templates, every function a stub) get no security tests.

# KEX and hash instances get security and security-asan tests (their own
# check tables, tests/security/sec_kex_checks.c and sec_hash_checks.c) and a
# memcheck test (one KAT session with malformed peer messages; hash messages
# around byte and block boundaries: tests/security/memcheck_flow_kex_hash.c);
# their zoo variants only when the variant's "expect" declares "memcheck".
set(NGCC_LABEL_TYPES_security SIG KEM KEX HASH)
# security/<cand>/hash-widths: output widths of one candidate related by truncation
include(NgccHashWidths)

# Time budget (quirk class 21, tests/security/sec_budget.h): the security
# tests plan keys, messages and signature flips to fit NGCC_SECURITY_BUDGET
# from the operation times the kat test measured (<records>/kat.json
# "op_seconds"; without them they time record 0's first calls), and derive
# the per-call timeout (5 x the slowest operation, at least 30 s). The
# default is sized for real campaigns on a 2-core VM: a 60-s keygen instance
# (3 key pairs + determinism's 2 record-0 runs = 5 keygens) fits in 600 s; the CTest
# timeouts stay above the budget (the plan uses at most 80 % of them).
# A fast instance is never reduced: every byte of its first signature is flipped.
set(NGCC_SECURITY_BUDGET 600 CACHE STRING "Time (s) a security test plans its checks to fit (0: no planning)")
set(NGCC_TIMEOUT_security 900 CACHE STRING "Default timeout of a security test (s); above NGCC_SECURITY_BUDGET")
set(NGCC_TIMEOUT_sanitizer 1200 CACHE STRING "Default timeout of a security-asan test (s); above NGCC_SECURITY_BUDGET")
set(NGCC_TIMEOUT_memcheck 900 CACHE STRING "Default timeout of a memcheck test (s)")
set(NGCC_SECURITY_KEYS 3 CACHE STRING "Key pairs the security tests make (KAT record seeds 0..N-1)")
# honest_scale: seconds of honest operations (sign/verify, enc/dec, KEX sessions),
# counted from the instance's op times; under ASan the same seconds make fewer
set(NGCC_SECURITY_SCALE_S 3 CACHE STRING "Seconds of honest operations a security test runs (honest_scale)")
set(NGCC_SANITIZER_SCALE_S 1 CACHE STRING "Seconds of honest operations a security-asan test runs (honest_scale)")
set(NGCC_SANITIZER_MAX_FLIPS 256 CACHE STRING
  "Bytes of the first signature flipped under ASan (the plain run flips every byte)")

find_program(NGCC_VALGRIND valgrind)
if(NOT NGCC_VALGRIND)
  message(STATUS "ngcc: valgrind not found: no memcheck tests (apt-get install valgrind)")
endif()

# The harness is not instrumented, so loading an ASan library needs the ASan
# runtime preloaded: the one of the compiler that builds the instance libraries.
execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
  OUTPUT_VARIABLE _ngcc_asan OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
set(NGCC_ASAN_RUNTIME "")
if(IS_ABSOLUTE "${_ngcc_asan}" AND EXISTS "${_ngcc_asan}")
  file(REAL_PATH "${_ngcc_asan}" NGCC_ASAN_RUNTIME)
else()
  message(STATUS "ngcc: ${CMAKE_C_COMPILER} has no libasan.so: no security-asan tests")
endif()
# LeakSanitizer stays off: leaks are judged by the memory_leaks check on
# both builds (growth per call, not a one-time table); allocation failures
# return NULL as without ASan; an ASan report ends the child (the driver
# reruns the check past that call), a UBSan report does not (the library is
# built to recover): the driver collects every report of every child's log.
set(NGCC_SANITIZER_ENV
  "LD_PRELOAD=${NGCC_ASAN_RUNTIME}"
  "ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=0:allocator_may_return_null=1"
  "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=0")
# Cross trees (qemu-user): a plain LD_PRELOAD reaches the host loader of the
# (dynamically linked) emulator, not the guest, and the guest's multiarch
# loader does not search the cross toolchain's folder for libubsan.so.1 (an
# LD_LIBRARY_PATH there would pull in its libc, whose fork() hangs under
# qemu): both runtimes go to the guest only, by path (QEMU_SET_ENV).
if(CMAKE_CROSSCOMPILING AND NGCC_ASAN_RUNTIME)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libubsan.so
    OUTPUT_VARIABLE _ngcc_ubsan OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(_ngcc_preload "${NGCC_ASAN_RUNTIME}")
  if(IS_ABSOLUTE "${_ngcc_ubsan}" AND EXISTS "${_ngcc_ubsan}")
    file(REAL_PATH "${_ngcc_ubsan}" _ngcc_ubsan)
    string(APPEND _ngcc_preload ":${_ngcc_ubsan}")
  endif()
  list(TRANSFORM NGCC_SANITIZER_ENV REPLACE "^LD_PRELOAD=.*" "QEMU_SET_ENV=LD_PRELOAD=${_ngcc_preload}")
endif()

# Ordered after the instance's kat test (its op_seconds plan the budget). A
# DEPENDS, not a FIXTURES_REQUIRED: a failed KAT (MISMATCH) must not skip the
# security checks; run alone, the test times its first calls instead.
function(_ngcc_security_after_kat n name)
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  if(TEST "kat/${id}/${key}")
    set_property(TEST "${name}" APPEND PROPERTY DEPENDS "kat/${id}/${key}")
  endif()
endfunction()

# common arguments of ngcc-security
function(_ngcc_security_args n variant out)
  foreach(f IN ITEMS id key root records kat_records ext_sig claims memory_limit_mb)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  set(args --lib "${root}/libngcc_${variant}.so" --name "${id}/${key}"
    --build-record "${records}/build-${variant}.json"
    --keys ${NGCC_SECURITY_KEYS} --kat-records ${kat_records} --extended-signature ${ext_sig}
    --claims ${claims}
    --budget ${NGCC_SECURITY_BUDGET} --kat-record "${records}/kat.json")
  if(memory_limit_mb)
    list(APPEND args --mem-limit-mb ${memory_limit_mb})
  endif()
  set(${out} "${args}" PARENT_SCOPE)
endfunction()

function(_ngcc_add_security_plain n)
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  ngcc_iget(${n} records records)
  ngcc_expect(${n} security PASS expect)
  ngcc_timeout(${n} security t)
  math(EXPR inner "${t} - 5") # the driver stops its children before CTest kills it
  _ngcc_security_args(${n} plain args)
  add_test(NAME "security/${id}/${key}" COMMAND ngcc-security ${args} --scale ${NGCC_SECURITY_SCALE_S}
    --record-out "${records}/security.json" --log-dir "${records}/security.logs"
    --timeout ${inner} --expect ${expect})
  # SKIP (77): the build test skipped the instance (ngcc_frame.h)
  set_tests_properties("security/${id}/${key}" PROPERTIES
    SKIP_RETURN_CODE 77
    LABELS "security;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}"
    FIXTURES_SETUP "ngcc.security.${id}.${key}"
    TIMEOUT ${t})
  _ngcc_security_after_kat(${n} "security/${id}/${key}")
endfunction()

function(_ngcc_add_security_asan n)
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  ngcc_iget(${n} records records)
  get_property(built GLOBAL PROPERTY NGCC_BUILD_TEST_asan_${n})
  if(NOT built) # one build test per variant and instance, whichever label asks first
    ngcc_add_build_test(${n} asan)
    set_property(GLOBAL PROPERTY NGCC_BUILD_TEST_asan_${n} TRUE)
  endif()
  ngcc_expect(${n} sanitizer PASS expect)
  ngcc_timeout(${n} sanitizer t)
  math(EXPR inner "${t} - 5")
  _ngcc_security_args(${n} asan args)
  set(name "security-asan/${id}/${key}")
  ngcc_iget(${n} iccs_note iccs_note)
  if(iccs_note)
    list(APPEND args --iccs-note "${iccs_note}")
  endif()
  add_test(NAME "${name}" COMMAND ngcc-security ${args} --sanitizer --max-flips ${NGCC_SANITIZER_MAX_FLIPS}
    --scale ${NGCC_SANITIZER_SCALE_S}
    --record-out "${records}/sanitizer.json" --log-dir "${records}/sanitizer.logs"
    --timeout ${inner} --expect ${expect})
  set_tests_properties("${name}" PROPERTIES
    SKIP_RETURN_CODE 77
    LABELS "security;asan;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.asan.${id}.${key}"
    FIXTURES_SETUP "ngcc.sanitizer.${id}.${key}"
    ENVIRONMENT "${NGCC_SANITIZER_ENV}"
    TIMEOUT ${t})
  _ngcc_security_after_kat(${n} "${name}")
endfunction()

function(_ngcc_add_memcheck n)
  foreach(f IN ITEMS id key root records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  ngcc_expect(${n} memcheck PASS expect)
  ngcc_timeout(${n} memcheck t)
  math(EXPR inner "${t} - 5")
  set(name "memcheck/${id}/${key}")
  add_test(NAME "${name}" COMMAND ngcc-memcheck --valgrind "${NGCC_VALGRIND}"
    --suppressions "${PROJECT_SOURCE_DIR}/tests/security/valgrind.supp"
    --lib "${root}/libngcc_plain.so" --name "${id}/${key}"
    --build-record "${records}/build-plain.json" --record-out "${records}/memcheck.json"
    --log "${records}/memcheck.log" --timeout ${inner} --expect ${expect}
    --kat-record "${records}/kat.json")
  # SKIP (77): a record predicted not to finish under valgrind is not started
  set_tests_properties("${name}" PROPERTIES
    SKIP_RETURN_CODE 77
    LABELS "memcheck;${id};${key}"
    FIXTURES_REQUIRED "ngcc.build.plain.${id}.${key}"
    FIXTURES_SETUP "ngcc.memcheck.${id}.${key}"
    TIMEOUT ${t})
  _ngcc_security_after_kat(${n} "${name}") # its op_seconds predict the cost
endfunction()

# selftest/<cand>/<key>: reads the records of the tests it names and asserts
# the declared verdicts, per-check verdicts and details exactly.
function(_ngcc_add_security_selftest n)
  foreach(f IN ITEMS id key records)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  foreach(e IN ITEMS security.checks security.detail sanitizer.checks sanitizer.detail memcheck.detail kat.detail
                    security.check_detail)
    string(REPLACE "." "_" var "${e}")
    ngcc_iget(${n} expect_${e} ${var})
  endforeach()
  if(NOT security_checks)
    return()
  endif()
  ngcc_expect(${n} security PASS v)
  set(args --name "${id}/${key}" --records "${records}" --security ${v} --security-checks "${security_checks}")
  set(needs "ngcc.security.${id}.${key}")
  if(security_detail)
    list(APPEND args --security-detail "${security_detail}")
  endif()
  if(security_check_detail)
    list(APPEND args --security-check-detail "${security_check_detail}")
  endif()
  if(kat_detail)
    ngcc_expect(${n} kat PASS v)
    list(APPEND args --kat ${v} --kat-detail "${kat_detail}")
    list(APPEND needs "ngcc.kat.${id}.${key}")
  endif()
  if(NGCC_ASAN_RUNTIME AND (sanitizer_checks OR sanitizer_detail))
    ngcc_expect(${n} sanitizer PASS v)
    list(APPEND args --sanitizer ${v})
    if(sanitizer_checks)
      list(APPEND args --sanitizer-checks "${sanitizer_checks}")
    endif()
    if(sanitizer_detail)
      list(APPEND args --sanitizer-detail "${sanitizer_detail}")
    endif()
    list(APPEND needs "ngcc.sanitizer.${id}.${key}")
  endif()
  if(NGCC_VALGRIND AND memcheck_detail)
    ngcc_expect(${n} memcheck PASS v)
    list(APPEND args --memcheck ${v} --memcheck-detail "${memcheck_detail}")
    list(APPEND needs "ngcc.memcheck.${id}.${key}")
  endif()
  add_test(NAME "selftest/${id}/${key}" COMMAND ngcc-zoo-selftest ${args})
  set_tests_properties("selftest/${id}/${key}" PROPERTIES
    LABELS "selftest;${id};${key}"
    FIXTURES_REQUIRED "${needs}"
    TIMEOUT 60)
endfunction()

function(ngcc_add_security_tests n)
  ngcc_iget(${n} blank blank)
  if(blank)
    ngcc_iget(${n} id id)
    ngcc_iget(${n} key key)
    message(STATUS "ngcc: ${id}/${key}: OUTPUT_BLANK_TEST_VECTORS is ${blank} (a blank template): "
      "no security tests; set it to 0 once the scheme is implemented")
    return()
  endif()
  _ngcc_add_security_plain(${n})
  if(NGCC_ASAN_RUNTIME)
    _ngcc_add_security_asan(${n})
  endif()
  ngcc_iget(${n} type type)
  ngcc_iget(${n} key key)
  ngcc_iget(${n} expect_memcheck expect_memcheck)
  if(NGCC_VALGRIND AND type MATCHES "^(SIG|KEM)$")
    _ngcc_add_memcheck(${n})
  elseif(NGCC_VALGRIND AND type MATCHES "^(KEX|HASH)$" AND (NOT key MATCHES "~" OR expect_memcheck))
    _ngcc_add_memcheck(${n}) # zoo variants only when they declare a memcheck verdict (~10 s each)
  endif()
  _ngcc_add_security_selftest(${n})
  if(type STREQUAL "HASH")
    ngcc_hash_widths_add_instance(${n})
  endif()
endfunction()

# selftest/quirk-security[-slow] (cmake -P): the security handling of quirk
# classes 19 (official ICCS files), 20 (unwritten output) and 21 (slow
# instances), read back from records and discovery.json only, plus a unit
# test of the official-file recognition (SHA-256, CR/BOM normalisation,
# override checks) on synthetic content. A record that is missing (fixture
# not discovered, test not run) is a failure.
# -D inputs: BUILD (build tree), SRC (source tree), MODE (fast|slow)
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/record_expect.cmake")


# the verdict of one named check of a security/sanitizer record
function(check_named inst file check field op want)
  set(path "${BUILD}/records/${inst}/${file}")
  if(NOT EXISTS "${path}")
    fail("${inst}: ${path} missing")
    set(failures ${failures} PARENT_SCOPE)
    return()
  endif()
  file(READ "${path}" j)
  string(JSON n LENGTH "${j}" checks)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON name GET "${j}" checks ${i} name)
    if(name STREQUAL check)
      expect(${inst} ${file} checks ${i} ${field} ${op} "${want}")
      set(failures ${failures} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  fail("${inst} ${file}: no check ${check}")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

if(MODE STREQUAL "slow")
  # class 21: a ~20 s keygen with an always-accept verify gets its finding
  # with default settings, in both builds
  foreach(f security.json sanitizer.json)
    expect(fxq-slow/SLOWKG-128 ${f} verdict EQUALS CRYPTOFAIL)
    expect(fxq-slow/SLOWKG-128 ${f} detail MATCHES "always-accept verify")
    expect(fxq-slow/SLOWKG-128 ${f} parameters budget costs_from MATCHES ".")
    check_named(fxq-slow/SLOWKG-128 ${f} modified_message verdict EQUALS FAIL)
    check_named(fxq-slow/SLOWKG-128 ${f} determinism verdict EQUALS PASS)
    check_named(fxq-slow/SLOWKG-128 ${f} unwritten_output verdict EQUALS PASS)
  endforeach()
  # memcheck: one record cannot finish under valgrind within the timeout
  # (predicted from the KAT's op_seconds), so it is not started: SKIP, saying why
  expect(fxq-slow/SLOWKG-128 memcheck.json verdict EQUALS SKIP)
  expect(fxq-slow/SLOWKG-128 memcheck.json detail MATCHES "predicted under memcheck .*timeouts")
else()
  # ---- unit: recognition on synthetic content ----
  include("${SRC}/cmake/NgccIccsFiles.cmake")
  set(work "${BUILD}/selftest/quirk-security")
  file(REMOVE_RECURSE "${work}")
  file(MAKE_DIRECTORY "${work}/inst")
  set(text "/* synthetic drng.c */\nint x;\n")
  string(SHA256 want "${text}")
  file(WRITE "${work}/lf.c" "${text}")
  string(ASCII 239 187 191 bom) # not used for writing: the BOM is written by hex below
  file(WRITE "${work}/crlf.c" "/* synthetic drng.c */\r\nint x;\r\n")
  execute_process(COMMAND sh -c "printf '\\357\\273\\277' | cat - '${work}/crlf.c' > '${work}/bom.c'")
  file(WRITE "${work}/other.c" "/* synthetic drng.c */\nint y;\n")
  set(NGCC_ICCS_SHA_drng.c "${want}")
  foreach(case "lf.c;drng.c;sha256" "crlf.c;drng.c;sha256 after CR/BOM removal"
                "bom.c;DRNG.C;sha256 after CR/BOM removal" "other.c;drng.c;" "lf.c;main.c;")
    list(GET case 0 f)
    list(GET case 1 name)
    list(LENGTH case nc)
    set(exp "")
    if(nc GREATER 2)
      list(GET case 2 exp)
    endif()
    ngcc_iccs_match("${work}/${f}" "${name}" how)
    if(NOT how STREQUAL exp)
      fail("unit: ${f} as ${name}: '${how}', expected '${exp}'")
    else()
      message("ok   unit: ${f} as ${name}: '${how}'")
    endif()
  endforeach()
  # our own drng.c is not the template's
  include("${SRC}/cmake/NgccIccsFiles.cmake") # the real table again
  ngcc_iccs_match("${SRC}/iccs/src/drng.c" drng.c how)
  if(how)
    fail("unit: iccs/src/drng.c recognised as official (${how})")
  endif()
  # decisions: drng.c official by SHA with a modified drng.h -> unsanitized;
  # declared drng.h too -> substituted; a bad name -> an error naming it
  set(dir "${work}/inst")
  file(COPY_FILE "${work}/lf.c" "${dir}/drng.c")
  file(WRITE "${dir}/drng.h" "/* modified */\n")
  set(srcs "${dir}/drng.c")
  set(NGCC_ICCS_SHA_drng.c "${want}")
  foreach(case "|unsan" "drng.h|sub" "bogus.c|error" "auxfunc.c|missing")
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 O_iccs_official)
    list(GET case 1 exp)
    set(discover_error "")
    ngcc_iccs_files()
    if(exp STREQUAL "unsan" AND NOT (iccs_unsanitized STREQUAL "${dir}/drng.c" AND NOT iccs_substitute))
      fail("unit: official drng.c + modified drng.h: substitute '${iccs_substitute}', unsanitized '${iccs_unsanitized}'")
    elseif(exp STREQUAL "sub" AND NOT (iccs_substitute STREQUAL "${dir}/drng.c" AND iccs_note MATCHES "replaced"))
      fail("unit: declared drng.h: substitute '${iccs_substitute}', note '${iccs_note}'")
    elseif(exp STREQUAL "error" AND NOT discover_error MATCHES "iccs_official.*bogus.c")
      fail("unit: bad iccs_official name: error '${discover_error}'")
    elseif(exp STREQUAL "missing" AND NOT discover_error MATCHES "ships no such file")
      fail("unit: iccs_official names a file not shipped: error '${discover_error}'")
    else()
      message("ok   unit: iccs_official '${O_iccs_official}' -> ${exp}")
    endif()
  endforeach()

  # ---- class 19 on fxq-iccs ----
  expect(fxq-iccs/TPL-128 discovery.json iccs note EQUALS "")
  expect(fxq-iccs/TPL-128~official discovery.json iccs official 0 by EQUALS "override iccs_official")
  expect(fxq-iccs/TPL-128~official discovery.json iccs sanitizer_substituted 0 EQUALS "drng.c")
  # an unrecognised copy: the template's UB recognised by its site, a note
  expect(fxq-iccs/TPL-128 sanitizer.json verdict EQUALS PASS)
  expect(fxq-iccs/TPL-128 sanitizer.json detail MATCHES
    "note: template UB, not the candidate's \\(rule: template-UB site.*UBSan: shift exponent 32 .* in sm3_bit_compress \\(drng.c:[0-9]+:[0-9]+\\)")
  expect(fxq-iccs/TPL-128 sanitizer.json reports 0 class EQUALS NOTE)
  expect(fxq-iccs/TPL-128~official sanitizer.json verdict EQUALS PASS)
  expect(fxq-iccs/TPL-128~official sanitizer.json iccs_note MATCHES "drng.c replaced by the suite's bit-identical ICCS code")
  expect(fxq-iccs/TPL-128~official security.json verdict EQUALS PASS)
  expect(fxq-iccs/UB-128 sanitizer.json verdict EQUALS UNDEFINED)
  expect(fxq-iccs/UB-128 sanitizer.json reports 0 site MATCHES "^ub_checksum \\(SIG_AlgorithmInstance.c:15:[0-9]+\\)$")
  expect(fxq-iccs/UB-128 sanitizer.json detail MATCHES "signed integer overflow.* in ub_checksum \\(SIG_AlgorithmInstance.c:15:[0-9]+\\)")
  expect(fxq-iccs/UB-128 security.json verdict EQUALS PASS)
  # ---- class 20 on fx-xkem ----
  expect(fx-xkem/XKEM-128~sk-unwritten security.json verdict EQUALS CRYPTOFAIL)
  check_named(fx-xkem/XKEM-128~sk-unwritten security.json unwritten_output detail MATCHES
    "^sk bytes \\[96, 97\\) never written by kem_keygen; claimed 97")
  check_named(fx-xkem/XKEM-128~sk-unwritten security.json determinism verdict EQUALS PASS)
  check_named(fx-xkem/XKEM-128 security.json unwritten_output verdict EQUALS PASS)
  # ---- a fast instance keeps the full plan ----
  expect(fx-wots/WOTS-128 security.json parameters budget reduced EQUALS OFF)
  # ---- the budget's reductions, forced with a 1-s budget on the same instance ----
  set(rec "${work}/budget-1s.json")
  execute_process(COMMAND "${SECURITY}" --lib "${BUILD}/instances/fx-wots/WOTS-128/libngcc_plain.so"
    --name fx-wots/WOTS-128 --keys 3 --kat-records 10 --budget 1 --timeout 120 --record-out "${rec}"
    --log-dir "${work}/budget-1s.logs" OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${rec}")
    fail("budget 1 s: ngcc-security exited ${rc}: ${out}")
  else()
    file(READ "${rec}" j)
    string(JSON d GET "${j}" parameters budget decisions)
    string(JSON v GET "${j}" verdict)
    string(JSON keys GET "${j}" parameters keys)
    string(JSON n LENGTH "${j}" checks)
    set(notrun 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON cv GET "${j}" checks ${i} verdict)
      if(NOT cv STREQUAL "PASS")
        math(EXPR notrun "${notrun} + 1")
      endif()
    endforeach()
    if(NOT v STREQUAL "PASS" OR NOT keys EQUAL 2 OR notrun GREATER 0 OR
       NOT d MATCHES "key pairs 3 -> 2.*first signature's bytes flipped 2308 -> 64 of 2308, stratified")
      fail("budget 1 s: verdict ${v}, keys ${keys}, ${notrun} checks not passed, decisions '${d}'")
    else()
      message("ok   budget 1 s: every check class ran: ${d}")
    endif()
  endif()
  # ---- a KAT that stopped in record 6 (a hang): the budget never cuts the
  # KAT messages below that record, so the hang is still reached ----
  set(kat "${work}/hang-kat.json")
  file(WRITE "${kat}" "{\"verdict\": \"TIMEOUT\", \"records_complete\": 6, \"op_seconds\": {
    \"keygen\": {\"max\": 0.02, \"median\": 0.02, \"n\": 7}, \"sign\": {\"max\": 0.02, \"median\": 0.02, \"n\": 6},
    \"verify\": {\"max\": 0.001, \"median\": 0.001, \"n\": 6}}}")
  set(rec "${work}/budget-hang.json")
  # (--expect=TIMEOUT: a bare TIMEOUT would be execute_process's keyword)
  execute_process(COMMAND "${SECURITY}" --lib "${BUILD}/instances/fx-wots/WOTS-128~hang-record/libngcc_plain.so"
    --name fx-wots/WOTS-128~hang-record --keys 3 --kat-records 10 --budget 0.3 --timeout 60 --kat-record "${kat}"
    --record-out "${rec}" --expect=TIMEOUT --log-dir "${work}/budget-hang.logs"
    OUTPUT_VARIABLE out ERROR_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT EXISTS "${rec}")
    fail("hang after a stopped KAT: ngcc-security exited ${rc} (wanted TIMEOUT): ${out}")
  else()
    file(READ "${rec}" j)
    string(JSON d GET "${j}" parameters budget decisions)
    if(NOT d MATCHES "KAT messages signed 10 -> 7 [(]up to the record the KAT test stopped in")
      fail("hang after a stopped KAT: decisions '${d}'")
    else()
      message("ok   hang after a stopped KAT: TIMEOUT, ${d}")
    endif()
  endif()
  check_named(fx-wots/WOTS-128 security.json modified_signature detail MATCHES
    "[(]2308 of the first signature's 2308 bytes[)]") # every byte: WOTS-128 signatures are 2308 bytes

  # ---- "claims" (malleability: MALLEABLE, or FINDING with euf-cma) and
  # "extended_signature": a bad value is a one-line error naming key and file ----
  include("${SRC}/cmake/NgccOverrides.cmake")
  foreach(case "{\"claims\": \"euf-cma\"}|" "{\"claims\": \"suf-cma\"}|"
               "{\"claims\": \"euf\"}|x.json: .claims. .euf. at top level is not suf-cma or euf-cma"
               "{\"extended_signature\": \"yes\"}|x.json: .extended_signature. .yes. at top level is not reject or finding")
    string(REPLACE "|" ";" case "${case}")
    list(GET case 0 js)
    list(GET case 1 want)
    ngcc_override_check("${js}" "top level" "x.json" e top)
    if((want STREQUAL "" AND NOT e STREQUAL "") OR (NOT want STREQUAL "" AND NOT e MATCHES "${want}"))
      fail("unit: override ${js}: error '${e}', expected '${want}'")
    else()
      message("ok   unit: override ${js}: '${e}'")
    endif()
  endforeach()
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} quirk-security expectation(s) failed")
endif()
message("all quirk-security expectations hold")

# Selftests of the KAT comparison itself (label selftest;kat), run with -P on
# one correct fixture instance. Each scenario runs ngcc-kat and asserts the
# verdict and the message it must print:
#   mismatch  a copy of the KAT file with one changed hex digit in record 3
#             -> MISMATCH naming record 3 and the line
#   nokat     no KAT file and no manifest -> NOKAT
#   manifest  a manifest from ngcc-manifest (strict, nolen:5) -> PASS;
#             a manifest whose digest is wrong -> MISMATCH
#   crlf      the KAT file re-saved with CRLF and trailing blanks -> PASS
#   blanklen  the KAT file with blank "_Len =" values -> PASS, tolerated count
# -D inputs: KAT (driver), MANIFEST_TOOL, LIB, REF, KEY (<label>/<file>), WORK
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(failures 0)

function(run_kat scenario expect regex)
  execute_process(COMMAND "${KAT}" --lib "${LIB}" --name "selftest/${scenario}"
    --record-out "${WORK}/${scenario}.json" --expect ${expect} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "ngcc: verdict kat[^\n]*" line "${out}")
  if(NOT rc EQUAL 0 OR NOT line MATCHES "${regex}")
    message("FAIL ${scenario}: rc=${rc}, wanted ${expect} matching '${regex}', got: ${line}\n${err}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message("ok   ${scenario}: ${line}")
  endif()
endfunction()

file(READ "${REF}" text)

# one changed hex digit in the Sn/CT line of record 3
string(FIND "${text}" "Count = 3\n" at)
string(SUBSTRING "${text}" ${at} -1 tail)
string(REGEX MATCH "\n(Sn|CT) = ." hit "${tail}")
string(FIND "${tail}" "${hit}" off)
string(LENGTH "${hit}" hl)
math(EXPR pos "${at} + ${off} + ${hl} - 1")
string(SUBSTRING "${text}" ${pos} 1 c)
if(c STREQUAL "0")
  set(nc "1")
else()
  set(nc "0")
endif()
string(SUBSTRING "${text}" 0 ${pos} head)
math(EXPR pos1 "${pos} + 1")
string(SUBSTRING "${text}" ${pos1} -1 rest)
file(WRITE "${WORK}/broken.txt" "${head}${nc}${rest}")
run_kat(mismatch MISMATCH "MISMATCH: record 3 differs at line [0-9]+ column [0-9]+" --ref "${WORK}/broken.txt")

run_kat(nokat NOKAT "NOKAT: no submitted KAT file")

execute_process(COMMAND "${MANIFEST_TOOL}" "${KEY}=${REF}" OUTPUT_FILE "${WORK}/strict.sha256" RESULT_VARIABLE rc1)
execute_process(COMMAND "${MANIFEST_TOOL}" --mode nolen --records 5 "${KEY}=${REF}"
  OUTPUT_FILE "${WORK}/nolen5.sha256" RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
  message("FAIL manifest tool: rc ${rc1} ${rc2}")
  math(EXPR failures "${failures} + 1")
endif()
run_kat(manifest_strict PASS "PASS: 10/10 records match the manifest digest [(].*strict.sha256 line 1 "
  --manifest "${WORK}/strict.sha256" --manifest-key "${KEY}")
run_kat(manifest_nolen5 PASS "PASS: 10 records run, the first 5 match the manifest digest [(].*nolen:5 "
  --manifest "${WORK}/nolen5.sha256" --manifest-key "${KEY}")
file(READ "${WORK}/strict.sha256" m)
string(SUBSTRING "${m}" 1 -1 mtail)
string(SUBSTRING "${m}" 0 1 m0)
if(m0 STREQUAL "0")
  set(m0 "1")
else()
  set(m0 "0")
endif()
file(WRITE "${WORK}/wrong.sha256" "${m0}${mtail}")
run_kat(manifest_wrong MISMATCH "MISMATCH: canonical SHA-256 of the first 10 records"
  --manifest "${WORK}/wrong.sha256" --manifest-key "${KEY}")

string(REPLACE "\n" " \t\r\n" crlf "${text}")
set(bom "﻿") # UTF-8 byte order mark EF BB BF
file(WRITE "${WORK}/crlf.txt" "${bom}${crlf}")
run_kat(crlf PASS "PASS: 10/10 records match" --ref "${WORK}/crlf.txt")

string(REGEX REPLACE "(PK|SK|Sn|CT|SS)_Len = [0-9]+" "\\1_Len = " blank "${text}")
file(WRITE "${WORK}/blanklen.txt" "${blank}")
run_kat(blanklen PASS "PASS: 10/10 records match.*blank _Len lines in the reference tolerated" --ref "${WORK}/blanklen.txt")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} KAT selftest scenario(s) failed")
endif()

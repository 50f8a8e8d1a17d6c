# selftest/kat/kex4-package-driver (label selftest;kat), run with -P: a KEX
# package with 4 passes ships its own KAT_KEX.c, extended past the official
# driver's pass 3 (iccs-kex-hash.md §1.2a). This builds that driver of
# fx-kex/KEX4-128 (our code) with the ICCS DRNG and SM3 and asserts:
#   package   its output is the committed reference KAT file, byte for byte
#   replay    ngcc-kat on the instance library reproduces the package
#             driver's output -> PASS
#   3-pass    the same file without the pass-4 lines (what a replay stopping
#             after pass 3 would print) -> MISMATCH at record 0, where the
#             replay prints Pass4_Stb_Len
# -D inputs: KAT (driver), CC, LIB, INSTDIR (the instance's source folder),
#   ICCS (the suite's iccs folder), REF (the committed KAT file), WORK,
#   EMULATOR (optional, comma-separated: a cross tree's emulator command)
cmake_minimum_required(VERSION 3.25)
string(REPLACE "," ";" emulator "${EMULATOR}")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/../real/record_expect.cmake") # fail(), ok()

function(run_kat scenario expect regex)
  execute_process(COMMAND ${emulator} "${KAT}" --lib "${LIB}" --name "selftest/${scenario}"
    --record-out "${WORK}/${scenario}.json" --expect ${expect} ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "ngcc: verdict kat[^\n]*" line "${out}")
  if(NOT rc EQUAL 0 OR NOT line MATCHES "${regex}")
    fail("${scenario}: rc=${rc}, wanted ${expect} matching '${regex}', got: ${line}\n${err}")
    set(failures ${failures} PARENT_SCOPE)
  else()
    ok("${scenario}: ${line}")
  endif()
endfunction()

execute_process(COMMAND "${CC}" -std=c99 -O1 -I "${INSTDIR}" -I "${ICCS}/include" -I "${ICCS}/src"
  "${INSTDIR}/KAT_KEX.c" "${INSTDIR}/KEX_AlgorithmInstance.c"
  "${ICCS}/src/drng.c" "${ICCS}/src/auxfunc.c" "${ICCS}/src/sm3.c" -o "${WORK}/kat_kex"
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cannot build the package's KAT_KEX.c: ${err}")
endif()
execute_process(COMMAND ${emulator} "${WORK}/kat_kex" WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
set(pkg "${WORK}/output/KAT_KEX_FXKEX4_128.txt")
if(NOT rc EQUAL 0 OR NOT EXISTS "${pkg}")
  message(FATAL_ERROR "the package's KAT_KEX.c returned ${rc}")
endif()

file(SHA256 "${pkg}" got)
file(SHA256 "${REF}" want)
if(got STREQUAL want)
  ok("package: the package driver's output is ${REF}")
else()
  fail("package: the package driver's output (${got}) is not ${REF} (${want})")
endif()

run_kat(replay PASS "PASS: 10/10 records match" --ref "${pkg}")

# the 3-pass file: the four pass-4 lines of every record removed
file(STRINGS "${pkg}" lines)
set(three "")
foreach(l IN LISTS lines)
  if(NOT l MATCHES "^(Pass4_Stb_Len|Pass4_Stb|M4_Len|M4) =")
    string(APPEND three "${l}\n")
    if(l MATCHES "^SS = ")
      string(APPEND three "\n")
    endif()
  endif()
endforeach()
file(WRITE "${WORK}/KAT_KEX_FXKEX4_128.3pass.txt" "${three}")
run_kat(3-pass MISMATCH "MISMATCH: record 0 differs" --ref "${WORK}/KAT_KEX_FXKEX4_128.3pass.txt")

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} scenario(s) failed")
endif()

# selftest/nothing-dropped (cmake -P): broken or unusual trees, made here from
# a copy of fixtures/fx-xkem, never vanish. One configure of this source tree
# over them (builds only ngcc-kat and the one good instance it runs), then:
#   - an override with a JSON syntax error, and an NGCC_SUBMISSIONS entry that
#     does not exist: discover/<cand> is listed under every label (here -L kat
#     and -L security), fails with its one verdict line, and is listed by the
#     campaign summary and the report's index with the reason;
#   - two trees with Chinese folder names stay two candidates;
#   - an API header with the return type on its own line is an instance;
#   - a good instance beside the broken trees builds and passes its KAT.
# -D inputs: SRC (source tree), WORK (scratch folder), CTEST, REPORT (ngcc-report)
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
set(T "${WORK}/trees")
set(failures 0)
function(check what cond)
  cmake_language(EVAL CODE "if(${cond})\nset(ok TRUE)\nelse()\nset(ok FALSE)\nendif()")
  if(ok)
    message("ok   ${what}")
  else()
    message("FAIL ${what}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  endif()
endfunction()

set(fx "${SRC}/fixtures/fx-xkem")
foreach(t badjson 算法甲 算法乙 ownline)
  file(COPY "${fx}/" DESTINATION "${T}/${t}")
  file(WRITE "${T}/${t}/ngcc.json" "{\"libraries\": [\"OpenSSL::Crypto\"]}\n")
endforeach()
file(WRITE "${T}/badjson/ngcc.json" "{\"instances\": \n")
file(GLOB_RECURSE hs "${T}/ownline/*/KEM_AlgorithmInstance.h")
foreach(h IN LISTS hs)
  file(READ "${h}" text)
  string(REPLACE "int kem_keygen(" "int\nkem_keygen(" text "${text}")
  file(WRITE "${h}" "${text}")
endforeach()

execute_process(COMMAND ${CMAKE_COMMAND} -S "${SRC}" -B "${WORK}/build" -G Ninja
  "-DNGCC_SUBMISSIONS=${T};${WORK}/no-such-tree"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
check("configure goes on over the broken trees (rc ${rc})" "rc EQUAL 0")
foreach(label kat security)
  execute_process(COMMAND "${CTEST}" --test-dir "${WORK}/build" -N -L ${label} OUTPUT_VARIABLE list)
  foreach(t discover/badjson discover/no-such-tree)
    check("ctest -L ${label} runs ${t}" "list MATCHES \"${t}\\n\"")
  endforeach()
endforeach()
execute_process(COMMAND "${CTEST}" --test-dir "${WORK}/build" -N -L kat OUTPUT_VARIABLE list)
foreach(t kat/算法甲/XKEM-128 kat/算法乙/XKEM-128 kat/ownline/XKEM-128)
  check("${t} is registered" "list MATCHES \"${t}\\n\"")
endforeach()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${WORK}/build" --target ngcc-kat RESULT_VARIABLE rc
  OUTPUT_VARIABLE bout ERROR_VARIABLE bout)
check("the KAT driver builds in that tree (rc ${rc})" "rc EQUAL 0")
execute_process(COMMAND "${CTEST}" --test-dir "${WORK}/build" -L kat -R "^(discover/|build/算法甲/XKEM-128$|kat/算法甲/XKEM-128$)"
  --output-on-failure RESULT_VARIABLE rc OUTPUT_VARIABLE run ERROR_VARIABLE run_err)
check("the discover tests fail (rc ${rc})" "NOT rc EQUAL 0 AND run MATCHES \"discover/badjson [.]*[*]+Failed\"")
check("... with the one line naming the file"
  "run MATCHES \"ngcc: verdict discover badjson: ERROR: [^\\n]*badjson/ngcc.json: not a JSON object at top level\"")
check("... and naming the missing folder"
  "run MATCHES \"ngcc: verdict discover no-such-tree: ERROR: NGCC_SUBMISSIONS entry [^\\n]*no-such-tree[^\\n]* is not a folder\"")
check("the good instance beside them passes its KAT" "run MATCHES \"kat/算法甲/XKEM-128 [.]*   Passed\"")
execute_process(COMMAND ${CMAKE_COMMAND} "-DBUILD_DIR=${WORK}/build" -DSUMMARY_ONLY=ON
  -P "${SRC}/tools/ngcc-campaign.cmake" OUTPUT_VARIABLE sum ERROR_VARIABLE sum)
check("the campaign summary lists both with the reason"
  "sum MATCHES \"discover badjson: ERROR: [^\\n]*not a JSON object\" AND sum MATCHES \"discover no-such-tree: ERROR\"")
execute_process(COMMAND "${REPORT}" --records "${WORK}/build/records" --out "${WORK}/report" RESULT_VARIABLE rc)
file(READ "${WORK}/report/index.md" index)
check("the report's index lists both under 'Left out by discovery'"
  "index MATCHES \"## Left out by discovery\" AND index MATCHES \"[|] badjson [|][^\\n]*not a JSON object\" AND index MATCHES \"[|] no-such-tree [|]\"")
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed")
endif()
message("all nothing-dropped checks passed")

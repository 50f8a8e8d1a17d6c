# selftest/sandbox (cmake -P): fxq-runtime ESC-128 tries to reach the network
# and to write beside its working folder in key generation. Under the sandbox
# its KAT test PASSes and its probe file lands in the scratch folder; with
# NGCC_SANDBOX=off the same run must fail (CRYPTOFAIL, keygen -5 or -6), which
# proves that the isolation, not luck, stopped it. Where this host allows no
# isolation at all (not root, no Landlock) the second half is reported and
# skipped.
# -D inputs: KAT (ngcc-kat), LIB (the ESC-128 library), WORK (scratch folder)
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
set(failures "")

function(run mode expect out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env "NGCC_SCRATCH_DIR=${WORK}/${mode}/scratch" "NGCC_SANDBOX=${mode}"
    "${KAT}" --lib "${LIB}" --name selftest/sandbox-${mode} --record-out "${WORK}/${mode}/kat.json"
    --log "${WORK}/${mode}/kat.child.log" --records 2 --timeout 60 --expect ${expect}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCH "ngcc: verdict kat[^\n]*" line "${out}")
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${line}" PARENT_SCOPE)
endfunction()

run(on NOKAT rc line)
file(READ "${WORK}/on/kat.json" rec)
string(JSON sandbox GET "${rec}" child sandbox)
if(NOT rc EQUAL 0)
  list(APPEND failures "sandboxed run: ${line}")
elseif(NOT EXISTS "${WORK}/on/scratch/ESC-128-probe.txt")
  list(APPEND failures "sandboxed run: the probe file is not in the scratch folder ${WORK}/on/scratch")
else()
  message("ok   sandboxed: ${line}\n     sandbox: ${sandbox}")
endif()

if(NOT sandbox MATCHES "network none|Landlock ABI")
  message("skipped: this host gives the child no isolation to switch off (${sandbox})")
else()
  run(off CRYPTOFAIL rc line)
  if(NOT rc EQUAL 0 OR NOT line MATCHES "sig_keygen returned -(5|6)")
    list(APPEND failures "NGCC_SANDBOX=off: wanted CRYPTOFAIL with sig_keygen returned -5 or -6, got: ${line}")
  else()
    message("ok   unsandboxed: ${line}")
  endif()
endif()
if(failures)
  string(REPLACE ";" "\n  " text "${failures}")
  message(FATAL_ERROR "sandbox:\n  ${text}")
endif()

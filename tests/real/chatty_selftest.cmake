# selftest/chatty-output (cmake -P): fxq-runtime VAR-128 prints debug lines on
# every sign and verify. Its KAT test must still PASS, keep all of the output
# in the log file, and show only a truncated head with a byte and line count.
# -D inputs: KAT (ngcc-kat), LIB (the VAR-128 library), WORK (scratch folder)
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env "NGCC_SCRATCH_DIR=${WORK}/scratch"
  "${KAT}" --lib "${LIB}" --name selftest/chatty --record-out "${WORK}/kat.json"
  --log "${WORK}/kat.child.log" --records 10 --timeout 120 --expect NOKAT
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(LENGTH "${out}${err}" shown)
file(SIZE "${WORK}/kat.child.log" logged)
set(failures "")
if(NOT rc EQUAL 0)
  list(APPEND failures "ngcc-kat exited with ${rc} (wanted the NOKAT verdict: no reference given)")
endif()
if(logged LESS 50000)
  list(APPEND failures "only ${logged} bytes of submission output were captured (wanted > 50000)")
endif()
if(NOT err MATCHES "\\[\\.\\.\\. ([0-9]+) more bytes \\(([0-9]+) lines\\) of submission output truncated")
  list(APPEND failures "no truncation note with a byte and line count in the test output")
else()
  set(more ${CMAKE_MATCH_1})
  math(EXPR head "${logged} - ${more}")
  if(NOT head EQUAL 4096)
    list(APPEND failures "the note says ${more} more bytes of ${logged}: the shown head is ${head} bytes, not 4096")
  endif()
endif()
if(shown GREATER 20000)
  list(APPEND failures "the test printed ${shown} bytes: the submission output floods the CTest log")
endif()
if(failures)
  string(REPLACE ";" "\n  " text "${failures}")
  message(FATAL_ERROR "chatty output:\n  ${text}")
endif()
message("ok: ${logged} bytes of submission output captured in ${WORK}/kat.child.log; the test printed ${shown} bytes "
  "with the count of the rest")

# selftest/style/format: every C file of the suite's own code (harness/,
# tests/, tools/, iccs/, cmake/; never fixtures/ or submissions/,
# which are laid out like third-party code) is formatted as .clang-format
# says. Proves it can fail first: a copy of one file with its indentation
# and spacing broken must be rejected by the same command.
# -D inputs: CLANG_FORMAT SOURCE_DIR WORK
cmake_minimum_required(VERSION 3.25)
if(NOT CLANG_FORMAT)
  message(FATAL_ERROR "clang-format not found: install it (Debian package clang-format, in tools/install-deps) "
    "and reconfigure")
endif()
set(style "${SOURCE_DIR}/.clang-format")
if(NOT EXISTS "${style}")
  message(FATAL_ERROR "${style} is missing: the style of the tree is defined there")
endif()
file(GLOB_RECURSE files LIST_DIRECTORIES false
  "${SOURCE_DIR}/harness/*.[ch]" "${SOURCE_DIR}/tests/*.[ch]" "${SOURCE_DIR}/tools/*.[ch]"
  "${SOURCE_DIR}/iccs/*.[ch]" "${SOURCE_DIR}/cmake/*.[ch]")
list(LENGTH files n)
if(n LESS 50)
  message(FATAL_ERROR "only ${n} C files found under ${SOURCE_DIR}: wrong SOURCE_DIR")
endif()

# the check can fail: a misformatted copy is rejected
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
list(GET files 0 sample)
file(READ "${sample}" text)
string(REPLACE "\n    " "\n  " text "${text}")
string(REPLACE ", " ",   " text "${text}")
file(WRITE "${WORK}/misformatted.c" "${text}")
execute_process(COMMAND "${CLANG_FORMAT}" --style=file:${style} --dry-run -Werror "${WORK}/misformatted.c"
  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "the format check accepted a misformatted copy of ${sample}: it cannot fail")
endif()
message("ok   a misformatted copy of ${sample} is rejected")

set(bad "")
foreach(f IN LISTS files)
  execute_process(COMMAND "${CLANG_FORMAT}" --style=file:${style} --dry-run -Werror "${f}"
    RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(RELATIVE_PATH r "${SOURCE_DIR}" "${f}")
    list(APPEND bad "${r}")
  endif()
endforeach()
if(bad)
  list(LENGTH bad nb)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "${nb} of ${n} C files are not formatted as .clang-format says; fix with\n"
    "  clang-format -i <file>   (files:\n  ${bad})")
endif()
message("ngcc: verdict selftest style/format: PASS: ${n} C files formatted as .clang-format says")

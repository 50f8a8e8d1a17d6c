# Golden-page test: renders the committed sample records with ngcc-report
# and compares every page byte for byte with the committed expected pages.
# A second rendering from a copy of the records at another path, given in
# reverse order, must give the same bytes (pages depend on the records only).
#
# -D inputs: REPORT (ngcc-report), RECORDS (;-list of sample folders under
#   records/), EXPECTED (folder of expected pages), OUT (scratch folder),
#   [EXTRA_ARGS], [EXPECT_RC (default 0)], [STDERR_MUST (;-list of texts the
#   error output must contain)], [EMULATOR (comma-separated command that
#   runs REPORT in a cross tree, e.g. qemu-aarch64,-cpu,max)].
# Refresh the expected pages after an intended change with
#   NGCC_UPDATE_GOLDEN=1 ctest -R unit/report/golden   (then review git diff)
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED EXPECT_RC)
  set(EXPECT_RC 0)
endif()
set(here "${CMAKE_CURRENT_LIST_DIR}")

function(render out records_dirs rc_var err_var)
  set(args "")
  foreach(r IN LISTS records_dirs)
    list(APPEND args --records "${r}")
  endforeach()
  file(REMOVE_RECURSE "${out}")
  string(REPLACE "," ";" emu "${EMULATOR}")
  execute_process(COMMAND ${emu} "${REPORT}" ${args} --out "${out}" ${EXTRA_ARGS}
    RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  message("${o}${e}")
  set(${rc_var} "${rc}" PARENT_SCOPE)
  set(${err_var} "${e}" PARENT_SCOPE)
endfunction()

# every file of folder a equals the file of the same name in b, and b has no other
function(compare_trees a b what)
  file(GLOB_RECURSE fa RELATIVE "${a}" "${a}/*")
  file(GLOB_RECURSE fb RELATIVE "${b}" "${b}/*")
  list(SORT fa)
  list(SORT fb)
  if(NOT fa STREQUAL fb)
    message(FATAL_ERROR "ngcc: golden: ${what}: the page files differ:\n  ${a}: ${fa}\n  ${b}: ${fb}")
  endif()
  find_program(DIFF diff)
  foreach(f IN LISTS fa)
    file(SHA256 "${a}/${f}" ha)
    file(SHA256 "${b}/${f}" hb)
    if(NOT ha STREQUAL hb)
      if(DIFF)
        execute_process(COMMAND "${DIFF}" -u "${a}/${f}" "${b}/${f}" OUTPUT_VARIABLE d)
        string(SUBSTRING "${d}" 0 4000 d)
      endif()
      message(FATAL_ERROR "ngcc: golden: ${what}: ${f} differs\n${d}\n"
        "If the change is intended: NGCC_UPDATE_GOLDEN=1 ctest -R unit/report/golden, then review git diff.")
    endif()
  endforeach()
endfunction()

set(dirs "")
foreach(r IN LISTS RECORDS)
  list(APPEND dirs "${here}/records/${r}")
endforeach()
render("${OUT}/pages" "${dirs}" rc err)
if(NOT rc EQUAL EXPECT_RC)
  message(FATAL_ERROR "ngcc: golden: ngcc-report exited with ${rc}, expected ${EXPECT_RC}")
endif()
foreach(text IN LISTS STDERR_MUST)
  string(FIND "${err}" "${text}" at)
  if(at LESS 0)
    message(FATAL_ERROR "ngcc: golden: the error output does not contain \"${text}\"")
  endif()
endforeach()

if("$ENV{NGCC_UPDATE_GOLDEN}" STREQUAL "1")
  file(REMOVE_RECURSE "${EXPECTED}")
  file(COPY "${OUT}/pages/" DESTINATION "${EXPECTED}")
  message("ngcc: golden: expected pages refreshed in ${EXPECTED}; review them with git diff")
  return()
endif()
compare_trees("${EXPECTED}" "${OUT}/pages" "rendered pages vs expected")

# same records elsewhere, other argument order: same bytes
set(copies "")
foreach(d IN LISTS dirs)
  get_filename_component(n "${d}" NAME)
  file(REMOVE_RECURSE "${OUT}/copy/${n}")
  file(COPY "${d}/" DESTINATION "${OUT}/copy/${n}")
  list(PREPEND copies "${OUT}/copy/${n}")
endforeach()
render("${OUT}/pages2" "${copies}" rc2 err2)
compare_trees("${OUT}/pages" "${OUT}/pages2" "rendering of a copy of the records at another path")
message("ngcc: verdict report golden ${RECORDS}: PASS: pages equal the expected ones byte for byte, "
  "also when rendered from a copy of the records")

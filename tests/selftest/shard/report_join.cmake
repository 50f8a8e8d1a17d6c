# selftest/shard/report-join: ngcc-report joining shards of one machine class.
# The committed sample records of one system (tests/unit/report/records/x86)
# are split into two shard folders (fx-wots's records partly in both, the
# shared ones identical; shard.json 1/2 and 2/2):
#  - joined pages == the pages of the one folder, byte for byte;
#  - one shared record changed in shard 2: a conflict, one stderr line naming
#    the file and both folders, the record shown as a gap with that note,
#    exit 1 with --strict; never one of the copies on the page;
#  - shard 2 without shard.json: "shard 2/2 is missing" on stderr;
#  - shard 2 of another machine class (system_id): two systems, compare page.
# -D inputs: REPORT RECORDS WORK
cmake_minimum_required(VERSION 3.25)
set(errors "")
macro(check what)
  if(NOT (${ARGN}))
    string(APPEND errors "  - ${what}\n")
  endif()
endmacro()
file(REMOVE_RECURSE "${WORK}")
set(a "${WORK}/shard-1")
set(b "${WORK}/shard-2")
file(MAKE_DIRECTORY "${a}" "${b}")
file(COPY "${RECORDS}/system.json" DESTINATION "${a}")
file(COPY "${RECORDS}/system.json" DESTINATION "${b}")
file(WRITE "${a}/shard.json" "{\"kind\": \"shard\", \"shard\": \"1/2\"}\n")
file(WRITE "${b}/shard.json" "{\"kind\": \"shard\", \"shard\": \"2/2\"}\n")
file(GLOB cands LIST_DIRECTORIES true RELATIVE "${RECORDS}" "${RECORDS}/*")
set(shared "")
foreach(c IN LISTS cands)
  if(NOT IS_DIRECTORY "${RECORDS}/${c}")
    continue()
  endif()
  if(NOT c STREQUAL "fx-wots")
    file(COPY "${RECORDS}/${c}" DESTINATION "${b}") # whole candidates on shard 2
    continue()
  endif()
  file(GLOB_RECURSE recs RELATIVE "${RECORDS}" "${RECORDS}/${c}/*.json")
  list(SORT recs)
  set(i 0)
  foreach(r IN LISTS recs) # every 3rd on shard 1, every 3rd on 2, the rest on both
    math(EXPR m "${i} % 3")
    get_filename_component(d "${r}" DIRECTORY)
    if(NOT m EQUAL 1)
      file(COPY "${RECORDS}/${r}" DESTINATION "${a}/${d}")
    endif()
    if(NOT m EQUAL 0)
      file(COPY "${RECORDS}/${r}" DESTINATION "${b}/${d}")
    endif()
    if(m EQUAL 2)
      list(APPEND shared "${r}")
    endif()
    math(EXPR i "${i} + 1")
  endforeach()
endforeach()
list(LENGTH shared nshared)
check("the split shares no record" nshared GREATER 0)

function(pages out)
  execute_process(COMMAND "${REPORT}" ${ARGN} --out "${out}" RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE e)
  set(rc ${rc} PARENT_SCOPE)
  set(o "${o}" PARENT_SCOPE)
  set(e "${e}" PARENT_SCOPE)
endfunction()
pages("${WORK}/one" --records "${RECORDS}")
pages("${WORK}/joined" --records "${a}" --records "${b}" --strict)
check("joining two shards: exit ${rc}, stderr: ${e}" rc EQUAL 0 AND e MATCHES "^$")
check("ngcc-report did not say it joined the shards: ${o}" o MATCHES "joined from 2 records folders [(]shards: 1/2 2/2[)]")
file(GLOB_RECURSE f1 RELATIVE "${WORK}/one" "${WORK}/one/*")
file(GLOB_RECURSE f2 RELATIVE "${WORK}/joined" "${WORK}/joined/*")
list(SORT f1)
list(SORT f2)
check("joined pages are other files (${f2}) than one folder's (${f1})" f1 STREQUAL f2)
foreach(f IN LISTS f1)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${WORK}/one/${f}" "${WORK}/joined/${f}" RESULT_VARIABLE d)
  check("${f}: joined page differs from the one folder's" d EQUAL 0)
endforeach()
list(LENGTH f1 npages)

# a conflict
list(GET shared 0 victim)
file(READ "${b}/${victim}" t)
string(REGEX REPLACE "\"verdict\"[ \t]*:[ \t]*\"[A-Z]+\"" "\"verdict\": \"MISMATCH\"" t "${t}")
file(WRITE "${b}/${victim}" "${t}")
pages("${WORK}/conflict" --records "${a}" --records "${b}" --strict)
check("a conflict did not make --strict exit 1 (exit ${rc})" rc EQUAL 1)
string(REPLACE ";" "," e1 "${e}")
string(REGEX MATCHALL "ngcc-report: conflict: [^\n]*" lines "${e1}")
list(LENGTH lines nl)
check("expected one conflict line on stderr, got ${nl}: ${e}" nl EQUAL 1)
check("the conflict line does not name ${victim} and both folders: ${e}"
  e MATCHES "conflict: ${victim} differs between the records folders ${a} and ${b}")
get_filename_component(cand_dir "${victim}" DIRECTORY)
get_filename_component(cand "${cand_dir}" DIRECTORY)
file(GLOB page "${WORK}/conflict/*/${cand}.md")
list(LENGTH page np)
check("the conflict run wrote ${np} pages of ${cand}, not one (one joined system)" np EQUAL 1)
set(p "")
if(page)
  list(GET page 0 page)
  file(READ "${page}" p)
endif()
check("the candidate page has no note on the conflicting ${victim}" p MATCHES "differs between the records folders")
check("a copy of the conflicting record reached the page (${victim}: MISMATCH)" NOT p MATCHES "${victim}: MISMATCH")
file(WRITE "${b}/${victim}" "") # restore from the sample
file(COPY "${RECORDS}/${victim}" DESTINATION "${b}/${cand_dir}")

# a missing shard
file(REMOVE "${b}/shard.json")
pages("${WORK}/missing" --records "${a}" --records "${b}")
check("shard 2/2 without shard.json: no 'missing' line on stderr: ${e}" e MATCHES "shard 2/2 is missing")

# another machine class stays another system
file(READ "${b}/system.json" t)
string(REGEX REPLACE "\"system_id\"[ \t]*:[ \t]*\"[^\"]*\"" "\"system_id\": \"other-class\"" t "${t}")
file(WRITE "${b}/system.json" "${t}")
pages("${WORK}/two" --records "${a}" --records "${b}")
check("another machine class was joined (no compare page; ${o})" EXISTS "${WORK}/two/compare.md" AND o MATCHES "from 2 systems")

if(errors)
  message(FATAL_ERROR "ngcc: verdict selftest shard/report-join: FAIL\n${errors}")
endif()
message("ngcc: verdict selftest shard/report-join: PASS: two shards (${nshared} shared identical records) give the "
  "one folder's ${npages} pages byte for byte; a changed shared record is one conflict line and a gap; a missing "
  "shard is named; another machine class stays a second system")

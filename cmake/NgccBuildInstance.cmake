# Run by the CTest test build/<candidate>/<instance>[/<variant>] (cmake -P).
# Configures and builds one instance library variant in a tree of its own,
# trying the flag sets in order, and writes the build record atomically.
# A compile error is a BUILDFAIL verdict with the first error (file:line).
#
# -D inputs: SETTINGS VARIANT ROOT OUTPUT_DIR RECORD GENERATOR INSTANCE_SRC
#            FLAGSETS (comma-separated) EXPECT (BUILDOK|BUILDFAIL) NAME
cmake_minimum_required(VERSION 3.25)

string(REPLACE "," ";" FLAGSETS "${FLAGSETS}")
set(lib "${OUTPUT_DIR}/libngcc_${VARIANT}.so")
file(REMOVE "${lib}")
set(verdict BUILDFAIL)
set(used_flagset "")
set(first_error "")
set(attempts "")
foreach(fs IN LISTS FLAGSETS)
  set(tree "${ROOT}/${VARIANT}-${fs}")
  set(log "${tree}.log")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -S "${INSTANCE_SRC}" -B "${tree}" -G "${GENERATOR}"
            "-DNGCC_SETTINGS=${SETTINGS}" -DNGCC_VARIANT=${VARIANT} -DNGCC_FLAGSET=${fs}
            -DCMAKE_BUILD_TYPE=
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} --build "${tree}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE bout ERROR_VARIABLE bout)
    string(APPEND out "${bout}")
  endif()
  file(WRITE "${log}" "${out}")
  if(rc EQUAL 0 AND EXISTS "${lib}")
    set(verdict BUILDOK)
    set(used_flagset ${fs})
    list(APPEND attempts "${fs}:ok")
    break()
  endif()
  list(APPEND attempts "${fs}:fail")
  # First compiler/linker error, as file:line: message.
  set(err "")
  string(REGEX MATCH "[^\n]*:[0-9]+:[0-9]+: (fatal )?error: [^\n]*" err "${out}")
  if(NOT err)
    string(REGEX MATCH "[^\n]*(undefined reference|error:|Error|CMake Error)[^\n]*" err "${out}")
  endif()
  if(NOT err)
    set(err "build failed (rc ${rc}), see ${log}")
  endif()
  if(first_error STREQUAL "")
    set(first_error "${err}")
  endif()
  message("ngcc: flag set '${fs}' failed: ${err}")
endforeach()

set(sha "")
if(verdict STREQUAL "BUILDOK")
  file(SHA256 "${lib}" sha)
endif()
string(JOIN "," attempts_text ${attempts})
set(rec "{}")
string(JSON rec SET "${rec}" kind "\"build\"")
string(JSON rec SET "${rec}" name "\"${NAME}\"")
string(JSON rec SET "${rec}" variant "\"${VARIANT}\"")
string(JSON rec SET "${rec}" verdict "\"${verdict}\"")
string(JSON rec SET "${rec}" flagset "\"${used_flagset}\"")
string(JSON rec SET "${rec}" attempts "\"${attempts_text}\"")
string(JSON rec SET "${rec}" library "\"${lib}\"")
string(JSON rec SET "${rec}" library_sha256 "\"${sha}\"")
# first_error may hold quotes/backslashes: escape for JSON.
string(REPLACE "\\" "\\\\" err_json "${first_error}")
string(REPLACE "\"" "\\\"" err_json "${err_json}")
string(REPLACE "\t" " " err_json "${err_json}")
string(JSON rec SET "${rec}" first_error "\"${err_json}\"")
get_filename_component(rdir "${RECORD}" DIRECTORY)
file(MAKE_DIRECTORY "${rdir}")
file(WRITE "${RECORD}.tmp" "${rec}\n")
file(RENAME "${RECORD}.tmp" "${RECORD}")

if(verdict STREQUAL "BUILDOK")
  message("ngcc: verdict ${NAME} [${VARIANT}]: BUILDOK (flag set ${used_flagset})")
else()
  message("ngcc: verdict ${NAME} [${VARIANT}]: BUILDFAIL: ${first_error}")
endif()
if(NOT verdict STREQUAL EXPECT)
  message(FATAL_ERROR "ngcc: ${NAME} [${VARIANT}]: expected ${EXPECT}, got ${verdict}")
endif()

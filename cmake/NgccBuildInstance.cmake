# Run by the CTest test build/<candidate>/<instance>[/<variant>] (cmake -P).
# Configures and builds one instance library variant in a tree of its own per
# flag set, trying the flag sets in order; the first that builds is copied to
# <root>/libngcc_<variant>.so (only when it differs, so an unchanged library
# keeps its bytes and mtime). Writes the build record atomically.
# A compile error is a BUILDFAIL verdict with the first error (file:line) of
# the last flag set tried (the most permissive one); every attempt's error is
# in the record ("attempts", in order in "tried"). When the last set's sources
# compiled but did not link, the link fallback set (compat) is tried too. An instance whose ISA extensions the host lacks is SKIP.
# With NGCC_RESUME=1 a BUILDOK record whose library did not change is kept.
#
# -D inputs: SETTINGS VARIANT ROOT OUTPUT_DIR RECORD GENERATOR INSTANCE_SRC
#            FLAGSETS (comma-separated) EXPECT (BUILDOK|BUILDFAIL) NAME
#            LABELS_NOT_FOR_TYPE (comma-separated; written to the record)
#            SUITE_OBJECTS_DIR (optional: where the suite's own objects are built once)
cmake_minimum_required(VERSION 3.25)
if(NOT EXISTS "${SETTINGS}")
  message(FATAL_ERROR "ngcc: ${SETTINGS} is missing (the build tree's instances/ folder was cleaned): "
    "run cmake on the build tree again")
endif()
include("${SETTINGS}")
string(REPLACE "," ";" FLAGSETS "${FLAGSETS}")
set(lib "${OUTPUT_DIR}/libngcc_${VARIANT}.so")
string(TIMESTAMP start_utc "%Y-%m-%dT%H:%M:%SZ" UTC)

# First compiler/linker error of a build log, as file:line[:col]: message,
# file relative to the instance. kind: compile, link or other. A link
# failure is named by the first linker line naming a symbol ("undefined
# reference to `radix3'", "multiple definition of `CCAKEM_Init'"), never by
# collect2's "ld returned 1 exit status".
function(first_error_of out kind_out log_text log_file rc)
  set(kind other)
  string(REGEX MATCH "[^\n]*:[0-9]+:[0-9]+: (fatal )?error: [^\n]*" err "${log_text}")
  if(err)
    set(kind compile)
  else()
    string(REGEX MATCH "[^\n]*(undefined reference to|multiple definition of|undefined symbol|relocation [^\n]*against)[^\n]*"
      err "${log_text}")
    if(err)
      set(kind link)
      # "; <object>:<file:line>: first defined here" -> " (first defined at <file:line>)"
      string(REGEX REPLACE "; [^ ;]*\\.o(bj)?:([^\n]*): first defined here" " (first defined at \\2)" err "${err}")
      string(REGEX REPLACE "^([^ :]*/)?(ld|ld\\.bfd|ld\\.gold|ld\\.lld|mold): " "" err "${err}")
    elseif(log_text MATCHES "ld returned [0-9]+ exit status")
      set(kind link)
      string(REGEX MATCH "[^\n]*/ld(\\.[a-z]+)?: [^\n]*" err "${log_text}")
      if(NOT err)
        set(err "the link failed (no linker message names a symbol), see ${log_file}")
      endif()
    endif()
  endif()
  if(NOT err)
    string(REGEX MATCH "[^\n]*(error:|Error|CMake Error)[^\n]*" err "${log_text}")
  endif()
  if(NOT err)
    set(err "build failed (rc ${rc}), see ${log_file}")
  endif()
  string(STRIP "${err}" err)
  if(NGCC_INSTANCE_DIR)
    string(REPLACE "${NGCC_INSTANCE_DIR}/" "" err "${err}") # file:line relative to the instance
  endif()
  set(${out} "${err}" PARENT_SCOPE)
  set(${kind_out} "${kind}" PARENT_SCOPE)
endfunction()

# The instance tree's compiler: the cross toolchain of the build tree (preset
# aarch64), clang for the variant clang and for NGCC_INSTANCE_COMPILER=clang,
# else CMake's default (gcc). The variant o3 is gcc at -O3; asan stays gcc's
# too (security-asan preloads gcc's libasan, which a clang-built library
# would not match).
function(ngcc_instance_compiler_args out)
  set(a "")
  if(NGCC_TOOLCHAIN_FILE)
    list(APPEND a "-DCMAKE_TOOLCHAIN_FILE=${NGCC_TOOLCHAIN_FILE}")
  elseif(VARIANT STREQUAL "clang" OR (NGCC_INSTANCE_COMPILER STREQUAL "clang" AND NOT VARIANT MATCHES "^(o3|asan)$"))
    list(APPEND a -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_ASM_COMPILER=clang)
  endif()
  set(${out} "${a}" PARENT_SCOPE)
endfunction()

# The suite's instance-independent objects (cmake/suite-objects), built once
# per compiler and sanitizer setting in SUITE_OBJECTS_DIR under a lock (the
# build tests run in parallel); sets suite_arg to the -D that hands them to
# the instance project. When that build fails, suite_arg stays empty and the
# instance project compiles them itself, as without SUITE_OBJECTS_DIR.
function(ngcc_suite_objects)
  set(suite_arg "" PARENT_SCOPE)
  if(NOT SUITE_OBJECTS_DIR)
    return()
  endif()
  ngcc_instance_compiler_args(cc_args)
  set(sanitize OFF)
  if(VARIANT STREQUAL "asan")
    set(sanitize ON)
  endif()
  # one tree per distinct compiler choice, sanitizer and coverage flags
  string(SHA256 key "${cc_args}|${sanitize}|$ENV{NGCC_INSTANCE_COVERAGE_FLAGS}")
  string(SUBSTRING "${key}" 0 12 key)
  set(tree "${SUITE_OBJECTS_DIR}/${key}")
  file(MAKE_DIRECTORY "${SUITE_OBJECTS_DIR}")
  file(LOCK "${tree}.lock" GUARD FUNCTION TIMEOUT 600 RESULT_VARIABLE locked)
  if(NOT locked EQUAL 0)
    message("ngcc: ${tree}.lock: ${locked}; compiling the suite's objects in the instance tree instead")
    return()
  endif()
  set(rc 0)
  set(out "")
  if(NOT EXISTS "${tree}/CMakeCache.txt")
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env --unset=CFLAGS --unset=CXXFLAGS --unset=CPPFLAGS
              --unset=ASMFLAGS --unset=LDFLAGS
              ${CMAKE_COMMAND} -S "${INSTANCE_SRC}/../suite-objects" -B "${tree}" -G "${GENERATOR}"
              "-DNGCC_ICCS_DIR=${NGCC_ICCS_DIR}" "-DNGCC_HARNESS_DIR=${NGCC_HARNESS_DIR}"
              -DNGCC_SANITIZE=${sanitize} -DCMAKE_BUILD_TYPE= ${cc_args}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  endif()
  if(rc EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} --build "${tree}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE bout ERROR_VARIABLE bout)
    string(APPEND out "${bout}")
  endif()
  if(NOT rc EQUAL 0 OR NOT EXISTS "${tree}/objects.cmake")
    file(WRITE "${tree}.log" "${out}")
    message("ngcc: the suite's objects did not build in ${tree} (see ${tree}.log); compiling them in the instance tree instead")
    return()
  endif()
  set(suite_arg "-DNGCC_SUITE_OBJECTS=${tree}/objects.cmake" PARENT_SCOPE)
endfunction()

# Builds with one flag set; sets ok, err, built (the library in its tree).
function(build_with fs)
  set(tree "${ROOT}/${VARIANT}-${fs}")
  set(log "${tree}.log")
  ngcc_instance_compiler_args(cc_args)
  # Fixed flags: the user's CFLAGS/LDFLAGS must not leak into instance builds.
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env --unset=CFLAGS --unset=CXXFLAGS --unset=CPPFLAGS
            --unset=ASMFLAGS --unset=LDFLAGS
            ${CMAKE_COMMAND} -S "${INSTANCE_SRC}" -B "${tree}" -G "${GENERATOR}"
            "-DNGCC_SETTINGS=${SETTINGS}" -DNGCC_VARIANT=${VARIANT} -DNGCC_FLAGSET=${fs}
            -DCMAKE_BUILD_TYPE= ${cc_args} ${suite_arg}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0)
    execute_process(COMMAND ${CMAKE_COMMAND} --build "${tree}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE bout ERROR_VARIABLE bout)
    string(APPEND out "${bout}")
  endif()
  file(WRITE "${log}" "${out}")
  set(built "${tree}/libngcc_${VARIANT}.so")
  set(built "${built}" PARENT_SCOPE)
  if(rc EQUAL 0 AND EXISTS "${built}")
    set(ok TRUE PARENT_SCOPE)
    set(err "" PARENT_SCOPE)
    set(err_kind "" PARENT_SCOPE)
  else()
    first_error_of(e kind "${out}" "${log}" "${rc}")
    set(ok FALSE PARENT_SCOPE)
    set(err "${e}" PARENT_SCOPE)
    set(err_kind "${kind}" PARENT_SCOPE)
  endif()
endfunction()

function(json_str out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\t" " " text "${text}")
  string(REPLACE "\n" " " text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# One attempt: sets verdict/used_flagset on success, else first_error and
# last_kind; every attempt lands in attempts (its first error, or "ok") and,
# in order, in tried.
macro(try_flagset fs)
  build_with(${fs})
  list(APPEND tried ${fs})
  if(ok)
    set(verdict BUILDOK)
    set(used_flagset ${fs})
    string(JSON attempts SET "${attempts}" ${fs} "\"ok\"")
    file(COPY_FILE "${built}" "${lib}" ONLY_IF_DIFFERENT)
  else()
    json_str(q "${err}")
    string(JSON attempts SET "${attempts}" ${fs} "${q}")
    set(first_error "${err}")
    set(last_kind "${err_kind}")
    set(fell_back TRUE)
    message("ngcc: flag set '${fs}' failed (${err_kind}): ${err}")
  endif()
endmacro()

set(verdict BUILDFAIL)
set(used_flagset "")
set(first_error "")
set(last_kind "")
set(detail "")
set(attempts "{}")
set(tried "")
set(fell_back FALSE)
set(link_fallback_used FALSE)
if(NGCC_SKIP_REASON)
  set(verdict SKIP)
  set(detail "not built: ${NGCC_SKIP_REASON}")
elseif(NGCC_DISCOVER_ERROR)
  set(first_error "discovery: ${NGCC_DISCOVER_ERROR}")
else()
  ngcc_suite_objects()
  foreach(fs IN LISTS FLAGSETS)
    try_flagset(${fs})
    if(ok)
      break()
    endif()
  endforeach()
  # The link fallback (NGCC_LINK_FALLBACK from the settings: "compat" with the
  # default flag sets, none when an override names its own): tried only when
  # the last set failed to LINK, i.e. every source compiled. A compile error
  # is not something -fgnu89-inline or --allow-multiple-definition can fix.
  if(verdict STREQUAL "BUILDFAIL" AND NGCC_LINK_FALLBACK AND last_kind STREQUAL "link"
     AND NOT NGCC_LINK_FALLBACK IN_LIST FLAGSETS)
    message("ngcc: the sources compiled but did not link: trying the link fallback flag set ${NGCC_LINK_FALLBACK}")
    set(link_fallback_used TRUE)
    try_flagset(${NGCC_LINK_FALLBACK})
  endif()
endif()
if(verdict STREQUAL "BUILDOK")
  set(first_error "")
  set(detail "built with flag set ${used_flagset}")
  if(link_fallback_used)
    set(before ${tried})
    list(REMOVE_ITEM before ${used_flagset})
    list(JOIN before ", " t)
    string(APPEND detail " (the link fallback: ${t} compiled but failed to link, see attempts)")
  elseif(fell_back)
    string(APPEND detail " (the earlier flag sets failed: see attempts)")
  endif()
elseif(verdict STREQUAL "BUILDFAIL")
  file(REMOVE "${lib}")
  include(${CMAKE_CURRENT_LIST_DIR}/NgccBuildHints.cmake) # defines the build files set, missing headers
  ngcc_build_hints("${first_error}" hint)
  if(hint AND NOT first_error MATCHES "^discovery: ")
    string(APPEND first_error "; hint: ${hint}")
  endif()
  set(detail "${first_error}")
  if(link_fallback_used)
    string(APPEND detail " (with the link fallback ${NGCC_LINK_FALLBACK}, after link errors with the other flag sets)")
  endif()
endif()

set(sha "")
if(verdict STREQUAL "BUILDOK")
  file(SHA256 "${lib}" sha)
endif()

# NGCC_RESUME=1: an unchanged library keeps its record (and its times).
set(resumed FALSE)
if("$ENV{NGCC_RESUME}" MATCHES "^(1|yes|on|ON)$" AND verdict STREQUAL "BUILDOK" AND EXISTS "${RECORD}")
  file(READ "${RECORD}" old)
  string(JSON old_sha ERROR_VARIABLE e GET "${old}" library_sha256)
  string(JSON old_v ERROR_VARIABLE e2 GET "${old}" verdict)
  string(JSON old_nft ERROR_VARIABLE e3 GET "${old}" labels_not_for_type)
  if(e3)
    set(old_nft "")
  endif()
  string(REGEX REPLACE "[][ \"\n]" "" old_nft "${old_nft}")
  if(NOT e AND NOT e2 AND old_v STREQUAL "BUILDOK" AND old_sha STREQUAL sha AND old_nft STREQUAL "${LABELS_NOT_FOR_TYPE}")
    set(resumed TRUE)
  endif()
endif()

if(NOT resumed)
  set(info_compiler "")
  set(info_flags "")
  set(info_glue_flags "")
  set(info_link_flags "")
  if(used_flagset AND EXISTS "${ROOT}/${VARIANT}-${used_flagset}/ngcc-build-info.cmake")
    include("${ROOT}/${VARIANT}-${used_flagset}/ngcc-build-info.cmake")
  endif()
  string(TIMESTAMP end_utc "%Y-%m-%dT%H:%M:%SZ" UTC)
  set(rec "{}")
  string(JSON rec SET "${rec}" schema 1)
  foreach(f kind:build name:${NAME} variant:${VARIANT} verdict:${verdict} expected:${EXPECT}
            flagset:${used_flagset} start_utc:${start_utc} end_utc:${end_utc} library:${lib}
            library_sha256:${sha})
    string(FIND "${f}" ":" c)
    string(SUBSTRING "${f}" 0 ${c} k)
    math(EXPR c "${c} + 1")
    string(SUBSTRING "${f}" ${c} -1 v)
    json_str(q "${v}")
    string(JSON rec SET "${rec}" ${k} "${q}")
  endforeach()
  json_str(q "${detail}")
  string(JSON rec SET "${rec}" detail "${q}")
  json_str(q "${first_error}")
  string(JSON rec SET "${rec}" first_error "${q}")
  string(JSON rec SET "${rec}" attempts "${attempts}")
  set(tj "[]")
  set(i 0)
  foreach(fs IN LISTS tried)
    string(JSON tj SET "${tj}" ${i} "\"${fs}\"")
    math(EXPR i "${i} + 1")
  endforeach()
  string(JSON rec SET "${rec}" tried "${tj}")
  # labels whose module does not cover this type (-DLABELS_NOT_FOR_TYPE=a,b): not run
  set(nj "[]")
  set(i 0)
  string(REPLACE "," ";" nft "${LABELS_NOT_FOR_TYPE}")
  foreach(l IN LISTS nft)
    string(JSON nj SET "${nj}" ${i} "\"${l}\"")
    math(EXPR i "${i} + 1")
  endforeach()
  string(JSON rec SET "${rec}" labels_not_for_type "${nj}")
  if(link_fallback_used)
    string(JSON rec SET "${rec}" link_fallback true)
  else()
    string(JSON rec SET "${rec}" link_fallback false)
  endif()
  set(meta "{}")
  foreach(f type:${NGCC_TYPE} algorithm_instance:${NGCC_ALGORITHM_INSTANCE} impl_variant:${NGCC_IMPL_VARIANT}
            flagset:${used_flagset} compiler:${info_compiler} flags:${info_flags}
            glue_flags:${info_glue_flags} link_flags:${info_link_flags})
    string(FIND "${f}" ":" c)
    string(SUBSTRING "${f}" 0 ${c} k)
    math(EXPR c "${c} + 1")
    string(SUBSTRING "${f}" ${c} -1 v)
    json_str(q "${v}")
    string(JSON meta SET "${meta}" ${k} "${q}")
  endforeach()
  string(JSON rec SET "${rec}" meta "${meta}")
  get_filename_component(rdir "${RECORD}" DIRECTORY)
  file(MAKE_DIRECTORY "${rdir}")
  file(WRITE "${RECORD}.tmp" "${rec}\n")
  file(RENAME "${RECORD}.tmp" "${RECORD}")
endif()

if(resumed)
  message("ngcc: resumed build ${NAME} [${VARIANT}]: library unchanged, record kept")
endif()
# the one verdict line form, named like the test: build <cand>/<key>[/<variant>]
set(who "build ${NAME}")
if(NOT VARIANT STREQUAL "plain")
  string(APPEND who "/${VARIANT}")
endif()
if(verdict STREQUAL "BUILDOK")
  message("ngcc: verdict ${who}: BUILDOK: ${detail}")
elseif(verdict STREQUAL "SKIP")
  message("ngcc: verdict ${who}: SKIP: ${NGCC_SKIP_REASON}")
else()
  message("ngcc: verdict ${who}: BUILDFAIL: ${first_error}")
  message("ngcc: build logs: ${ROOT}/${VARIANT}-<flag set>.log")
endif()
if(NOT verdict STREQUAL EXPECT AND NOT verdict STREQUAL "SKIP")
  message(FATAL_ERROR "ngcc: ${NAME} [${VARIANT}]: expected ${EXPECT}, got ${verdict}")
endif()

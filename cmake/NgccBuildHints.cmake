# Hints for a BUILDFAIL detail, at build time (included by
# NgccBuildInstance.cmake after the instance settings file). Reads
# NGCC_BUILD_HINTS ("NAME|VALUE|file" items: defines a shipped CMakeLists.txt
# or Makefile would set, found by discovery; never run), NGCC_DEFINES and
# NGCC_INSTANCE_DIR.
#
# ngcc_build_hints(<first error> <out>): out is "" or one hint text:
# - a static definition after a plain declaration: where the declaration is
#   and what to do (glibc's under _GNU_SOURCE, or the candidate's header);
# - a missing header included under #ifdef X / #ifndef X / #if [!]defined(X)
#   names X as the likely define (with the build file that sets it, if any);
# - an identifier in the error that a build file sets
#   ("CMakeLists.txt sets SECURITY_LEVEL=128; add it with `defines`");
# - else the defines the build files set that the override does not give.

function(_ngcc_hint_defined name out)
  set(r FALSE)
  foreach(d IN LISTS NGCC_DEFINES)
    if(d MATCHES "^${name}(=|$)")
      set(r TRUE)
    endif()
  endforeach()
  set(${out} ${r} PARENT_SCOPE)
endfunction()

function(_ngcc_hint_from_file name out)
  set(r "")
  foreach(h IN LISTS NGCC_BUILD_HINTS)
    string(REPLACE "|" ";" p "${h}")
    list(GET p 0 hn)
    list(GET p 1 hv)
    list(GET p 2 hf)
    if(hn STREQUAL name)
      set(d "${hn}")
      if(NOT hv STREQUAL "")
        set(d "${hn}=${hv}")
      endif()
      set(r "${hf} sets ${d}")
      break()
    endif()
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# The innermost #ifdef/#ifndef/#if defined() condition around line <line>
# of <file>: sets <out> to "ifndef X" style text and <name> to X, or "".
function(_ngcc_enclosing_condition file line out name)
  set(${out} "" PARENT_SCOPE)
  set(${name} "" PARENT_SCOPE)
  if(NOT EXISTS "${file}")
    return()
  endif()
  file(STRINGS "${file}" lines)
  set(stack "")
  set(i 0)
  foreach(l IN LISTS lines)
    math(EXPR i "${i} + 1")
    if(i GREATER_EQUAL line)
      break()
    endif()
    if(l MATCHES "^[ \t]*#[ \t]*(ifdef|ifndef)[ \t]+([A-Za-z_][A-Za-z0-9_]*)")
      list(APPEND stack "${CMAKE_MATCH_1} ${CMAKE_MATCH_2}")
    elseif(l MATCHES "^[ \t]*#[ \t]*if[ \t]+(!?)[ \t]*defined[ \t]*\\(?[ \t]*([A-Za-z_][A-Za-z0-9_]*)")
      if(CMAKE_MATCH_1 STREQUAL "!")
        list(APPEND stack "if !defined ${CMAKE_MATCH_2}")
      else()
        list(APPEND stack "if defined ${CMAKE_MATCH_2}")
      endif()
    elseif(l MATCHES "^[ \t]*#[ \t]*if")
      list(APPEND stack "-")
    elseif(l MATCHES "^[ \t]*#[ \t]*endif" AND stack)
      list(POP_BACK stack)
    endif()
  endforeach()
  list(REVERSE stack)
  foreach(c IN LISTS stack)
    if(NOT c STREQUAL "-")
      string(REGEX MATCH "[A-Za-z_][A-Za-z0-9_]*$" x "${c}")
      set(${out} "#${c}" PARENT_SCOPE)
      set(${name} "${x}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# where the flag sets' build logs (${ROOT}/${VARIANT}-<set>.log) say f was
# declared before its static definition ("file:line", or ""): gcc's note names
# f (in ASCII or UTF-8 quotes), clang's says "is here"
function(_ngcc_previous_declaration fn out)
  set(prev "")
  file(GLOB logs "${ROOT}/${VARIANT}-*.log")
  foreach(l IN LISTS logs)
    file(STRINGS "${l}" note REGEX "note: previous (declaration|implicit declaration) (of (‘|')${fn}(’|')|is here)"
      LIMIT_COUNT 1 ENCODING UTF-8)
    if(note MATCHES "^([^:]+:[0-9]+):")
      set(prev "${CMAKE_MATCH_1}")
      break()
    endif()
  endforeach()
  set(${out} "${prev}" PARENT_SCOPE)
endfunction()

# 0. "static declaration of 'f' follows non-static declaration": the note
# naming the earlier declaration is read from the flag sets' build logs
# (${ROOT}/${VARIANT}-<set>.log). Earlier in a system header: glibc declares f
# under _GNU_SOURCE, which the published sets define (quirk class 23);
# earlier in the candidate's own header: a Windows-built package (MSVC
# accepts a static definition after a plain declaration, quirk class 26).
function(_ngcc_hint_static_clash err out)
  set(hint "")
  if(err MATCHES "^([^:]+:[0-9]+):[0-9]+: error: static declaration of (‘|')([A-Za-z_0-9]+)(’|') follows non-static")
    set(def "${CMAKE_MATCH_1}")
    set(fn "${CMAKE_MATCH_3}")
    _ngcc_previous_declaration(${fn} prev)
    if(prev MATCHES "^/usr/")
      set(hint "glibc declares ${fn} (${prev}) because the published flag sets define _GNU_SOURCE; the \
candidate's own static ${fn} (${def}) clashes with it: build without the macro with \
\"flags\": [\"-U_GNU_SOURCE\"] (its own build files use a strict -std without feature macros)")
    elseif(prev)
      set(hint "${fn} is declared without static at ${prev} and defined static at ${def} (MSVC accepts \
this, GCC has no flag for it): give a copy of that header without the plain declaration (or with static) \
in a folder of your own through \"include_dirs\", or leave the file out with \"sources_exclude\"")
    else()
      set(hint "${fn} is defined static at ${def} after a plain declaration elsewhere; the build log names it")
    endif()
  endif()
  set(${out} "${hint}" PARENT_SCOPE)
endfunction()

# ngcc_glibc_clash_retry(<first error> <out>): out is "" or why the failed flag
# set is worth one more try with -U_GNU_SOURCE: the error is a static
# definition clashing with a declaration in a system header (glibc's, made
# visible by the published sets' _GNU_SOURCE) and the package's own build
# files ask for a strict -std=c89/c99/c11/c17 with no feature-test macro, so
# the package was written for exactly that namespace (quirk class 23).
function(ngcc_glibc_clash_retry err out)
  set(${out} "" PARENT_SCOPE)
  if(NOT err MATCHES "error: static declaration of (‘|')([A-Za-z_0-9]+)(’|') follows non-static")
    return()
  endif()
  set(fn "${CMAKE_MATCH_2}")
  _ngcc_previous_declaration(${fn} prev)
  if(NOT prev MATCHES "^/usr/")
    return()
  endif()
  ngcc_build_files_std("${NGCC_INSTANCE_DIR}" std_how)
  if(std_how)
    set(${out} "glibc declares ${fn} (${prev}) under _GNU_SOURCE and the candidate defines its own static \
one; ${std_how}" PARENT_SCOPE)
  endif()
endfunction()

# ngcc_build_files_std(<dir> <out>): out is "<file> builds with -std=<std> and
# no feature-test macro" when the build files in <dir> (and its parent's)
# name a strict ISO standard and none of _GNU_SOURCE, _DEFAULT_SOURCE,
# _POSIX_C_SOURCE, _XOPEN_SOURCE, _BSD_SOURCE; else "".
function(ngcc_build_files_std dir out)
  set(${out} "" PARENT_SCOPE)
  get_filename_component(parent "${dir}" DIRECTORY)
  file(GLOB_RECURSE files LIST_DIRECTORIES false "${dir}/CMakeLists.txt" "${dir}/*.cmake"
    "${dir}/Makefile" "${dir}/makefile" "${dir}/GNUmakefile" "${dir}/*.mk")
  foreach(f CMakeLists.txt Makefile makefile GNUmakefile)
    if(EXISTS "${parent}/${f}" AND NOT IS_DIRECTORY "${parent}/${f}")
      list(APPEND files "${parent}/${f}")
    endif()
  endforeach()
  set(strict "")
  foreach(f IN LISTS files)
    file(READ "${f}" text)
    if(text MATCHES "_(GNU|DEFAULT|BSD|SVID)_SOURCE|_POSIX_C_SOURCE|_XOPEN_SOURCE|-std=gnu")
      return()
    endif()
    if(NOT strict AND text MATCHES "-std=(c89|c90|c99|c11|c17|c18|iso9899:[0-9]+)")
      get_filename_component(fname "${f}" NAME)
      set(strict "${fname} builds with -std=${CMAKE_MATCH_1} and no feature-test macro")
    endif()
  endforeach()
  set(${out} "${strict}" PARENT_SCOPE)
endfunction()

function(ngcc_build_hints err out)
  _ngcc_hint_static_clash("${err}" hint)
  if(hint)
    set(${out} "${hint}" PARENT_SCOPE)
    return()
  endif()
  # 1. a missing header under a conditional names the likely define
  # (gcc: "fatal error: x.h: No such file or directory"; clang, with
  # NGCC_INSTANCE_COMPILER=clang: "fatal error: 'x.h' file not found")
  # (if() does not short-circuit: a failed second MATCHES would clear CMAKE_MATCH_*)
  set(missing_re "^([^:]+):([0-9]+):[0-9]+: fatal error: ([^:]+): No such file")
  if(err MATCHES "^([^:]+):([0-9]+):[0-9]+: fatal error: '([^']+)' file not found")
    set(missing_re "^([^:]+):([0-9]+):[0-9]+: fatal error: '([^']+)' file not found")
  endif()
  if(err MATCHES "${missing_re}")
    set(f "${CMAKE_MATCH_1}")
    set(ln "${CMAKE_MATCH_2}")
    set(hdr "${CMAKE_MATCH_3}")
    if(NOT IS_ABSOLUTE "${f}")
      set(f "${NGCC_INSTANCE_DIR}/${f}")
    endif()
    _ngcc_enclosing_condition("${f}" ${ln} cond x)
    if(x)
      file(RELATIVE_PATH frel "${NGCC_INSTANCE_DIR}" "${f}")
      set(hint "${hdr} is included under `${cond}` (${frel}:${ln}): ${x} is the likely define")
      _ngcc_hint_from_file("${x}" t)
      if(t)
        string(APPEND hint "; ${t}")
      endif()
      string(APPEND hint "; add it with `defines`")
    endif()
  endif()
  # 2. an identifier in the error that a build file sets
  if(NOT hint)
    foreach(h IN LISTS NGCC_BUILD_HINTS)
      string(REPLACE "|" ";" p "${h}")
      list(GET p 0 hn)
      _ngcc_hint_defined("${hn}" given)
      if(NOT given AND err MATCHES "(^|[^A-Za-z0-9_])${hn}([^A-Za-z0-9_]|$)")
        _ngcc_hint_from_file("${hn}" t)
        set(hint "${t}; add it with `defines`")
        break()
      endif()
    endforeach()
  endif()
  # 3. the defines the build files would set that the override does not give
  if(NOT hint)
    set(missing "")
    foreach(h IN LISTS NGCC_BUILD_HINTS)
      string(REPLACE "|" ";" p "${h}")
      list(GET p 0 hn)
      _ngcc_hint_defined("${hn}" given)
      if(NOT given)
        _ngcc_hint_from_file("${hn}" t)
        list(APPEND missing "${t}")
      endif()
    endforeach()
    list(REMOVE_DUPLICATES missing)
    if(missing)
      list(JOIN missing ", " t)
      set(hint "the build files (never run) would set what the build lacks: ${t}; add with `defines` what applies")
    endif()
  endif()
  set(${out} "${hint}" PARENT_SCOPE)
endfunction()

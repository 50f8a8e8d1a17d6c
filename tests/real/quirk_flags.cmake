# selftest/quirk-flags (cmake -P): the flag sets are the published ones, the
# compat fallback is tried only after link errors and recorded as such, the
# first error of a failed link names the symbol, and override flags reach the
# candidate's sources only -- proven on fixtures/fxq-flags (quirk classes 17,
# 18 and 23) from the build and kat records, the build trees' compile lines,
# and the override checker called directly.
# -D inputs: BUILD (build tree), SRC (source tree), MISSING (fxq-flags
# instances the configure step did not discover: each one is a failure)
cmake_minimum_required(VERSION 3.25)
include("${CMAKE_CURRENT_LIST_DIR}/record_expect.cmake")
set(EXPECT_CANDIDATE fxq-flags)

string(REPLACE "," ";" MISSING "${MISSING}")
foreach(m IN LISTS MISSING)
  fail("fixture instance ${m} was not discovered (fixtures/fxq-flags missing or changed?)")
endforeach()

# the published sets (docs/discovery.md, "Flag sets"), exactly
set(downgrades "-Wno-error=implicit-function-declaration -Wno-error=incompatible-pointer-types -Wno-error=int-conversion -Wno-error=implicit-int")
set(guide "-std=c99 -Wpedantic -Wall -Wextra -O2 -fPIC -D_GNU_SOURCE ${downgrades}")
set(hdefault "-O2 -fPIC -std=gnu11 -Wall -Wno-unused -Wno-unknown-pragmas -fno-strict-aliasing -fwrapv -fno-omit-frame-pointer -D_GNU_SOURCE ${downgrades}")
set(published_link "-Wl,--version-script=[^ ]*/exports\\.map -Wl,-Bsymbolic -Wl,--no-undefined -Wl,-z,noexecstack -Wl,-z,relro")
# clang (COMPILER, cmake/instance/NgccInstanceLibrary.cmake): DWARF 4 for
# valgrind, and clang's own function-pointer downgrade after the set
set(g "-g")
set(clang_extra "")
if(COMPILER STREQUAL "clang")
  set(g "-gdwarf-4")
  set(clang_extra " -Wno-error=incompatible-function-pointer-types")
endif()
set(glue "-O2 -fPIC ${g} -std=gnu11 -Wall -fno-strict-aliasing -fwrapv -fno-omit-frame-pointer -D_GNU_SOURCE")


# The compile line of <object>.o (a file name, e.g. drng.c) in a build tree's
# compile_commands.json (written by either generator, Ninja or Makefiles), or "".
function(compile_line tree object out)
  set(r "")
  if(EXISTS "${tree}/compile_commands.json")
    file(READ "${tree}/compile_commands.json" t)
    string(JSON n LENGTH "${t}")
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON file GET "${t}" ${i} file)
      get_filename_component(name "${file}" NAME)
      if(name STREQUAL object)
        string(JSON r GET "${t}" ${i} command)
        break()
      endif()
    endforeach()
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# FLAGS of one object's compile line in a flag set's tree or, for the suite's
# own objects, in the shared tree (cmake/suite-objects) the instance tree links
# (its cache's NGCC_SUITE_OBJECTS): the command less the compiler, the leading
# -D/-I/-isystem options (CMake's DEFINES and INCLUDES) and "-o ... -c ...".
function(object_flags inst fs object out)
  set(tree "${BUILD}/instances/fxq-flags/${inst}/plain-${fs}")
  set(r "<no ${tree}/compile_commands.json>")
  if(EXISTS "${tree}/compile_commands.json")
    compile_line("${tree}" "${object}" cmd)
    if(NOT cmd AND EXISTS "${tree}/CMakeCache.txt")
      file(STRINGS "${tree}/CMakeCache.txt" objs REGEX "^NGCC_SUITE_OBJECTS:")
      string(REGEX REPLACE "^[^=]*=(.*)/objects\\.cmake$" "\\1" shared_tree "${objs}")
      if(shared_tree)
        compile_line("${shared_tree}" "${object}" cmd)
      endif()
    endif()
    set(r "<no compile line for ${object}>")
    if(cmd)
      separate_arguments(args UNIX_COMMAND "${cmd}")
      list(POP_FRONT args) # the compiler
      set(flags "")
      set(lead TRUE)
      while(args)
        list(POP_FRONT args a)
        if(a STREQUAL "-o")
          break()
        elseif(lead AND a STREQUAL "-isystem")
          list(POP_FRONT args)
        elseif(NOT (lead AND a MATCHES "^-[DI]"))
          set(lead FALSE)
          list(APPEND flags "${a}")
        endif()
      endwhile()
      string(JOIN " " r ${flags})
    endif()
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# -- defaults: the published sets, then compat after link errors only
foreach(inst INL-128 POSIX-128 C11-128)
  expect(${inst} discovery.json flagsets EQUALS "[ \"guide\", \"harness-default\" ]")
  expect(${inst} discovery.json link_fallback EQUALS compat)
  expect(${inst} kat.json verdict EQUALS PASS)
endforeach()
foreach(inst INL-128~gnu89 INL-128~linkflags POSIX-128~nognu)
  expect(${inst} discovery.json link_fallback MATCHES "^$")
endforeach()

# -- class 18: aligned_alloc/syscall under -std=c99 build with guide (its -D_GNU_SOURCE)
expect(POSIX-128 build-plain.json flagset EQUALS guide)
expect(POSIX-128 build-plain.json tried EQUALS "[ \"guide\" ]")
expect(POSIX-128 build-plain.json meta flags EQUALS "${guide} ${g}${clang_extra}")
expect(POSIX-128 build-plain.json meta link_flags MATCHES "^${published_link} ")
# ... and without _GNU_SOURCE gcc's implicit int cuts the aligned_alloc
# pointer: the KAT run crashes. clang declares the library builtin with its
# real type (and says so): the pointer is whole, the KAT passes.
expect(POSIX-128~nognu build-plain.json meta flags MATCHES " -U_GNU_SOURCE$")
if(COMPILER STREQUAL "clang")
  expect(POSIX-128~nognu kat.json verdict EQUALS PASS)
  set(log "${BUILD}/instances/fxq-flags/POSIX-128~nognu/plain-guide.log")
  set(t "")
  if(EXISTS "${log}")
    file(READ "${log}" t)
  endif()
  if(t MATCHES "implicitly declaring library function 'aligned_alloc' with type 'void [*]")
    ok("POSIX-128~nognu: clang declared aligned_alloc with its real type (${log})")
  else()
    fail("POSIX-128~nognu: no clang warning 'implicitly declaring library function 'aligned_alloc' with type 'void *...' in ${log}")
  endif()
else()
  expect(POSIX-128~nognu kat.json verdict EQUALS CRASH)
  expect(POSIX-128~nognu kat.json detail MATCHES "signal 11")
endif()

# -- class 17: C99 inline; guide and harness-default fail to link, compat builds
expect(INL-128 build-plain.json verdict EQUALS BUILDOK)
expect(INL-128 build-plain.json flagset EQUALS compat)
expect(INL-128 build-plain.json link_fallback EQUALS ON)
expect(INL-128 build-plain.json tried EQUALS "[ \"guide\", \"harness-default\", \"compat\" ]")
foreach(fs guide harness-default)
  expect(INL-128 build-plain.json attempts ${fs} MATCHES "^radix\\.c:[0-9]+: undefined reference to `radix3'$")
endforeach()
expect(INL-128 build-plain.json attempts compat EQUALS ok)
expect(INL-128 build-plain.json detail MATCHES "compat \\(the link fallback: guide, harness-default compiled but failed to link")
expect(INL-128 build-plain.json meta flags EQUALS "${hdefault} -fgnu89-inline ${g}${clang_extra}")
expect(INL-128 build-plain.json meta link_flags MATCHES "^${published_link} -Wl,--allow-multiple-definition ")
# -fgnu89-inline alone: the header's inline function is defined twice; no
# fallback with an override's own flag set list
expect(INL-128~gnu89 build-plain.json verdict EQUALS BUILDFAIL)
expect(INL-128~gnu89 build-plain.json tried EQUALS "[ \"harness-default\" ]")
expect(INL-128~gnu89 build-plain.json first_error MATCHES "^[A-Za-z_]+\\.[ch]:[0-9]+: multiple definition of `fxq_mix'")
expect(INL-128~gnu89 build-plain.json first_error NOT_MATCHES "collect2|ld returned|CMakeFiles|/")
expect(INL-128~gnu89 kat.json verdict EQUALS BUILDFAIL)
# the link_flags override key
expect(INL-128~linkflags build-plain.json flagset EQUALS harness-default)
expect(INL-128~linkflags build-plain.json meta link_flags MATCHES " -Wl,--allow-multiple-definition ")
expect(INL-128~linkflags kat.json verdict EQUALS PASS)

# -- class 23: c_standard and a forced include reach the candidate only
expect(C11-128 build-plain.json flagset EQUALS guide)
# the name probe takes the forced include in its two-item spelling
expect(C11-128 discovery.json ai_method EQUALS preprocessor)
expect(C11-128 build-plain.json meta flags MATCHES "^-std=c11 -Wpedantic .* -include fallbacks\\.h$")
# ... and without the guard (the real package's fallbacks.h) the sets'
# _GNU_SOURCE makes glibc's explicit_bzero clash with the static one: the set
# is retried once with -U_GNU_SOURCE, since the Makefile builds with -std=c11
# and no feature-test macro, and the record says so
expect(C11-128~glibc-clash build-plain.json verdict EQUALS BUILDOK)
expect(C11-128~glibc-clash build-plain.json tried EQUALS "[ \"guide\", \"guide -U_GNU_SOURCE\" ]")
expect(C11-128~glibc-clash build-plain.json detail MATCHES
  "^built with flag set guide without _GNU_SOURCE [(]-U_GNU_SOURCE appended: glibc declares explicit_bzero [(]/usr/[a-z0-9_/-]*string\\.h:[0-9]+[)] under _GNU_SOURCE .*Makefile builds with -std=c11 and no feature-test macro[)]$")
expect(C11-128~glibc-clash build-plain.json meta flags MATCHES " -include fallbacks\\.h -U_GNU_SOURCE$")
expect(C11-128~glibc-clash kat.json verdict EQUALS PASS)
foreach(inst C11-128 INL-128 POSIX-128)
  expect(${inst} build-plain.json meta glue_flags EQUALS "${glue}")
endforeach()
object_flags(C11-128 guide SIG_AlgorithmInstance.c cand)
if(cand MATCHES "-std=c11" AND cand MATCHES "-include fallbacks\\.h")
  ok("C11-128: the candidate's source is compiled with -std=c11 -include fallbacks.h")
else()
  fail("C11-128: the candidate's compile flags are '${cand}'")
endif()
foreach(obj ngcc_glue.c ngcc_memwatch.c drng.c auxfunc.c sm3.c)
  object_flags(C11-128 guide ${obj} f)
  if(f STREQUAL glue)
    ok("C11-128: ${obj} is compiled with the suite's fixed flags only")
  else()
    fail("C11-128: ${obj} is compiled with '${f}', not the fixed '${glue}'")
  endif()
endforeach()

# -- the override checker: renamed and unknown flag sets, link_flags values
list(APPEND CMAKE_MODULE_PATH "${SRC}/cmake")
include(NgccOverrides)
foreach(case
    "{\"flagsets\": [\"permissive\"]}|now called \"harness-default\""
    "{\"flagsets\": [\"fast\"]}|not guide, harness-default or compat"
    "{\"instances\": {\"A\": {\"link_flags\": [\"m\"]}}}|link flag \"m\" at instances/A is not an option"
    "{\"link_flags\": \"-lm\"}|\"link_flags\" at top level must be a list"
    "{\"instances\": {\"A\": {\"slow_labels\": [\"sanitizer\"]}}}|slow_labels entry \"sanitizer\" at instances/A is not a test label"
    "{\"slow_labels\": [\"katx\", \"asan\"]}|"
    "{\"flagsets\": [\"compat\"], \"link_flags\": [\"-Wl,-z,now\"]}|")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 json)
  list(GET parts 1 want)
  ngcc_override_check_all("${json}" "x/ngcc.json" err)
  if(want STREQUAL "" AND err STREQUAL "")
    ok("override ${json} accepted")
  elseif(NOT want STREQUAL "" AND err MATCHES "^x/ngcc\\.json: .*${want}")
    ok("override ${json} rejected: ${err}")
  else()
    fail("override ${json}: wanted '${want}', got '${err}'")
  endif()
endforeach()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} flag-set expectation(s) failed")
endif()
message("all flag-set expectations hold")

# ngcc_instance_library(): the function that turns one instance folder into a
# shared library exporting only the official API and the ngcc control surface.
# All inputs are NGCC_* variables from the instance settings file.

# Fixed flag sets, equal to the published campaign's (docs/discovery.md,
# "Flag sets"):
#   guide            what the campaign tries first
#   harness-default  its fallback (GNU C, no strict aliasing, wrapping signed
#                    arithmetic)
#   compat           ours: harness-default + -fgnu89-inline, linked with
#                    --allow-multiple-definition, for C99 `inline` code that
#                    does not link (quirk class 17); NgccBuildInstance.cmake
#                    tries it only after the default sets failed to LINK.
# Both published sets carry -D_GNU_SOURCE and downgrade GCC 14's four default
# errors to warnings, so GCC 12 and GCC 14 give the same flag set.
# The sets apply to the candidate's sources only: the suite's glue and our
# ICCS objects have fixed flags of their own (NGCC_GLUE_C_FLAGS).
set(NGCC_GCC14_DOWNGRADES -Wno-error=implicit-function-declaration -Wno-error=incompatible-pointer-types
    -Wno-error=int-conversion -Wno-error=implicit-int)
set(NGCC_CLANG_DOWNGRADES -Wno-error=incompatible-function-pointer-types)
set(NGCC_GUIDE_C_FLAGS -std=c99 -Wpedantic -Wall -Wextra -O2 -fPIC -D_GNU_SOURCE ${NGCC_GCC14_DOWNGRADES})
set(NGCC_HARNESS_DEFAULT_C_FLAGS -O2 -fPIC -std=gnu11 -Wall -Wno-unused -Wno-unknown-pragmas
    -fno-strict-aliasing -fwrapv -fno-omit-frame-pointer -D_GNU_SOURCE ${NGCC_GCC14_DOWNGRADES})
set(NGCC_COMPAT_C_FLAGS ${NGCC_HARNESS_DEFAULT_C_FLAGS} -fgnu89-inline)
# C++ sources: the same sets without the C-only options (the GCC 14
# downgrades do not exist for C++, -fgnu89-inline is C only).
set(NGCC_GUIDE_CXX_FLAGS -std=c++17 -Wpedantic -Wall -Wextra -O2 -fPIC -D_GNU_SOURCE)
set(NGCC_HARNESS_DEFAULT_CXX_FLAGS -O2 -fPIC -std=gnu++17 -Wall -Wno-unused -Wno-unknown-pragmas
    -fno-strict-aliasing -fwrapv -fno-omit-frame-pointer -D_GNU_SOURCE -fpermissive)
set(NGCC_COMPAT_CXX_FLAGS ${NGCC_HARNESS_DEFAULT_CXX_FLAGS})
set(NGCC_COMPAT_LINK_FLAGS -Wl,--allow-multiple-definition)
# Added to every set: debug information (it changes no generated code) and,
# when asked for, coverage of submission code (cmake/NgccCoverage.cmake sets
# this on the build tests when NGCC_COVERAGE_SUBMISSIONS=ON).
set(NGCC_COMMON_FLAGS -g $ENV{NGCC_INSTANCE_COVERAGE_FLAGS})
string(APPEND CMAKE_SHARED_LINKER_FLAGS " $ENV{NGCC_INSTANCE_COVERAGE_FLAGS}")
# The suite's own objects (ngcc_glue*.c, ngcc_memwatch.c, our drng/auxfunc/
# sm3): always these flags (plus the variant's sanitizer flags and coverage),
# whatever the flag set and the override say, so a candidate's -std=,
# forced include or defines can never break or change them.
set(NGCC_GLUE_C_FLAGS -O2 -fPIC -g -std=gnu11 -Wall -fno-strict-aliasing -fwrapv
    -fno-omit-frame-pointer -D_GNU_SOURCE $ENV{NGCC_INSTANCE_COVERAGE_FLAGS})
# clang 14 writes DWARF 5 by default, which Debian 12's valgrind 3.19 cannot
# read ("unhandled dwarf2 abbrev form code 0x25 ... Possibly corrupted
# debuginfo file", memcheck and icount then ERROR): DWARF 4, as gcc 12 writes.
if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
  list(TRANSFORM NGCC_COMMON_FLAGS REPLACE "^-g$" "-gdwarf-4")
  list(TRANSFORM NGCC_GLUE_C_FLAGS REPLACE "^-g$" "-gdwarf-4")
endif()
# The published link line is -shared -Wl,--version-script=<map> -Wl,-Bsymbolic
# -Wl,--no-undefined -Wl,-z,noexecstack -Wl,-z,relro -lm (-shared comes with
# the SHARED library, -lm with target_link_libraries below).
set(NGCC_LINK_FLAGS_PUBLISHED -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/exports.map -Wl,-Bsymbolic
    -Wl,--no-undefined -Wl,-z,noexecstack -Wl,-z,relro)
# UBSan recovers (a report is logged and the call goes on, so one report
# never hides the next; ngcc-security collects them all); an ASan error
# still ends the process (ASan does not recover without
# -fsanitize-recover=address), and ngcc-security goes on in a new child.
set(NGCC_ASAN_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
    -fsanitize-recover=undefined)

# Symbols the prof variant wraps at link time (see tests/prof).
set(NGCC_WRAPPED_SYMBOLS sm3hash pseudohash pseudoXOF get_random_number init_random_number)
# Allocation functions every variant wraps (ngcc_memwatch.c): a failed
# request is MEMLIMIT evidence for the harness (harness/ngcc_child.h); free
# is wrapped for the live-block tracking of security's memory_leaks.
set(NGCC_MEMWATCH_SYMBOLS malloc calloc realloc aligned_alloc posix_memalign mmap free)

# Languages of the sources. enable_language() must run at directory scope
# (inside a function its compile rules are lost at generate time), so this
# runs when the file is included.
set(has_cxx FALSE)
set(has_asm FALSE)
foreach(s IN LISTS NGCC_SOURCES)
  if(s MATCHES "\\.(cpp|cc|cxx)$")
    set(has_cxx TRUE)
  elseif(s MATCHES "\\.[Ss]$")
    set(has_asm TRUE)
  endif()
endforeach()
if(has_cxx)
  enable_language(CXX)
endif()
if(has_asm)
  enable_language(ASM)
endif()

function(ngcc_instance_library)
  set(srcs ${NGCC_SOURCES})
  if(NGCC_VARIANT STREQUAL "asan" AND (NGCC_ICCS_SUBSTITUTE OR NGCC_ICCS_UNSANITIZED))
    # official ICCS copies: see cmake/NgccIccsFiles.cmake for why and how
    include(${CMAKE_CURRENT_LIST_DIR}/../NgccIccsFiles.cmake)
    ngcc_iccs_asan_sources(srcs)
  endif()

  string(TOUPPER "${NGCC_FLAGSET}" fs)
  string(REPLACE "-" "_" fs "${fs}")
  if(NOT DEFINED NGCC_${fs}_C_FLAGS)
    message(FATAL_ERROR "ngcc: unknown flag set '${NGCC_FLAGSET}' (known: guide, harness-default, compat)")
  endif()
  set(cflags ${NGCC_${fs}_C_FLAGS} ${NGCC_COMMON_FLAGS})
  set(cxxflags ${NGCC_${fs}_CXX_FLAGS} ${NGCC_COMMON_FLAGS})
  if(CMAKE_C_COMPILER_ID STREQUAL "Clang")
    # clang spellings: the four GCC 14 downgrades are spelled the same (clang
    # 14 warns by default; clang 16 errors like GCC 14), plus clang's own
    # error for function pointer mismatches; -fpermissive is GCC's only
    # (clang++ ignores it silently, so it is left out rather than claimed).
    list(APPEND cflags ${NGCC_CLANG_DOWNGRADES})
    list(REMOVE_ITEM cxxflags -fpermissive)
  endif()
  if(NGCC_VARIANT STREQUAL "o3")
    # cross-build agreement (katx): the same set one optimisation level up
    list(TRANSFORM cflags REPLACE "^-O2$" "-O3")
    list(TRANSFORM cxxflags REPLACE "^-O2$" "-O3")
  endif()
  if(NGCC_C_STANDARD)
    list(TRANSFORM cflags REPLACE "^-std=.*" "-std=${NGCC_C_STANDARD}")
  endif()
  if(NGCC_NEEDS_FCOMMON)
    list(APPEND cflags -fcommon) # (C only: C++ has no tentative definitions)
  endif()
  # NGCC_RETRY_FLAGS: a build test's retry of this set (-U_GNU_SOURCE, NgccBuildInstance.cmake)
  separate_arguments(retry_flags UNIX_COMMAND "${NGCC_RETRY_FLAGS}")
  list(APPEND cflags ${NGCC_ISA_FLAGS} ${NGCC_EXTRA_FLAGS} ${retry_flags})
  list(APPEND cxxflags ${NGCC_ISA_FLAGS} ${NGCC_EXTRA_FLAGS} ${retry_flags})
  set(asmflags -fPIC ${NGCC_COMMON_FLAGS} ${NGCC_ISA_FLAGS})
  set(glueflags ${NGCC_GLUE_C_FLAGS})
  set(linkflags ${NGCC_LINK_FLAGS_PUBLISHED} ${NGCC_${fs}_LINK_FLAGS} ${NGCC_LINK_FLAGS})
  # The suite's own additions to the published link line: --wrap of the
  # allocation functions (ngcc_memwatch.c: a failed request is MEMLIMIT
  # evidence) and, in the prof variant, of the hashes and the DRNG (call
  # counts). They only route calls through our stubs, which call the real
  # functions; no candidate code changes.
  foreach(sym IN LISTS NGCC_MEMWATCH_SYMBOLS)
    list(APPEND linkflags -Wl,--wrap=${sym})
  endforeach()
  if(NGCC_VARIANT STREQUAL "asan")
    list(APPEND cflags ${NGCC_ASAN_FLAGS})
    list(APPEND cxxflags ${NGCC_ASAN_FLAGS})
    list(APPEND glueflags ${NGCC_ASAN_FLAGS})
    list(APPEND linkflags ${NGCC_ASAN_FLAGS})
  elseif(NGCC_VARIANT STREQUAL "prof")
    foreach(sym IN LISTS NGCC_WRAPPED_SYMBOLS)
      list(APPEND linkflags -Wl,--wrap=${sym})
    endforeach()
  elseif(NGCC_VARIANT STREQUAL "ct")
    # ngcc_glue_ct.c: DRNG output marked secret for valgrind (tests/ct)
    list(APPEND linkflags -Wl,--wrap=get_random_number)
  endif()

  # Our ICCS implementation only where the submission ships none; compiled
  # against our own headers first so a submission's drng.h cannot change it.
  # With -DNGCC_SUITE_OBJECTS=<objects.cmake> (cmake/suite-objects, what the
  # build tests pass) these and the allocation watch are objects compiled
  # once per build tree with the same flags; without it, compiled here.
  set(iccs_names)
  if(NOT NGCC_HAS_OWN_DRNG)
    list(APPEND iccs_names drng)
  endif()
  if(NOT NGCC_HAS_OWN_AUXFUNC)
    list(APPEND iccs_names auxfunc)
  endif()
  if(iccs_names)
    list(APPEND iccs_names sm3)
  endif()
  set(suite_objs)
  set(glue_srcs ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue.c)
  if(NGCC_SUITE_OBJECTS)
    include(${NGCC_SUITE_OBJECTS})
    foreach(o IN LISTS iccs_names ITEMS memwatch)
      list(APPEND suite_objs ${NGCC_SUITE_OBJ_${o}})
    endforeach()
  else()
    if(iccs_names)
      list(TRANSFORM iccs_names PREPEND ${NGCC_ICCS_DIR}/src/ OUTPUT_VARIABLE iccs_srcs)
      list(TRANSFORM iccs_srcs APPEND .c)
      add_library(ngcc_iccs_objs OBJECT ${iccs_srcs})
      target_include_directories(ngcc_iccs_objs BEFORE PRIVATE
        ${NGCC_ICCS_DIR}/include ${NGCC_ICCS_DIR}/src)
      target_compile_options(ngcc_iccs_objs PRIVATE ${glueflags})
      list(APPEND suite_objs $<TARGET_OBJECTS:ngcc_iccs_objs>)
    endif()
    list(APPEND glue_srcs ${CMAKE_CURRENT_LIST_DIR}/ngcc_memwatch.c)
  endif()

  # The glue sees only our drng.h and the control header: no scheme header.
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue_${NGCC_VARIANT}.c)
    list(APPEND glue_srcs ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue_${NGCC_VARIANT}.c)
  endif()
  add_library(ngcc_glue_objs OBJECT ${glue_srcs})
  target_include_directories(ngcc_glue_objs BEFORE PRIVATE
    ${NGCC_ICCS_DIR}/include ${NGCC_HARNESS_DIR})
  target_compile_options(ngcc_glue_objs PRIVATE ${glueflags})
  string(JOIN " " flags_text ${cflags})
  string(JOIN " " glue_flags_text ${glueflags})
  string(JOIN " " link_flags_text ${linkflags})
  set(compiler_text "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
  set(digest_bits 0) # HASH instances: DIGEST_BIT_LENGTH as discovery read it
  if(NGCC_DIGEST_BITS MATCHES "^[0-9]+$")
    set(digest_bits ${NGCC_DIGEST_BITS})
  endif()
  target_compile_definitions(ngcc_glue_objs PRIVATE
    "NGCC_CANDIDATE=\"${NGCC_CANDIDATE}\""
    "NGCC_INSTANCE=\"${NGCC_INSTANCE}\""
    "NGCC_ALGORITHM_INSTANCE=\"${NGCC_ALGORITHM_INSTANCE}\""
    "NGCC_TYPE=\"${NGCC_TYPE}\""
    "NGCC_IMPL_VARIANT=\"${NGCC_IMPL_VARIANT}\""
    "NGCC_BUILD_VARIANT=\"${NGCC_VARIANT}\""
    "NGCC_FLAGSET=\"${NGCC_FLAGSET}\""
    "NGCC_COMPILER=\"${compiler_text}\""
    "NGCC_FLAGS=\"${flags_text}\""
    "NGCC_BLANK=${NGCC_BLANK}"
    "NGCC_DIGEST_BITS=${digest_bits}")
  if(NGCC_SUBMISSION_DEFINES_DRNG)
    target_compile_definitions(ngcc_glue_objs PRIVATE NGCC_SUBMISSION_DEFINES_DRNG)
  endif()

  set(lib ngcc_${NGCC_VARIANT})
  add_library(${lib} SHARED ${srcs})
  target_sources(${lib} PRIVATE $<TARGET_OBJECTS:ngcc_glue_objs> ${suite_objs})
  # Submission folders first, our ICCS headers last (a fallback for
  # submissions that do not ship drng.h / auxfunc.h).
  target_include_directories(${lib} PRIVATE ${NGCC_INCLUDE_DIRS} ${NGCC_ICCS_DIR}/include)
  target_compile_definitions(${lib} PRIVATE ${NGCC_DEFINES})
  target_compile_options(${lib} PRIVATE
    $<$<COMPILE_LANGUAGE:C>:${cflags}>
    $<$<COMPILE_LANGUAGE:CXX>:${cxxflags}>
    $<$<COMPILE_LANGUAGE:ASM>:${asmflags}>)
  target_link_options(${lib} PRIVATE ${linkflags})

  set(libs ${NGCC_LIBRARIES})
  if(libs MATCHES "OpenSSL::")
    find_package(OpenSSL REQUIRED COMPONENTS Crypto)
  endif()
  target_link_libraries(${lib} PRIVATE ${libs} m)
  # each flag set's tree links its own copy; NgccBuildInstance.cmake copies
  # the one that built to ${NGCC_OUTPUT_DIR}
  set_target_properties(${lib} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}
    C_VISIBILITY_PRESET default)
  file(WRITE ${CMAKE_BINARY_DIR}/ngcc-build-info.cmake
    "set(info_compiler [==[${compiler_text}]==])\nset(info_flags [==[${flags_text}]==])\n"
    "set(info_glue_flags [==[${glue_flags_text}]==])\nset(info_link_flags [==[${link_flags_text}]==])\n")
  if(has_cxx)
    set_target_properties(${lib} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

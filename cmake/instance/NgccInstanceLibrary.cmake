# ngcc_instance_library(): the function that turns one instance folder into a
# shared library exporting only the official API and the ngcc control surface.
# All inputs are NGCC_* variables from the instance settings file.

# Fixed flag sets. "guide" is what the published campaign uses first;
# "permissive" is the fallback for code that needs GNU C or GCC-14-era
# error downgrades. The common part never changes between instances.
# The campaign compiler (GCC >= 14) rejects implicit declarations, implicit
# int, int-conversion and incompatible pointer types; guide makes those
# errors explicit so an instance gets the same flag set and verdict with
# GCC 12 (where they are warnings) as there.
set(NGCC_COMMON_FLAGS -fPIC -g)
# Coverage of submission code (cmake/NgccCoverage.cmake sets this on the build tests when NGCC_COVERAGE_SUBMISSIONS=ON).
list(APPEND NGCC_COMMON_FLAGS $ENV{NGCC_INSTANCE_COVERAGE_FLAGS})
string(APPEND CMAKE_SHARED_LINKER_FLAGS " $ENV{NGCC_INSTANCE_COVERAGE_FLAGS}")
set(NGCC_GCC14_ERRORS -Werror=implicit-function-declaration -Werror=implicit-int
    -Werror=int-conversion -Werror=incompatible-pointer-types)
set(NGCC_GUIDE_C_FLAGS -std=c99 -Wpedantic -Wall -Wextra -O2 ${NGCC_GCC14_ERRORS})
set(NGCC_GUIDE_CXX_FLAGS -std=c++17 -Wpedantic -Wall -Wextra -O2)
set(NGCC_PERMISSIVE_C_FLAGS -std=gnu11 -O2 -Wall
    -Wno-error=implicit-function-declaration -Wno-error=int-conversion
    -Wno-error=incompatible-pointer-types -Wno-error=implicit-int)
set(NGCC_PERMISSIVE_CXX_FLAGS -std=gnu++17 -O2 -Wall -fpermissive)
set(NGCC_ASAN_FLAGS -fsanitize=address,undefined -fno-omit-frame-pointer
    -fno-sanitize-recover=all)

# Symbols the prof variant wraps at link time (see tests/prof).
set(NGCC_WRAPPED_SYMBOLS sm3hash pseudohash pseudoXOF get_random_number init_random_number)
# Allocation functions every variant wraps (ngcc_memwatch.c): a failed
# request is MEMLIMIT evidence for the harness (harness/ngcc_child.h).
set(NGCC_MEMWATCH_SYMBOLS malloc calloc realloc aligned_alloc posix_memalign mmap)

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
  set(cflags ${NGCC_COMMON_FLAGS} ${NGCC_${fs}_C_FLAGS})
  set(cxxflags ${NGCC_COMMON_FLAGS} ${NGCC_${fs}_CXX_FLAGS})
  if(NGCC_C_STANDARD)
    list(FILTER cflags EXCLUDE REGEX "^-std=")
    list(APPEND cflags -std=${NGCC_C_STANDARD})
  endif()
  if(NGCC_NEEDS_FCOMMON)
    list(APPEND cflags -fcommon) # (C only: C++ has no tentative definitions)
  endif()
  list(APPEND cflags ${NGCC_ISA_FLAGS} ${NGCC_EXTRA_FLAGS})
  list(APPEND cxxflags ${NGCC_ISA_FLAGS} ${NGCC_EXTRA_FLAGS})
  set(asmflags ${NGCC_COMMON_FLAGS} ${NGCC_ISA_FLAGS})
  set(linkflags -Wl,--no-undefined -Wl,-Bsymbolic
      -Wl,--version-script=${CMAKE_CURRENT_LIST_DIR}/exports.map)
  foreach(sym IN LISTS NGCC_MEMWATCH_SYMBOLS)
    list(APPEND linkflags -Wl,--wrap=${sym})
  endforeach()
  if(NGCC_VARIANT STREQUAL "asan")
    list(APPEND cflags ${NGCC_ASAN_FLAGS})
    list(APPEND cxxflags ${NGCC_ASAN_FLAGS})
    list(APPEND linkflags ${NGCC_ASAN_FLAGS})
  elseif(NGCC_VARIANT STREQUAL "prof")
    foreach(sym IN LISTS NGCC_WRAPPED_SYMBOLS)
      list(APPEND linkflags -Wl,--wrap=${sym})
    endforeach()
  endif()

  # Our ICCS implementation only where the submission ships none; compiled
  # against our own headers first so a submission's drng.h cannot change it.
  set(iccs_srcs)
  if(NOT NGCC_HAS_OWN_DRNG)
    list(APPEND iccs_srcs ${NGCC_ICCS_DIR}/src/drng.c)
  endif()
  if(NOT NGCC_HAS_OWN_AUXFUNC)
    list(APPEND iccs_srcs ${NGCC_ICCS_DIR}/src/auxfunc.c)
  endif()
  if(iccs_srcs)
    add_library(ngcc_iccs_objs OBJECT ${iccs_srcs} ${NGCC_ICCS_DIR}/src/sm3.c)
    target_include_directories(ngcc_iccs_objs BEFORE PRIVATE
      ${NGCC_ICCS_DIR}/include ${NGCC_ICCS_DIR}/src)
    target_compile_options(ngcc_iccs_objs PRIVATE ${cflags})
  endif()

  # The glue sees only our drng.h and the control header: no scheme header.
  set(glue_srcs ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue.c ${CMAKE_CURRENT_LIST_DIR}/ngcc_memwatch.c)
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue_${NGCC_VARIANT}.c)
    list(APPEND glue_srcs ${CMAKE_CURRENT_LIST_DIR}/ngcc_glue_${NGCC_VARIANT}.c)
  endif()
  add_library(ngcc_glue_objs OBJECT ${glue_srcs})
  target_include_directories(ngcc_glue_objs BEFORE PRIVATE
    ${NGCC_ICCS_DIR}/include ${NGCC_HARNESS_DIR})
  target_compile_options(ngcc_glue_objs PRIVATE ${cflags} -std=gnu11)
  string(JOIN " " flags_text ${cflags})
  set(compiler_text "${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}")
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
    "NGCC_BLANK=${NGCC_BLANK}")
  if(NGCC_SUBMISSION_DEFINES_DRNG)
    target_compile_definitions(ngcc_glue_objs PRIVATE NGCC_SUBMISSION_DEFINES_DRNG)
  endif()

  set(lib ngcc_${NGCC_VARIANT})
  add_library(${lib} SHARED ${srcs})
  target_sources(${lib} PRIVATE $<TARGET_OBJECTS:ngcc_glue_objs>)
  if(iccs_srcs)
    target_sources(${lib} PRIVATE $<TARGET_OBJECTS:ngcc_iccs_objs>)
  endif()
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
    "set(info_compiler [==[${compiler_text}]==])\nset(info_flags [==[${flags_text}]==])\n")
  if(has_cxx)
    set_target_properties(${lib} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

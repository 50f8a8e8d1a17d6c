# Finds the suite's own dependencies the CMake way. A missing one stops
# configure with the Debian package that provides it.

function(ngcc_require found what package)
  if(NOT ${found})
    message(FATAL_ERROR "ngcc-ctest: ${what} not found. Install it with: apt-get install ${package}")
  endif()
endfunction()

find_package(cmocka CONFIG QUIET)
ngcc_require(cmocka_FOUND "CMocka (cmocka-config.cmake)" libcmocka-dev)
if(NOT TARGET cmocka::cmocka)
  # Debian's 1.1.5 config exports plain variables, not an imported target.
  add_library(cmocka::cmocka INTERFACE IMPORTED)
  target_include_directories(cmocka::cmocka INTERFACE ${CMOCKA_INCLUDE_DIR})
  target_link_libraries(cmocka::cmocka INTERFACE ${CMOCKA_LIBRARIES})
endif()

find_package(cJSON CONFIG QUIET)
if(NOT cJSON_FOUND)
  find_path(CJSON_INCLUDE_DIR cjson/cJSON.h)
  find_library(CJSON_LIBRARY cjson)
  if(CJSON_INCLUDE_DIR AND CJSON_LIBRARY)
    set(cJSON_FOUND TRUE)
  endif()
endif()
ngcc_require(cJSON_FOUND "cJSON" libcjson-dev)
if(NOT TARGET ngcc::cjson)
  add_library(ngcc::cjson INTERFACE IMPORTED)
  if(CJSON_INCLUDE_DIR)
    target_include_directories(ngcc::cjson INTERFACE ${CJSON_INCLUDE_DIR})
    target_link_libraries(ngcc::cjson INTERFACE ${CJSON_LIBRARY})
  else()
    target_include_directories(ngcc::cjson INTERFACE ${CJSON_INCLUDE_DIRS})
    target_link_libraries(ngcc::cjson INTERFACE ${CJSON_LIBRARIES})
  endif()
endif()

find_package(OpenSSL 3.0 QUIET COMPONENTS Crypto)
ngcc_require(OPENSSL_FOUND "OpenSSL libcrypto >= 3.0" libssl-dev)

find_package(Threads REQUIRED)

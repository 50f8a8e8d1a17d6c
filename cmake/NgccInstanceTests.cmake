# Registers the tests of every discovered instance. Each label has a module of
# its own (NgccKatTests.cmake, ...) with a function ngcc_add_<label>_tests(n)
# reading the instance table (ngcc_iget); this file only wires them together.
include(NgccKatTests)
# Label modules added by later work; each defines ngcc_add_<label>_tests(n).
foreach(m NgccSecurityTests NgccPerfTests NgccProfTests)
  include(${m} OPTIONAL)
endforeach()

# Default per-label timeouts (seconds); an override's "timeouts" wins.
set(NGCC_TIMEOUT_build 600 CACHE STRING "Timeout of an instance build test")
set(NGCC_TIMEOUT_kat 600 CACHE STRING "Default timeout of a KAT test")

function(ngcc_timeout n label out)
  ngcc_iget(${n} timeout_${label} t)
  if("${t}" STREQUAL "")
    set(t ${NGCC_TIMEOUT_${label}})
  endif()
  set(${out} ${t} PARENT_SCOPE)
endfunction()

function(ngcc_expect n label default out)
  ngcc_iget(${n} expect_${label} e)
  if("${e}" STREQUAL "")
    set(e ${default})
  endif()
  set(${out} ${e} PARENT_SCOPE)
endfunction()

# build/<cand>/<key>[/<variant>]: builds one library variant (FIXTURES_SETUP
# ngcc.build.<variant>.<cand>.<key>). The plain variant's test has no suffix.
function(ngcc_add_build_test n variant)
  ngcc_iget(${n} id id)
  ngcc_iget(${n} key key)
  ngcc_iget(${n} root root)
  ngcc_iget(${n} records records)
  ngcc_iget(${n} settings settings)
  ngcc_iget(${n} flagsets flagsets)
  ngcc_expect(${n} build BUILDOK expect)
  set(name "build/${id}/${key}")
  if(NOT variant STREQUAL "plain")
    string(APPEND name "/${variant}")
  endif()
  string(REPLACE ";" "," flagsets_arg "${flagsets}")
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND}
      "-DSETTINGS=${settings}" -DVARIANT=${variant} "-DROOT=${root}" "-DOUTPUT_DIR=${root}"
      "-DRECORD=${records}/build-${variant}.json" "-DGENERATOR=${CMAKE_GENERATOR}"
      "-DINSTANCE_SRC=${PROJECT_SOURCE_DIR}/cmake/instance" "-DFLAGSETS=${flagsets_arg}"
      -DEXPECT=${expect} "-DNAME=${id}/${key}"
      -P ${PROJECT_SOURCE_DIR}/cmake/NgccBuildInstance.cmake)
  ngcc_timeout(${n} build t)
  set_tests_properties("${name}" PROPERTIES
    LABELS "build;${id};${key}"
    FIXTURES_SETUP "ngcc.build.${variant}.${id}.${key}"
    TIMEOUT ${t})
endfunction()

function(ngcc_add_instance_tests)
  get_property(all GLOBAL PROPERTY NGCC_INSTANCES)
  foreach(n IN LISTS all)
    ngcc_add_build_test(${n} plain)
    ngcc_add_kat_tests(${n})
    foreach(label security perf prof)
      if(COMMAND ngcc_add_${label}_tests)
        cmake_language(CALL ngcc_add_${label}_tests ${n})
      endif()
    endforeach()
  endforeach()
  ngcc_add_template_tests()
  ngcc_add_kat_selftests()
endfunction()

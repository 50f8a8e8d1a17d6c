# Registers the tests of every discovered instance. Each label has a module of
# its own (NgccKatTests.cmake, ...) with a function ngcc_add_<label>_tests(n)
# reading the instance table (ngcc_iget); this file only wires them together.
# Each label module defines ngcc_add_<label>_tests(n); a missing module is a
# configure error, never a label silently left out.
foreach(m NgccKatTests NgccSecurityTests NgccCtTests NgccPerfTests NgccProfTests NgccIcountTests)
  include(${m})
endforeach()
# The suite's own selftests on the bundled fixtures (tests/selftest/: one
# file per label, quirk fixtures, README commands).
include(${PROJECT_SOURCE_DIR}/tests/selftest/selftest.cmake)
# NGCC_SHARD=K/N: which instances this build registers (NgccShard.cmake).
include(NgccShard)
# Compiler choice and cross-build KAT agreement (katx, label kat): after
# the label modules (it reuses security's ASan build and runtime).
include(NgccKatCross)

# Default per-label timeouts (seconds); an override's "timeouts" wins.
set(NGCC_TIMEOUT_build 600 CACHE STRING "Timeout of an instance build test")
set(NGCC_TIMEOUT_kat 600 CACHE STRING "Default timeout of a KAT test")
set(NGCC_LABEL_MODULES kat security ct perf prof icount)
# The NGCC types (SIG KEM KEX HASH) each label module runs on. An instance of
# a type a label does not cover gets no test of it; the configure report and
# the instance's "labels_not_for_type" say so (never a silent pass).
foreach(label IN LISTS NGCC_LABEL_MODULES)
  if(NOT DEFINED NGCC_LABEL_TYPES_${label})
    set(NGCC_LABEL_TYPES_${label} SIG KEM)
  endif()
endforeach()

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
# An instance whose ISA extensions this host lacks is skipped with the reason.
function(ngcc_add_build_test n variant)
  foreach(f IN ITEMS id key root records settings flagsets skip_reason)
    ngcc_iget(${n} ${f} ${f})
  endforeach()
  # labels with no test for this type: kept in the build record, so the
  # report and the campaign summary show them as not run
  ngcc_instance_labels_not_for_type(${n} not_for_type)
  string(REPLACE ";" "," not_for_type "${not_for_type}")
  ngcc_expect(${n} build BUILDOK expect)
  set(name "build/${id}/${key}")
  set(expect_helpers "") # (fixtures: an ERE over the plain build's exported helpers, comma-joined)
  set(expect_helper_findings "") # (and over their findings' details, "; "-joined)
  if(variant STREQUAL "plain")
    ngcc_iget(${n} expect_build.helpers expect_helpers)
    ngcc_iget(${n} expect_build.helper_findings expect_helper_findings)
  endif()
  if(NOT variant STREQUAL "plain")
    string(APPEND name "/${variant}")
  endif()
  string(REPLACE ";" "," flagsets_arg "${flagsets}")
  add_test(NAME "${name}"
    COMMAND ${CMAKE_COMMAND}
      "-DSETTINGS=${settings}" -DVARIANT=${variant} "-DROOT=${root}" "-DOUTPUT_DIR=${root}"
      "-DRECORD=${records}/build-${variant}.json" "-DGENERATOR=${CMAKE_GENERATOR}"
      "-DINSTANCE_SRC=${PROJECT_SOURCE_DIR}/cmake/instance" "-DFLAGSETS=${flagsets_arg}"
      -DEXPECT=${expect} "-DNAME=${id}/${key}" "-DLABELS_NOT_FOR_TYPE=${not_for_type}"
      "-DEXPECT_HELPERS=${expect_helpers}" "-DEXPECT_HELPER_FINDINGS=${expect_helper_findings}"
      "-DSUITE_OBJECTS_DIR=${CMAKE_BINARY_DIR}/suite-objects"
      -P ${PROJECT_SOURCE_DIR}/cmake/NgccBuildInstance.cmake)
  ngcc_timeout(${n} build t)
  set_tests_properties("${name}" PROPERTIES
    LABELS "build;${id};${key}"
    FIXTURES_SETUP "ngcc.build.${variant}.${id}.${key}"
    TIMEOUT ${t})
  if(skip_reason)
    set_tests_properties("${name}" PROPERTIES SKIP_REGULAR_EXPRESSION "ngcc: verdict [^\n]*: SKIP: ")
  endif()
endfunction()

# The label modules instance n gets: all, or those of its "labels" override,
# that cover its type; none when its build is skipped (missing ISA extension).
function(ngcc_instance_labels n out)
  ngcc_iget(${n} labels wanted)
  ngcc_iget(${n} skip_reason skip)
  ngcc_iget(${n} type type)
  set(r "")
  if(NOT skip)
    foreach(label IN LISTS NGCC_LABEL_MODULES)
      if((NOT wanted OR label IN_LIST wanted) AND type IN_LIST NGCC_LABEL_TYPES_${label})
        list(APPEND r ${label})
      endif()
    endforeach()
  endif()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# Labels instance n would get but whose module does not cover its type.
function(ngcc_instance_labels_not_for_type n out)
  ngcc_iget(${n} type type)
  ngcc_iget(${n} labels wanted)
  set(r "")
  foreach(label IN LISTS NGCC_LABEL_MODULES)
    if((NOT wanted OR label IN_LIST wanted) AND NOT type IN_LIST NGCC_LABEL_TYPES_${label})
      list(APPEND r ${label})
    endif()
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# discovery.json gets "labels_run" and "labels_not_for_type" (the labels
# whose module does not cover the instance's type: not run, never passed).
function(ngcc_discovery_labels n run not_run)
  ngcc_iget(${n} root root)
  set(file "${root}/discovery.json")
  if(NOT EXISTS "${file}")
    return()
  endif()
  file(READ "${file}" j)
  foreach(pair "labels_run;run" "labels_not_for_type;not_run")
    list(GET pair 0 name)
    list(GET pair 1 var)
    set(arr "[]")
    set(i 0)
    foreach(l IN LISTS ${var})
      string(JSON arr SET "${arr}" ${i} "\"${l}\"")
      math(EXPR i "${i} + 1")
    endforeach()
    string(JSON j SET "${j}" ${name} "${arr}")
  endforeach()
  file(WRITE "${file}" "${j}\n")
endfunction()

# Every test registered for an instance runs its submission code in a scratch
# folder of its own, <build>/scratch/<test name> (see harness/ngcc_child.h).
function(ngcc_give_scratch before)
  get_property(after DIRECTORY PROPERTY TESTS)
  foreach(t IN LISTS after)
    if(NOT t IN_LIST before)
      set_property(TEST "${t}" APPEND PROPERTY ENVIRONMENT "NGCC_SCRATCH_DIR=${CMAKE_BINARY_DIR}/scratch/${t}")
    endif()
  endforeach()
endfunction()

# discover/<cand>: a tree that could not be understood (override error, no
# instance folder, a missing NGCC_SUBMISSIONS entry, a folder with sources or
# KAT files but no API header) fails here with the one-line reason, and
# writes <records>/<cand>/discover.json for the summary and the report. It
# carries every label an instance test can have, so no label selection
# (ctest -L kat, -L security, ...) runs without it: nothing is dropped silently.
set(NGCC_INSTANCE_LABELS build kat katx security asan memcheck ct perf icount prof)
function(ngcc_add_tree_error_tests)
  get_property(ids GLOBAL PROPERTY NGCC_TREE_ERRORS)
  list(REMOVE_DUPLICATES ids)
  foreach(id IN LISTS ids)
    get_property(msg GLOBAL PROPERTY NGCC_TREE_ERROR_${id})
    string(REPLACE ";" "\\;" msg "${msg}") # one argument, not a list
    add_test(NAME "discover/${id}" COMMAND ${CMAKE_COMMAND} "-DID=${id}" "-DMSG=${msg}"
      "-DRECORD=${CMAKE_BINARY_DIR}/records/${id}/discover.json" -P "${PROJECT_SOURCE_DIR}/cmake/NgccDiscoverError.cmake")
    set_tests_properties("discover/${id}" PROPERTIES LABELS "${NGCC_INSTANCE_LABELS};${id}")
  endforeach()
endfunction()

function(ngcc_add_instance_tests)
  ngcc_shard_plan()
  get_property(all GLOBAL PROPERTY NGCC_SHARD_SELECTED)
  foreach(n IN LISTS all)
    get_property(before DIRECTORY PROPERTY TESTS)
    ngcc_add_build_test(${n} plain)
    ngcc_instance_labels(${n} labels)
    ngcc_instance_labels_not_for_type(${n} not_for_type)
    if(not_for_type)
      ngcc_iget(${n} id nid)
      ngcc_iget(${n} key nkey)
      ngcc_iget(${n} type ntype)
      list(JOIN not_for_type ", " nft)
      message(STATUS "ngcc: ${nid}/${nkey}: no ${nft} test: not yet implemented for ${ntype} instances")
    endif()
    ngcc_discovery_labels(${n} "${labels}" "${not_for_type}")
    if(labels)
      ngcc_add_elf_test(${n})
    endif()
    foreach(label IN LISTS labels)
      cmake_language(CALL ngcc_add_${label}_tests ${n})
    endforeach()
    if("kat" IN_LIST labels)
      ngcc_add_katx_tests(${n})
    endif()
    ngcc_give_scratch("${before}")
    ngcc_iget(${n} slow_labels slow_labels)
    get_property(after DIRECTORY PROPERTY TESTS)
    foreach(t IN LISTS after)
      if(NOT t IN_LIST before)
        set_property(GLOBAL APPEND PROPERTY NGCC_SHARD_INSTANCE_TESTS "${t}")
        # "slow_labels": this instance's tests of those labels are long work
        if(slow_labels)
          get_test_property("${t}" LABELS tl)
          foreach(l IN LISTS slow_labels)
            if(l IN_LIST tl)
              set_property(TEST "${t}" APPEND PROPERTY LABELS slow)
              break()
            endif()
          endforeach()
        endif()
      endif()
    endforeach()
  endforeach()
  ngcc_add_katx_impls_tests() # (across the instances: NgccKatCross.cmake)
  ngcc_add_tree_error_tests()
  ngcc_add_hash_widths_tests() # candidate-level, over the hash instances registered above
  ngcc_add_selftests()
  ngcc_cross_disable_host_only()
endfunction()

# security/<cand>/hash-widths: one test per candidate with hash instances
# (labels security;<cand>). Two widths of one hash family related by
# truncation (the 384-bit digest is the first 384 bits of the 512-bit one)
# give one width away from the other: a FINDING naming both digests, not a
# failure (some designs truncate on purpose). The digests are those the
# instances' plain security tests printed to their determinism logs
# (tests/security/sec_hash_widths.c); tests/security/hash_widths.cmake
# compares every pair of widths. Ordered after those tests by DEPENDS (a
# failed security test must not hide the finding); run without them, or
# with digests older than the library, the test is SKIP, never a pass.
# A zoo variant with an "expect" {"hash-widths": ...} gets a test of its own,
# security/<cand>/hash-widths/<inst>~<variant>, in which it replaces its
# base instance; the candidate's test compares the base instances only and
# takes its expectation from any of them.

# called by ngcc_add_security_tests for every hash instance that gets one
function(ngcc_hash_widths_add_instance n)
  ngcc_iget(${n} id id)
  set_property(GLOBAL APPEND PROPERTY NGCC_HASH_WIDTHS_IDS ${id})
  set_property(GLOBAL APPEND PROPERTY NGCC_HASH_WIDTHS_${id} ${n})
endfunction()

function(_ngcc_hash_widths_test id name members expect detail)
  set(keys "")
  set(dirs "")
  set(libs "")
  set(after "")
  foreach(n IN LISTS members)
    ngcc_iget(${n} key key)
    ngcc_iget(${n} records records)
    ngcc_iget(${n} root root)
    list(APPEND keys "${key}")
    list(APPEND dirs "${records}")
    list(APPEND libs "${root}/libngcc_plain.so")
    list(APPEND after "security/${id}/${key}")
  endforeach()
  string(REPLACE ";" "|" keys "${keys}")
  string(REPLACE ";" "|" dirs "${dirs}")
  string(REPLACE ";" "|" libs "${libs}")
  list(GET members 0 first)
  ngcc_iget(${first} records records)
  get_filename_component(cand_records "${records}" DIRECTORY)
  string(REPLACE "/" "_" file "${name}")
  add_test(NAME "security/${id}/${name}"
    COMMAND ${CMAKE_COMMAND} "-DNAME=${id}/${name}" "-DKEYS=${keys}" "-DDIRS=${dirs}" "-DLIBS=${libs}"
      "-DRECORD=${cand_records}/${file}.json" "-DEXPECT=${expect}" "-DDETAIL=${detail}"
      -P ${PROJECT_SOURCE_DIR}/tests/security/hash_widths.cmake)
  # a test of the candidate's instances: on their shard (NgccShard.cmake)
  set_property(GLOBAL APPEND PROPERTY NGCC_SHARD_INSTANCE_TESTS "security/${id}/${name}")
  set_tests_properties("security/${id}/${name}" PROPERTIES
    LABELS "security;${id}"
    DEPENDS "${after}"
    SKIP_REGULAR_EXPRESSION "ngcc: verdict [^\n]*: SKIP: "
    TIMEOUT 60)
endfunction()

# after every instance's tests are registered (NgccInstanceTests.cmake)
function(ngcc_add_hash_widths_tests)
  get_property(ids GLOBAL PROPERTY NGCC_HASH_WIDTHS_IDS)
  list(REMOVE_DUPLICATES ids)
  foreach(id IN LISTS ids)
    get_property(all GLOBAL PROPERTY NGCC_HASH_WIDTHS_${id})
    set(base "")
    set(variants "")
    set(expect "")
    set(detail "")
    foreach(n IN LISTS all)
      ngcc_iget(${n} key key)
      if(key MATCHES "~")
        list(APPEND variants ${n})
      else()
        list(APPEND base ${n})
        ngcc_iget(${n} expect_hash-widths e)
        ngcc_iget(${n} expect_hash-widths.detail d)
        if(e)
          set(expect "${e}")
        endif()
        if(d)
          set(detail "${d}")
        endif()
      endif()
    endforeach()
    if(base)
      _ngcc_hash_widths_test(${id} hash-widths "${base}" "${expect}" "${detail}")
    endif()
    foreach(v IN LISTS variants)
      ngcc_iget(${v} expect_hash-widths e)
      if(NOT e)
        continue()
      endif()
      ngcc_iget(${v} expect_hash-widths.detail d)
      ngcc_iget(${v} key vkey)
      string(REGEX REPLACE "~.*" "" vbase "${vkey}")
      set(members ${v})
      foreach(n IN LISTS base)
        ngcc_iget(${n} key key)
        if(NOT key STREQUAL vbase)
          list(APPEND members ${n})
        endif()
      endforeach()
      _ngcc_hash_widths_test(${id} "hash-widths/${vkey}" "${members}" "${e}" "${d}")
    endforeach()
  endforeach()
endfunction()

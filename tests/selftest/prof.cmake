# Selftests of the prof label (moved out of cmake/NgccProfTests.cmake).
#
# prof/handcount/<cand>/<key>: the fixtures' hand counts (derived from their
#   algorithm descriptions, tests/prof/prof_handcount.c) against the measured
#   per-record counts. The arguments are the instance's "selftest":
#   {"prof_handcount": "..."} in the fixture's ngcc.json (for the extra-xof
#   variant the sign count must be exactly one pseudoXOF call above the hand
#   count: --offset sign:pseudoXOF:1); the KAT file is passed when there is one.
# The extra-xof variant's own prof tests (a MISMATCH that must be printed) are
#   registered by the prof module from the variant's "expect" entries.
set(NGCC_PROF_HANDCOUNT_FIXTURES fx-wots/WOTS-128 fx-wots/WOTS-128~extra-xof fx-wots/WOTS-192 fx-xkem/XKEM-128
  fx-template/SIG-Template fx-template/KEM-Template fx-kex/KEX3-128 fx-kex/KEX2-128 fx-hash/FXH-256)

function(ngcc_add_prof_selftests)
  foreach(item IN LISTS NGCC_PROF_HANDCOUNT_FIXTURES)
    set(name "prof/handcount/${item}")
    ngcc_selftest_instance("${name}" "${item}" n)
    if(n STREQUAL "")
      continue()
    endif()
    ngcc_selftest_data("${name}" ${n} prof_handcount args)
    if(args STREQUAL "")
      continue()
    endif()
    foreach(f IN ITEMS id key type katfile records)
      ngcc_iget(${n} ${f} ${f})
    endforeach()
    separate_arguments(args UNIX_COMMAND "${args}")
    if(katfile)
      list(APPEND args --kat "${katfile}")
    endif()
    ngcc_prof_ops(${type} ops)
    if(args MATCHES "--passes;2") # a 2-pass exchange has no pass3 to count (its test is Not Run)
      list(REMOVE_ITEM ops pass3)
    endif()
    set(req "")
    foreach(op IN LISTS ops)
      list(APPEND req "ngcc.prof.${id}.${key}.${op}")
    endforeach()
    add_test(NAME "${name}" COMMAND ngcc-prof-handcount ${args} --records-dir "${records}")
    set_tests_properties("${name}" PROPERTIES LABELS "prof;selftest;${id};${key}"
      FIXTURES_REQUIRED "${req}" TIMEOUT 60)
  endforeach()
endfunction()

# KEX passes above 3 (iccs-kex-hash.md §1.2a). The official header declares
# passes 1..3 and KAT_KEX.c stops after pass 3; a protocol with more passes
# declares kex_generate_pass<k>_msg_<a|b> in its API header and extends its
# driver. The claimed count is kex_get_passes_num(), known only at run time,
# so the per-pass perf, prof and icount tests of pass 4 and up are registered
# for the passes the API header declares (a declared pass the library does
# not export is then the library's LOADFAIL, named by every test).
include_guard(GLOBAL)

# inserts pass4 .. pass8, those declared by instance n's API header, after
# pass3 in the list variable ops_var (unchanged for other types)
function(ngcc_kex_extra_passes n ops_var)
  ngcc_iget(${n} type type)
  ngcc_iget(${n} api api)
  if(NOT type STREQUAL "KEX" OR NOT EXISTS "${api}")
    return()
  endif()
  file(STRINGS "${api}" decls REGEX "kex_generate_pass[4-8]_msg_[ab]")
  set(ops ${${ops_var}})
  list(FIND ops pass3 at)
  if(at LESS 0)
    return()
  endif()
  foreach(k RANGE 8 4 -1)
    math(EXPR odd "${k} % 2")
    if(odd)
      set(side a)
    else()
      set(side b)
    endif()
    if(decls MATCHES "kex_generate_pass${k}_msg_${side}[ \t]*\\(")
      math(EXPR after "${at} + 1")
      list(INSERT ops ${after} pass${k})
    endif()
  endforeach()
  set(${ops_var} ${ops} PARENT_SCOPE)
endfunction()

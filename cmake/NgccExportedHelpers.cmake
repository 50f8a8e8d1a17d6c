# Exported helpers (included by NgccBuildInstance.cmake): the global
# functions the candidate's own objects define beyond the official API,
# read with nm from the objects of the instance library target
# (CMakeFiles/ngcc_<variant>.dir: the submission's sources only; our glue and
# ICCS objects are other targets), i.e. before exports.map hides them. A
# helper that makes keys from a constant, or draws randomness elsewhere than
# the DRNG, is reachable by any code linked with the submission's objects:
# the list is what an evaluator reads to spot one (inventory sign-28-5).

# The official names: the API_PKC / API_CryptHash functions and the ICCS
# DRNG and auxiliary functions a submission may ship its own copies of.
set(NGCC_OFFICIAL_API_RE "^(sig_(get_(pk|sk|sn)_len_bytes|keygen|sign|verify)\
|kem_(get_(pk|sk|ct|ss)_len_bytes|keygen|enc|dec)\
|kex_(get_passes_num|get_(pk|sk|sta|stb|ss|total_msg)_len_bytes|init_[ab]|generate_pass[1-9]_msg_[ab]|derive_ss_[ab])\
|CryptHash|get_random_number|init_random_number|pseudoXOF|pseudohash|sm3hash)$")

# tree: the instance tree of the flag set that built; sets <out> to the
# sorted list of the helper names and <nm_error> to why they could not be read
function(ngcc_exported_helpers tree variant out nm_error)
  set(names "")
  set(err "")
  set(nm "")
  if(EXISTS "${tree}/CMakeCache.txt")
    file(STRINGS "${tree}/CMakeCache.txt" line REGEX "^CMAKE_NM:[A-Z]*=")
    string(REGEX REPLACE "^[^=]*=" "" nm "${line}")
  endif()
  if(nm STREQUAL "" OR NOT EXISTS "${nm}")
    find_program(nm NAMES nm)
  endif()
  file(GLOB_RECURSE objs LIST_DIRECTORIES false "${tree}/CMakeFiles/ngcc_${variant}.dir/*.o"
    "${tree}/CMakeFiles/ngcc_${variant}.dir/*.obj")
  if(NOT nm)
    set(err "no nm found: the helpers were not listed")
  elseif(objs)
    execute_process(COMMAND "${nm}" -g --defined-only -P ${objs}
      RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE etext)
    if(NOT rc EQUAL 0)
      string(STRIP "${etext}" etext)
      set(err "${nm} failed (rc ${rc}): ${etext}")
    endif()
    # -P: "<name> <type> <value> <size>"; T = a global function in .text
    string(REGEX MATCHALL "[^\n]+" lines "${text}")
    foreach(l IN LISTS lines)
      if(l MATCHES "^([^ ]+) T ")
        set(s "${CMAKE_MATCH_1}")
        if(NOT s MATCHES "${NGCC_OFFICIAL_API_RE}" AND NOT s IN_LIST names)
          list(APPEND names "${s}")
        endif()
      endif()
    endforeach()
    list(SORT names)
  endif()
  set(${out} "${names}" PARENT_SCOPE)
  set(${nm_error} "${err}" PARENT_SCOPE)
endfunction()

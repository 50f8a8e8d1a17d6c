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

# Randomness other than the DRNG that an exported helper reaches: libc's,
# the kernel's and OpenSSL's generators. The call graph is read from the same
# objects (objdump -dr: each function's relocations and call targets; calls
# through pointers are not seen), so only a helper whose own code or callees
# name one of these counts.
set(NGCC_OTHER_RANDOMNESS rand random srand srandom rand_r drand48 erand48 lrand48 nrand48 mrand48 jrand48
  srand48 getrandom getentropy arc4random arc4random_buf arc4random_uniform RAND_bytes RAND_priv_bytes
  RAND_pseudo_bytes)

# out: a JSON array, one object per such source that exported helpers reach
# ({source, helpers, api, detail}: api lists the official functions that
# reach it too); err: why the objects could not be read (else "")
function(ngcc_helper_randomness tree variant helpers out err_out)
  set(findings "[]")
  set(err "")
  set(objdump "")
  if(EXISTS "${tree}/CMakeCache.txt")
    file(STRINGS "${tree}/CMakeCache.txt" line REGEX "^CMAKE_OBJDUMP:[A-Z]*=")
    string(REGEX REPLACE "^[^=]*=" "" objdump "${line}")
  endif()
  if(objdump STREQUAL "" OR NOT EXISTS "${objdump}")
    find_program(objdump NAMES objdump)
  endif()
  find_program(awk NAMES awk gawk mawk)
  file(GLOB_RECURSE objs LIST_DIRECTORIES false "${tree}/CMakeFiles/ngcc_${variant}.dir/*.o")
  if(NOT objdump OR NOT awk)
    set(err "no objdump or awk found: the helpers' randomness was not read")
  elseif(objs)
    # one "<function> <symbol it references>" line per edge
    set(prog [=[
/^[0-9a-f]+ <[^>]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
/R_[A-Z0-9_]+/ { s = $NF; sub(/[-+]0x[0-9a-f]+$/, "", s); if (fn != "" && s != fn) e[fn " " s] = 1; next }
/<[^>]+>$/ { match($0, /<[^>]+>$/); s = substr($0, RSTART + 1, RLENGTH - 2); sub(/\+0x[0-9a-f]+$/, "", s)
             if (fn != "" && s != fn) e[fn " " s] = 1 }
END { for (k in e) print k }
]=])
    execute_process(COMMAND "${objdump}" -dr --no-show-raw-insn ${objs} COMMAND "${awk}" "${prog}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE edges ERROR_VARIABLE etext)
    if(NOT rc EQUAL 0)
      string(STRIP "${etext}" etext)
      set(err "${objdump} -dr failed (rc ${rc}): ${etext}")
      set(edges "")
    endif()
    string(REGEX MATCHALL "[^\n]+" lines "${edges}")
    foreach(l IN LISTS lines)
      if(l MATCHES "^([^ ]+) ([^ ]+)$")
        list(APPEND callers_of_${CMAKE_MATCH_2} "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    set(i 0)
    foreach(src IN LISTS NGCC_OTHER_RANDOMNESS)
      if(NOT DEFINED callers_of_${src})
        continue()
      endif()
      # every function that reaches src (callers of callers...)
      set(reach "")
      set(queue ${callers_of_${src}})
      while(queue)
        list(POP_FRONT queue f)
        if(NOT f IN_LIST reach)
          list(APPEND reach "${f}")
          list(APPEND queue ${callers_of_${f}})
        endif()
      endwhile()
      set(hit "")
      set(api "")
      foreach(f IN LISTS reach)
        if(f IN_LIST helpers)
          list(APPEND hit "${f}")
        elseif(f MATCHES "${NGCC_OFFICIAL_API_RE}")
          list(APPEND api "${f}")
        endif()
      endforeach()
      if(NOT hit)
        continue()
      endif()
      list(SORT hit)
      list(SORT api)
      list(JOIN hit ", " ht)
      list(LENGTH hit nh)
      if(nh EQUAL 1)
        set(detail "exported helper ${ht} draws randomness from ${src}(), not the DRNG")
      else()
        set(detail "exported helpers ${ht} draw randomness from ${src}(), not the DRNG")
      endif()
      if(api)
        list(JOIN api ", " at)
        string(APPEND detail " (the official API reaches it too: ${at})")
      else()
        string(APPEND detail " (not called by the official API)")
      endif()
      set(o "{}")
      string(JSON o SET "${o}" source "\"${src}\"")
      string(JSON o SET "${o}" detail "\"${detail}\"")
      foreach(k hit api)
        set(a "[]")
        set(j 0)
        foreach(f IN LISTS ${k})
          string(JSON a SET "${a}" ${j} "\"${f}\"")
          math(EXPR j "${j} + 1")
        endforeach()
        if(k STREQUAL "hit")
          string(JSON o SET "${o}" helpers "${a}")
        else()
          string(JSON o SET "${o}" api "${a}")
        endif()
      endforeach()
      string(JSON findings SET "${findings}" ${i} "${o}")
      math(EXPR i "${i} + 1")
    endforeach()
  endif()
  set(${out} "${findings}" PARENT_SCOPE)
  set(${err_out} "${err}" PARENT_SCOPE)
endfunction()

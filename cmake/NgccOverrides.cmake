# Per-submission override files, for what discovery cannot guess. Looked up,
# first found wins:
#   <tree>/ngcc.json   <tree>/ngcc.cmake   <tree>.ngcc.json   <tree>.ngcc.cmake
#   ${NGCC_OVERRIDES_DIR}/<candidate-id>.json   ${NGCC_OVERRIDES_DIR}/<candidate-id>.cmake
# Relative folders in an override are relative to the folder of the override
# file (for <tree>/ngcc.json: the tree). An unknown key or a bad value is an
# error naming the key and the file: the tree is then left out and a failing
# test override/<candidate> says why.
#
# JSON keys (candidate level; the same keys except "instances"/"skip"/
# "candidate" inside "instances": {"<label>": {...}} and inside "variants"):
#   candidate        string   candidate id (default: the tree's folder name)
#   defines          [str]    extra -D definitions (NAME or NAME=VALUE)
#   include_dirs     [str]    extra include folders, searched after the instance's
#                             own (e.g. a stand-in for a header missing from the archive)
#   libraries        [str]    extra libraries (OpenSSL::Crypto, gmp, ...)
#   c_standard       str      e.g. gnu11, c11 (replaces -std= of every flag set)
#   flags            [str]    extra compile flags (e.g. "-include", "fallbacks.h")
#   link_flags       [str]    extra link flags (each starts with -, e.g. -Wl,--allow-multiple-definition)
#   flagsets         [str]    flag sets to try in order: guide, harness-default (the
#                             published ones), compat (harness-default + -fgnu89-inline,
#                             linked with --allow-multiple-definition); default guide then
#                             harness-default, then compat only if harness-default failed to
#                             link; a list given here is tried as it is, with no fallback
#   (defines, include_dirs, c_standard, flags and link_flags reach the candidate's
#   sources and link only: the suite's glue and ICCS objects keep fixed flags)
#   sources_exclude  [str]    regexes of source paths (relative to the instance) to leave out
#   isa              [str]    ISA extensions the code needs: x86-64:avx2, x86-64:avx512f,
#                             x86-64:aes, x86-64:pclmul, x86-64:bmi2, x86-64:sha, aarch64:aes,
#                             aarch64:sha2, aarch64:sha3, aarch64:sve; ["none"] turns the
#                             detection off (default: detected in Optimized/Additional code)
#   labels           [str]    label modules to register (kat, security, perf, prof, icount);
#                             default all (for slow, huge or deliberately broken instances)
#   slow_labels      [str]    test labels (kat, katx, security, asan, memcheck, ct, perf, mem,
#                             sizes, prof, icount) whose tests of this instance are long work:
#                             they also get the label slow (`ctest -LE slow`, the ci preset,
#                             leaves them out)
#   kat_records      int      reduced KAT run: first N records
#   timeouts         {label: seconds}
#   memory_limit_mb  int      address space a child may add (default NGCC_MEMORY_LIMIT_MB)
#   extended_signature "reject" (default) | "finding"
#   claims           "suf-cma" (default) | "euf-cma"   the security the candidate claims: with
#                             euf-cma a changed valid signature that verifies (malleability) is a
#                             FINDING, not MALLEABLE; or {"dfr": 1e-6, "unforgeability": "euf-cma"}:
#                             dfr, the declared honest failure rate (KEM, KEX): honest_scale fails
#                             a rate shown above it (default bound 1e-3)
#   native_only      "<why>"  not built under user-mode emulation (cross trees): its verdict
#                             depends on native speed or on limits qemu-user does not give the
#                             guest; the build test is SKIP naming the reason
#   perf             {"mode": "default" | "1x1"}   1x1: one trial of one call per operation
#                    {"reference": "<label>" | "<candidate>/<label>"}   compare the perf and
#                             icount figures with that instance, measured in the same run
#   ct               {"public_randomness": ["sign"]}   operations (keygen, sign, enc) whose
#                             DRNG output is public by design (a salt copied into the
#                             signature): the ct label does not mark it secret
#                    {"public_sk": ["32:64"]}   sk byte ranges [from, to) that are public
#                             (e.g. a hash of pk kept in sk); copies of pk are found alone
#   expect           {label: verdict}   expected verdicts (fixtures, zoo); "<label>@gcc" or
#                             "<label>@clang" (e.g. "kat@clang") wins when the instance
#                             libraries are built by that compiler (NGCC_INSTANCE_COMPILER),
#                             for behaviour that really depends on it (say why in docs/platforms.md)
#   selftest         {name: string}     data of the suite's own selftests (fixtures only:
#                             hand-count arguments, exact messages, digests), read by
#                             tests/selftest/<label>.cmake; not inherited by variants
#   skip             [str]    instance labels to leave out
#   instances        {label: {...}}     per-instance keys
#   variants         {name: {...}}      derived instances: same sources, extra keys
#
# The CMake form says the same with one call per key; a path names nested keys:
#   ngcc_override(defines USE_API_PKC NDEBUG)       # lists append
#   ngcc_override(include_dirs sign-07.standin)
#   ngcc_override(timeouts/kat 1200)
#   ngcc_override(instances/CS-512/kat_records 2)
#   ngcc_override(instances/CS-512/perf/mode 1x1)
#   ngcc_override(skip CS-1024)
# It is turned into the JSON form and checked the same way.
set(NGCC_OVERRIDE_LIST_KEYS defines include_dirs libraries flags link_flags flagsets sources_exclude skip isa labels slow_labels)
set(NGCC_OVERRIDE_SCALAR_KEYS candidate c_standard kat_records memory_limit_mb extended_signature claims native_only)
set(NGCC_OVERRIDE_MAP_KEYS timeouts expect perf ct selftest)
set(NGCC_OVERRIDE_NESTED_KEYS instances variants)
set(NGCC_OVERRIDE_INT_KEYS kat_records memory_limit_mb)

function(ngcc_find_override_file tree id out)
  get_filename_component(raw "${tree}" NAME)
  set(found "")
  foreach(f "${tree}/ngcc.json" "${tree}/ngcc.cmake" "${tree}.ngcc.json" "${tree}.ngcc.cmake"
            "${NGCC_OVERRIDES_DIR}/${id}.json" "${NGCC_OVERRIDES_DIR}/${id}.cmake"
            "${NGCC_OVERRIDES_DIR}/${raw}.json" "${NGCC_OVERRIDES_DIR}/${raw}.cmake")
    if(EXISTS "${f}" AND NOT IS_DIRECTORY "${f}")
      set(found "${f}")
      break()
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Reads an override file of either form into JSON text; err is empty or the
# one-line error.
function(ngcc_override_load file out err)
  set(${err} "" PARENT_SCOPE)
  if(file MATCHES "\\.cmake$")
    set(_ngcc_json "{}")
    set(_ngcc_errors "")
    include("${file}")
    set(${out} "${_ngcc_json}" PARENT_SCOPE)
    if(_ngcc_errors)
      list(GET _ngcc_errors 0 e)
      set(${err} "${file}: ${e}" PARENT_SCOPE)
    endif()
  else()
    file(READ "${file}" json)
    set(${out} "${json}" PARENT_SCOPE)
  endif()
endfunction()

function(ngcc_json_quote text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# ngcc_override(<key path> <value>...): the CMake form of an override key (see
# the top of this file). Sets _ngcc_json / _ngcc_errors in the including scope.
function(ngcc_override path)
  string(REPLACE "/" ";" segs "${path}")
  set(jpath "")
  set(json "${_ngcc_json}")
  list(LENGTH segs nseg)
  set(i 0)
  while(i LESS nseg)
    list(GET segs ${i} key)
    math(EXPR i "${i} + 1")
    set(has_next FALSE)
    if(i LESS nseg)
      set(has_next TRUE)
      list(GET segs ${i} next)
    endif()
    # make sure the object the key goes into exists
    if(jpath)
      string(JSON t ERROR_VARIABLE e TYPE "${json}" ${jpath})
      if(e)
        string(JSON json SET "${json}" ${jpath} "{}")
      endif()
    endif()
    if(key IN_LIST NGCC_OVERRIDE_NESTED_KEYS OR key IN_LIST NGCC_OVERRIDE_MAP_KEYS)
      if(NOT has_next)
        set(_ngcc_errors "ngcc_override(${path}): \"${key}\" needs a name after it (${key}/<name>...)"
          ${_ngcc_errors} PARENT_SCOPE)
        return()
      endif()
      string(JSON t ERROR_VARIABLE e TYPE "${json}" ${jpath} ${key})
      if(e)
        string(JSON json SET "${json}" ${jpath} ${key} "{}")
      endif()
      list(APPEND jpath ${key} ${next})
      math(EXPR i "${i} + 1")
      if(key IN_LIST NGCC_OVERRIDE_MAP_KEYS)
        if(i LESS nseg OR NOT ARGC EQUAL 2)
          set(_ngcc_errors "ngcc_override(${path}): a ${key} entry takes exactly one value" ${_ngcc_errors} PARENT_SCOPE)
          return()
        endif()
        set(v "${ARGV1}")
        if(NOT v MATCHES "^[0-9]+$")
          ngcc_json_quote("${v}" v)
        endif()
        string(JSON json SET "${json}" ${jpath} "${v}")
      endif()
      continue()
    endif()
    if(has_next)
      set(_ngcc_errors "ngcc_override(${path}): \"${key}\" has no sub-keys" ${_ngcc_errors} PARENT_SCOPE)
      return()
    endif()
    if(key IN_LIST NGCC_OVERRIDE_LIST_KEYS)
      string(JSON n ERROR_VARIABLE e LENGTH "${json}" ${jpath} ${key})
      if(e)
        string(JSON json SET "${json}" ${jpath} ${key} "[]")
        set(n 0)
      endif()
      foreach(v IN LISTS ARGN)
        ngcc_json_quote("${v}" q)
        string(JSON json SET "${json}" ${jpath} ${key} ${n} "${q}")
        math(EXPR n "${n} + 1")
      endforeach()
    elseif(key IN_LIST NGCC_OVERRIDE_SCALAR_KEYS)
      if(NOT ARGC EQUAL 2)
        set(_ngcc_errors "ngcc_override(${path}): \"${key}\" takes exactly one value" ${_ngcc_errors} PARENT_SCOPE)
        return()
      endif()
      set(v "${ARGV1}")
      if(NOT (key IN_LIST NGCC_OVERRIDE_INT_KEYS AND v MATCHES "^[0-9]+$"))
        ngcc_json_quote("${v}" v)
      endif()
      string(JSON json SET "${json}" ${jpath} ${key} "${v}")
    else()
      set(_ngcc_errors "unknown key \"${key}\" in ngcc_override(${path})" ${_ngcc_errors} PARENT_SCOPE)
      return()
    endif()
  endwhile()
  set(_ngcc_json "${json}" PARENT_SCOPE)
endfunction()

# "claims" as ngcc-security's --claims argument: "suf-cma", "euf-cma", or an
# object {"unforgeability": "euf-cma", "dfr": 1e-6} -> "euf-cma,dfr=1e-6"
# (dfr: the declared honest failure rate of a KEM or KEX, 0 < dfr < 1; its
# honest_scale check fails a rate shown above it). json holds "claims";
# err is empty or the one-line error.
function(ngcc_claims_arg json where out err)
  set(${err} "" PARENT_SCOPE)
  string(JSON type ERROR_VARIABLE e TYPE "${json}" claims)
  if(e)
    set(${out} suf-cma PARENT_SCOPE)
    return()
  endif()
  string(JSON v GET "${json}" claims)
  if(NOT type STREQUAL "OBJECT")
    set(${out} "${v}" PARENT_SCOPE)
    return()
  endif()
  set(_unf suf-cma)
  set(_dfr_arg "")
  string(JSON n LENGTH "${json}" claims)
  foreach(i RANGE ${n})
    if(i EQUAL n)
      break()
    endif()
    string(JSON name MEMBER "${json}" claims ${i})
    string(JSON t TYPE "${json}" claims ${name})
    string(JSON v GET "${json}" claims ${name})
    if(name STREQUAL "unforgeability" AND v MATCHES "^(suf-cma|euf-cma)$")
      set(_unf ${v})
    elseif(name STREQUAL "dfr" AND t STREQUAL "NUMBER" AND v MATCHES "^(0?\\.[0-9]+|[0-9](\\.[0-9]*)?[eE]-[0-9]+)$")
      set(_dfr_arg ",dfr=${v}")
    else()
      set(${out} suf-cma PARENT_SCOPE)
      set(${err} "\"claims/${name}\" \"${v}\" at ${where}: write {\"dfr\": <rate, 0 < dfr < 1>} and/or {\"unforgeability\": \"suf-cma\" | \"euf-cma\"}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "${_unf}${_dfr_arg}" PARENT_SCOPE)
endfunction()

# Values that would otherwise fail much later with an obscure message.
function(ngcc_override_check_value json key where err)
  set(${err} "" PARENT_SCOPE)
  string(JSON type ERROR_VARIABLE e TYPE "${json}" ${key})
  if(key IN_LIST NGCC_OVERRIDE_LIST_KEYS AND NOT type STREQUAL "ARRAY")
    set(${err} "\"${key}\" at ${where} must be a list of strings" PARENT_SCOPE)
  elseif((key IN_LIST NGCC_OVERRIDE_MAP_KEYS OR key IN_LIST NGCC_OVERRIDE_NESTED_KEYS) AND NOT type STREQUAL "OBJECT")
    set(${err} "\"${key}\" at ${where} must be an object" PARENT_SCOPE)
  elseif(key IN_LIST NGCC_OVERRIDE_INT_KEYS)
    string(JSON v GET "${json}" ${key})
    if(NOT v MATCHES "^[0-9]+$")
      set(${err} "\"${key}\" at ${where} must be a non-negative integer, not \"${v}\"" PARENT_SCOPE)
    endif()
  elseif(key STREQUAL "flagsets" OR key STREQUAL "isa" OR key STREQUAL "link_flags" OR key STREQUAL "slow_labels")
    string(JSON n LENGTH "${json}" ${key})
    foreach(i RANGE ${n})
      if(i EQUAL n)
        break()
      endif()
      string(JSON v GET "${json}" ${key} ${i})
      if(key STREQUAL "flagsets" AND v STREQUAL "permissive")
        set(${err} "flag set \"permissive\" at ${where} is now called \"harness-default\" (the published name): write that" PARENT_SCOPE)
      elseif(key STREQUAL "flagsets" AND NOT v MATCHES "^(guide|harness-default|compat)$")
        set(${err} "flag set \"${v}\" at ${where} is not guide, harness-default or compat" PARENT_SCOPE)
      elseif(key STREQUAL "link_flags" AND NOT v MATCHES "^-")
        set(${err} "link flag \"${v}\" at ${where} is not an option (write -Wl,... or -l...)" PARENT_SCOPE)
      elseif(key STREQUAL "slow_labels" AND NOT v MATCHES "^(kat|katx|security|asan|memcheck|ct|perf|mem|sizes|prof|icount)$")
        set(${err} "slow_labels entry \"${v}\" at ${where} is not a test label (kat, katx, security, asan, memcheck, ct, perf, mem, sizes, prof, icount)" PARENT_SCOPE)
      elseif(key STREQUAL "isa" AND NOT v MATCHES "^(none|(x86-64|aarch64):[a-z0-9]+)$")
        set(${err} "isa entry \"${v}\" at ${where}: write <x86-64|aarch64>:<extension> or none" PARENT_SCOPE)
      endif()
    endforeach()
  elseif(key STREQUAL "expect")
    string(JSON n LENGTH "${json}" expect)
    foreach(i RANGE ${n})
      if(i EQUAL n)
        break()
      endif()
      string(JSON name MEMBER "${json}" expect ${i})
      if(name MATCHES "@" AND NOT name MATCHES "^[^@]+@(gcc|clang)$")
        set(${err} "expect key \"${name}\" at ${where}: after @ comes the instance compiler, gcc or clang (write \"<label>@clang\", e.g. \"kat@clang\")" PARENT_SCOPE)
      endif()
    endforeach()
  elseif(key STREQUAL "native_only")
    string(JSON v GET "${json}" ${key})
    if(NOT v MATCHES "[a-z]")
      set(${err} "\"native_only\" at ${where} gives no reason (write \"native_only\": \"<why the verdict needs native speed or limits>\")" PARENT_SCOPE)
    endif()
  elseif(key STREQUAL "claims" AND type STREQUAL "OBJECT")
    ngcc_claims_arg("${json}" "${where}" _arg _cerr)
    set(${err} "${_cerr}" PARENT_SCOPE)
  elseif(key STREQUAL "claims" OR key STREQUAL "extended_signature")
    string(JSON v GET "${json}" ${key})
    if(key STREQUAL "claims" AND NOT v MATCHES "^(suf-cma|euf-cma)$")
      set(${err} "\"claims\" \"${v}\" at ${where} is not suf-cma or euf-cma (write \"claims\": \"euf-cma\" for a scheme claiming only existential unforgeability)" PARENT_SCOPE)
    elseif(key STREQUAL "extended_signature" AND NOT v MATCHES "^(reject|finding)$")
      set(${err} "\"extended_signature\" \"${v}\" at ${where} is not reject or finding" PARENT_SCOPE)
    endif()
  elseif(key STREQUAL "timeouts")
    string(JSON n LENGTH "${json}" timeouts)
    foreach(i RANGE ${n})
      if(i EQUAL n)
        break()
      endif()
      string(JSON name MEMBER "${json}" timeouts ${i})
      string(JSON v GET "${json}" timeouts ${name})
      if(NOT v MATCHES "^[0-9]+$" OR v EQUAL 0)
        set(${err} "timeout \"${name}\" at ${where} must be a positive number of seconds, not \"${v}\"" PARENT_SCOPE)
      endif()
    endforeach()
  elseif(key STREQUAL "ct")
    string(JSON n LENGTH "${json}" ct)
    foreach(i RANGE ${n})
      if(i EQUAL n)
        break()
      endif()
      string(JSON name MEMBER "${json}" ct ${i})
      string(JSON t TYPE "${json}" ct ${name})
      if(NOT name MATCHES "^(public_randomness|public_sk)$")
        set(${err} "unknown key \"ct/${name}\" at ${where} (known: public_randomness, public_sk)" PARENT_SCOPE)
      elseif(NOT t STREQUAL "ARRAY" AND name STREQUAL "public_randomness")
        set(${err} "\"ct/public_randomness\" at ${where} must be a list of operations (keygen, sign, enc)" PARENT_SCOPE)
      elseif(NOT t STREQUAL "ARRAY")
        set(${err} "\"ct/public_sk\" at ${where} must be a list of byte ranges \"from:to\" (e.g. [\"32:64\"])" PARENT_SCOPE)
      else()
        string(JSON m LENGTH "${json}" ct ${name})
        foreach(j RANGE ${m})
          if(j EQUAL m)
            break()
          endif()
          string(JSON v GET "${json}" ct ${name} ${j})
          if(name STREQUAL "public_randomness" AND NOT v MATCHES "^(keygen|sign|enc)$")
            set(${err} "\"ct/public_randomness\" entry \"${v}\" at ${where} is not keygen, sign or enc (the operations that draw from the DRNG)" PARENT_SCOPE)
          elseif(name STREQUAL "public_sk")
            set(ok FALSE)
            if(v MATCHES "^([0-9]+):([0-9]+)$" AND CMAKE_MATCH_1 LESS CMAKE_MATCH_2)
              set(ok TRUE)
            endif()
            if(NOT ok)
              set(${err} "\"ct/public_sk\" entry \"${v}\" at ${where} is not a byte range from:to with from < to (e.g. \"32:64\")" PARENT_SCOPE)
            endif()
          endif()
        endforeach()
      endif()
    endforeach()
  elseif(key STREQUAL "perf")
    string(JSON n LENGTH "${json}" perf)
    foreach(i RANGE ${n})
      if(i EQUAL n)
        break()
      endif()
      string(JSON name MEMBER "${json}" perf ${i})
      string(JSON v GET "${json}" perf ${name})
      if(NOT name MATCHES "^(mode|reference)$")
        set(${err} "unknown key \"perf/${name}\" at ${where} (known: mode, reference)" PARENT_SCOPE)
      elseif(name STREQUAL "reference" AND NOT v MATCHES "^[^/]+(/[^/]+)?$")
        set(${err} "perf reference \"${v}\" at ${where}: write <label> or <candidate>/<label>" PARENT_SCOPE)
      elseif(name STREQUAL "mode" AND NOT v MATCHES "^(default|1x1)$")
        set(${err} "perf mode \"${v}\" at ${where} is not default or 1x1" PARENT_SCOPE)
      endif()
    endforeach()
  endif()
endfunction()

# Keys that belong to one level only: "candidate", "skip" and "instances" at
# the top, "variants" inside an instance.
set(NGCC_OVERRIDE_TOP_ONLY candidate skip instances)
set(NGCC_OVERRIDE_INSTANCE_ONLY variants)

# Checks every key of a JSON object against the known ones. level: top,
# instance or variant. err is empty or the one-line error naming the key and
# the file.
function(ngcc_override_check json where file err level)
  set(${err} "" PARENT_SCOPE)
  string(JSON n ERROR_VARIABLE jerr LENGTH "${json}")
  if(jerr)
    set(${err} "${file}: not a JSON object at ${where}: ${jerr}" PARENT_SCOPE)
    return()
  endif()
  set(known ${NGCC_OVERRIDE_LIST_KEYS} ${NGCC_OVERRIDE_SCALAR_KEYS} ${NGCC_OVERRIDE_MAP_KEYS}
    ${NGCC_OVERRIDE_NESTED_KEYS})
  foreach(i RANGE ${n})
    if(i EQUAL n)
      break()
    endif()
    string(JSON key MEMBER "${json}" ${i})
    if(NOT key IN_LIST known)
      string(REPLACE ";" ", " known_text "${known}")
      set(${err} "${file}: unknown key \"${key}\" at ${where} (known keys: ${known_text})" PARENT_SCOPE)
      return()
    endif()
    if((key IN_LIST NGCC_OVERRIDE_TOP_ONLY AND NOT level STREQUAL "top") OR
       (key IN_LIST NGCC_OVERRIDE_INSTANCE_ONLY AND NOT level STREQUAL "instance"))
      set(${err} "${file}: key \"${key}\" does not belong at ${where} (candidate, skip and instances go at the \
top level, variants inside an instance)" PARENT_SCOPE)
      return()
    endif()
    ngcc_override_check_value("${json}" "${key}" "${where}" verr)
    if(verr)
      set(${err} "${file}: ${verr}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

# Checks a whole override (top level, every instance and every variant).
function(ngcc_override_check_all json file err)
  ngcc_override_check("${json}" "top level" "${file}" e top)
  if(NOT e)
    string(JSON ni ERROR_VARIABLE je LENGTH "${json}" instances)
    if(je)
      set(ni 0)
    endif()
    foreach(i RANGE ${ni})
      if(i EQUAL ni OR e)
        break()
      endif()
      string(JSON label MEMBER "${json}" instances ${i})
      string(JSON ij GET "${json}" instances ${label})
      ngcc_override_check("${ij}" "instances/${label}" "${file}" e instance)
      string(JSON nv ERROR_VARIABLE je LENGTH "${ij}" variants)
      if(je)
        set(nv 0)
      endif()
      foreach(v RANGE ${nv})
        if(v EQUAL nv OR e)
          break()
        endif()
        string(JSON vname MEMBER "${ij}" variants ${v})
        string(JSON vj GET "${ij}" variants ${vname})
        ngcc_override_check("${vj}" "instances/${label}/variants/${vname}" "${file}" e variant)
      endforeach()
    endforeach()
  endif()
  set(${err} "${e}" PARENT_SCOPE)
endfunction()

# Reads the keys of one JSON object into variables <prefix>_<key>, appending
# list keys to what is already there and replacing scalars; map keys become
# <prefix>_<key>_<name>.
macro(ngcc_override_read json prefix)
  # Pass the NAME of the variable holding the JSON: a macro re-parses the
  # text of its arguments, so a JSON escape such as "\\." in a
  # sources_exclude regex would be eaten and the key silently dropped.
  # (JSON text itself is still accepted, for values without backslashes.)
  if("${json}" MATCHES "^[A-Za-z_][A-Za-z0-9_]*$" AND DEFINED "${json}")
    set(_ojson "${${json}}")
  else()
    set(_ojson "${json}")
  endif()
  foreach(_k IN LISTS NGCC_OVERRIDE_LIST_KEYS)
    string(JSON _n ERROR_VARIABLE _e LENGTH "${_ojson}" ${_k})
    if(NOT _e AND _n GREATER 0)
      math(EXPR _last "${_n} - 1")
      foreach(_i RANGE ${_last})
        string(JSON _v GET "${_ojson}" ${_k} ${_i})
        list(APPEND ${prefix}_${_k} "${_v}")
      endforeach()
    endif()
  endforeach()
  foreach(_k IN LISTS NGCC_OVERRIDE_SCALAR_KEYS)
    string(JSON _v ERROR_VARIABLE _e GET "${_ojson}" ${_k})
    if(NOT _e)
      set(${prefix}_${_k} "${_v}")
    endif()
  endforeach()
  foreach(_k IN LISTS NGCC_OVERRIDE_MAP_KEYS)
    string(JSON _n ERROR_VARIABLE _e LENGTH "${_ojson}" ${_k})
    if(NOT _e AND _n GREATER 0)
      math(EXPR _last "${_n} - 1")
      foreach(_i RANGE ${_last})
        string(JSON _name MEMBER "${_ojson}" ${_k} ${_i})
        string(JSON _v GET "${_ojson}" ${_k} ${_name})
        set(${prefix}_${_k}_${_name} "${_v}")
        list(APPEND ${prefix}_${_k}__names ${_name})
      endforeach()
    endif()
  endforeach()
endmacro()

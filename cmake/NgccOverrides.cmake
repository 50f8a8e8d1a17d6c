# Per-submission override files (JSON), for what discovery cannot guess.
# Looked up, first found wins: <tree>/ngcc.json, <tree>.ngcc.json beside the
# tree, ${NGCC_OVERRIDES_DIR}/<candidate-id>.json.
#
# Keys (candidate level; the same keys except "instances"/"skip"/"candidate"
# inside "instances": {"<label>": {...}} and inside "variants"):
#   candidate        string   candidate id (default: the tree's folder name)
#   defines          [str]    extra -D definitions (NAME or NAME=VALUE)
#   include_dirs     [str]    extra include folders (relative to the tree)
#   libraries        [str]    extra libraries (OpenSSL::Crypto, gmp, ...)
#   c_standard       str      e.g. gnu11 (replaces -std= of every flag set)
#   flags            [str]    extra compile flags
#   flagsets         [str]    flag sets to try in order (guide, permissive)
#   sources_exclude  [str]    regexes of source paths to leave out
#   kat_records      int      reduced KAT run: first N records
#   timeouts         {label: seconds}
#   memory_limit_mb  int      address-space limit for risky calls
#   extended_signature "reject" (default) | "finding"
#   expect           {label: verdict}   expected verdicts (fixtures, zoo)
#   skip             [str]    instance labels to leave out
#   instances        {label: {...}}     per-instance keys
#   variants         {name: {...}}      derived instances: same sources, extra keys
set(NGCC_OVERRIDE_LIST_KEYS defines include_dirs libraries flags flagsets sources_exclude skip)
set(NGCC_OVERRIDE_SCALAR_KEYS candidate c_standard kat_records memory_limit_mb extended_signature)
set(NGCC_OVERRIDE_MAP_KEYS timeouts expect)
set(NGCC_OVERRIDE_NESTED_KEYS instances variants)

function(ngcc_find_override_file tree id out)
  set(found "")
  foreach(f "${tree}/ngcc.json" "${tree}.ngcc.json" "${NGCC_OVERRIDES_DIR}/${id}.json")
    if(EXISTS "${f}")
      set(found "${f}")
      break()
    endif()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Checks every key of a JSON object against the known ones; an unknown key is
# an error naming the key and the file (the tree is then skipped).
function(ngcc_override_check json where file ok)
  set(${ok} TRUE PARENT_SCOPE)
  string(JSON n ERROR_VARIABLE jerr LENGTH "${json}")
  if(jerr)
    message(WARNING "ngcc: ${file}: not a JSON object at ${where}: ${jerr}. Fix the override file.")
    set(${ok} FALSE PARENT_SCOPE)
    return()
  endif()
  if(n EQUAL 0)
    return()
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${json}" ${i})
    if(NOT key IN_LIST NGCC_OVERRIDE_LIST_KEYS AND NOT key IN_LIST NGCC_OVERRIDE_SCALAR_KEYS
       AND NOT key IN_LIST NGCC_OVERRIDE_MAP_KEYS AND NOT key IN_LIST NGCC_OVERRIDE_NESTED_KEYS)
      message(WARNING "ngcc: ${file}: unknown key \"${key}\" at ${where}. Known keys: "
        "${NGCC_OVERRIDE_LIST_KEYS};${NGCC_OVERRIDE_SCALAR_KEYS};${NGCC_OVERRIDE_MAP_KEYS};${NGCC_OVERRIDE_NESTED_KEYS}")
      set(${ok} FALSE PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# Reads the keys of one JSON object into variables <prefix>_<key>, appending
# list keys to what is already there and replacing scalars; map keys become
# <prefix>_<key>_<name>.
macro(ngcc_override_read json prefix)
  foreach(_k IN LISTS NGCC_OVERRIDE_LIST_KEYS)
    string(JSON _n ERROR_VARIABLE _e LENGTH "${json}" ${_k})
    if(NOT _e AND _n GREATER 0)
      math(EXPR _last "${_n} - 1")
      foreach(_i RANGE ${_last})
        string(JSON _v GET "${json}" ${_k} ${_i})
        list(APPEND ${prefix}_${_k} "${_v}")
      endforeach()
    endif()
  endforeach()
  foreach(_k IN LISTS NGCC_OVERRIDE_SCALAR_KEYS)
    string(JSON _v ERROR_VARIABLE _e GET "${json}" ${_k})
    if(NOT _e)
      set(${prefix}_${_k} "${_v}")
    endif()
  endforeach()
  foreach(_k IN LISTS NGCC_OVERRIDE_MAP_KEYS)
    string(JSON _n ERROR_VARIABLE _e LENGTH "${json}" ${_k})
    if(NOT _e AND _n GREATER 0)
      math(EXPR _last "${_n} - 1")
      foreach(_i RANGE ${_last})
        string(JSON _name MEMBER "${json}" ${_k} ${_i})
        string(JSON _v GET "${json}" ${_k} ${_name})
        set(${prefix}_${_k}_${_name} "${_v}")
        list(APPEND ${prefix}_${_k}__names ${_name})
      endforeach()
    endif()
  endforeach()
endmacro()

# The commands Markdown documents show: code lines (fenced or indented by four
# spaces) and inline code spans that start with cmake, ctest, tools/,
# <build>/tools/ or .ci/run (a bare path such as tools/ngcc-campaign.cmake is a
# file name, not a command). Texts are kept encoded (doc_encode) so that ';',
# '[' and ']' survive as one CMake list element.

# text with ';', '[' and ']' replaced by placeholders
function(doc_encode text out)
  string(REPLACE ";" "<SC>" text "${text}")
  string(REPLACE "[" "<LB>" text "${text}")
  string(REPLACE "]" "<RB>" text "${text}")
  string(REPLACE "|" "<VB>" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(doc_decode text out)
  string(REPLACE "<SC>" ";" text "${text}")
  string(REPLACE "<LB>" "[" text "${text}")
  string(REPLACE "<RB>" "]" text "${text}")
  string(REPLACE "<VB>" "|" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# appends to out_var the encoded commands that one piece of code text shows
# (leading/trailing blanks, a trailing '# comment' and repeated blanks dropped)
function(_doc_command_if code out_var)
  string(REGEX REPLACE "[ \t]+#.*$" "" code "${code}")
  string(REGEX REPLACE "[ \t]+" " " code "${code}")
  string(STRIP "${code}" code)
  if(code MATCHES "^([A-Z_]+=[^ ]* )*(cmake|ctest) " OR code MATCHES "^(tools|<build>/tools|\\.ci)/[^ ]+ "
     OR code MATCHES "^(tools/install-deps|\\.ci/run)$")
    set(${out_var} ${${out_var}} "${code}" PARENT_SCOPE)
  endif()
endfunction()

# doc_commands(<out> <file>...): "<file>|<encoded command>" items, in order
function(doc_commands out)
  set(found "")
  foreach(f IN LISTS ARGN)
    file(READ "${f}" text)
    get_filename_component(name "${f}" NAME)
    doc_encode("${text}" text)
    set(cmds "")
    # fenced blocks (no backticks inside), then the text without them
    string(REGEX MATCHALL "```[^`]*```" fences "${text}")
    foreach(block IN LISTS fences)
      string(REPLACE "\n" ";" lines "${block}")
      foreach(l IN LISTS lines)
        _doc_command_if("${l}" cmds)
      endforeach()
    endforeach()
    string(REGEX REPLACE "```[^`]*```" "" text "${text}")
    # indented code lines (not table rows)
    string(REPLACE "\n" ";" lines "${text}")
    foreach(l IN LISTS lines)
      if(l MATCHES "^    " AND NOT l MATCHES "^ *\\|")
        _doc_command_if("${l}" cmds)
      endif()
    endforeach()
    # inline code spans, which may wrap across lines
    string(REPLACE "\n" " " flat "${text}")
    string(REGEX MATCHALL "`[^`]+`" spans "${flat}")
    foreach(s IN LISTS spans)
      string(REGEX REPLACE "^`(.*)`$" "\\1" s "${s}")
      _doc_command_if("${s}" cmds)
    endforeach()
    foreach(c IN LISTS cmds)
      list(APPEND found "${name}|${c}")
    endforeach()
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# Optional test (registered only when Chromium is found at configure time):
# opens generated pages in headless Chromium, checks that the parsed DOM has
# the expected structure (title, tables, inline SVG charts, notes) and that
# no console error is logged, and saves a PNG screenshot of each page for a
# human look. -D inputs: CHROMIUM PAGES (;-list of HTML files) OUT
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
set(flags --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
  --user-data-dir=${OUT}/profile --enable-logging=stderr --v=0)
set(i 0)
foreach(page IN LISTS PAGES)
  math(EXPR i "${i} + 1")
  execute_process(COMMAND "${CHROMIUM}" ${flags} --dump-dom "file://${page}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE dom ERROR_VARIABLE log TIMEOUT 60)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ngcc: screenshot: chromium failed on ${page} (rc ${rc}):\n${log}")
  endif()
  foreach(must "<h1>" "</table>" "</main>" "</html>")
    string(FIND "${dom}" "${must}" at)
    if(at LESS 0)
      message(FATAL_ERROR "ngcc: screenshot: the DOM of ${page} lacks ${must}")
    endif()
  endforeach()
  if(page MATCHES "/fx-wots\\.html$")
    string(REGEX MATCHALL "<svg " svgs "${dom}")
    list(LENGTH svgs nsvg)
    if(nsvg LESS 2)
      message(FATAL_ERROR "ngcc: screenshot: ${page} should hold the cycles and the share charts, found ${nsvg} SVG")
    endif()
  endif()
  if(log MATCHES "CONSOLE|Uncaught|Failed to load")
    message(FATAL_ERROR "ngcc: screenshot: console errors on ${page}:\n${log}")
  endif()
  execute_process(COMMAND "${CHROMIUM}" ${flags} --window-size=1280,2400 "--screenshot=${OUT}/page-${i}.png"
    "file://${page}" RESULT_VARIABLE rc ERROR_VARIABLE log TIMEOUT 60)
  file(SIZE "${OUT}/page-${i}.png" size)
  if(NOT rc EQUAL 0 OR size LESS 20000)
    message(FATAL_ERROR "ngcc: screenshot: no usable screenshot of ${page} (rc ${rc}, ${size} bytes)")
  endif()
  message("ngcc: screenshot: ${page} -> ${OUT}/page-${i}.png (${size} bytes)")
endforeach()
message("ngcc: verdict report screenshot: PASS: pages parse with the expected structure and no console error")

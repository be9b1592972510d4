# Self-test of cmake/check_layers.cmake: copies the layer folders to GK_WORK, checks
# that the copy passes, then plants one include per rule and checks that each
# planted copy fails with the rule's message, and that fixing a listed known
# violation fails too (the list is a ratchet).
# Run: cmake -DGK_ROOT=<source root> -DGK_WORK=<scratch dir> -P cmake/check_layers_test.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT GK_ROOT OR NOT GK_WORK)
  message(FATAL_ERROR "check_layers_test: pass -DGK_ROOT=<source root> -DGK_WORK=<scratch dir>")
endif()
set(check ${CMAKE_CURRENT_LIST_DIR}/check_layers.cmake)

function(run_check root out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -DGK_ROOT=${root} -P ${check}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${GK_WORK})
file(MAKE_DIRECTORY ${GK_WORK})
foreach(layer backends runtime ops graph tools)
  file(COPY ${GK_ROOT}/${layer} DESTINATION ${GK_WORK}
       FILES_MATCHING PATTERN "*.h" PATTERN "*.cpp" PATTERN "*.cuh" PATTERN "node_modules" EXCLUDE)
endforeach()

run_check(${GK_WORK} rc text)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_layers_test: the unplanted copy fails:\n${text}")
endif()

# file to plant in | include planted | what the failure must say
set(plants
  "backends/device.h|ops/core/op.h|backends/ may not include ops/"
  "runtime/kit/kit.h|graph/ir.h|runtime/kit/ may not include graph/"
  "ops/core/registry.cpp|runtime/session.h|ops/ may not include runtime/"
  "graph/planner.h|ops/core/op.h|graph/ sees op schemas"
  "tools/gkrun/main.cpp|graph/ir.h|tools/ go through the session"
  "tools/gkrun/main.cpp|backends/device.h|tools/ take from backends/ only")
foreach(p ${plants})
  string(REPLACE "|" ";" parts "${p}")
  list(GET parts 0 file)
  list(GET parts 1 inc)
  list(GET parts 2 expect)
  file(READ ${GK_ROOT}/${file} original)
  file(WRITE ${GK_WORK}/${file} "#include \"${inc}\"\n${original}")
  run_check(${GK_WORK} rc text)
  file(WRITE ${GK_WORK}/${file} "${original}")
  if(rc EQUAL 0)
    message(FATAL_ERROR "check_layers_test: ${file} including ${inc} passed the check")
  endif()
  string(FIND "${text}" "${expect}" at)
  string(FIND "${text}" "${file}: #include \"${inc}\"" named)
  if(at EQUAL -1 OR named EQUAL -1)
    message(FATAL_ERROR "check_layers_test: ${file} including ${inc} failed without naming it and \"${expect}\":\n${text}")
  endif()
endforeach()
# The ratchet: each known violation removed from the copy must fail the check.
file(STRINGS ${check} known_lines REGEX "^  \"[^|]+\\|[^|]+\\|")
foreach(line ${known_lines})
  string(REGEX MATCH "\"([^|]+)\\|([^|]+)\\|" m "${line}")
  set(file ${CMAKE_MATCH_1})
  set(inc ${CMAKE_MATCH_2})
  file(READ ${GK_ROOT}/${file} original)
  string(REPLACE "#include \"${inc}\"" "" fixed "${original}")
  file(WRITE ${GK_WORK}/${file} "${fixed}")
  run_check(${GK_WORK} rc text)
  file(WRITE ${GK_WORK}/${file} "${original}")
  string(FIND "${text}" "is gone" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "check_layers_test: fixing the known ${file} -> ${inc} did not fail the check:\n${text}")
  endif()
endforeach()
list(LENGTH known_lines nk)

list(LENGTH plants n)
message(STATUS "check_layers_test: the clean copy passes; ${n} planted includes each fail with their rule; "
               "fixing each of the ${nk} known violations fails until it leaves the list")

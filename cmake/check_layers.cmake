# The layer check: reads every #include "..." in the layer folders and fails on one
# that goes against the order backends/ -> runtime/kit/ -> ops/ -> graph/ ->
# runtime/ -> tools/ (a file may include its own layer and the layers before it).
# Two layers see less than everything below them:
#   graph/ sees op schemas, never the device API: not ops/core/op.h
#     (KernelContext), runtime/kit/kit.h (Kit) or backends/device.h;
#   tools/ use the runtime's public headers and the kit's, and from backends/ only
#     the vocabulary types (status.h, dtype.h), never graph/ or ops/.
# Known violations are listed below with their reason, as a ratchet: the check
# fails when a listed one is fixed (remove it from the list then), as it does on
# any include not listed.
# Run: cmake -DGK_ROOT=<source root> -P cmake/check_layers.cmake
# ctest runs it on the tree (layers:include_order) and, through
# cmake/check_layers_test.cmake, on copies with planted upward includes, which must
# fail (layers:check_fails_on_planted_includes).
cmake_minimum_required(VERSION 3.25)
if(NOT GK_ROOT)
  message(FATAL_ERROR "check_layers: pass -DGK_ROOT=<source root>")
endif()

set(layer_names backends runtime/kit ops graph runtime tools)

# The layer of a root-relative path, or "" for a path outside the layers.
function(layer_of path out)
  set(result "")
  if(path MATCHES "^runtime/kit/")
    set(result runtime/kit)
  elseif(path MATCHES "^(backends|ops|graph|runtime|tools)/")
    set(result ${CMAKE_MATCH_1})
  endif()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

set(graph_denied ops/core/op.h runtime/kit/kit.h backends/device.h)
set(tools_backends_allowed backends/status.h backends/dtype.h)

# file|include|reason (no semicolons), one per known violation.
set(known_violations "")
set(known_seen "")

set(violations "")
set(checked 0)
foreach(layer backends runtime ops graph tools)
  file(GLOB_RECURSE files LIST_DIRECTORIES false RELATIVE ${GK_ROOT}
       ${GK_ROOT}/${layer}/*.h ${GK_ROOT}/${layer}/*.cpp ${GK_ROOT}/${layer}/*.cuh)
  foreach(f ${files})
    if(f MATCHES "/node_modules/")
      continue()
    endif()
    layer_of(${f} from)
    list(FIND layer_names ${from} from_rank)
    file(STRINGS ${GK_ROOT}/${f} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
    math(EXPR checked "${checked} + 1")
    foreach(line ${lines})
      if(NOT line MATCHES "#[ \t]*include[ \t]*\"([^\"]+)\"")
        continue()
      endif()
      set(inc ${CMAKE_MATCH_1})
      layer_of(${inc} to)
      if(to STREQUAL "")
        continue()  # system and third-party headers
      endif()
      list(FIND layer_names ${to} to_rank)
      set(why "")
      if(to_rank GREATER from_rank)
        set(why "${from}/ may not include ${to}/ (order: backends/ -> runtime/kit/ -> ops/ -> graph/ -> runtime/ -> tools/)")
      elseif(from STREQUAL "graph" AND inc IN_LIST graph_denied)
        set(why "graph/ sees op schemas, not the device API (KernelContext, Kit, Device)")
      elseif(from STREQUAL "tools" AND (to STREQUAL "graph" OR to STREQUAL "ops"))
        set(why "tools/ go through the session (runtime/session.h), not ${to}/")
      elseif(from STREQUAL "tools" AND to STREQUAL "backends" AND NOT inc IN_LIST tools_backends_allowed)
        set(why "tools/ take from backends/ only status.h and dtype.h")
      endif()
      if(why)
        set(known FALSE)
        foreach(k ${known_violations})
          string(FIND "${k}" "${f}|${inc}|" at)
          if(at EQUAL 0)
            set(known TRUE)
            list(APPEND known_seen "${f}|${inc}")
          endif()
        endforeach()
        if(NOT known)
          list(APPEND violations "${f}: #include \"${inc}\": ${why}")
        endif()
      endif()
    endforeach()
  endforeach()
endforeach()

foreach(k ${known_violations})
  string(REPLACE "|" ";" parts "${k}")
  list(GET parts 0 kf)
  list(GET parts 1 ki)
  if(NOT "${kf}|${ki}" IN_LIST known_seen)
    list(APPEND violations "${kf}: #include \"${ki}\" is gone: remove it from known_violations in cmake/check_layers.cmake")
  endif()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "check_layers: no sources under ${GK_ROOT}")
endif()
if(violations)
  list(LENGTH violations n)
  foreach(v ${violations})
    message("${v}")
  endforeach()
  message(FATAL_ERROR "check_layers: ${n} include(s) against the layer order")
endif()
message(STATUS "check_layers: ${checked} files, every include follows the layer order")

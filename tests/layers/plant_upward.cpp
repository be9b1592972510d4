// Compiled with gk_ops's include directories only (tests/CMakeLists.txt,
// layers:build_refuses_upward_include): ops/ may not see graph/, so this include
// must fail to compile. Never part of a build of the tree.
#include "graph/ir.h"

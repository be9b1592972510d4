// Kernels the CUDA backend launches on its own behalf: while a graph is being
// captured, copies and memsets run as these kernels instead of driver copy and
// memset nodes, so that rebinding a graph's pointers (which edits kernel
// parameters) moves them too.
#pragma once

#include "backends/kernel_source.h"

namespace gk::cuda {

const KernelSource& builtin_kernel_source();
inline constexpr const char* kBuiltinCopy = "gk_graph_copy";      // (u8* dst, const u8* src, i64 bytes)
inline constexpr const char* kBuiltinMemset = "gk_graph_memset";  // (u8* dst, i32 value, i64 bytes)

}  // namespace gk::cuda

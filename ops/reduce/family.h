// The reduce family's tables (the reductions, ArgMax/ArgMin and CumSum/CumProd),
// assembled by ops/reduce/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> reduce_ops();      // reduce.cpp
std::span<const OpSchema> arg_reduce_ops();  // arg_reduce.cpp
std::span<const OpSchema> cumulative_ops();  // cumulative.cpp
KernelFamily reduce_kernels();               // reduce_cpu.cpp
}  // namespace families
}  // namespace gk

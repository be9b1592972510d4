// The pool family's tables (the pooling ops),
// assembled by ops/pool/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> pool_ops();  // pool.cpp
KernelFamily pool_kernels();           // pool_cpu.cpp
}  // namespace families
}  // namespace gk

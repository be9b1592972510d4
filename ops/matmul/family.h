// The matmul family's tables (MatMul, Gemm and Einsum),
// assembled by ops/matmul/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> matmul_ops();  // matmul.cpp
std::span<const OpSchema> gemm_ops();    // gemm.cpp
std::span<const OpSchema> einsum_ops();  // einsum.cpp
KernelFamily matmul_kernels();           // matmul_cpu.cpp
}  // namespace families
}  // namespace gk

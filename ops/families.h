// Each operator family exports its registration entries and its kernel family.
// ops/registry.cpp lists them; nothing registers itself.
#pragma once

#include "ops/op.h"

#include <span>
#include <vector>

namespace gk::families {

// One line per family: std::span<const OpSchema> NAME_ops(); and, for families with
// kernels, KernelFamily NAME_kernels();

std::span<const OpSchema> matmul_ops();
std::span<const OpSchema> gemm_ops();
std::span<const OpSchema> einsum_ops();
KernelFamily matmul_kernels();
std::span<const OpSchema> elementwise_ops();
std::span<const OpSchema> variadic_ops();
std::span<const OpSchema> unary_ops();
std::span<const OpSchema> activation_ops();
std::span<const OpSchema> cast_ops();
KernelFamily elementwise_kernels();
KernelFamily unary_kernels();
KernelFamily cast_kernels();
}  // namespace gk::families

// A family's <family>_cpu.cpp compiled once per x86 vector ISA (ops/CMakeLists.txt,
// GK_ISA_FAMILIES: the file itself for portable x86-64, and generated wrappers
// that define GK_ISA_VARIANT to avx2 or avx512 (and GK_ISA_SECONDARY) and compile it with that ISA's
// flags) in a portable build; once with the build's flags in a native one. The
// kernel code sits between GK_ISA_BEGIN and GK_ISA_END, a namespace per variant
// (gk_isa_portable, gk_isa_avx2, gk_isa_avx512) around the family's .cuh and the
// host kernel headers too, so the inline functions and template instances of one
// ISA's object can never stand in for another's when the linker merges weak
// symbols (the ODR trap; tests/ops/isa_dispatch_test.cpp checks the tables differ).
// The headers kept outside are included here first (their include guards keep
// them out of the namespace); a standard header first reached inside the
// namespace fails to compile, so add it below.
#pragma once

#include "backends/cpu/cpu_isa.h"
#include "backends/cpu/cpu_kernel_table.h"
#include "backends/cpu/cuda_compat.h"
#include "ops/common/gemm_micro_abi.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef GK_ISA_VARIANT
#define GK_ISA_VARIANT portable
#endif
#define GK_ISA_CAT2(a, b) a##b
#define GK_ISA_CAT(a, b) GK_ISA_CAT2(a, b)
#define GK_ISA_NAMESPACE GK_ISA_CAT(gk_isa_, GK_ISA_VARIANT)

#define GK_ISA_BEGIN namespace GK_ISA_NAMESPACE {
#define GK_ISA_END }

// GK_ISA_FAMILY(unary, kKernels) after GK_ISA_END: this variant's table as
// families::unary_cpu_<variant>(), and in the portable variant the family's
// kernels (families::unary_kernels()) with all three tables where the build
// has them (GK_ISA_TABLES: a portable x86-64 build).
#if defined(GK_ISA_TABLES)
#define GK_ISA_FAMILY_TABLES(family)                                                         \
  ::gk::CpuKernelTable family##_cpu_avx2();                                                  \
  ::gk::CpuKernelTable family##_cpu_avx512();                                                \
  KernelFamily family##_kernels() {                                                          \
    return {&kernel_sources::family, {family##_cpu_portable(), family##_cpu_avx2(), family##_cpu_avx512()}}; \
  }
#else
#define GK_ISA_FAMILY_TABLES(family) \
  KernelFamily family##_kernels() { return {&kernel_sources::family, family##_cpu_portable()}; }
#endif

// The wrappers define GK_ISA_SECONDARY: only the portable variant defines the family.
#if defined(GK_ISA_SECONDARY)
#define GK_ISA_FAMILY_KERNELS(family)
#else
#define GK_ISA_FAMILY_KERNELS(family) GK_ISA_FAMILY_TABLES(family)
#endif
#define GK_ISA_FAMILY(family, table)                                                            \
  namespace gk::families {                                                                      \
  ::gk::CpuKernelTable GK_ISA_CAT(family##_cpu_, GK_ISA_VARIANT)() { return GK_ISA_NAMESPACE::table; } \
  GK_ISA_FAMILY_KERNELS(family)                                                                 \
  }

// A family's descriptor: the ops it registers and the kernels it brings. Each
// folder ops/<family>/ has a family.cpp that is one line,
//   GK_FAMILY(conv, conv_ops, conv_transpose_ops)      (GK_HOST_FAMILY: no kernels)
// which declares the family's tables (one per op file, defined there in
// gk::families), its kernels (families::<family>_kernels(), defined in
// <family>_cpu.cpp) and defines families::<family>_family(); ops/core/registry.cpp
// lists every family once.
#pragma once

#include "ops/core/op.h"

#include <optional>
#include <span>
#include <vector>

namespace gk {

struct OpFamily {
  const char* name;                               // its folder: ops/<name>/
  std::vector<std::span<const OpSchema>> tables;  // one per op file
  std::optional<KernelFamily> kernels;            // none for a host-only family
};

// Every family, in registry order.
std::span<const OpFamily> op_families();

}  // namespace gk

// GK_FOR_EACH(m, a, b, ...) expands to m(a) m(b) ...; the rescans (4^3 = 64)
// bound a family's tables, far above the ten data_movement has.
#define GK_FOR_EACH(macro, ...) __VA_OPT__(GK_EXPAND3(GK_FOR_EACH_STEP(macro, __VA_ARGS__)))
#define GK_FOR_EACH_STEP(macro, first, ...) \
  macro(first) __VA_OPT__(GK_FOR_EACH_AGAIN GK_PARENS(macro, __VA_ARGS__))
#define GK_FOR_EACH_AGAIN() GK_FOR_EACH_STEP
#define GK_PARENS ()
#define GK_EXPAND3(...) GK_EXPAND2(GK_EXPAND2(GK_EXPAND2(GK_EXPAND2(__VA_ARGS__))))
#define GK_EXPAND2(...) GK_EXPAND1(GK_EXPAND1(GK_EXPAND1(GK_EXPAND1(__VA_ARGS__))))
#define GK_EXPAND1(...) GK_EXPAND0(GK_EXPAND0(GK_EXPAND0(GK_EXPAND0(__VA_ARGS__))))
#define GK_EXPAND0(...) __VA_ARGS__

#define GK_FAMILY_DECLARE_TABLE(table) std::span<const OpSchema> table();
#define GK_FAMILY_CALL_TABLE(table) table(),
#define GK_FAMILY_DESCRIPTOR(family, kernels_value, ...)                     \
  namespace gk::families {                                                   \
  GK_FOR_EACH(GK_FAMILY_DECLARE_TABLE, __VA_ARGS__)                          \
  OpFamily family##_family() {                                               \
    return {.name = #family,                                                 \
            .tables = {GK_FOR_EACH(GK_FAMILY_CALL_TABLE, __VA_ARGS__)},      \
            .kernels = kernels_value};                                       \
  }                                                                          \
  }

// A family with kernels: <family>.cuh, and <family>_cpu.cpp defining
// families::<family>_kernels().
#define GK_FAMILY(family, ...)                                     \
  namespace gk::families {                                         \
  KernelFamily family##_kernels();                                 \
  }                                                                \
  GK_FAMILY_DESCRIPTOR(family, family##_kernels(), __VA_ARGS__)

// A host-only family (control_flow, sequence, string): no kernels.
#define GK_HOST_FAMILY(family, ...) GK_FAMILY_DESCRIPTOR(family, std::nullopt, __VA_ARGS__)

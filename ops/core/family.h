// A family's descriptor: the ops it registers and the kernels it brings. Each
// folder ops/<family>/ defines families::<family>_family() in its family.cpp (its
// op files' tables, declared in its family.h); ops/core/registry.cpp lists every
// family once.
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

// Each operator family exports its registration entries and its kernel family.
// ops/registry.cpp lists them; nothing registers itself.
#pragma once

#include "ops/op.h"

#include <span>
#include <vector>

namespace gk::families {

// One line per family: std::span<const OpSchema> NAME_ops(); and, for families with
// kernels, KernelFamily NAME_kernels();

}  // namespace gk::families

// The sequence family's tables (the sequence ops, which the executor runs),
// assembled by ops/sequence/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> sequence_ops();  // sequence.cpp
}  // namespace families
}  // namespace gk

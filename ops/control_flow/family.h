// The control_flow family's tables (If, Loop and Scan, which the executor runs),
// assembled by ops/control_flow/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> control_flow_ops();  // control_flow.cpp
}  // namespace families
}  // namespace gk

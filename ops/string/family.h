// The string family's tables (the string ops and LabelEncoder),
// assembled by ops/string/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> string_ops();         // string_ops.cpp
std::span<const OpSchema> label_encoder_ops();  // label_encoder.cpp
}  // namespace families
}  // namespace gk

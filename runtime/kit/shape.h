#pragma once

#include "backends/status.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gk {

using Shape = std::vector<int64_t>;

// Product of dims, or InvalidArgument on a negative dim or int64 overflow.
Result<int64_t> checked_numel(std::span<const int64_t> dims);
// Product of dims for shapes already validated (asserts on overflow in debug).
int64_t numel(std::span<const int64_t> dims);
std::string shape_str(std::span<const int64_t> dims);  // "1x3x224x224", "scalar"
// Row-major strides in elements.
std::vector<int64_t> contiguous_strides(std::span<const int64_t> dims);

}  // namespace gk

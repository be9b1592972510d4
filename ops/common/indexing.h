// Host side of ops/common/indexing.cuh: builds the by-value structs the
// kernels take. Layout must match the .cuh (static_asserts in indexing.cpp).
#pragma once

#include "backends/status.h"
#include "runtime/kit/shape.h"

#include <cstdint>

namespace gk {

constexpr int kMaxRank = 8;

struct IndexMap {
  int32_t rank = 0;
  int32_t pad_ = 0;
  int64_t dims[kMaxRank] = {};
  int64_t strides[kMaxRank] = {};
};

// Multidirectional broadcast of shapes (numpy rules); InvalidArgument naming both
// shapes when they do not broadcast.
Result<Shape> broadcast_shapes(const Shape& a, const Shape& b);
// The map from `out` indices to an operand of shape `in` that broadcasts to `out`.
Result<IndexMap> broadcast_map(const Shape& out, const Shape& in);
// The map for an operand laid out with explicit strides (transposes, slices).
Result<IndexMap> strided_map(const Shape& out, const std::vector<int64_t>& strides);

}  // namespace gk

// Host side of ops/common/rows.cuh: a tensor seen as independent rows for
// the reduction-shaped families (reduce, arg-reduce, scans, top-k, softmax,
// normalization), and the axis arithmetic those ops share.
#pragma once

#include "backends/device.h"
#include "ops/common/indexing.h"

#include <vector>

namespace gk {

struct RowGeometry {
  int64_t rows = 0;
  int64_t len = 1;
  int64_t inner = 1;
  int32_t general = 0;
  int32_t pad_ = 0;
  IndexMap row_map;
  IndexMap elem_map;
};

// The rows of `shape` when `axes` (sorted, unique, in range) are reduced: contiguous
// [outer, len, inner] when the reduced axes are adjacent once size-1 dims are
// dropped, else the general form with index maps. No axes: every element is a row
// of one.
Result<RowGeometry> row_geometry(const Shape& shape, const std::vector<int64_t>& axes);
// The contiguous form for one axis (axis in range): [prod(shape[:axis]),
// shape[axis], prod(shape[axis+1:])].
RowGeometry axis_geometry(const Shape& shape, int64_t axis);

// `axis` in [-rank, rank-1] → [0, rank-1]; else InvalidModel naming the node.
Result<int64_t> normalize_axis(int64_t axis, int64_t rank, std::string_view who);
// Each axis normalised, then sorted; duplicates are an InvalidModel error.
Result<std::vector<int64_t>> normalize_axes(std::vector<int64_t> axes, int64_t rank, std::string_view who);

// Block-per-row launch: grid of min(rows, 65535) blocks (the kernels stride over
// further rows), a power-of-two block of 32..256 threads sized to the row length.
LaunchConfig rows_launch(int64_t rows, int64_t len);

}  // namespace gk

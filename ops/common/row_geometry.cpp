#include "ops/common/row_geometry.h"

#include <algorithm>

namespace gk {

static_assert(sizeof(RowGeometry) == 3 * 8 + 8 + 2 * sizeof(IndexMap), "must match gk_rows in rows.cuh");

Result<RowGeometry> row_geometry(const Shape& shape, const std::vector<int64_t>& axes) {
  // Merge runs of adjacent dims that are all kept or all reduced; size-1 dims join
  // any run, they change no offset.
  struct Run {
    int64_t size;
    int64_t stride;
    bool reduced;
  };
  std::vector<bool> reduced(shape.size(), false);
  for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
  const std::vector<int64_t> strides = contiguous_strides(shape);
  std::vector<Run> runs;  // innermost run last
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!runs.empty() && runs.back().reduced == reduced[d]) {
      runs.back().size *= shape[d];
      runs.back().stride = strides[d];
    } else {
      runs.push_back({shape[d], strides[d], static_cast<bool>(reduced[d])});
    }
  }
  RowGeometry g;
  if (numel(shape) == 0) {
    // Nothing is read: rows of zero elements take the identity, zero rows launch nothing.
    g.rows = 1, g.len = 1;
    for (size_t d = 0; d < shape.size(); ++d) (reduced[d] ? g.len : g.rows) *= shape[d];
    return g;
  }
  int reduced_runs = 0;
  for (const Run& r : runs) reduced_runs += r.reduced;
  if (reduced_runs <= 1) {
    int64_t outer = 1, len = 1, inner = 1;
    bool after = false;
    for (const Run& r : runs) {
      if (r.reduced) {
        len = r.size;
        after = true;
      } else if (after) {
        inner *= r.size;
      } else {
        outer *= r.size;
      }
    }
    g.rows = outer * inner;
    g.len = len;
    g.inner = inner;
    return g;
  }
  std::vector<int64_t> kept_dims, kept_strides, red_dims, red_strides;
  int64_t rows = 1, len = 1;
  for (const Run& r : runs) {
    (r.reduced ? red_dims : kept_dims).push_back(r.size);
    (r.reduced ? red_strides : kept_strides).push_back(r.stride);
    (r.reduced ? len : rows) *= r.size;
  }
  GK_TRY(g.row_map, strided_map(kept_dims, kept_strides));
  GK_TRY(g.elem_map, strided_map(red_dims, red_strides));
  g.general = 1;
  g.rows = rows;
  g.len = len;
  g.inner = 1;
  return g;
}

RowGeometry axis_geometry(const Shape& shape, int64_t axis) {
  RowGeometry g;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= shape[d];
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  g.len = shape[axis];
  g.inner = inner;
  g.rows = outer * inner;
  return g;
}

Result<int64_t> normalize_axis(int64_t axis, int64_t rank, std::string_view who) {
  if (axis < -rank || axis >= std::max<int64_t>(rank, 1) || (rank == 0 && axis != 0 && axis != -1))
    return invalid_model("{}: axis {} is out of the range [{}, {}]", who, axis, -rank,
                         std::max<int64_t>(rank - 1, 0));
  if (rank == 0) return 0;
  return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> normalize_axes(std::vector<int64_t> axes, int64_t rank, std::string_view who) {
  for (int64_t& a : axes) {
    if (a < -rank || a >= rank)
      return invalid_model("{}: axis {} is out of the range [{}, {}]", who, a, -rank, rank - 1);
    if (a < 0) a += rank;
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return invalid_model("{}: axes repeat an axis", who);
  return axes;
}

LaunchConfig rows_launch(int64_t rows, int64_t len) {
  LaunchConfig c;
  c.grid.x = static_cast<uint32_t>(std::clamp<int64_t>(rows, 1, 65535));
  uint32_t block = 32;
  while (block < 256 && block < len) block *= 2;
  c.block.x = block;
  return c;
}

}  // namespace gk

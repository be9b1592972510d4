// The launcher prologue that Gather*/Scatter* (ops/gather_scatter/gather.cpp, ops/gather_scatter/scatter.cpp)
// share: index dtype, the *Elements shape rule, ND index-tuple maps, and launches
// of gk_gs_* kernels (ops/gather_scatter/gather_scatter.cuh), which all end their
// parameters with (error flag, n) and run n threads.
#pragma once

#include "ops/data_movement/data_movement.h"
#include "ops/kernel_sources.h"

#include <string_view>

namespace gk::dm {

// The kernels' spelling of the index type; InvalidModel naming the node otherwise.
inline Result<const char*> index_type(const NodeView& node, DType t) {
  if (t == DType::kI64) return "int64_t";
  if (t == DType::kI32) return "int32_t";
  return invalid_model("{}: indices must be int32 or int64, got {}", node.describe(), dtype_name(t));
}

// Every gather/scatter launcher's data (input 0), indices (input 1), output 0 and
// index type name.
struct IndexOperands {
  const TensorRef& data;
  const TensorRef& idx;
  const TensorRef& out;
  const char* it;
};

inline Result<IndexOperands> index_operands(const KernelContext& ctx) {
  GK_TRY(const char* it, index_type(ctx.node(), ctx.in(1).dtype));
  return IndexOperands{ctx.in(0), ctx.in(1), ctx.out(0), it};
}

// GatherElements / ScatterElements: indices have data's rank and fit in data on every
// dim but the axis. Returns the axis in [0, rank).
inline Result<int64_t> check_elements_shapes(const InferContext& ctx, const Shape& data, const Shape& idx,
                                             int64_t axis_attr) {
  if (data.size() != idx.size())
    return ctx.fail(fmt::format("data {} and indices {} must have one rank", shape_str(data), shape_str(idx)));
  GK_TRY(int64_t axis, normalize_axis(ctx.node, axis_attr, data.size()));
  for (size_t d = 0; d < data.size(); ++d)
    if (static_cast<int64_t>(d) != axis && idx[d] > data[d])
      return ctx.fail(fmt::format("indices {} exceed data {} on dim {}", shape_str(idx), shape_str(data), d));
  return axis;
}

// GatherND / ScatterND index tuples of k entries must fit an IndexMap.
inline Status check_tuple_length(const NodeView& node, int64_t k) {
  if (k > kMaxRank) return unimplemented("{}: index tuples of {} > {} entries", node.describe(), k, kMaxRank);
  return ok_status();
}

// An index tuple's map onto data dims [first, first + k) (k checked by
// check_tuple_length), strides in words of `ratio` elements.
inline IndexMap tuple_map(const Shape& data, int64_t first, int64_t k, int64_t ratio = 1) {
  const auto strides = contiguous_strides(data);
  IndexMap im;
  im.rank = static_cast<int32_t>(k);
  for (int64_t d = 0; d < k; ++d) {
    im.dims[d] = data[first + d];
    im.strides[d] = strides[first + d] / ratio;
  }
  return im;
}

// Launches gk_gs_* `entry` over n threads with `args` followed by (error flag, n).
inline Status launch_indexed(KernelContext& ctx, const KernelName& entry, KernelArgs args, int64_t n) {
  args.ptr(ctx.error_flag()).i64(n);
  return ctx.launch(kernel_sources::gather_scatter, entry, grid_for(n), args);
}

}  // namespace gk::dm

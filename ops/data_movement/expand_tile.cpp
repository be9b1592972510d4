// Expand and Tile as strided copies: Expand reads broadcast dims with stride 0;
// Tile views the output [r0, d0, r1, d1, ...] with stride 0 on each repeat dim.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"

#include <limits>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

Status infer_expand(InferContext& ctx) {
  GK_TRY(std::vector<int64_t> shape, host_ints(ctx, 1));
  const Shape& in = ctx.in(0).shape;
  for (int64_t d : shape)
    if (d < 0) return ctx.fail(fmt::format("shape {} has a negative dim", shape_str(shape)));
  // Bidirectional: a 1 in `shape` keeps the input's dim.
  auto out = broadcast_shapes(in, shape);
  if (!out.ok()) return ctx.fail(out.status().message());
  ctx.outputs[0] = {ctx.in(0).dtype, *out};
  return ok_status();
}

Status run_expand(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  const Shape& out = ctx.out(0).shape;
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  auto in_strides = contiguous_strides(in.shape);
  const size_t lead = out.size() - in.shape.size();
  std::vector<int64_t> strides(out.size(), 0);
  for (size_t d = 0; d < in.shape.size(); ++d)
    strides[lead + d] = in.shape[d] == out[lead + d] ? in_strides[d] : 0;
  return strided_copy(ctx, esize, in.ptr, out, std::move(strides), ctx.out(0).ptr);
}

Status infer_tile(InferContext& ctx) {
  GK_TRY(std::vector<int64_t> repeats, host_ints(ctx, 1));
  const Shape& in = ctx.in(0).shape;
  if (repeats.size() != in.size())
    return ctx.fail(fmt::format("repeats has {} entries for an input of rank {}", repeats.size(), in.size()));
  Shape out(in.size());
  for (size_t d = 0; d < in.size(); ++d) {
    if (repeats[d] < 0) return ctx.fail(fmt::format("repeats {} has a negative entry", shape_str(repeats)));
    // (fuzz mutate target, UBSan: 2 x 8.8e18)
    if (in[d] != 0 && repeats[d] > std::numeric_limits<int64_t>::max() / in[d])
      return ctx.fail(fmt::format("dim {} of {} times repeats {} overflows int64", d, shape_str(in), repeats[d]));
    out[d] = in[d] * repeats[d];
  }
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status run_tile(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  const Shape& out = ctx.out(0).shape;
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  auto in_strides = contiguous_strides(in.shape);
  Shape view;
  std::vector<int64_t> strides;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    view.push_back(in.shape[d] == 0 ? 0 : out[d] / in.shape[d]);
    strides.push_back(0);
    view.push_back(in.shape[d]);
    strides.push_back(in_strides[d]);
  }
  return strided_copy(ctx, esize, in.ptr, view, std::move(strides), ctx.out(0).ptr);
}

constexpr OpImpl kExpand{nullptr, &infer_expand, &run_expand};
constexpr OpImpl kTile{nullptr, &infer_tile, &run_tile};

const OpSchema kExpandTileOps[] = {
    {"", "Expand", 8, kOpsetCurrent, &kExpand, {.host_inputs = 1u << 1}},
    {"", "Tile", 6, kOpsetCurrent, &kTile, {.host_inputs = 1u << 1}},
};

}  // namespace

std::span<const OpSchema> expand_tile_ops() { return kExpandTileOps; }

}  // namespace gk::families

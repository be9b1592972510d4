// Gather, GatherElements, GatherND. Negative indices count from the end (opset
// 11+); anything outside [-dim, dim) clamps and raises the run's OutOfRange flag.
#include "ops/gather_scatter/index_launch.h"
#include "ops/core/op.h"

namespace gk::families {
namespace {

using namespace dm;  // index_launch.h's shared helpers

// The widest word (<= 8 bytes) that divides `run` elements of `esize` bytes.
size_t widen(size_t esize, int64_t run) {
  const uint64_t bytes = static_cast<uint64_t>(run) * esize;
  for (size_t w : {size_t{8}, size_t{4}, size_t{2}})
    if (w > esize && bytes % w == 0) return w;
  return esize;
}

struct AxisAttrs {
  int64_t axis = 0;
};
Result<ParsedAttrs> parse_axis(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t axis, a.get_int("axis", 0));
  return make_attrs(AxisAttrs{axis});
}

Status infer_gather(InferContext& ctx) {
  const Shape& data = ctx.in(0).shape;
  GK_RETURN_IF_ERROR(index_type(ctx.node, ctx.in(1).dtype).status());
  GK_TRY(int64_t axis, normalize_axis(ctx.node, attrs_as<AxisAttrs>(ctx.attrs).axis, data.size()));
  Shape out(data.begin(), data.begin() + axis);
  out.insert(out.end(), ctx.in(1).shape.begin(), ctx.in(1).shape.end());
  out.insert(out.end(), data.begin() + axis + 1, data.end());
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status run_gather(KernelContext& ctx) {
  if (ctx.out(0).numel() == 0) return ok_status();
  GK_TRY(IndexOperands op, index_operands(ctx));
  GK_TRY(size_t esize, element_bytes(ctx.node(), op.data.dtype));
  GK_TRY(int64_t axis, normalize_axis(ctx.node(), ctx.attrs<AxisAttrs>().axis, op.data.shape.size()));
  const int64_t axis_dim = op.data.shape[axis];
  if (axis_dim == 0) return out_of_range("{}: gathering from the empty axis {}", ctx.node().describe(), axis);
  int64_t inner = numel(std::span(op.data.shape).subspan(axis + 1));
  const size_t w = widen(esize, inner);
  inner = static_cast<int64_t>(static_cast<uint64_t>(inner) * esize / w);
  const int64_t n = static_cast<int64_t>(static_cast<uint64_t>(op.out.numel()) * esize / w);
  return launch_indexed(ctx, entry("gk_gs_gather", width_name(w), op.it),
                        KernelArgs().ptr(op.data.ptr).ptr(op.idx.ptr).ptr(op.out.ptr).i64(axis_dim).i64(inner)
                            .i64(op.idx.numel()),
                        n);
}

Status infer_gather_elements(InferContext& ctx) {
  const Shape& data = ctx.in(0).shape;
  const Shape& idx = ctx.in(1).shape;
  GK_RETURN_IF_ERROR(index_type(ctx.node, ctx.in(1).dtype).status());
  GK_RETURN_IF_ERROR(check_elements_shapes(ctx, data, idx, attrs_as<AxisAttrs>(ctx.attrs).axis).status());
  ctx.outputs[0] = {ctx.in(0).dtype, idx};
  return ok_status();
}

Status run_gather_elements(KernelContext& ctx) {
  const int64_t n = ctx.out(0).numel();
  if (n == 0) return ok_status();
  GK_TRY(IndexOperands op, index_operands(ctx));
  GK_TRY(size_t esize, element_bytes(ctx.node(), op.data.dtype));
  GK_TRY(int64_t axis, normalize_axis(ctx.node(), ctx.attrs<AxisAttrs>().axis, op.data.shape.size()));
  auto strides = contiguous_strides(op.data.shape);
  const int64_t axis_stride = strides[axis];
  strides[axis] = 0;
  GK_TRY(IndexMap map, strided_map(op.idx.shape, strides));
  return launch_indexed(ctx, entry("gk_gs_gather_elements", width_name(esize), op.it),
                        KernelArgs().ptr(op.data.ptr).ptr(op.idx.ptr).ptr(op.out.ptr).pod(map).i64(axis_stride)
                            .i64(op.data.shape[axis]),
                        n);
}

struct GatherNDAttrs {
  int64_t batch_dims = 0;
};
Result<ParsedAttrs> parse_gather_nd(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t b, a.get_int("batch_dims", 0));
  return make_attrs(GatherNDAttrs{b});
}

// Validates shapes; returns k (the index tuple length).
Result<int64_t> check_gather_nd(const NodeView& node, const Shape& data, const Shape& idx, int64_t b) {
  const int64_t r = static_cast<int64_t>(data.size()), q = static_cast<int64_t>(idx.size());
  if (q < 1 || r < 1) return invalid_model("{}: data and indices must have rank >= 1", node.describe());
  if (b < 0 || b >= std::min(q, r))
    return invalid_model("{}: batch_dims {} must be in [0, {})", node.describe(), b, std::min(q, r));
  const int64_t k = idx.back();
  if (k < 0 || k > r - b)
    return invalid_model("{}: indices' last dim {} must be in [0, {}] for data {}", node.describe(), k, r - b,
                         shape_str(data));
  for (int64_t d = 0; d < b; ++d)
    if (data[d] != idx[d])
      return invalid_model("{}: batch dim {} differs: data {} indices {}", node.describe(), d, shape_str(data),
                           shape_str(idx));
  GK_RETURN_IF_ERROR(check_tuple_length(node, k));
  return k;
}

Status infer_gather_nd(InferContext& ctx) {
  const Shape& data = ctx.in(0).shape;
  const Shape& idx = ctx.in(1).shape;
  GK_RETURN_IF_ERROR(index_type(ctx.node, ctx.in(1).dtype).status());
  const int64_t b = attrs_as<GatherNDAttrs>(ctx.attrs).batch_dims;
  GK_TRY(int64_t k, check_gather_nd(ctx.node, data, idx, b));
  Shape out(idx.begin(), idx.end() - 1);
  out.insert(out.end(), data.begin() + b + k, data.end());
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status run_gather_nd(KernelContext& ctx) {
  if (ctx.out(0).numel() == 0) return ok_status();
  GK_TRY(IndexOperands op, index_operands(ctx));
  const TensorRef& data = op.data;
  const TensorRef& idx = op.idx;
  GK_TRY(size_t esize, element_bytes(ctx.node(), data.dtype));
  const int64_t b = ctx.attrs<GatherNDAttrs>().batch_dims;
  GK_TRY(int64_t k, check_gather_nd(ctx.node(), data.shape, idx.shape, b));
  int64_t slice = numel(std::span(data.shape).subspan(b + k));
  int64_t batch_stride = numel(std::span(data.shape).subspan(b));
  const int64_t tuples_per_batch = numel(std::span(idx.shape).subspan(b, idx.shape.size() - 1 - b));
  // Every stride here is a multiple of the slice, so widening divides them all.
  const size_t w = widen(esize, slice);
  const int64_t ratio = static_cast<int64_t>(w / esize);
  const IndexMap im = tuple_map(data.shape, b, k, ratio);
  slice /= ratio;
  batch_stride /= ratio;
  const int64_t n = op.out.numel() / ratio;
  return launch_indexed(ctx, entry("gk_gs_gather_nd", width_name(w), op.it),
                        KernelArgs().ptr(data.ptr).ptr(idx.ptr).ptr(op.out.ptr).pod(im).i64(tuples_per_batch)
                            .i64(batch_stride).i64(slice),
                        n);
}

constexpr OpImpl kGather{&parse_axis, &infer_gather, &run_gather};
constexpr OpImpl kGatherElements{&parse_axis, &infer_gather_elements, &run_gather_elements};
constexpr OpImpl kGatherND{&parse_gather_nd, &infer_gather_nd, &run_gather_nd};

const OpSchema kGatherOps[] = {
    {"", "Gather", 1, kOpsetCurrent, &kGather, {}},
    {"", "GatherElements", 11, kOpsetCurrent, &kGatherElements, {}},
    {"", "GatherND", 11, kOpsetCurrent, &kGatherND, {}},
};

}  // namespace

std::span<const OpSchema> gather_ops() { return kGatherOps; }

}  // namespace gk::families

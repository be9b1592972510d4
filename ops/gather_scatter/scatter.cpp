// ScatterElements (and the deprecated Scatter, opset 9-10) and ScatterND, with the
// reductions none / add / mul (opset 16) and max / min (opset 18). The output
// starts as a copy of data (nothing to copy when the planner ran it in place).
#include "ops/gather_scatter/index_launch.h"
#include "ops/core/op.h"

#include <optional>

namespace gk::families {
namespace {

using namespace dm;  // index_launch.h's shared helpers

struct ScatterAttrs {
  int64_t axis = 0;
  int reduction = 0;  // 0 none, 1 add, 2 mul, 3 max, 4 min
};

Result<int> parse_reduction(const AttrMap& a, const NodeView& node) {
  GK_TRY(std::string r, a.get_string("reduction", "none"));
  if (r == "none") return 0;
  if (r == "add") return 1;
  if (r == "mul") return 2;
  if (node.opset >= 18 && r == "max") return 3;
  if (node.opset >= 18 && r == "min") return 4;
  return invalid_model("{}: reduction '{}' is not supported at opset {} (none, add, mul; max, min from 18)",
                       node.describe(), r, node.opset);
}

Result<ParsedAttrs> parse_scatter(const AttrMap& a, const NodeView& node) {
  ScatterAttrs attrs;
  GK_TRY(attrs.axis, a.get_int("axis", 0));
  GK_TRY(attrs.reduction, parse_reduction(a, node));
  return make_attrs(attrs);
}

// The kernel's element type: bytes for a plain scatter, the real type to reduce.
Result<std::string> element_name(const NodeView& node, DType t, int reduction) {
  if (reduction == 0) {
    GK_TRY(size_t esize, element_bytes(node, t));
    return std::string(width_name(esize));
  }
  if (t == DType::kBool) return unimplemented("{}: reductions over bool are not supported", node.describe());
  GK_TRY(const char* name, type_name(node, t, "a reduction"));
  return std::string(name);
}

Status infer_scatter_elements(InferContext& ctx) {
  const Shape& data = ctx.in(0).shape;
  const Shape& idx = ctx.in(1).shape;
  GK_RETURN_IF_ERROR(index_type(ctx.node, ctx.in(1).dtype).status());
  if (idx != ctx.in(2).shape)
    return ctx.fail(fmt::format("indices {} and updates {} must have one shape", shape_str(idx),
                                shape_str(ctx.in(2).shape)));
  if (ctx.in(2).dtype != ctx.in(0).dtype) return ctx.fail("updates must have the data's type");
  GK_RETURN_IF_ERROR(check_elements_shapes(ctx, data, idx, attrs_as<ScatterAttrs>(ctx.attrs).axis).status());
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

// Both scatters' first steps: the output starts as data's copy; nothing more for
// empty updates (nullopt).
Result<std::optional<IndexOperands>> start_scatter(KernelContext& ctx) {
  GK_RETURN_IF_ERROR(copy_input(ctx, 0, 0));
  if (ctx.in(2).numel() == 0) return std::optional<IndexOperands>();
  GK_TRY(IndexOperands op, index_operands(ctx));
  return std::optional<IndexOperands>(op);
}

Status run_scatter_elements(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<ScatterAttrs>();
  GK_TRY(std::optional<IndexOperands> op, start_scatter(ctx));
  if (!op) return ok_status();
  const TensorRef& upd = ctx.in(2);
  const TensorRef& out = op->out;
  GK_TRY(std::string et, element_name(ctx.node(), op->data.dtype, attrs.reduction));
  GK_TRY(int64_t axis, normalize_axis(ctx.node(), attrs.axis, op->data.shape.size()));
  const auto ustrides = contiguous_strides(upd.shape);
  const auto ostrides = contiguous_strides(out.shape);
  Shape dims;
  std::vector<int64_t> us, os;
  for (size_t d = 0; d < upd.shape.size(); ++d) {
    if (static_cast<int64_t>(d) == axis) continue;
    dims.push_back(upd.shape[d]);
    us.push_back(ustrides[d]);
    os.push_back(ostrides[d]);
  }
  GK_TRY(IndexMap umap, strided_map(dims, us));
  GK_TRY(IndexMap omap, strided_map(dims, os));
  const int64_t m = numel(dims);
  return launch_indexed(ctx, entry("gk_gs_scatter_elements", et, op->it, KernelName::number(attrs.reduction)),
                        KernelArgs()
                            .ptr(out.ptr)
                            .ptr(op->idx.ptr)
                            .ptr(upd.ptr)
                            .pod(umap)
                            .pod(omap)
                            .i64(ustrides[axis])
                            .i64(upd.shape[axis])
                            .i64(ostrides[axis])
                            .i64(out.shape[axis]),
                        m);
}

Status infer_scatter_nd(InferContext& ctx) {
  const Shape& data = ctx.in(0).shape;
  const Shape& idx = ctx.in(1).shape;
  const Shape& upd = ctx.in(2).shape;
  GK_RETURN_IF_ERROR(index_type(ctx.node, ctx.in(1).dtype).status());
  if (ctx.in(2).dtype != ctx.in(0).dtype) return ctx.fail("updates must have the data's type");
  if (idx.empty() || data.empty()) return ctx.fail("data and indices must have rank >= 1");
  const int64_t k = idx.back();
  if (k < 0 || k > static_cast<int64_t>(data.size()))
    return ctx.fail(fmt::format("indices' last dim {} exceeds the data rank {}", k, data.size()));
  GK_RETURN_IF_ERROR(check_tuple_length(ctx.node, k));
  Shape want(idx.begin(), idx.end() - 1);
  want.insert(want.end(), data.begin() + k, data.end());
  if (upd != want)
    return ctx.fail(fmt::format("updates {} must have shape {}", shape_str(upd), shape_str(want)));
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

Status run_scatter_nd(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<ScatterAttrs>();
  GK_TRY(std::optional<IndexOperands> op, start_scatter(ctx));
  if (!op) return ok_status();
  const TensorRef& data = op->data;
  const TensorRef& idx = op->idx;
  GK_TRY(std::string et, element_name(ctx.node(), data.dtype, attrs.reduction));
  const int64_t k = idx.shape.back();
  const IndexMap im = tuple_map(data.shape, 0, k);
  const int64_t slice = numel(std::span(data.shape).subspan(k));
  const int64_t tuples = numel(std::span(idx.shape).first(idx.shape.size() - 1));
  const KernelArgs args = KernelArgs().ptr(op->out.ptr).ptr(idx.ptr).ptr(ctx.in(2).ptr).pod(im);
  if (attrs.reduction == 0)
    return launch_indexed(ctx, entry("gk_gs_scatter_nd", et, op->it), KernelArgs(args).i64(slice), tuples * slice);
  return launch_indexed(ctx, entry("gk_gs_scatter_nd_reduce", et, op->it, KernelName::number(attrs.reduction)),
                        KernelArgs(args).i64(tuples), slice);
}

constexpr OpImpl kScatterElements{&parse_scatter, &infer_scatter_elements, &run_scatter_elements};
constexpr OpImpl kScatterND{&parse_scatter, &infer_scatter_nd, &run_scatter_nd};

constexpr OpTraits kInPlace{.inplace_input = 0};

const OpSchema kScatterOps[] = {
    {"", "Scatter", 9, 10, &kScatterElements, kInPlace},
    {"", "ScatterElements", 11, kOpsetCurrent, &kScatterElements, kInPlace},
    {"", "ScatterND", 11, kOpsetCurrent, &kScatterND, kInPlace},
};

}  // namespace

std::span<const OpSchema> scatter_ops() { return kScatterOps; }

}  // namespace gk::families

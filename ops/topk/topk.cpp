// TopK: k from an attribute before opset 10, from a host-known int64 input after;
// `largest` and `sorted` from opset 11 (before it: largest, sorted).
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

struct TopkAttrs {
  bool k_from_input = true;
  int64_t k = 0;  // the attribute form
  int64_t axis = -1;
  bool largest = true;
};

Result<ParsedAttrs> parse_impl(const AttrMap& a, const NodeView& node, bool k_from_input) {
  auto r = std::make_shared<TopkAttrs>();
  r->k_from_input = k_from_input;
  if (!k_from_input) {
    GK_TRY(r->k, a.require_int("k"));
  }
  GK_TRY(r->axis, a.get_int("axis", -1));
  GK_TRY(int64_t largest, a.get_int("largest", 1));
  r->largest = largest != 0;
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_attr(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, false); }
Result<ParsedAttrs> parse_input(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, true); }

Result<int64_t> k_of(const TopkAttrs& r, const NodeView& node, const HostTensor* k_input, int64_t dim) {
  int64_t k = r.k;
  if (r.k_from_input) {
    if (!k_input) return unimplemented("{}: K must be known before the run (a constant)", node.describe());
    if (k_input->dtype() != DType::kI64 || k_input->numel() != 1)
      return invalid_model("{}: K must hold one int64, got {} of shape {}", node.describe(),
                           dtype_name(k_input->dtype()), shape_str(k_input->shape()));
    k = k_input->as_i64(0);
  }
  if (k < 0 || k > dim)
    return invalid_argument("{}: k = {} is out of the range [0, {}] (the axis' size)", node.describe(), k, dim);
  return k;
}

Status infer(InferContext& ctx) {
  const auto& r = attrs_as<TopkAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!kernel_type_name(x.dtype) || x.dtype == DType::kBool)
    return unimplemented("{}: element type {} is not supported", ctx.node.describe(), dtype_name(x.dtype));
  if (x.shape.empty()) return ctx.fail("the input must have rank >= 1");
  GK_TRY(int64_t axis, normalize_axis(r.axis, static_cast<int64_t>(x.shape.size()), ctx.node.describe()));
  const HostTensor* k_value = nullptr;
  if (r.k_from_input) {
    GK_TRY(k_value, ctx.value(1));
  }
  GK_TRY(int64_t k, k_of(r, ctx.node, k_value, x.shape[axis]));
  Shape out = x.shape;
  out[axis] = k;
  ctx.outputs[0] = {x.dtype, out};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {DType::kI64, out};
  return ok_status();
}

Status run(KernelContext& ctx) {
  const auto& r = ctx.attrs<TopkAttrs>();
  const TensorRef& x = ctx.in(0);
  if (ctx.out(0).numel() == 0) return ok_status();
  GK_TRY(int64_t axis, normalize_axis(r.axis, static_cast<int64_t>(x.shape.size()), ctx.node().describe()));
  GK_TRY(int64_t k, k_of(r, ctx.node(), r.k_from_input ? ctx.in(1).host : nullptr, x.shape[axis]));
  // Indices are an output the model may leave unnamed; the kernel writes them anyway.
  DevPtr indices = ctx.num_outputs() > 1 && ctx.out(1).ptr ? ctx.out(1).ptr : 0;
  if (!indices) {
    GK_TRY(GkBuf tmp, ctx.scratch(DType::kI64, ctx.out(0).numel()));
    indices = tmp.ptr();
  }
  RowGeometry g = axis_geometry(x.shape, axis);
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(indices).pod(g).i64(k).i32(r.largest ? 1 : 0);
  return ctx.launch(kernel_sources::topk, KernelName::format("gk_topk<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(g.rows), args);
}

const OpImpl kTopkAttr{&parse_attr, &infer, &run};
const OpImpl kTopkInput{&parse_input, &infer, &run};

const OpSchema kTopkSchemas[] = {
    {"", "TopK", 1, 9, &kTopkAttr, {}},
    {"", "TopK", 10, kOpsetCurrent, &kTopkInput, {.host_inputs = 0b10}},
};

}  // namespace

namespace families {
std::span<const OpSchema> topk_ops() { return kTopkSchemas; }
}  // namespace families

}  // namespace gk

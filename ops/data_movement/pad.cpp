// Pad: modes constant / reflect / edge / wrap. Pads and the value are attributes
// before opset 11, inputs from 11 (constant_value optional), axes input from 18;
// wrap arrived in opset 19. Negative pads crop.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

struct PadAttrs {
  int32_t mode = 0;
  bool from_inputs = true;
  std::vector<int64_t> pads;  // attribute form
  float value = 0;            // attribute form
};

Result<ParsedAttrs> parse_pad(const AttrMap& a, const NodeView& node) {
  PadAttrs attrs;
  GK_TRY(std::string mode, a.get_string("mode", "constant"));
  if (mode == "constant") attrs.mode = 0;
  else if (mode == "reflect") attrs.mode = 1;
  else if (mode == "edge") attrs.mode = 2;
  else if (mode == "wrap") attrs.mode = 3;
  else return invalid_model("{}: mode '{}' is not one of constant, reflect, edge, wrap", node.describe(), mode);
  if (node.opset < 11) {
    attrs.from_inputs = false;
    GK_TRY(attrs.pads, a.require_ints("pads"));
    GK_TRY(attrs.value, a.get_float("value", 0.0f));
  }
  return make_attrs(std::move(attrs));
}

struct PadPlan {
  Shape out;
  std::vector<int64_t> begin;
};

Result<PadPlan> plan_pad(const NodeView& node, const PadAttrs& attrs, const Shape& in,
                         const std::vector<const HostTensor*>& values) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> pads = attrs.pads, axes;
  if (attrs.from_inputs) {
    if (values.size() < 2 || !values[1])
      return unimplemented("{}: pads must be known before the run", node.describe());
    pads = values[1]->to_i64_vector();
    if (node.has_input(3)) {
      if (values.size() < 4 || !values[3])
        return unimplemented("{}: axes must be known before the run", node.describe());
      axes = values[3]->to_i64_vector();
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  if (pads.size() != 2 * axes.size())
    return invalid_model("{}: pads has {} entries, expected {} (begin and end for {} axes)", node.describe(),
                         pads.size(), 2 * axes.size(), axes.size());
  PadPlan plan{in, std::vector<int64_t>(rank, 0)};
  const size_t k = axes.size();
  for (size_t i = 0; i < k; ++i) {
    GK_TRY(int64_t axis, normalize_axis(node, axes[i], rank, "axes entry"));
    plan.begin[axis] = pads[i];
    if (__builtin_add_overflow(in[axis], pads[i], &plan.out[axis]) ||
        __builtin_add_overflow(plan.out[axis], pads[i + k], &plan.out[axis]))
      return invalid_model("{}: pads {} on axis {} (dim {}) overflow int64", node.describe(), shape_str(pads), axis,
                           in[axis]);
    if (plan.out[axis] < 0)
      return invalid_model("{}: pads {} crop axis {} (dim {}) below zero", node.describe(), shape_str(pads), axis,
                           in[axis]);
    if (attrs.mode != 0 && in[axis] == 0 && plan.out[axis] > 0)
      return invalid_model("{}: cannot pad the empty axis {} in a non-constant mode", node.describe(), axis);
  }
  return plan;
}

std::vector<const HostTensor*> host_values(const KernelContext& ctx) {
  std::vector<const HostTensor*> v;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) v.push_back(ctx.in(i).host);
  return v;
}

Status infer_pad(InferContext& ctx) {
  GK_TRY(PadPlan plan, plan_pad(ctx.node, attrs_as<PadAttrs>(ctx.attrs), ctx.in(0).shape, ctx.values));
  ctx.outputs[0] = {ctx.in(0).dtype, plan.out};
  return ok_status();
}

Status run_pad(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<PadAttrs>();
  const TensorRef& in = ctx.in(0);
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  GK_TRY(PadPlan plan, plan_pad(ctx.node(), attrs, in.shape, host_values(ctx)));
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  uint64_t value = 0;
  if (!attrs.from_inputs) {
    GK_TRY(value, bits_from_double(ctx.node(), in.dtype, attrs.value));
  } else if (ctx.node().has_input(2) && ctx.in(2).present()) {
    const HostTensor* v = ctx.in(2).host;
    if (!v) return unimplemented("{}: constant_value must be known before the run", ctx.node().describe());
    if (v->numel() > 0) value = element_bits(*v, 0);
  }
  if (in.shape.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("{}: rank {} exceeds the supported {}", ctx.node().describe(), in.shape.size(), kMaxRank);
  PadMap map;
  map.rank = static_cast<int32_t>(in.shape.size());
  map.mode = attrs.mode;
  auto strides = contiguous_strides(in.shape);
  for (size_t d = 0; d < in.shape.size(); ++d) {
    map.out_dims[d] = out.shape[d];
    map.in_dims[d] = in.shape[d];
    map.in_strides[d] = strides[d];
    map.begin[d] = plan.begin[d];
  }
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_pad", width_name(esize)), grid_for(n),
                    KernelArgs().ptr(in.ptr).ptr(out.ptr).pod(map).i64(static_cast<int64_t>(value)).i64(n));
}

constexpr OpImpl kPad{&parse_pad, &infer_pad, &run_pad};

const OpSchema kPadOps[] = {
    {"", "Pad", 2, 10, &kPad, {}},
    {"", "Pad", 11, kOpsetCurrent, &kPad, {.host_inputs = 0b1110u}},
};

}  // namespace

std::span<const OpSchema> pad_ops() { return kPadOps; }

}  // namespace gk::families

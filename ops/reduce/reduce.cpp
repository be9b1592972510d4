// ReduceSum/Mean/Max/Min/Prod/L1/L2/LogSum/LogSumExp/SumSquare. Axes come from an
// attribute until the opset that moved them to an input (ReduceSum 13, the others
// 18); noop_with_empty_axes (same opsets) turns "no axes" into a per-element map.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace gk {
namespace {

// Kernel op codes; must match GK_RED_* in ops/reduce/reduce.cuh.
constexpr std::array<std::string_view, 10> kReduceOps = {
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
    "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"};
constexpr int kMax = 2, kMin = 3;

struct ReduceAttrs {
  int op = 0;
  bool axes_from_input = false;
  std::vector<int64_t> axes;  // the attribute form
  bool keepdims = true;
  bool noop_with_empty_axes = false;
};

Result<ParsedAttrs> parse_common(const AttrMap& a, const NodeView& node, bool axes_from_input) {
  auto r = std::make_shared<ReduceAttrs>();
  auto it = std::find(kReduceOps.begin(), kReduceOps.end(), node.op_type);
  if (it == kReduceOps.end()) return internal_error("{}: not a reduce op", node.describe());
  r->op = static_cast<int>(it - kReduceOps.begin());
  r->axes_from_input = axes_from_input;
  GK_TRY(int64_t keep, a.get_int("keepdims", 1));
  GK_TRY(int64_t noop, a.get_int("noop_with_empty_axes", 0));
  r->keepdims = keep != 0;
  r->noop_with_empty_axes = noop != 0;
  if (!axes_from_input) {
    GK_TRY(r->axes, a.get_ints("axes", {}));
  } else if (a.has("axes")) {
    return invalid_model("{}: 'axes' is an input at opset {}, not an attribute", node.describe(), node.opset);
  }
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_attr_axes(const AttrMap& a, const NodeView& node) { return parse_common(a, node, false); }
Result<ParsedAttrs> parse_input_axes(const AttrMap& a, const NodeView& node) { return parse_common(a, node, true); }

bool dtype_allowed(int op, DType t) {
  switch (t) {
    case DType::kF32: case DType::kF64: case DType::kF16: case DType::kBF16:
    case DType::kI32: case DType::kI64: case DType::kU32: case DType::kU64:
      return true;
    case DType::kI8: case DType::kU8: case DType::kBool:
      return op == kMax || op == kMin;
    default:
      return false;
  }
}

// The reduced axes (sorted), or nullopt for the noop form (no axes, noop set).
Result<std::optional<std::vector<int64_t>>> resolve_axes(const ReduceAttrs& r, const NodeView& node,
                                                          const Shape& shape, const HostTensor* axes_input,
                                                          bool axes_present) {
  std::vector<int64_t> axes = r.axes;
  if (r.axes_from_input && axes_present) {
    if (!axes_input)
      return unimplemented("{}: the axes input must be known before the run (a constant)", node.describe());
    if (axes_input->dtype() != DType::kI64)
      return invalid_model("{}: axes must be int64, got {}", node.describe(), dtype_name(axes_input->dtype()));
    axes = axes_input->to_i64_vector();
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (axes.empty()) {
    if (r.noop_with_empty_axes) return std::optional<std::vector<int64_t>>();
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    return std::optional<std::vector<int64_t>>(std::move(axes));
  }
  GK_TRY(axes, normalize_axes(std::move(axes), rank, node.describe()));
  return std::optional<std::vector<int64_t>>(std::move(axes));
}

Status infer(InferContext& ctx) {
  const auto& r = attrs_as<ReduceAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!dtype_allowed(r.op, x.dtype))
    return unimplemented("{}: element type {} is not supported", ctx.node.describe(), dtype_name(x.dtype));
  const bool present = ctx.node.has_input(1);
  const HostTensor* axes_value = present && ctx.has_value(1) ? ctx.values[1] : nullptr;
  if (r.axes_from_input && present && !axes_value) GK_RETURN_IF_ERROR(ctx.value(1).status());
  GK_TRY(auto axes, resolve_axes(r, ctx.node, x.shape, axes_value, present));
  Shape out;
  if (!axes) {
    out = x.shape;
  } else {
    for (size_t d = 0; d < x.shape.size(); ++d) {
      bool reduced = std::binary_search(axes->begin(), axes->end(), static_cast<int64_t>(d));
      if (!reduced) out.push_back(x.shape[d]);
      else if (r.keepdims) out.push_back(1);
    }
  }
  ctx.outputs[0] = {x.dtype, std::move(out)};
  return ok_status();
}

Status run(KernelContext& ctx) {
  const auto& r = ctx.attrs<ReduceAttrs>();
  const TensorRef& x = ctx.in(0);
  TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  const bool present = ctx.num_inputs() > 1 && ctx.in(1).present();
  GK_TRY(auto axes, resolve_axes(r, ctx.node(), x.shape, present ? ctx.in(1).host : nullptr, present));
  GK_TRY(RowGeometry g, row_geometry(x.shape, axes ? *axes : std::vector<int64_t>{}));
  // One thread per row unless rows are long and few enough that a block's tree
  // reduction pays (thresholds untuned).
  const bool block = g.len > 64 && (g.general || g.inner == 1 || g.rows < 2048);
  const KernelName entry = KernelName::format(
      "gk_reduce_{}<{}, {}>", {block ? "block" : "thread", kernel_type_name(x.dtype), KernelName::number(r.op)});
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).pod(g);
  return ctx.launch(kernel_sources::reduce, entry, block ? rows_launch(g.rows, g.len) : grid_for(g.rows), args);
}

const OpImpl kReduceAttr{&parse_attr_axes, &infer, &run};
const OpImpl kReduceInput{&parse_input_axes, &infer, &run};
constexpr OpTraits kAxesInput{.host_inputs = 0b10};

const OpSchema kReduceSchemas[] = {
    {"", "ReduceSum", 1, 12, &kReduceAttr, {}},
    {"", "ReduceSum", 13, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceMean", 1, 17, &kReduceAttr, {}},
    {"", "ReduceMean", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceMax", 1, 17, &kReduceAttr, {}},
    {"", "ReduceMax", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceMin", 1, 17, &kReduceAttr, {}},
    {"", "ReduceMin", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceProd", 1, 17, &kReduceAttr, {}},
    {"", "ReduceProd", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceL1", 1, 17, &kReduceAttr, {}},
    {"", "ReduceL1", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceL2", 1, 17, &kReduceAttr, {}},
    {"", "ReduceL2", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceLogSum", 1, 17, &kReduceAttr, {}},
    {"", "ReduceLogSum", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceLogSumExp", 1, 17, &kReduceAttr, {}},
    {"", "ReduceLogSumExp", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
    {"", "ReduceSumSquare", 1, 17, &kReduceAttr, {}},
    {"", "ReduceSumSquare", 18, kOpsetCurrent, &kReduceInput, kAxesInput},
};

}  // namespace

namespace families {
std::span<const OpSchema> reduce_ops() { return kReduceSchemas; }
}  // namespace families

}  // namespace gk

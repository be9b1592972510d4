// CumSum (opset 11; f16/bf16 from 14) and CumProd (opset 26): inclusive or
// exclusive scans along an axis given as a 0-D input, forwards or reversed.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

struct CumAttrs {
  bool prod = false;
  bool exclusive = false;
  bool reverse = false;
};

Result<ParsedAttrs> parse(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<CumAttrs>();
  r->prod = node.op_type == "CumProd";
  GK_TRY(int64_t exclusive, a.get_int("exclusive", 0));
  GK_TRY(int64_t reverse, a.get_int("reverse", 0));
  r->exclusive = exclusive != 0;
  r->reverse = reverse != 0;
  return ParsedAttrs(std::move(r));
}

bool dtype_allowed(DType t) {
  switch (t) {
    case DType::kF32: case DType::kF64: case DType::kF16: case DType::kBF16:
    case DType::kI32: case DType::kI64: case DType::kU32: case DType::kU64:
      return true;
    default:
      return false;
  }
}

Result<int64_t> axis_of(const NodeView& node, const Shape& shape, const HostTensor* axis) {
  if (!axis) return unimplemented("{}: the axis input must be known before the run (a constant)", node.describe());
  if ((axis->dtype() != DType::kI32 && axis->dtype() != DType::kI64) || axis->numel() != 1)
    return invalid_model("{}: axis must be one int32 or int64 value, got {} of shape {}", node.describe(),
                         dtype_name(axis->dtype()), shape_str(axis->shape()));
  return normalize_axis(axis->as_i64(0), static_cast<int64_t>(shape.size()), node.describe());
}

Status infer(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  if (!dtype_allowed(x.dtype))
    return unimplemented("{}: element type {} is not supported", ctx.node.describe(), dtype_name(x.dtype));
  if (x.shape.empty()) return ctx.fail("the input must have rank >= 1");
  GK_TRY(const HostTensor* axis, ctx.value(1));
  GK_RETURN_IF_ERROR(axis_of(ctx.node, x.shape, axis).status());
  ctx.outputs[0] = x;
  return ok_status();
}

Status run(KernelContext& ctx) {
  const auto& r = ctx.attrs<CumAttrs>();
  const TensorRef& x = ctx.in(0);
  TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  GK_TRY(int64_t axis, axis_of(ctx.node(), x.shape, ctx.in(1).host));
  RowGeometry g = axis_geometry(x.shape, axis);
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).pod(g).i32(r.exclusive ? 1 : 0).i32(r.reverse ? 1 : 0);
  return ctx.launch(
      kernel_sources::reduce,
      KernelName::format("gk_cumulative<{}, {}>", {kernel_type_name(x.dtype), KernelName::number(r.prod ? 1 : 0)}),
      grid_for(g.rows), args);
}

const OpImpl kCumulative{&parse, &infer, &run};
constexpr OpTraits kAxisInput{.host_inputs = 0b10};

const OpSchema kCumSchemas[] = {
    {"", "CumSum", 11, kOpsetCurrent, &kCumulative, kAxisInput},
    {"", "CumProd", 26, kOpsetCurrent, &kCumulative, kAxisInput},
};

}  // namespace

namespace families {
std::span<const OpSchema> cumulative_ops() { return kCumSchemas; }
}  // namespace families

}  // namespace gk

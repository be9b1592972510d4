// LRN (across channels) and LpNormalization (along one axis): the normalisations
// that divide by a local norm rather than a mean and variance.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

struct LocalAttrs {
  int64_t size = 0;  // LRN
  float alpha = 1e-4f, beta = 0.75f, bias = 1.0f;
  int64_t axis = -1;  // LpNormalization
  int64_t p = 2;
};

Status require_float(const InferContext& ctx) {
  if (!dtype_is_float(ctx.in(0).dtype))
    return unimplemented("{}: element type {} is not supported (float types only)", ctx.node.describe(),
                         dtype_name(ctx.in(0).dtype));
  return ok_status();
}

Result<ParsedAttrs> parse_lrn(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<LocalAttrs>();
  GK_TRY(r->size, a.require_int("size"));
  GK_TRY(r->alpha, a.get_float("alpha", 1e-4f));
  GK_TRY(r->beta, a.get_float("beta", 0.75f));
  GK_TRY(r->bias, a.get_float("bias", 1.0f));
  if (r->size <= 0 || r->size > (1 << 20))
    return invalid_model("{}: size {} is out of the range [1, {}]", node.describe(), r->size, 1 << 20);
  return ParsedAttrs(std::move(r));
}

Status infer_lrn(InferContext& ctx) {
  GK_RETURN_IF_ERROR(require_float(ctx));
  if (ctx.in(0).shape.size() < 2) return ctx.fail("the input must have rank >= 2 (N, C, ...)");
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

Status run_lrn(KernelContext& ctx) {
  const auto& r = ctx.attrs<LocalAttrs>();
  const TensorRef& x = ctx.in(0);
  const int64_t n = x.numel();
  if (n == 0) return ok_status();
  int64_t inner = 1;
  for (size_t d = 2; d < x.shape.size(); ++d) inner *= x.shape[d];
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).i64(n).i64(x.shape[1]).i64(inner);
  args.i32(static_cast<int32_t>(r.size)).f32(r.alpha).f32(r.beta).f32(r.bias);
  return ctx.launch(kernel_sources::normalization, KernelName::format("gk_lrn<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(n), args);
}

Result<ParsedAttrs> parse_lp(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<LocalAttrs>();
  GK_TRY(r->axis, a.get_int("axis", -1));
  GK_TRY(r->p, a.get_int("p", 2));
  if (r->p != 1 && r->p != 2) return invalid_model("{}: p must be 1 or 2, got {}", node.describe(), r->p);
  return ParsedAttrs(std::move(r));
}

Status infer_lp(InferContext& ctx) {
  GK_RETURN_IF_ERROR(require_float(ctx));
  const int64_t rank = static_cast<int64_t>(ctx.in(0).shape.size());
  GK_RETURN_IF_ERROR(normalize_axis(attrs_as<LocalAttrs>(ctx.attrs).axis, rank, ctx.node.describe()).status());
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

Status run_lp(KernelContext& ctx) {
  const auto& r = ctx.attrs<LocalAttrs>();
  const TensorRef& x = ctx.in(0);
  if (x.numel() == 0) return ok_status();
  RowGeometry g;
  g.rows = 1;
  if (!x.shape.empty()) {
    GK_TRY(int64_t axis, normalize_axis(r.axis, static_cast<int64_t>(x.shape.size()), ctx.node().describe()));
    g = axis_geometry(x.shape, axis);
  }
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).pod(g).i32(static_cast<int32_t>(r.p));
  return ctx.launch(kernel_sources::normalization, KernelName::format("gk_lpnorm<{}>", {kernel_type_name(x.dtype)}),
                    rows_launch(g.rows, g.len), args);
}

const OpImpl kLrn{&parse_lrn, &infer_lrn, &run_lrn};
const OpImpl kLp{&parse_lp, &infer_lp, &run_lp};

const OpSchema kLocalSchemas[] = {
    {"", "LRN", 1, kOpsetCurrent, &kLrn, {}},
    {"", "LpNormalization", 1, kOpsetCurrent, &kLp, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> normalization_local_ops() { return kLocalSchemas; }
}  // namespace families

}  // namespace gk

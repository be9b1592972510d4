// Gemm: Y = alpha * op(A) op(B) + beta * C, C broadcast unidirectionally to (M, N)
// (optional from opset 11), on the tiled GEMM. Transposes are strides, not copies.
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"

namespace gk {
namespace {

struct GemmAttrs {
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
};

Result<ParsedAttrs> parse_gemm(const AttrMap& attrs, const NodeView&) {
  auto a = std::make_shared<GemmAttrs>();
  GK_TRY(int64_t ta, attrs.get_int("transA", 0));
  GK_TRY(int64_t tb, attrs.get_int("transB", 0));
  GK_TRY(a->alpha, attrs.get_float("alpha", 1.0f));
  GK_TRY(a->beta, attrs.get_float("beta", 1.0f));
  a->trans_a = ta != 0;
  a->trans_b = tb != 0;
  return ParsedAttrs(a);
}

struct GemmDims {
  int64_t M, N, K;
};

Result<GemmDims> gemm_dims(const NodeView& node, const GemmAttrs& at, const Shape& a, const Shape& b,
                           const Shape* c) {
  if (a.size() != 2 || b.size() != 2)
    return invalid_model("{}: Gemm A and B must be 2-D, got {} and {}", node.describe(), shape_str(a),
                         shape_str(b));
  GemmDims d;
  d.M = at.trans_a ? a[1] : a[0];
  d.K = at.trans_a ? a[0] : a[1];
  const int64_t kb = at.trans_b ? b[1] : b[0];
  d.N = at.trans_b ? b[0] : b[1];
  if (kb != d.K)
    return invalid_model("{}: Gemm inner dims differ: op(A) is {}x{}, op(B) is {}x{}", node.describe(), d.M,
                         d.K, kb, d.N);
  if (c) {
    const Shape& cs = *c;
    bool ok = cs.size() <= 2;
    if (ok && !cs.empty()) ok = cs.back() == 1 || cs.back() == d.N;
    if (ok && cs.size() == 2) ok = cs[0] == 1 || cs[0] == d.M;
    if (!ok)
      return invalid_model("{}: Gemm C of shape {} does not broadcast to {}x{}", node.describe(),
                           shape_str(cs), d.M, d.N);
  }
  return d;
}

Status infer_gemm(InferContext& ctx) {
  const auto& at = attrs_as<GemmAttrs>(ctx.attrs);
  const bool has_c = ctx.node.has_input(2);
  if (ctx.in(0).dtype != ctx.in(1).dtype || (has_c && ctx.in(2).dtype != ctx.in(0).dtype))
    return ctx.fail("A, B and C element types differ");
  GK_TRY(GemmDims d, gemm_dims(ctx.node, at, ctx.in(0).shape, ctx.in(1).shape, has_c ? &ctx.in(2).shape : nullptr));
  ctx.outputs[0] = {ctx.in(0).dtype, {d.M, d.N}};
  return ok_status();
}

Status run_gemm(KernelContext& ctx) {
  const auto& at = ctx.attrs<GemmAttrs>();
  const TensorRef &a = ctx.in(0), &b = ctx.in(1);
  const bool has_c = ctx.num_inputs() > 2 && ctx.in(2).present();
  GK_TRY(GemmDims d, gemm_dims(ctx.node(), at, a.shape, b.shape, has_c ? &ctx.in(2).shape : nullptr));
  GemmCall g;
  g.dtype = a.dtype;
  g.M = d.M, g.N = d.N, g.K = d.K;
  g.a = a.ptr, g.b = b.ptr, g.y = ctx.out(0).ptr;
  // A is stored M x K (or K x M transposed), B K x N (or N x K).
  g.a_sm = at.trans_a ? 1 : d.K;
  g.a_sk = at.trans_a ? d.M : 1;
  g.b_sk = at.trans_b ? 1 : d.N;
  g.b_sn = at.trans_b ? d.K : 1;
  g.alpha = at.alpha, g.beta = at.beta;
  g.epilogue = ctx.node().epilogue;
  if (d.K == 0) g.a = g.b = ctx.out(0).ptr;  // nothing is read; pointers must be valid
  if (has_c && ctx.in(2).numel() > 0) {
    const Shape& cs = ctx.in(2).shape;
    g.has_c = true;
    g.c = ctx.in(2).ptr;
    const int64_t c_rows = cs.size() == 2 ? cs[0] : 1, c_cols = cs.empty() ? 1 : cs.back();
    g.c_sm = c_rows == 1 ? 0 : c_cols;
    g.c_sn = c_cols == 1 ? 0 : 1;
  }
  return launch_gemm(ctx, g);
}

const OpImpl kGemm{&parse_gemm, &infer_gemm, &run_gemm};

// Gemm 1-6 asked for C's broadcast with a `broadcast` attribute (C then
// broadcasts unidirectionally, as from 7 on; without it C is [M, N], which the
// same rule accepts). 9, 11 (optional C) and 13 widened types and inputs without
// changing the arithmetic, so one entry covers them all.
const OpSchema kGemmOps[] = {
    {"", "Gemm", 1, kOpsetCurrent, &kGemm, {.accepts_epilogue = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> gemm_ops() { return kGemmOps; }
}  // namespace families

}  // namespace gk

// Integer matrix products: MatMulInteger (10), QLinearMatMul (10, 21), ConvInteger
// (10) and QLinearConv (10). Each operand minus its zero point is widened to int32
// (gk_q_widen; for convolutions gk_q_im2col gathers the im2col matrix), the product
// runs on the int32 tiled GEMM (ops/matmul/gemm_launch.h) with int32 accumulation
// (wrapping, as the spec allows), and the QLinear ops requantize the result
// (gk_q_requant). The im2col matrix costs 4 * kernel volume bytes per input byte
// of scratch (a 3x3 conv: 36x); correctness first, no int8 dot-product path yet.

#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/quantize/quantize.cuh"
#include "ops/common/spatial.h"

#include <memory>

namespace gk {
namespace {

constexpr TypeSet kInt8Types = type_bit(DType::kI8) | type_bit(DType::kU8);

Status check_int8(const NodeView& node, const char* what, DType t) {
  if (type_in(t, kInt8Types)) return ok_status();
  if (dtype_is_minifloat(t))
    return unimplemented("{}: {} is {}; float8 operands are not supported (int8 and uint8 are)", node.describe(),
                         what, dtype_name(t));
  return invalid_model("{}: {} is {}; must be int8 or uint8", node.describe(), what, dtype_name(t));
}

Status check_same(const NodeView& node, const char* what, DType t, const char* of, DType want) {
  if (t == want) return ok_status();
  return invalid_model("{}: {} is {}; it must have {}'s type {}", node.describe(), what, dtype_name(t), of,
                       dtype_name(want));
}

// A quantization parameter's shape as it broadcasts against its operand
// [..., rows, cols]: one element is a scalar; a 1-D per-row vector [rows] (the
// A side) stands for [rows, 1]; anything else broadcasts as numpy would.
Shape param_shape(const Shape& p, bool per_row) {
  if (numel(p) == 1) return {};
  if (per_row && p.size() == 1) return {p[0], 1};
  return p;
}

// The map from `target` indices to the parameter, which must broadcast into
// `target` without enlarging it.
Result<IndexMap> param_map(const NodeView& node, const char* what, const Shape& target, const Shape& p, bool per_row) {
  const Shape eff = param_shape(p, per_row);
  auto b = broadcast_shapes(target, eff);
  if (!b.ok() || *b != target)
    return invalid_model("{}: {} has shape {}, which does not fit {} (a scalar, or per-{} values)", node.describe(),
                         what, shape_str(p), shape_str(target), per_row ? "row" : "column");
  return broadcast_map(target, eff);
}

// out = x - zp (as int32, zp broadcast through zmap; zp may be absent).
Status launch_widen(KernelContext& ctx, const TensorRef& x, const TensorRef* zp, const IndexMap& zmap, DevPtr out) {
  if (x.numel() == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(zp ? zp->ptr : 0).ptr(out).pod(zmap).i64(x.numel());
  return ctx.launch(kernel_sources::quantize, KernelName::format("gk_q_widen<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(x.numel()), args);
}

// y = saturate(round(acc * sa * sb / sy + zy)), parameters broadcast over `out`.
struct Requant {
  const TensorRef *sa, *sb, *sy, *zy;
  IndexMap amap, bmap, ymap, zmap;
};
Status launch_requant(KernelContext& ctx, DevPtr acc, const Requant& r, const TensorRef& y) {
  if (y.numel() == 0) return ok_status();
  KernelArgs args;
  args.ptr(acc).ptr(r.sa->ptr).ptr(r.sb->ptr).ptr(r.sy->ptr).ptr(r.zy ? r.zy->ptr : 0).ptr(y.ptr);
  args.pod(r.amap).pod(r.bmap).pod(r.ymap).pod(r.zmap).i64(y.numel());
  return ctx.launch(
      kernel_sources::quantize,
      KernelName::format("gk_q_requant<{}, {}>", {kernel_type_name(r.sa->dtype), kernel_type_name(y.dtype)}),
      grid_for(y.numel()), args);
}

// ---- MatMulInteger / QLinearMatMul ----

struct MMDims {
  Shape a_batch, b_batch, out_batch, out, a2, b2;  // a2/b2: operands as matrices
  int64_t M = 0, K = 0, N = 0;
};

// numpy matmul: batch dims broadcast; a 1-D operand is a matrix whose extra dim
// leaves the result.
Result<MMDims> mm_dims(const NodeView& node, const Shape& a, const Shape& b) {
  if (a.empty() || b.empty())
    return invalid_model("{}: operands must have rank >= 1, got {} and {}", node.describe(), shape_str(a),
                         shape_str(b));
  MMDims d;
  d.a2 = a.size() == 1 ? Shape{1, a[0]} : a;
  d.b2 = b.size() == 1 ? Shape{b[0], 1} : b;
  d.M = d.a2[d.a2.size() - 2], d.K = d.a2.back(), d.N = d.b2.back();
  if (d.b2[d.b2.size() - 2] != d.K)
    return invalid_model("{}: inner dims differ: A is {}, B is {}", node.describe(), shape_str(a), shape_str(b));
  d.a_batch.assign(d.a2.begin(), d.a2.end() - 2);
  d.b_batch.assign(d.b2.begin(), d.b2.end() - 2);
  auto ob = broadcast_shapes(d.a_batch, d.b_batch);
  if (!ob.ok())
    return invalid_model("{}: batch dims of {} and {} do not broadcast", node.describe(), shape_str(a), shape_str(b));
  d.out_batch = *ob;
  d.out = d.out_batch;
  if (a.size() > 1) d.out.push_back(d.M);
  if (b.size() > 1) d.out.push_back(d.N);
  return d;
}

// The int32 product of the widened operands into y (int32, d.out's layout).
Status launch_int_gemm(KernelContext& ctx, const MMDims& d, DevPtr a, DevPtr b, DevPtr y) {
  GemmCall g;
  g.dtype = DType::kI32;
  g.M = d.M, g.N = d.N, g.K = d.K, g.batch = numel(d.out_batch);
  g.a = a, g.b = b, g.y = y;
  g.a_sm = d.K, g.a_sk = 1, g.b_sk = d.N, g.b_sn = 1;
  if (d.K == 0) {
    g.a = g.b = y;  // nothing is read; the kernel writes 0
    return launch_gemm(ctx, g);
  }
  GK_TRY(g.amap, batch_map(d.out_batch, d.a_batch, d.M * d.K));
  GK_TRY(g.bmap, batch_map(d.out_batch, d.b_batch, d.K * d.N));
  return launch_gemm(ctx, g);
}

// Widens A and B (minus their zero points, inputs za / zb when present) and
// multiplies them into `acc`.
Status int_matmul(KernelContext& ctx, const MMDims& d, size_t ia, size_t iza, size_t ib, size_t izb, DevPtr acc) {
  const TensorRef &a = ctx.in(ia), &b = ctx.in(ib);
  auto opt = [&](size_t i) -> const TensorRef* {
    return i < ctx.num_inputs() && ctx.in(i).present() ? &ctx.in(i) : nullptr;
  };
  const TensorRef *za = opt(iza), *zb = opt(izb);
  IndexMap amap, bmap;
  if (za) {
    GK_TRY(amap, param_map(ctx.node(), "a_zero_point", d.a2, za->shape, true));
  }
  if (zb) {
    GK_TRY(bmap, param_map(ctx.node(), "b_zero_point", d.b2, zb->shape, false));
  }
  GK_TRY(GkBuf wa, ctx.scratch(DType::kI32, std::max<int64_t>(a.numel(), 1)));
  GK_TRY(GkBuf wb, ctx.scratch(DType::kI32, std::max<int64_t>(b.numel(), 1)));
  GK_RETURN_IF_ERROR(launch_widen(ctx, a, za, amap, wa.ptr()));
  GK_RETURN_IF_ERROR(launch_widen(ctx, b, zb, bmap, wb.ptr()));
  return launch_int_gemm(ctx, d, wa.ptr(), wb.ptr(), acc);
}

Status infer_matmul_integer(InferContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.fail("takes inputs A, B and optional zero points");
  GK_RETURN_IF_ERROR(check_int8(ctx.node, "A", ctx.in(0).dtype));
  GK_RETURN_IF_ERROR(check_int8(ctx.node, "B", ctx.in(1).dtype));
  if (ctx.node.has_input(2))
    GK_RETURN_IF_ERROR(check_same(ctx.node, "a_zero_point", ctx.in(2).dtype, "A", ctx.in(0).dtype));
  if (ctx.node.has_input(3))
    GK_RETURN_IF_ERROR(check_same(ctx.node, "b_zero_point", ctx.in(3).dtype, "B", ctx.in(1).dtype));
  GK_TRY(MMDims d, mm_dims(ctx.node, ctx.in(0).shape, ctx.in(1).shape));
  if (ctx.node.has_input(2)) GK_RETURN_IF_ERROR(param_map(ctx.node, "a_zero_point", d.a2, ctx.in(2).shape, true).status());
  if (ctx.node.has_input(3)) GK_RETURN_IF_ERROR(param_map(ctx.node, "b_zero_point", d.b2, ctx.in(3).shape, false).status());
  ctx.outputs[0] = {DType::kI32, d.out};
  return ok_status();
}

Status run_matmul_integer(KernelContext& ctx) {
  GK_TRY(MMDims d, mm_dims(ctx.node(), ctx.in(0).shape, ctx.in(1).shape));
  if (ctx.out(0).numel() == 0) return ok_status();
  return int_matmul(ctx, d, 0, 2, 1, 3, ctx.out(0).ptr);
}

// Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point.
Status check_qlinear_matmul(const NodeView& node, const std::vector<TensorType>& in, const MMDims& d) {
  if (in.size() != 8) return invalid_model("{}: takes 8 inputs, got {}", node.describe(), in.size());
  GK_RETURN_IF_ERROR(check_int8(node, "a", in[0].dtype));
  GK_RETURN_IF_ERROR(check_int8(node, "b", in[3].dtype));
  GK_RETURN_IF_ERROR(check_int8(node, "y_zero_point", in[7].dtype));
  GK_RETURN_IF_ERROR(check_same(node, "a_zero_point", in[2].dtype, "a", in[0].dtype));
  GK_RETURN_IF_ERROR(check_same(node, "b_zero_point", in[5].dtype, "b", in[3].dtype));
  const TypeSet scales = node.opset >= 21 ? type_bit(DType::kF32) | type_bit(DType::kF16) | type_bit(DType::kBF16)
                                          : type_bit(DType::kF32);
  if (!type_in(in[1].dtype, scales))
    return invalid_model("{}: a_scale is {}; opset {} allows {}", node.describe(), dtype_name(in[1].dtype),
                         node.opset, type_set_names(scales));
  GK_RETURN_IF_ERROR(check_same(node, "b_scale", in[4].dtype, "a_scale", in[1].dtype));
  GK_RETURN_IF_ERROR(check_same(node, "y_scale", in[6].dtype, "a_scale", in[1].dtype));
  GK_RETURN_IF_ERROR(param_map(node, "a_scale", d.a2, in[1].shape, true).status());
  GK_RETURN_IF_ERROR(param_map(node, "a_zero_point", d.a2, in[2].shape, true).status());
  GK_RETURN_IF_ERROR(param_map(node, "b_scale", d.b2, in[4].shape, false).status());
  return param_map(node, "b_zero_point", d.b2, in[5].shape, false).status();
}

// The output seen as [batch..., M, N] (a 1-D operand's dim kept as 1).
Shape matrix_out(const MMDims& d) {
  Shape s = d.out_batch;
  s.push_back(d.M);
  s.push_back(d.N);
  return s;
}

Status infer_qlinear_matmul(InferContext& ctx) {
  if (ctx.inputs.size() != 8) return ctx.fail("takes 8 inputs");
  GK_TRY(MMDims d, mm_dims(ctx.node, ctx.in(0).shape, ctx.in(3).shape));
  GK_RETURN_IF_ERROR(check_qlinear_matmul(ctx.node, ctx.inputs, d));
  const Shape out = matrix_out(d);
  GK_RETURN_IF_ERROR(param_map(ctx.node, "y_scale", out, ctx.in(6).shape, false).status());
  GK_RETURN_IF_ERROR(param_map(ctx.node, "y_zero_point", out, ctx.in(7).shape, false).status());
  ctx.outputs[0] = {ctx.in(7).dtype, d.out};
  return ok_status();
}

Status run_qlinear_matmul(KernelContext& ctx) {
  GK_TRY(MMDims d, mm_dims(ctx.node(), ctx.in(0).shape, ctx.in(3).shape));
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  GK_TRY(GkBuf acc, ctx.scratch(DType::kI32, y.numel()));
  GK_RETURN_IF_ERROR(int_matmul(ctx, d, 0, 2, 3, 5, acc.ptr()));
  const Shape out = matrix_out(d);
  Requant r{&ctx.in(1), &ctx.in(4), &ctx.in(6), &ctx.in(7), {}, {}, {}, {}};
  // a's per-row parameters are [..., M, 1] against the output, b's per-column ones
  // [..., 1, N].
  GK_TRY(r.amap, param_map(ctx.node(), "a_scale", out, param_shape(ctx.in(1).shape, true), false));
  GK_TRY(r.bmap, param_map(ctx.node(), "b_scale", out, ctx.in(4).shape, false));
  GK_TRY(r.ymap, param_map(ctx.node(), "y_scale", out, ctx.in(6).shape, false));
  GK_TRY(r.zmap, param_map(ctx.node(), "y_zero_point", out, ctx.in(7).shape, false));
  return launch_requant(ctx, acc.ptr(), r, y);
}

// ---- ConvInteger / QLinearConv ----

struct QConvAttrs {
  WindowAttrs window;
  int64_t group = 1;
};

Result<ParsedAttrs> parse_qconv(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<QConvAttrs>();
  GK_TRY(a->window, parse_window(attrs, node, false));
  GK_TRY(a->group, attrs.get_int("group", 1));
  if (a->group < 1) return invalid_model("{}: group is {}; must be >= 1", node.describe(), a->group);
  return ParsedAttrs(a);
}

struct QConvGeometry {
  Window w;
  int64_t N = 0, C = 0, Cout = 0;
  Shape out;
};

Result<QConvGeometry> qconv_geometry(const NodeView& node, const QConvAttrs& at, const Shape& x, const Shape& wt) {
  if (x.size() < 3 || wt.size() != x.size())
    return invalid_model("{}: x is {} and w is {}; both need rank >= 3 and equal ranks", node.describe(),
                         shape_str(x), shape_str(wt));
  QConvGeometry g;
  g.N = x[0], g.C = x[1], g.Cout = wt[0];
  if (g.C % at.group != 0 || g.Cout % at.group != 0 || wt[1] * at.group != g.C)
    return invalid_model("{}: channels do not fit group {}: x has {}, w is {}", node.describe(), at.group, g.C,
                         shape_str(wt));
  std::vector<int64_t> kernel(wt.begin() + 2, wt.end());
  if (!at.window.kernel.empty() && at.window.kernel != kernel)
    return invalid_model("{}: kernel_shape {} differs from w's spatial dims {}", node.describe(),
                         shape_str(at.window.kernel), shape_str(kernel));
  GK_TRY(g.w, make_window(node, at.window, Shape(x.begin() + 2, x.end()), kernel));
  g.out = window_output_shape(g.N, g.Cout, g.w);
  return g;
}

// A per-output-channel parameter ([Cout] or one value) as [Cout, 1, ...] of `rank`.
Result<IndexMap> channel_map(const NodeView& node, const char* what, const Shape& target, int64_t channel_axis,
                             const Shape& p) {
  if (numel(p) == 1) return IndexMap{};
  if (p.size() != 1 || p[0] != target[channel_axis])
    return invalid_model("{}: {} is {}; must be a scalar or 1-D of the {} output channels", node.describe(), what,
                         shape_str(p), target[channel_axis]);
  Shape eff(target.size() - channel_axis, 1);
  eff[0] = p[0];
  return broadcast_map(target, eff);
}

Status require_scalar(const NodeView& node, const char* what, const Shape& p) {
  if (numel(p) == 1) return ok_status();
  return invalid_model("{}: {} is {}; must be a scalar", node.describe(), what, shape_str(p));
}

// The int32 convolution of (x - zx) and (w - zw) (+ bias) into acc ([N, Cout, P]).
Status int_conv(KernelContext& ctx, const QConvGeometry& g, int64_t group, size_t iw, const TensorRef* zx,
                const TensorRef* zw, const TensorRef* bias, DevPtr acc) {
  const TensorRef &x = ctx.in(0), &w = ctx.in(iw);
  const Window& win = g.w;
  gk_qconv_geom q{};
  q.C = g.C, q.group = group, q.Cg = g.C / group, q.P = win.out_size(), q.kvol = win.k_size();
  q.Kc = q.Cg * q.kvol;
  for (int d = 0; d < kMaxSpatial; ++d) {
    q.in[d] = win.in[d], q.out[d] = win.out[d], q.k[d] = win.k[d];
    q.s[d] = win.s[d], q.dil[d] = win.dil[d], q.pad[d] = win.pad_begin[d];
  }
  const int64_t M = g.Cout / group;
  const int64_t cols = g.N * group * q.Kc * q.P;
  GK_TRY(IndexMap wmap, zw ? channel_map(ctx.node(), "w_zero_point", w.shape, 0, zw->shape) : IndexMap{});
  GK_TRY(GkBuf ww, ctx.scratch(DType::kI32, std::max<int64_t>(w.numel(), 1)));
  GK_TRY(GkBuf col, ctx.scratch(DType::kI32, std::max<int64_t>(cols, 1)));
  GK_RETURN_IF_ERROR(launch_widen(ctx, w, zw, wmap, ww.ptr()));
  if (cols > 0) {
    KernelArgs args;
    args.ptr(x.ptr).ptr(zx ? zx->ptr : 0).ptr(col.ptr()).pod(q).i64(cols);
    GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::quantize,
                                  KernelName::format("gk_q_im2col<{}>", {kernel_type_name(x.dtype)}), grid_for(cols),
                                  args));
  }
  // Y[n, g] (M x P) = W'[g] (M x Kc) col[n, g] (Kc x P), batch over (n, g).
  GemmCall c;
  c.dtype = DType::kI32;
  c.M = M, c.N = q.P, c.K = q.Kc, c.batch = g.N * group;
  c.a = q.Kc ? ww.ptr() : acc, c.b = q.Kc ? col.ptr() : acc, c.y = acc;
  c.a_sm = q.Kc, c.a_sk = 1, c.b_sk = q.P, c.b_sn = 1;
  c.amap.rank = c.bmap.rank = c.cmap.rank = 2;
  c.amap.dims[0] = c.bmap.dims[0] = c.cmap.dims[0] = g.N;
  c.amap.dims[1] = c.bmap.dims[1] = c.cmap.dims[1] = group;
  c.amap.strides[0] = 0, c.amap.strides[1] = M * q.Kc;
  c.bmap.strides[0] = group * q.Kc * q.P, c.bmap.strides[1] = q.Kc * q.P;
  c.cmap.strides[0] = 0, c.cmap.strides[1] = M;
  c.has_c = bias != nullptr, c.c = bias ? bias->ptr : 0, c.c_sm = 1, c.c_sn = 0;
  return launch_gemm(ctx, c);
}

Status check_conv_operands(const NodeView& node, const std::vector<TensorType>& in, size_t iw, size_t izx,
                           size_t izw) {
  GK_RETURN_IF_ERROR(check_int8(node, "x", in[0].dtype));
  GK_RETURN_IF_ERROR(check_int8(node, "w", in[iw].dtype));
  if (izx < in.size() && in[izx].dtype != DType::kUndefined) {
    GK_RETURN_IF_ERROR(check_same(node, "x_zero_point", in[izx].dtype, "x", in[0].dtype));
    GK_RETURN_IF_ERROR(require_scalar(node, "x_zero_point", in[izx].shape));
  }
  if (izw < in.size() && in[izw].dtype != DType::kUndefined)
    GK_RETURN_IF_ERROR(check_same(node, "w_zero_point", in[izw].dtype, "w", in[iw].dtype));
  return ok_status();
}

Status infer_conv_integer(InferContext& ctx) {
  if (ctx.inputs.size() < 2) return ctx.fail("takes inputs x, w and optional zero points");
  GK_RETURN_IF_ERROR(check_conv_operands(ctx.node, ctx.inputs, 1, 2, 3));
  GK_TRY(QConvGeometry g, qconv_geometry(ctx.node, attrs_as<QConvAttrs>(ctx.attrs), ctx.in(0).shape, ctx.in(1).shape));
  if (ctx.node.has_input(3))
    GK_RETURN_IF_ERROR(channel_map(ctx.node, "w_zero_point", ctx.in(1).shape, 0, ctx.in(3).shape).status());
  ctx.outputs[0] = {DType::kI32, g.out};
  return ok_status();
}

Status run_conv_integer(KernelContext& ctx) {
  const auto& at = ctx.attrs<QConvAttrs>();
  GK_TRY(QConvGeometry g, qconv_geometry(ctx.node(), at, ctx.in(0).shape, ctx.in(1).shape));
  if (ctx.out(0).numel() == 0) return ok_status();
  auto opt = [&](size_t i) -> const TensorRef* {
    return i < ctx.num_inputs() && ctx.in(i).present() ? &ctx.in(i) : nullptr;
  };
  return int_conv(ctx, g, at.group, 1, opt(2), opt(3), nullptr, ctx.out(0).ptr);
}

// Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
// y_zero_point, optional B (int32 [Cout]).
Status infer_qlinear_conv(InferContext& ctx) {
  if (ctx.inputs.size() < 8) return ctx.fail("takes 8 or 9 inputs");
  const NodeView& node = ctx.node;
  GK_RETURN_IF_ERROR(check_conv_operands(node, ctx.inputs, 3, 2, 5));
  GK_RETURN_IF_ERROR(check_int8(node, "y_zero_point", ctx.in(7).dtype));
  for (size_t i : {1, 4, 6})
    if (ctx.in(i).dtype != DType::kF32)
      return ctx.fail(fmt::format("scale input {} is {}; must be float32", i, dtype_name(ctx.in(i).dtype)));
  GK_TRY(QConvGeometry g, qconv_geometry(node, attrs_as<QConvAttrs>(ctx.attrs), ctx.in(0).shape, ctx.in(3).shape));
  GK_RETURN_IF_ERROR(require_scalar(node, "x_scale", ctx.in(1).shape));
  GK_RETURN_IF_ERROR(require_scalar(node, "y_scale", ctx.in(6).shape));
  GK_RETURN_IF_ERROR(require_scalar(node, "y_zero_point", ctx.in(7).shape));
  GK_RETURN_IF_ERROR(channel_map(node, "w_scale", ctx.in(3).shape, 0, ctx.in(4).shape).status());
  GK_RETURN_IF_ERROR(channel_map(node, "w_zero_point", ctx.in(3).shape, 0, ctx.in(5).shape).status());
  if (node.has_input(8) && (ctx.in(8).dtype != DType::kI32 || ctx.in(8).shape != Shape{g.Cout}))
    return ctx.fail(fmt::format("B is {} {}; must be int32 [{}]", dtype_name(ctx.in(8).dtype),
                                shape_str(ctx.in(8).shape), g.Cout));
  ctx.outputs[0] = {ctx.in(7).dtype, g.out};
  return ok_status();
}

Status run_qlinear_conv(KernelContext& ctx) {
  const auto& at = ctx.attrs<QConvAttrs>();
  GK_TRY(QConvGeometry g, qconv_geometry(ctx.node(), at, ctx.in(0).shape, ctx.in(3).shape));
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  const TensorRef* bias = ctx.num_inputs() > 8 && ctx.in(8).present() ? &ctx.in(8) : nullptr;
  GK_TRY(GkBuf acc, ctx.scratch(DType::kI32, y.numel()));
  GK_RETURN_IF_ERROR(int_conv(ctx, g, at.group, 3, &ctx.in(2), &ctx.in(5), bias, acc.ptr()));
  Requant r{&ctx.in(1), &ctx.in(4), &ctx.in(6), &ctx.in(7), {}, {}, {}, {}};
  GK_TRY(r.bmap, channel_map(ctx.node(), "w_scale", y.shape, 1, ctx.in(4).shape));
  return launch_requant(ctx, acc.ptr(), r, y);
}

const OpImpl kMatMulInteger{nullptr, &infer_matmul_integer, &run_matmul_integer};
const OpImpl kQLinearMatMul{nullptr, &infer_qlinear_matmul, &run_qlinear_matmul};
const OpImpl kConvInteger{&parse_qconv, &infer_conv_integer, &run_conv_integer};
const OpImpl kQLinearConv{&parse_qconv, &infer_qlinear_conv, &run_qlinear_conv};

// QLinearMatMul-21 added f16/bf16 scales (checked by node.opset) and float8
// operands (refused as unimplemented).
const OpSchema kOps[] = {
    {"", "MatMulInteger", 10, kOpsetCurrent, &kMatMulInteger, {}},
    {"", "QLinearMatMul", 10, 20, &kQLinearMatMul, {}},
    {"", "QLinearMatMul", 21, kOpsetCurrent, &kQLinearMatMul, {}},
    {"", "ConvInteger", 10, kOpsetCurrent, &kConvInteger, {}},
    {"", "QLinearConv", 10, kOpsetCurrent, &kQLinearConv, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> qlinear_ops() { return kOps; }
}  // namespace families

}  // namespace gk

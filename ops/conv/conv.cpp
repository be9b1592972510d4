// Conv (1-D to 3-D, groups, dilations, strides, pads, auto_pad, optional bias,
// kernel_shape optional). Three launch shapes, picked per node:
//  - depthwise (group == C, one input channel per group): a direct kernel; as a
//    GEMM it would have K = kernel volume (9) and waste the tile;
//  - pointwise (1x1, stride 1, no pad): the input already is the im2col matrix,
//    so it is a batched GEMM on gk_matmul with no gather at all;
//  - everything else: implicit GEMM (gk_conv), which gathers im2col columns into
//    the tile as it goes. Chosen over im2col + GEMM because the im2col buffer of a
//    3x3 conv is 9x its input (a 1x64x160x160 f32 input would need 59 MB of
//    scratch) and writing then rereading it costs more than the gather.
#include "ops/conv/conv_common.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

#include <atomic>
#include <cmath>
#include <limits>

namespace gk {
namespace {

struct ConvAttrs {
  WindowAttrs window;
  int64_t group = 1;
  // Whether the node's constant W is finite (gk_conv_args::finite_w): -1 until the
  // first run scans it; a node's plan-time value never changes.
  mutable std::atomic<int8_t> finite_w{-1};
};

template <typename T>
bool all_finite(const T* v, int64_t n) {
  bool finite = true;
  for (int64_t i = 0; i < n; ++i) finite &= std::abs(v[i]) <= std::numeric_limits<T>::max();
  return finite;
}

// 1 when W is a plan-time constant with no Inf or NaN (scanned on the node's
// first run, not again), else 0.
int32_t weights_known_finite(const ConvAttrs& at, const TensorRef& wt) {
  if (wt.host == nullptr) return 0;
  int8_t v = at.finite_w.load(std::memory_order_relaxed);
  if (v < 0) {
    const HostTensor& h = *wt.host;
    bool finite = true;
    if (h.dtype() == DType::kF32) finite = all_finite(h.data<float>(), h.numel());
    else if (h.dtype() == DType::kF64) finite = all_finite(h.data<double>(), h.numel());
    else  // f16, bf16 (is_conv_dtype)
      for (int64_t i = 0; i < h.numel() && finite; ++i) finite = std::isfinite(h.as_f64(i));
    v = finite ? 1 : 0;
    at.finite_w.store(v, std::memory_order_relaxed);
  }
  return v;
}

Result<ParsedAttrs> parse_conv(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<ConvAttrs>();
  GK_TRY(a->window, parse_window(attrs, node, false));
  GK_TRY(a->group, attrs.get_int("group", 1));
  if (a->group < 1) return invalid_model("{}: group is {}; must be >= 1", node.describe(), a->group);
  return ParsedAttrs(a);
}

struct ConvGeometry {
  Window w;
  int64_t N, C, Cout;
};

Result<ConvGeometry> conv_geometry(const NodeView& node, const ConvAttrs& at, const Shape& x, const Shape& wt,
                                   const Shape* bias) {
  if (x.size() < 3 || wt.size() != x.size())
    return invalid_model("{}: Conv X is {} and W is {}; both need rank >= 3 and equal ranks", node.describe(),
                         shape_str(x), shape_str(wt));
  ConvGeometry g;
  g.N = x[0], g.C = x[1], g.Cout = wt[0];
  if (g.C % at.group != 0 || g.Cout % at.group != 0 || wt[1] * at.group != g.C)
    return invalid_model("{}: Conv channels do not fit group {}: X has {}, W is {}", node.describe(), at.group, g.C,
                         shape_str(wt));
  std::vector<int64_t> kernel(wt.begin() + 2, wt.end());
  if (!at.window.kernel.empty() && at.window.kernel != kernel)
    return invalid_model("{}: kernel_shape {} differs from W's spatial dims {}", node.describe(),
                         shape_str(at.window.kernel), shape_str(kernel));
  if (bias && (bias->size() != 1 || (*bias)[0] != g.Cout))
    return invalid_model("{}: Conv bias is {}, expected [{}]", node.describe(), shape_str(*bias), g.Cout);
  GK_TRY(g.w, make_window(node, at.window, Shape(x.begin() + 2, x.end()), kernel));
  return g;
}

Status infer_conv(InferContext& ctx) {
  const auto& at = attrs_as<ConvAttrs>(ctx.attrs);
  const bool has_b = ctx.node.has_input(2);
  if (ctx.in(1).dtype != ctx.in(0).dtype || (has_b && ctx.in(2).dtype != ctx.in(0).dtype))
    return ctx.fail("X, W and B element types differ");
  GK_TRY(ConvGeometry g, conv_geometry(ctx.node, at, ctx.in(0).shape, ctx.in(1).shape,
                                       has_b ? &ctx.in(2).shape : nullptr));
  ctx.outputs[0] = {ctx.in(0).dtype, window_output_shape(g.N, g.Cout, g.w)};
  return ok_status();
}

Status run_conv(KernelContext& ctx) {
  const auto& at = ctx.attrs<ConvAttrs>();
  const TensorRef &x = ctx.in(0), &wt = ctx.in(1);
  const bool has_b = ctx.num_inputs() > 2 && ctx.in(2).present();
  GK_TRY(ConvGeometry g, conv_geometry(ctx.node(), at, x.shape, wt.shape, has_b ? &ctx.in(2).shape : nullptr));
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  if (!is_conv_dtype(x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const Window& w = g.w;
  gk_conv_args a = conv_args(w, g.N, g.C, g.Cout, at.group, has_b);
  a.finite_w = weights_known_finite(at, wt);
  const Epilogue& epi = ctx.node().epilogue;
  const DevPtr bias = has_b ? ctx.in(2).ptr : x.ptr;

  const bool pointwise = w.k_size() == 1 && w.s[0] * w.s[1] * w.s[2] == 1 && w.pad_begin[0] + w.pad_begin[1] +
                         w.pad_begin[2] + w.pad_end[0] + w.pad_end[1] + w.pad_end[2] == 0;
  if (at.group == g.C && a.Cg == 1 && a.K > 0) {
    KernelArgs args;
    args.ptr(x.ptr).ptr(wt.ptr).ptr(bias).ptr(y.ptr).pod(a);
    args.i32(static_cast<int32_t>(epi.kind)).f32(epi.alpha).f32(epi.beta).i64(y.numel());
    return ctx.launch(kernel_sources::conv, KernelName::format("gk_conv_depthwise<{}>", {kernel_type_name(x.dtype)}),
                      grid_for(y.numel()), args);
  }
  if (pointwise || a.K == 0) {
    // Y[n, g] (M x P) = W[g] (M x Cg) X[n, g] (Cg x P), batch over (n, g). With no
    // input channels (K = 0) nothing is read and every output is act(bias).
    GemmCall c;
    c.dtype = x.dtype;
    c.M = a.M, c.N = a.P, c.K = a.K, c.batch = g.N * at.group;
    c.a = a.K ? wt.ptr : y.ptr, c.b = a.K ? x.ptr : y.ptr, c.y = y.ptr;
    c.a_sm = a.K, c.a_sk = 1, c.b_sk = a.P, c.b_sn = 1;
    const Shape batch{g.N, at.group};
    c.amap.rank = c.bmap.rank = c.cmap.rank = 2;
    for (int i = 0; i < 2; ++i) c.amap.dims[i] = c.bmap.dims[i] = c.cmap.dims[i] = batch[i];
    c.amap.strides[0] = 0, c.amap.strides[1] = a.M * a.K;
    c.bmap.strides[0] = g.C * a.P, c.bmap.strides[1] = a.Cg * a.P;
    if (!a.K) c.amap.strides[1] = c.bmap.strides[0] = c.bmap.strides[1] = 0;
    c.cmap.strides[0] = 0, c.cmap.strides[1] = a.M;
    c.has_c = has_b, c.c = bias, c.c_sm = 1, c.c_sn = 0;
    c.epilogue = epi;
    return launch_gemm(ctx, c);
  }
  GK_RETURN_IF_ERROR(check_int32_decode(ctx.node(), a));
  LaunchConfig cfg;
  // The CPU's row-window path packs each block's A rows: split rows first there.
  const GridSplit split = gk_conv_row_window_geometry(a) ? GridSplit::kRowsFirst : GridSplit::kColumnsFirst;
  cfg.grid = gemm_grid(ctx.kit(), a.P, a.M, a.batch, split);
  cfg.block = {GK_GEMM_THREADS, 1, 1};
  KernelArgs args;
  args.ptr(x.ptr).ptr(wt.ptr).ptr(bias).ptr(y.ptr).pod(a);
  args.i32(static_cast<int32_t>(epi.kind)).f32(epi.alpha).f32(epi.beta);
  return ctx.launch(kernel_sources::conv, KernelName::format("gk_conv<{}>", {kernel_type_name(x.dtype)}), cfg, args);
}

const OpImpl kConv{&parse_conv, &infer_conv, &run_conv};

// Conv-11 only clarified defaults; 22 widened types. One entry serves them all.
const OpSchema kConvOps[] = {
    {"", "Conv", 1, kOpsetCurrent, &kConv, {.accepts_epilogue = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> conv_ops() { return kConvOps; }
}  // namespace families

}  // namespace gk

// ConvTranspose as GEMM + col2im: col[(n, co, kidx), ipix] = sum_c W(c, co, kidx)
// X(n, c, ipix) on the tiled GEMM (W read transposed through strides), then
// gk_col2im gathers each output pixel's taps, adds the bias, applies the
// activation. A gather rather than a scatter: no atomics, a fixed order.
#include "ops/common/checked_int.h"
#include "ops/conv/conv_common.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

namespace gk {
namespace {

struct ConvTransposeAttrs {
  WindowAttrs window;
  int64_t group = 1;
  std::vector<int64_t> output_padding, output_shape;
  bool legacy_same_split = false;  // opset 1-10: SAME_UPPER put the odd pad first
};

Result<ParsedAttrs> parse_conv_transpose(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<ConvTransposeAttrs>();
  GK_TRY(a->window, parse_window(attrs, node, false));
  GK_TRY(a->group, attrs.get_int("group", 1));
  GK_TRY(a->output_padding, attrs.get_ints("output_padding"));
  GK_TRY(a->output_shape, attrs.get_ints("output_shape"));
  if (a->group < 1) return invalid_model("{}: group is {}; must be >= 1", node.describe(), a->group);
  a->legacy_same_split = node.opset < 11;
  return ParsedAttrs(a);
}

struct Geometry {
  Window w;  // w.in: the input's spatial dims, w.out: the output's; pad_begin may be < 0
  int64_t N, C, Cout;
};

Result<Geometry> geometry(const NodeView& node, const ConvTransposeAttrs& at, const Shape& x, const Shape& wt,
                          const Shape* bias) {
  if (x.size() < 3 || x.size() > 2 + kMaxSpatial || wt.size() != x.size())
    return invalid_model("{}: ConvTranspose X is {} and W is {}; need equal ranks 3 to {}", node.describe(),
                         shape_str(x), shape_str(wt), 2 + kMaxSpatial);
  Geometry g;
  g.N = x[0], g.C = x[1];
  // Every product and sum of the geometry is checked: the fuzzer's attribute
  // mutations reach each one (a stride or pad near int64 max).
  CheckedI64 c;
  g.Cout = c.mul(wt[1], at.group);
  if (c.overflow || wt[0] != g.C || g.C % at.group != 0)
    return invalid_model("{}: ConvTranspose W {} does not match {} input channels in {} groups", node.describe(),
                         shape_str(wt), g.C, at.group);
  if (bias && (bias->size() != 1 || (*bias)[0] != g.Cout))
    return invalid_model("{}: ConvTranspose bias is {}, expected [{}]", node.describe(), shape_str(*bias), g.Cout);
  const size_t nd = x.size() - 2;
  const WindowAttrs& wa = at.window;
  std::vector<int64_t> kernel(wt.begin() + 2, wt.end());
  if (!wa.kernel.empty() && wa.kernel != kernel)
    return invalid_model("{}: kernel_shape {} differs from W's spatial dims {}", node.describe(), shape_str(wa.kernel),
                         shape_str(kernel));
  auto bad_len = [&](const std::vector<int64_t>& v, size_t n) { return !v.empty() && v.size() != n; };
  if (bad_len(wa.strides, nd) || bad_len(wa.dilations, nd) || bad_len(wa.pads, 2 * nd) ||
      bad_len(at.output_padding, nd) || (!at.output_shape.empty() && at.output_shape.size() != nd &&
                                         at.output_shape.size() != nd + 2))
    return invalid_model("{}: ConvTranspose attribute lengths do not match {} spatial dims", node.describe(), nd);
  Window& w = g.w;
  w.nd = static_cast<int>(nd);
  const size_t lead = kMaxSpatial - nd;
  for (size_t i = 0; i < nd; ++i) {
    const size_t d = lead + i;
    const int64_t in = x[2 + i], k = kernel[i];
    const int64_t s = wa.strides.empty() ? 1 : wa.strides[i], dil = wa.dilations.empty() ? 1 : wa.dilations[i];
    const int64_t op = at.output_padding.empty() ? 0 : at.output_padding[i];
    if (k < 1 || s < 1 || dil < 1 || op < 0)
      return invalid_model("{}: kernel {}, stride {}, dilation {}, output_padding {} on axis {} out of range",
                           node.describe(), k, s, dil, op, i);
    const int64_t full = c.add(c.add(c.add(c.mul(s, in - 1), op), c.mul(k - 1, dil)), 1);
    int64_t out, pb, pe;
    const bool same = wa.auto_pad == AutoPad::kSameUpper || wa.auto_pad == AutoPad::kSameLower;
    if (!at.output_shape.empty() || same) {
      out = !at.output_shape.empty() ? at.output_shape[at.output_shape.size() - nd + i] : c.mul(in, s);
      const int64_t total = c.sub(full, out);
      const bool upper = wa.auto_pad == AutoPad::kSameUpper;
      const bool odd_first = at.legacy_same_split ? upper : !upper;
      // Floor division, as the ONNX reference does: an output_shape larger than the
      // natural size (total < 0) grows the end, not the start.
      const int64_t half = total >= 0 ? total / 2 : -((-(total + 1)) / 2 + 1);
      pb = odd_first ? total - half : half;
      pe = total - pb;
    } else {
      pb = wa.pads.empty() || wa.auto_pad == AutoPad::kValid ? 0 : wa.pads[i];
      pe = wa.pads.empty() || wa.auto_pad == AutoPad::kValid ? 0 : wa.pads[nd + i];
      out = c.sub(c.sub(full, pb), pe);
    }
    if (c.overflow)
      return invalid_model("{}: ConvTranspose axis {} (input {}, kernel {}, stride {}, dilation {}, pads and "
                           "output_shape) overflows int64", node.describe(), i, in, k, s, dil);
    if (out < 0) return invalid_model("{}: ConvTranspose output dim {} would be {}", node.describe(), i, out);
    w.in[d] = in, w.out[d] = out, w.k[d] = k, w.s[d] = s, w.dil[d] = dil;
    w.pad_begin[d] = pb, w.pad_end[d] = pe;
  }
  return g;
}

Status infer_conv_transpose(InferContext& ctx) {
  const auto& at = attrs_as<ConvTransposeAttrs>(ctx.attrs);
  const bool has_b = ctx.node.has_input(2);
  if (ctx.in(1).dtype != ctx.in(0).dtype || (has_b && ctx.in(2).dtype != ctx.in(0).dtype))
    return ctx.fail("X, W and B element types differ");
  GK_TRY(Geometry g, geometry(ctx.node, at, ctx.in(0).shape, ctx.in(1).shape, has_b ? &ctx.in(2).shape : nullptr));
  ctx.outputs[0] = {ctx.in(0).dtype, window_output_shape(g.N, g.Cout, g.w)};
  return ok_status();
}

Status run_conv_transpose(KernelContext& ctx) {
  const auto& at = ctx.attrs<ConvTransposeAttrs>();
  const TensorRef &x = ctx.in(0), &wt = ctx.in(1);
  const bool has_b = ctx.num_inputs() > 2 && ctx.in(2).present();
  GK_TRY(Geometry g, geometry(ctx.node(), at, x.shape, wt.shape, has_b ? &ctx.in(2).shape : nullptr));
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  if (!is_conv_dtype(x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const Window& w = g.w;
  const int64_t kv = w.k_size(), isz = w.in_size(), cg = g.C / at.group, mg = g.Cout / at.group;
  gk_conv_args a = conv_args(w, g.N, g.C, g.Cout, at.group, has_b);
  GK_TRY(int64_t col_elems, checked_numel(Shape{g.N, g.Cout, kv, isz}));
  GK_TRY(GkBuf col, ctx.scratch(x.dtype, std::max<int64_t>(col_elems, 1)));

  // col[n, g] ((mg * kv) x isz) = W[g]^T (W is C x (mg * kv), rows g * cg ...) X[n, g].
  GemmCall c;
  c.dtype = x.dtype;
  c.M = mg * kv, c.N = isz, c.K = cg, c.batch = g.N * at.group;
  c.a = cg ? wt.ptr : col.ptr(), c.b = cg ? x.ptr : col.ptr(), c.y = col.ptr();
  c.a_sm = 1, c.a_sk = mg * kv, c.b_sk = isz, c.b_sn = 1;
  c.amap.rank = c.bmap.rank = 2;
  c.amap.dims[0] = c.bmap.dims[0] = g.N;
  c.amap.dims[1] = c.bmap.dims[1] = at.group;
  c.amap.strides[0] = 0, c.amap.strides[1] = cg * mg * kv;
  c.bmap.strides[0] = g.C * isz, c.bmap.strides[1] = cg * isz;
  GK_RETURN_IF_ERROR(launch_gemm(ctx, c));

  const Epilogue& epi = ctx.node().epilogue;
  KernelArgs args;
  args.ptr(col.ptr()).ptr(has_b ? ctx.in(2).ptr : col.ptr()).ptr(y.ptr).pod(a);
  args.i32(static_cast<int32_t>(epi.kind)).f32(epi.alpha).f32(epi.beta).i64(y.numel());
  return ctx.launch(kernel_sources::conv, KernelName::format("gk_col2im<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(y.numel()), args);
}

const OpImpl kConvTranspose{&parse_conv_transpose, &infer_conv_transpose, &run_conv_transpose};

// Opset 11 swapped which side of an odd SAME pad (from output_shape / auto_pad)
// gets the extra element; parse reads the node's opset for that, so one entry.
const OpSchema kConvTransposeOps[] = {
    {"", "ConvTranspose", 1, kOpsetCurrent, &kConvTranspose, {.accepts_epilogue = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> conv_transpose_ops() { return kConvTransposeOps; }
}  // namespace families

}  // namespace gk

// QuantizeLinear (10, 13, 19, 21, 23, 24, 25), DequantizeLinear (same versions) and
// DynamicQuantizeLinear (11). Kernels: ops/quantize/quantize.cuh.
//
// Granularity comes from the scale's shape: one element is per-tensor, a 1-D scale
// of x's axis length is per-axis (13+), and a scale of x's rank whose axis dim is
// ceil(D / block_size) is blocked (21+). Numerics follow ONNX's reference:
// QuantizeLinear divides in the `precision` attribute's type (23+) or else in the
// numpy promotion of x and the scale (int32 on either side: double), rounds half to
// even, then adds the zero point and saturates; DequantizeLinear computes
// (x - zero_point) * scale in float (double for int32 x) and rounds once to the
// output type.

#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/quantize/quantize.cuh"
#include "ops/common/row_geometry.h"

#include <algorithm>
#include <memory>

namespace gk {

namespace {

constexpr TypeSet kF8Types = type_bit(DType::kF8E4M3FN) | type_bit(DType::kF8E4M3FNUZ) |
                             type_bit(DType::kF8E5M2) | type_bit(DType::kF8E5M2FNUZ);
constexpr TypeSet kHalfTypes = type_bit(DType::kF16) | type_bit(DType::kBF16);

// The quantized types (QuantizeLinear's y, DequantizeLinear's x) at an opset.
TypeSet quantized_types(int opset) {
  TypeSet t = type_bit(DType::kU8) | type_bit(DType::kI8);
  if (opset >= 19) t |= kF8Types;
  if (opset >= 21) t |= type_bit(DType::kU16) | type_bit(DType::kI16) | type_bit(DType::kU4) | type_bit(DType::kI4);
  if (opset >= 23) t |= type_bit(DType::kF4E2M1);
  if (opset >= 25) t |= type_bit(DType::kU2) | type_bit(DType::kI2);
  return t;
}

struct QAttrs {
  int64_t axis = 1;
  int64_t block_size = 0;
  DType output_dtype = DType::kUndefined;  // 21+ (Quantize), 23+ (Dequantize)
  DType precision = DType::kUndefined;     // Quantize 23+
  bool saturate = true;                    // Quantize 19+, float8 outputs
};

Result<DType> dtype_attr(const AttrMap& attrs, const NodeView& node, const char* name) {
  GK_TRY(int64_t code, attrs.get_int(name, 0));
  if (code == 0) return DType::kUndefined;
  auto t = dtype_from_code(code);
  if (!t.ok()) return t.status().with_context(fmt::format("{}: attribute {}", node.describe(), name));
  return t.value();
}

Result<ParsedAttrs> parse_q(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<QAttrs>();
  GK_TRY(a->axis, attrs.get_int("axis", 1));
  GK_TRY(a->block_size, attrs.get_int("block_size", 0));
  if (a->block_size < 0)
    return invalid_model("{}: block_size is {}; must be >= 0", node.describe(), a->block_size);
  GK_TRY(int64_t saturate, attrs.get_int("saturate", 1));
  a->saturate = saturate != 0;
  GK_TRY(a->output_dtype, dtype_attr(attrs, node, "output_dtype"));
  GK_TRY(a->precision, dtype_attr(attrs, node, "precision"));
  if (a->precision != DType::kUndefined && !type_in(a->precision, kFloatTypes))
    return invalid_model("{}: precision is {}; must be one of {}", node.describe(), dtype_name(a->precision),
                         type_set_names(kFloatTypes));
  return ParsedAttrs(a);
}

Status check_type(const NodeView& node, const char* what, DType t, TypeSet allowed) {
  if (type_in(t, allowed)) return ok_status();
  return invalid_model("{}: {} is {}; opset {} allows {}", node.describe(), what, dtype_name(t), node.opset,
                       type_set_names(allowed));
}

// Where each element's scale and zero point live; validates the shapes.
Result<gk_qlayout> q_layout(const NodeView& node, const QAttrs& at, const Shape& x, const Shape& scale,
                            const Shape* zp) {
  gk_qlayout l{};
  l.inner = l.dim = l.block = l.sdim = 1;
  const int64_t rank = static_cast<int64_t>(x.size());
  if (numel(scale) == 1) {
    l.scale_mode = GK_Q_TENSOR;
  } else {
    GK_TRY(int64_t axis, normalize_axis(at.axis, rank, node.describe()));
    l.dim = rank ? x[axis] : 1;
    for (int64_t d = axis + 1; d < rank; ++d) l.inner *= x[d];
    if (at.block_size == 0) {
      if (node.opset < 13 || scale.size() != 1 || scale[0] != l.dim)
        return invalid_model("{}: scale is {}; for x {} it must be a scalar{}", node.describe(), shape_str(scale),
                             shape_str(x),
                             node.opset < 13 ? "" : fmt::format(" or 1-D of axis {}'s length {}", axis, l.dim));
      l.scale_mode = GK_Q_AXIS;
    } else {
      l.block = at.block_size;
      l.sdim = (l.dim + l.block - 1) / l.block;
      bool ok = node.opset >= 21 && static_cast<int64_t>(scale.size()) == rank;
      for (int64_t d = 0; ok && d < rank; ++d) ok = scale[d] == (d == axis ? l.sdim : x[d]);
      if (!ok)
        return invalid_model("{}: blocked scale is {}; for x {}, axis {} and block_size {} it must be x's shape "
                             "with dim {} = {}",
                             node.describe(), shape_str(scale), shape_str(x), axis, at.block_size, axis, l.sdim);
      l.scale_mode = GK_Q_BLOCKED;
    }
  }
  l.zp_mode = GK_Q_TENSOR;
  if (zp && numel(*zp) != 1) {
    if (*zp != scale)
      return invalid_model("{}: zero point is {}; it must have the scale's shape {}", node.describe(),
                           shape_str(*zp), shape_str(scale));
    l.zp_mode = l.scale_mode;
  }
  return l;
}

// ---- QuantizeLinear ----

// Output type: the zero point's, else output_dtype (21+), else uint8.
Result<DType> quantize_output(const NodeView& node, const QAttrs& at, const TensorType* zp) {
  if (zp) {
    if (at.output_dtype != DType::kUndefined && at.output_dtype != zp->dtype)
      return invalid_model("{}: output_dtype {} differs from the zero point's type {}", node.describe(),
                           dtype_name(at.output_dtype), dtype_name(zp->dtype));
    return zp->dtype;
  }
  return at.output_dtype != DType::kUndefined ? at.output_dtype : DType::kU8;
}

// The division's type: `precision`, else numpy's promotion of x and the scale.
DType quantize_precision(const QAttrs& at, DType x, DType scale) {
  if (at.precision != DType::kUndefined) return at.precision;
  if (x == DType::kI32 || scale == DType::kI32) return DType::kF64;
  if (x == scale) return x;
  return DType::kF32;
}

Status check_quantize_types(const NodeView& node, DType x, DType scale, DType y) {
  const int v = node.opset;
  const TypeSet xs = type_bit(DType::kF32) | type_bit(DType::kI32) | (v >= 19 ? kHalfTypes : 0);
  GK_RETURN_IF_ERROR(check_type(node, "x", x, xs));
  TypeSet ss = type_bit(DType::kF32);
  if (v >= 19 && v < 23) ss = type_bit(x);  // y_scale shares x's type (T1)
  if (v >= 23) ss = kFloatTypes & ~type_bit(DType::kF64);
  if (v >= 23) ss |= type_bit(DType::kI32);
  if (v >= 24) ss |= type_bit(DType::kF8E8M0);
  GK_RETURN_IF_ERROR(check_type(node, "y_scale", scale, ss));
  return check_type(node, "y", y, quantized_types(v));
}

Status infer_quantize(InferContext& ctx) {
  const auto& at = attrs_as<QAttrs>(ctx.attrs);
  if (ctx.inputs.size() < 2) return ctx.fail("takes inputs x, y_scale and an optional y_zero_point");
  const bool has_zp = ctx.node.has_input(2);
  GK_TRY(DType y, quantize_output(ctx.node, at, has_zp ? &ctx.in(2) : nullptr));
  GK_RETURN_IF_ERROR(check_quantize_types(ctx.node, ctx.in(0).dtype, ctx.in(1).dtype, y));
  GK_RETURN_IF_ERROR(
      q_layout(ctx.node, at, ctx.in(0).shape, ctx.in(1).shape, has_zp ? &ctx.in(2).shape : nullptr).status());
  ctx.outputs[0] = {y, ctx.in(0).shape};
  return ok_status();
}

// `count` scales of type `from` as A values (F32 or F64) rounded to `narrow`; the
// input itself when it already is that.
Result<DevPtr> prepare_scale(KernelContext& ctx, const TensorRef& s, DType acc, int32_t narrow) {
  if (s.dtype == acc && narrow == 0) return s.ptr;
  GK_TRY(GkBuf buf, ctx.scratch(acc, s.numel()));
  KernelArgs args;
  args.ptr(s.ptr).ptr(buf.ptr()).i32(narrow).i64(s.numel());
  GK_RETURN_IF_ERROR(
      ctx.launch(kernel_sources::quantize,
                 KernelName::format("gk_q_scale<{}, {}>", {storage_kernel_type_name(s.dtype), kernel_type_name(acc)}),
                 grid_for(s.numel()), args));
  return buf.ptr();
}

Status launch_quantize(KernelContext& ctx, const TensorRef& x, DevPtr scale, DType acc, DevPtr zp,
                       const TensorRef& y, const gk_qlayout& l) {
  const int64_t n = y.numel();
  const int bits = dtype_bits(y.dtype);
  const int64_t units = bits < 8 ? (n * bits + 7) / 8 : n;
  KernelArgs args;
  args.ptr(x.ptr).ptr(scale).ptr(zp).ptr(y.ptr).pod(l).i64(n);
  return ctx.launch(
      kernel_sources::quantize,
      KernelName::format("gk_quantize<{}, {}, {}>",
                         {storage_kernel_type_name(x.dtype), kernel_type_name(acc), storage_kernel_type_name(y.dtype)}),
      grid_for(units), args);
}

Status run_quantize(KernelContext& ctx) {
  const auto& at = ctx.attrs<QAttrs>();
  const TensorRef &x = ctx.in(0), &s = ctx.in(1), &y = ctx.out(0);
  const bool has_zp = ctx.num_inputs() > 2 && ctx.in(2).present();
  GK_TRY(gk_qlayout l, q_layout(ctx.node(), at, x.shape, s.shape, has_zp ? &ctx.in(2).shape : nullptr));
  if (y.numel() == 0) return ok_status();
  const DType p = quantize_precision(at, x.dtype, s.dtype);
  const DType acc = p == DType::kF64 ? DType::kF64 : DType::kF32;
  l.narrow = p == DType::kF16 ? 1 : p == DType::kBF16 ? 2 : 0;
  l.cast_mode = GK_CAST_MODE(at.saturate, GK_ROUND_NEAREST);
  GK_TRY(DevPtr scale, prepare_scale(ctx, s, acc, l.narrow));
  return launch_quantize(ctx, x, scale, acc, has_zp ? ctx.in(2).ptr : 0, y, l);
}

// ---- DequantizeLinear ----

Status infer_dequantize(InferContext& ctx) {
  const auto& at = attrs_as<QAttrs>(ctx.attrs);
  if (ctx.inputs.size() < 2) return ctx.fail("takes inputs x, x_scale and an optional x_zero_point");
  const int v = ctx.node.opset;
  const DType x = ctx.in(0).dtype, s = ctx.in(1).dtype;
  const bool has_zp = ctx.node.has_input(2);
  GK_RETURN_IF_ERROR(check_type(ctx.node, "x", x, quantized_types(v) | type_bit(DType::kI32)));
  TypeSet ss = type_bit(DType::kF32) | (v >= 19 ? kHalfTypes : 0) | (v >= 24 ? type_bit(DType::kF8E8M0) : 0);
  GK_RETURN_IF_ERROR(check_type(ctx.node, "x_scale", s, ss));
  if (has_zp && ctx.in(2).dtype != x)
    return ctx.fail(fmt::format("x_zero_point is {}; it must have x's type {}", dtype_name(ctx.in(2).dtype),
                                dtype_name(x)));
  const DType y = at.output_dtype != DType::kUndefined ? at.output_dtype : s;
  GK_RETURN_IF_ERROR(check_type(ctx.node, "y (output_dtype, else x_scale's type)", y,
                                type_bit(DType::kF32) | kHalfTypes));
  GK_RETURN_IF_ERROR(
      q_layout(ctx.node, at, ctx.in(0).shape, ctx.in(1).shape, has_zp ? &ctx.in(2).shape : nullptr).status());
  ctx.outputs[0] = {y, ctx.in(0).shape};
  return ok_status();
}

Status run_dequantize(KernelContext& ctx) {
  const auto& at = ctx.attrs<QAttrs>();
  const TensorRef &x = ctx.in(0), &s = ctx.in(1), &y = ctx.out(0);
  const bool has_zp = ctx.num_inputs() > 2 && ctx.in(2).present();
  GK_TRY(gk_qlayout l, q_layout(ctx.node(), at, x.shape, s.shape, has_zp ? &ctx.in(2).shape : nullptr));
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  GK_TRY(DevPtr scale, prepare_scale(ctx, s, DType::kF32, 0));
  KernelArgs args;
  args.ptr(x.ptr).ptr(scale).ptr(has_zp ? ctx.in(2).ptr : 0).ptr(y.ptr).pod(l).i64(n);
  return ctx.launch(
      kernel_sources::quantize,
      KernelName::format("gk_dequantize<{}, {}>", {storage_kernel_type_name(x.dtype), kernel_type_name(y.dtype)}),
      grid_for(n), args);
}

// ---- DynamicQuantizeLinear ----

Status infer_dynamic_quantize(InferContext& ctx) {
  if (ctx.inputs.empty() || ctx.in(0).dtype != DType::kF32)
    return ctx.fail(fmt::format("x is {}; must be float32",
                                ctx.inputs.empty() ? "missing" : std::string(dtype_name(ctx.in(0).dtype))));
  ctx.outputs[0] = {DType::kU8, ctx.in(0).shape};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {DType::kF32, {}};
  if (ctx.outputs.size() > 2) ctx.outputs[2] = {DType::kU8, {}};
  return ok_status();
}

// Output i's buffer, or scratch when the model leaves the output unnamed.
Result<DevPtr> output_or_scratch(KernelContext& ctx, size_t i, DType t) {
  if (i < ctx.num_outputs() && ctx.out(i).ptr) return ctx.out(i).ptr;
  GK_TRY(GkBuf buf, ctx.scratch(t, 1));
  return buf.ptr();
}

Status run_dynamic_quantize(KernelContext& ctx) {
  const TensorRef& x = ctx.in(0);
  const int64_t n = x.numel();
  // untuned: a block per 16K elements, at most 256 partial results.
  const int64_t parts = std::clamp<int64_t>(n / 16384, 1, 256);
  GK_TRY(GkBuf part, ctx.scratch(DType::kF32, 2 * parts));
  GK_TRY(DevPtr scale, output_or_scratch(ctx, 1, DType::kF32));
  GK_TRY(DevPtr zp, output_or_scratch(ctx, 2, DType::kU8));
  LaunchConfig cfg;
  cfg.grid = {static_cast<uint32_t>(parts), 1, 1};
  cfg.block = {GK_Q_BLOCK, 1, 1};
  KernelArgs a1;
  a1.ptr(n ? x.ptr : part.ptr()).ptr(part.ptr()).i64(n);
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::quantize, "gk_dql_minmax", cfg, a1));
  KernelArgs a2;
  a2.ptr(part.ptr()).i64(parts).ptr(scale).ptr(zp);
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::quantize, "gk_dql_params", grid_for(1), a2));
  if (n == 0) return ok_status();
  gk_qlayout l{};
  l.inner = l.dim = l.block = l.sdim = 1;
  l.scale_mode = l.zp_mode = GK_Q_TENSOR;
  return launch_quantize(ctx, x, scale, DType::kF32, zp, ctx.out(0), l);
}

const OpImpl kQuantize{&parse_q, &infer_quantize, &run_quantize};
const OpImpl kDequantize{&parse_q, &infer_dequantize, &run_dequantize};
const OpImpl kDynamicQuantize{nullptr, &infer_dynamic_quantize, &run_dynamic_quantize};

// One implementation per op: each version only added types and attributes (axis
// 13, saturate and float8 19, block_size/output_dtype/16- and 4-bit 21,
// precision/float4 23, e8m0 scales 24, 2-bit 25), which it checks by node.opset.
// The lines keep the versions visible.
const OpSchema kOps[] = {
    {"", "QuantizeLinear", 10, 12, &kQuantize, {}},
    {"", "QuantizeLinear", 13, 18, &kQuantize, {}},
    {"", "QuantizeLinear", 19, 20, &kQuantize, {}},
    {"", "QuantizeLinear", 21, 22, &kQuantize, {}},
    {"", "QuantizeLinear", 23, 23, &kQuantize, {}},
    {"", "QuantizeLinear", 24, 24, &kQuantize, {}},
    {"", "QuantizeLinear", 25, kOpsetCurrent, &kQuantize, {}},
    {"", "DequantizeLinear", 10, 12, &kDequantize, {}},
    {"", "DequantizeLinear", 13, 18, &kDequantize, {}},
    {"", "DequantizeLinear", 19, 20, &kDequantize, {}},
    {"", "DequantizeLinear", 21, 22, &kDequantize, {}},
    {"", "DequantizeLinear", 23, 23, &kDequantize, {}},
    {"", "DequantizeLinear", 24, 24, &kDequantize, {}},
    {"", "DequantizeLinear", 25, kOpsetCurrent, &kDequantize, {}},
    {"", "DynamicQuantizeLinear", 11, kOpsetCurrent, &kDynamicQuantize, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> quantize_ops() { return kOps; }
}  // namespace families

}  // namespace gk

// Resize (10, 11-current) and Upsample (7-8, 9). The output shape and every axis's
// coordinate transform come from host-known roi/scales/sizes (OpTraits::host_inputs);
// the semantics follow the ONNX reference (onnx/reference/ops/op_resize.py), which
// generated the node test data: output = floor(scale * in) without the roi, the
// coordinate transform on the fractional output width scale * in, the edge-padded
// neighbourhood. Upsample and Resize-10 have no coordinate or nearest_mode
// attributes: they map asymmetrically and round nearest as ONNX Runtime does
// (floor upsampling, ceil downsampling).
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/resize/resize.cuh"
#include "ops/core/op_eval.h"

#include <cmath>
#include <optional>

namespace gk {
namespace {

enum class Keep { kStretch, kNotLarger, kNotSmaller };

struct ResizeAttrs {
  bool legacy = false;  // Upsample / Resize-10
  int32_t mode = GK_RM_NEAREST;
  int32_t coord_mode = GK_RC_HALF_PIXEL;
  int32_t nearest_mode = GK_RN_ROUND_PREFER_FLOOR;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
  double extrapolation = 0;
  Keep keep = Keep::kStretch;
  std::optional<std::vector<int64_t>> axes;
  std::optional<std::vector<float>> scales;  // Upsample-7's attribute
  int scales_input = 2;                       // Resize-11+: X, roi, scales, sizes
};

template <typename T>
Result<int32_t> pick(const NodeView& node, const char* what, const std::string& v,
                     std::initializer_list<std::pair<const char*, T>> names) {
  for (const auto& [name, value] : names)
    if (v == name) return static_cast<int32_t>(value);
  std::string allowed;
  for (const auto& [name, value] : names) allowed += fmt::format("{}'{}'", allowed.empty() ? "" : ", ", name);
  return invalid_model("{}: {} '{}' is not one of {}", node.describe(), what, v, allowed);
}

Result<int32_t> parse_mode(const AttrMap& attrs, const NodeView& node, bool legacy) {
  GK_TRY(std::string mode, attrs.get_string("mode", "nearest"));
  if (legacy && mode == "bilinear") mode = "linear";  // Upsample-1's spelling
  if (legacy) return pick<int>(node, "mode", mode, {{"nearest", GK_RM_NEAREST}, {"linear", GK_RM_LINEAR}});
  return pick<int>(node, "mode", mode, {{"nearest", GK_RM_NEAREST}, {"linear", GK_RM_LINEAR}, {"cubic", GK_RM_CUBIC}});
}

Result<ParsedAttrs> parse_resize(const AttrMap& attrs, const NodeView& node) {
  ResizeAttrs a;
  a.legacy = node.opset < 11;
  GK_TRY(a.mode, parse_mode(attrs, node, a.legacy));
  if (a.legacy) {
    a.coord_mode = GK_RC_ASYMMETRIC;
    a.nearest_mode = GK_RN_SIMPLE;
    a.scales_input = 1;
    return dm::make_attrs(std::move(a));
  }
  GK_TRY(std::string coord, attrs.get_string("coordinate_transformation_mode", "half_pixel"));
  GK_TRY(a.coord_mode, pick<int>(node, "coordinate_transformation_mode", coord,
                                 {{"half_pixel", GK_RC_HALF_PIXEL},
                                  {"pytorch_half_pixel", GK_RC_PYTORCH_HALF_PIXEL},
                                  {"align_corners", GK_RC_ALIGN_CORNERS},
                                  {"asymmetric", GK_RC_ASYMMETRIC},
                                  {"tf_half_pixel_for_nn", GK_RC_TF_HALF_PIXEL_FOR_NN},
                                  {"tf_crop_and_resize", GK_RC_TF_CROP_AND_RESIZE},
                                  {"half_pixel_symmetric", GK_RC_HALF_PIXEL_SYMMETRIC}}));
  GK_TRY(std::string nearest, attrs.get_string("nearest_mode", "round_prefer_floor"));
  GK_TRY(a.nearest_mode, pick<int>(node, "nearest_mode", nearest,
                                   {{"round_prefer_floor", GK_RN_ROUND_PREFER_FLOOR},
                                    {"round_prefer_ceil", GK_RN_ROUND_PREFER_CEIL},
                                    {"floor", GK_RN_FLOOR},
                                    {"ceil", GK_RN_CEIL}}));
  GK_TRY(float cubic_a, attrs.get_float("cubic_coeff_a", -0.75f));
  a.cubic_a = cubic_a;
  GK_TRY(int64_t exclude, attrs.get_int("exclude_outside", 0));
  a.exclude_outside = exclude != 0;
  GK_TRY(float extrapolation, attrs.get_float("extrapolation_value", 0.0f));
  a.extrapolation = extrapolation;
  GK_TRY(int64_t antialias, attrs.get_int("antialias", 0));
  // Antialiasing applies to linear and cubic only (the reference refuses nearest).
  if (antialias != 0 && a.mode == GK_RM_NEAREST)
    return invalid_model("{}: antialias is defined for linear and cubic modes only", node.describe());
  a.antialias = antialias != 0;
  GK_TRY(std::string keep, attrs.get_string("keep_aspect_ratio_policy", "stretch"));
  GK_TRY(int32_t k, pick<Keep>(node, "keep_aspect_ratio_policy", keep,
                               {{"stretch", Keep::kStretch},
                                {"not_larger", Keep::kNotLarger},
                                {"not_smaller", Keep::kNotSmaller}}));
  a.keep = static_cast<Keep>(k);
  if (attrs.has("axes")) {
    GK_TRY(std::vector<int64_t> axes, attrs.get_ints("axes"));
    a.axes = std::move(axes);
  }
  return dm::make_attrs(std::move(a));
}

Result<ParsedAttrs> parse_upsample(const AttrMap& attrs, const NodeView& node) {
  ResizeAttrs a;
  a.legacy = true;
  GK_TRY(a.mode, parse_mode(attrs, node, true));
  a.coord_mode = GK_RC_ASYMMETRIC;
  a.nearest_mode = GK_RN_SIMPLE;
  a.scales_input = 1;
  if (node.opset < 9) {
    if (!attrs.has("scales")) return invalid_model("{}: Upsample-7 needs the 'scales' attribute", node.describe());
    GK_TRY(std::vector<float> scales, attrs.get_floats("scales"));
    a.scales = std::move(scales);
  }
  return dm::make_attrs(std::move(a));
}

// Every axis's transform and the output shape.
struct ResizePlan {
  Shape out;
  std::vector<gk_resize_axis> axes;  // one per input dim
  std::vector<int> resized;          // dims whose transform is not the identity
};

Result<std::vector<double>> optional_values(const NodeView& node, const HostTensor* t) {
  if (!t || t->numel() == 0) return std::vector<double>{};
  if (t->shape().size() != 1)
    return invalid_model("{}: roi/scales/sizes must be 1-D, got {}", node.describe(), shape_str(t->shape()));
  return t->to_f64_vector();
}

// 2^53: every length up to it is exact in the double the plan computes with.
constexpr double kMaxResizedDim = 9007199254740992.0;

Result<ResizePlan> make_plan(const NodeView& node, const ResizeAttrs& at, const Shape& x, const HostTensor* roi_t,
                             const HostTensor* scales_t, const HostTensor* sizes_t) {
  const int64_t r = static_cast<int64_t>(x.size());
  std::vector<int64_t> axes;
  if (at.axes) {
    std::vector<bool> seen(r, false);
    for (int64_t a : *at.axes) {
      GK_TRY(int64_t d, dm::normalize_axis(node, a, r, "axes"));
      if (seen[d]) return invalid_model("{}: axis {} is repeated in axes", node.describe(), a);
      seen[d] = true;
      axes.push_back(d);
    }
  } else {
    for (int64_t d = 0; d < r; ++d) axes.push_back(d);
  }
  const size_t n = axes.size();
  std::vector<double> scales, sizes, roi;
  if (at.scales) {
    scales.assign(at.scales->begin(), at.scales->end());
  } else {
    GK_TRY(scales, optional_values(node, scales_t));
  }
  GK_TRY(sizes, optional_values(node, sizes_t));
  if (!scales.empty() && !sizes.empty())
    return invalid_model("{}: only one of scales and sizes may be given", node.describe());
  if (scales.empty() && sizes.empty()) return invalid_model("{}: one of scales and sizes is required", node.describe());
  const std::vector<double>& given = scales.empty() ? sizes : scales;
  if (given.size() != n)
    return invalid_model("{}: {} has {} values; input {} needs {}", node.describe(), scales.empty() ? "sizes" : "scales",
                         given.size(), shape_str(x), n);

  ResizePlan p;
  p.out = x;
  p.axes.resize(r);
  for (int64_t d = 0; d < r; ++d) {
    gk_resize_axis& a = p.axes[d];
    a = {};
    a.in = a.out = x[d];
    a.scale = 1.0;
    a.out_width = static_cast<double>(x[d]);
    a.roi_start = 0.0;
    a.roi_end = 1.0;
  }
  if (!scales.empty()) {
    for (size_t i = 0; i < n; ++i) {
      gk_resize_axis& a = p.axes[axes[i]];
      const double s = scales[i];
      if (!(s > 0) || !std::isfinite(s))
        return invalid_model("{}: scale {} for axis {} must be positive", node.describe(), s, axes[i]);
      const double out = std::floor(s * static_cast<double>(a.in));
      if (out > kMaxResizedDim)
        return invalid_model("{}: scale {} makes axis {} of {} too large (above {})", node.describe(), s, axes[i],
                             shape_str(x), kMaxResizedDim);
      a.out = static_cast<int64_t>(out);
      a.scale = s;
      // The reference multiplies the float32 scale by the length in float32.
      a.out_width = static_cast<double>(static_cast<float>(s) * static_cast<float>(a.in));
    }
  } else {
    double keep_scale = at.keep == Keep::kNotLarger ? INFINITY : 0.0;
    for (size_t i = 0; i < n; ++i) {
      if (sizes[i] < 0) return invalid_model("{}: size {} for axis {} is negative", node.describe(), sizes[i], axes[i]);
      // int64 max as a double is 2^63, whose cast back to int64 is undefined.
      if (sizes[i] > kMaxResizedDim)
        return invalid_model("{}: size {} for axis {} is above {}", node.describe(), sizes[i], axes[i], kMaxResizedDim);
      const double s = sizes[i] / static_cast<double>(x[axes[i]]);
      keep_scale = at.keep == Keep::kNotLarger ? std::min(keep_scale, s) : std::max(keep_scale, s);
    }
    for (size_t i = 0; i < n; ++i) {
      gk_resize_axis& a = p.axes[axes[i]];
      const double in = static_cast<double>(a.in);
      if (a.in == 0) {  // nothing to sample: the output is empty or refused at run time
        a.out = static_cast<int64_t>(sizes[i]);
        continue;
      }
      if (at.keep == Keep::kStretch) {
        a.out = static_cast<int64_t>(sizes[i]);
        a.scale = sizes[i] / in;
      } else {
        a.scale = keep_scale;
        // not_smaller applies the largest ratio to every axis, so a small axis's
        // size can make a long axis's output pass int64.
        const double out = keep_scale * in + 0.5;
        if (out > kMaxResizedDim)
          return invalid_model("{}: keep_aspect_ratio_policy scale {} makes axis {} of {} too large (above {})",
                               node.describe(), keep_scale, axes[i], shape_str(x), kMaxResizedDim);
        a.out = static_cast<int64_t>(out);  // round half up
      }
      a.out_width = a.scale * in;
    }
  }
  if (at.coord_mode == GK_RC_TF_CROP_AND_RESIZE) {
    GK_TRY(roi, optional_values(node, roi_t));
    if (roi.size() != 2 * n)
      return invalid_model("{}: tf_crop_and_resize needs roi with {} values, got {}", node.describe(), 2 * n,
                           roi.size());
    for (size_t i = 0; i < n; ++i) {
      p.axes[axes[i]].roi_start = roi[i];
      p.axes[axes[i]].roi_end = roi[n + i];
    }
  }
  for (int64_t d = 0; d < r; ++d) {
    gk_resize_axis& a = p.axes[d];
    p.out[d] = a.out;
    a.coord_mode = at.coord_mode;
    a.mode = at.mode;
    a.nearest_mode = at.nearest_mode;
    a.cubic_a = at.cubic_a;
    a.antialias = at.antialias ? 1 : 0;
    a.exclude_outside = at.exclude_outside ? 1 : 0;
    // Taps: linear 2, cubic 4; antialiasing stretches the filter by 1/scale.
    const double fs = at.antialias ? std::min(a.scale, 1.0) : 1.0;
    const double support = at.mode == GK_RM_CUBIC ? 2.0 : 1.0;
    const double first = std::floor(-support / fs) + 1.0;
    if (first < -(1 << 20))
      return invalid_model("{}: antialiasing scale {} on axis {} is too small", node.describe(), a.scale, d);
    a.tap0 = static_cast<int32_t>(first);
    a.taps = 2 - 2 * a.tap0;
    const bool identity = a.scale == 1.0 && a.out == a.in && at.coord_mode != GK_RC_TF_CROP_AND_RESIZE;
    if (!identity) p.resized.push_back(static_cast<int>(d));
  }
  GK_RETURN_IF_ERROR(checked_numel(p.out).status());
  return p;
}

bool linear_dtype_ok(DType t) {
  return type_in(t, kFloatTypes) || t == DType::kU8 || t == DType::kI8 || t == DType::kI32;
}

struct ResizeInputs {
  const HostTensor* roi = nullptr;
  const HostTensor* scales = nullptr;
  const HostTensor* sizes = nullptr;
};

Status infer_resize(InferContext& ctx) {
  const auto& at = attrs_as<ResizeAttrs>(ctx.attrs);
  ResizeInputs v;
  const HostTensor** slots[] = {&v.roi, &v.scales, &v.sizes};
  for (size_t i = 1; i < ctx.inputs.size() && i < 4; ++i) {
    if (!ctx.node.has_input(i)) continue;
    // Resize-10 / Upsample-9: input 1 is scales.
    const HostTensor** slot = at.scales_input == 1 ? &v.scales : slots[i - 1];
    if (at.coord_mode != GK_RC_TF_CROP_AND_RESIZE && slot == &v.roi) continue;  // roi unused
    GK_TRY(*slot, ctx.value(i));
  }
  const TensorType& x = ctx.in(0);
  if (x.shape.size() > GK_RESIZE_MAX_RANK) return ctx.fail(fmt::format("rank {} is above {}", x.shape.size(), 8));
  GK_TRY(ResizePlan p, make_plan(ctx.node, at, x.shape, v.roi, v.scales, v.sizes));
  ctx.outputs[0] = {x.dtype, p.out};
  return ok_status();
}

// Host values of roi/scales/sizes: the plan-time value, else downloaded (a node on a
// dynamic path; the executor fetched them for infer but run sees device tensors).
Result<const HostTensor*> host_value(KernelContext& ctx, size_t i, std::vector<HostTensor>& keep) {
  const TensorRef& t = ctx.in(i);
  if (t.host) return t.host;
  GK_TRY(HostTensor h, download_tensor(ctx.kit(), t.dtype, t.shape, t.ptr));
  keep.push_back(std::move(h));
  return &keep.back();
}

Status run_nearest(KernelContext& ctx, const ResizePlan& p, const ResizeAttrs& at) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const char* tn = kernel_type_name(x.dtype);
  if (!tn) return unsupported_dtype(ctx.node(), x.dtype);
  int64_t table_size = 0;
  for (int d : p.resized) table_size += p.axes[d].out;
  GK_TRY(GkBuf table, ctx.scratch(DType::kI64, std::max<int64_t>(table_size, 1)));
  const int rank = static_cast<int>(p.out.size());
  std::vector<int64_t> table_off(rank, -1), in_strides(rank);
  int64_t stride = 1;
  for (int d = rank - 1; d >= 0; --d) {
    in_strides[d] = stride;
    stride *= x.shape[d];
  }
  int64_t off = 0;
  for (int d : p.resized) {
    table_off[d] = off;
    KernelArgs args;
    args.pod(p.axes[d]).ptr(table.ptr() + off * 8).i64(p.axes[d].out);
    GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::resize, "gk_resize_index", grid_for(p.axes[d].out), args));
    off += p.axes[d].out;
  }
  // Runs of adjacent untouched dims merge into one (NCHW → [N*C, H, W]): fewer
  // divisions per element in the gather.
  gk_resize_gather_args g{};
  for (int d = 0; d < rank; ++d) {
    const bool merge = g.rank > 0 && table_off[d] < 0 && g.table_off[g.rank - 1] < 0;
    if (merge) {
      g.out_dims[g.rank - 1] *= p.out[d];
      g.in_strides[g.rank - 1] = in_strides[d];
      continue;
    }
    g.out_dims[g.rank] = p.out[d];
    g.in_strides[g.rank] = in_strides[d];
    g.table_off[g.rank] = table_off[d];
    ++g.rank;
  }
  const int64_t n = y.numel();
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).ptr(table.ptr()).pod(g).f64(at.extrapolation).i64(n);
  return ctx.launch(kernel_sources::resize, dm::entry("gk_resize_nearest", tn), grid_for(n), args);
}

Status run_filtered(KernelContext& ctx, const ResizePlan& p, const ResizeAttrs& at) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (!linear_dtype_ok(x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const char* tn = kernel_type_name(x.dtype);
  // Intermediates and weights in float; double for double and the integer types: an
  // integer result truncates, so float's rounding would put an exact 55 at 54.
  const bool wide = x.dtype == DType::kF64 || x.dtype == DType::kI32 || x.dtype == DType::kI8 ||
                    x.dtype == DType::kU8;
  const DType wt = wide ? DType::kF64 : DType::kF32;
  const char* wn = wide ? "double" : "float";
  const size_t wbytes = wide ? 8 : 4;
  int64_t starts = 0, weights = 0;
  for (int d : p.resized) {
    starts += p.axes[d].out;
    weights += p.axes[d].out * p.axes[d].taps;
  }
  GK_TRY(GkBuf start_buf, ctx.scratch(DType::kI64, std::max<int64_t>(starts, 1)));
  GK_TRY(GkBuf weight_buf, ctx.scratch(wt, std::max<int64_t>(weights, 1)));
  std::vector<int64_t> start_off, weight_off;
  int64_t so = 0, wo = 0;
  for (int d : p.resized) {
    const gk_resize_axis& a = p.axes[d];
    KernelArgs args;
    args.pod(a).ptr(start_buf.ptr() + so * 8).ptr(weight_buf.ptr() + wo * wbytes).i64(a.out);
    GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::resize, dm::entry("gk_resize_weights", wn), grid_for(a.out), args));
    start_off.push_back(so);
    weight_off.push_back(wo);
    so += a.out;
    wo += a.out * a.taps;
  }
  // Innermost axis first, as the reference nests its 1-D interpolations.
  Shape cur = x.shape;
  DevPtr src = x.ptr;
  GkBuf ping[2];
  const size_t passes = p.resized.size();
  for (size_t k = 0; k < passes; ++k) {
    const size_t idx = passes - 1 - k;
    const int d = p.resized[idx];
    const gk_resize_axis& a = p.axes[d];
    gk_resize_pass_args pa{};
    pa.in = cur[d];
    pa.out = a.out;
    pa.inner = numel(std::span(cur).subspan(d + 1));
    pa.taps = a.taps;
    pa.extrapolation = at.extrapolation;
    cur[d] = a.out;
    const int64_t n = numel(cur);
    const bool last = k + 1 == passes;
    DevPtr dst = y.ptr;
    if (!last) {
      GkBuf& b = ping[k % 2];
      if (b.count() < n) {
        GK_TRY(b, ctx.scratch(wt, n));
      }
      dst = b.ptr();
    }
    KernelArgs args;
    args.ptr(src).ptr(dst).ptr(start_buf.ptr() + start_off[idx] * 8).ptr(weight_buf.ptr() + weight_off[idx] * wbytes);
    args.pod(pa).i64(n);
    const KernelName entry = dm::entry("gk_resize_pass", k == 0 ? tn : wn, last ? tn : wn, wn);
    GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::resize, entry, grid_for(n), args));
    src = dst;
  }
  return ok_status();
}

Status run_resize(KernelContext& ctx) {
  const auto& at = ctx.attrs<ResizeAttrs>();
  std::vector<HostTensor> keep;
  keep.reserve(3);
  ResizeInputs v;
  const HostTensor** slots[] = {&v.roi, &v.scales, &v.sizes};
  for (size_t i = 1; i < ctx.num_inputs() && i < 4; ++i) {
    if (!ctx.in(i).present()) continue;
    const HostTensor** slot = at.scales_input == 1 ? &v.scales : slots[i - 1];
    if (at.coord_mode != GK_RC_TF_CROP_AND_RESIZE && slot == &v.roi) continue;
    GK_TRY(*slot, host_value(ctx, i, keep));
  }
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  GK_TRY(ResizePlan p, make_plan(ctx.node(), at, x.shape, v.roi, v.scales, v.sizes));
  if (y.numel() == 0) return ok_status();
  if (x.numel() == 0) return ctx.fail("cannot resize an empty input to a non-empty output");
  if (p.resized.empty()) {
    GK_TRY(size_t esize, dm::element_bytes(ctx.node(), x.dtype));
    return dm::copy_bytes(ctx, y.ptr, x.ptr, esize * static_cast<size_t>(x.numel()));
  }
  if (at.mode == GK_RM_NEAREST) return run_nearest(ctx, p, at);
  return run_filtered(ctx, p, at);
}

constexpr OpImpl kResize{&parse_resize, &infer_resize, &run_resize};
constexpr OpImpl kUpsample{&parse_upsample, &infer_resize, &run_resize};

const OpSchema kResizeOps[] = {
    {"", "Upsample", 7, 8, &kUpsample, {}},
    {"", "Upsample", 9, 9, &kUpsample, {.host_inputs = 1u << 1}},
    {"", "Resize", 10, 10, &kResize, {.host_inputs = 1u << 1}},
    {"", "Resize", 11, kOpsetCurrent, &kResize, {.host_inputs = (1u << 1) | (1u << 2) | (1u << 3)}},
};

}  // namespace

namespace families {
std::span<const OpSchema> resize_ops() { return kResizeOps; }
}  // namespace families

}  // namespace gk

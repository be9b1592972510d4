// RoiAlign (10-15: output_half_pixel only; 16-current: coordinate_transformation_mode,
// half_pixel by default). X [N, C, H, W], rois [R, 4] as (x1, y1, x2, y2) in X's
// dtype, batch_indices [R] int64 → Y [R, C, output_height, output_width]. A batch
// index outside [0, N) clamps and raises the run's out-of-range flag.
// MaxRoiPool (1, 22): X [N, C, H, W], rois [R, 5] as (batch, x1, y1, x2, y2) in X's
// dtype → Y [R, C, pooled_shape[0], pooled_shape[1]] (kernel: detection.cuh).
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/detection/detection.cuh"

namespace gk {
namespace {

struct RoiAlignAttrs {
  int64_t output_height = 1, output_width = 1;
  int32_t sampling_ratio = 0;
  float spatial_scale = 1.0f;
  bool mode_max = false;
  bool half_pixel = false;
};

Result<ParsedAttrs> parse_roi_align(const AttrMap& attrs, const NodeView& node) {
  RoiAlignAttrs a;
  GK_TRY(a.output_height, attrs.get_int("output_height", 1));
  GK_TRY(a.output_width, attrs.get_int("output_width", 1));
  if (a.output_height < 1 || a.output_width < 1)
    return invalid_model("{}: output_height {} and output_width {} must be >= 1", node.describe(), a.output_height,
                         a.output_width);
  GK_TRY(int64_t sampling_ratio, attrs.get_int("sampling_ratio", 0));
  if (sampling_ratio < 0 || sampling_ratio > (1 << 20))
    return invalid_model("{}: sampling_ratio {} must be in [0, 2^20]", node.describe(), sampling_ratio);
  a.sampling_ratio = static_cast<int32_t>(sampling_ratio);
  GK_TRY(a.spatial_scale, attrs.get_float("spatial_scale", 1.0f));
  GK_TRY(std::string mode, attrs.get_string("mode", "avg"));
  if (mode != "avg" && mode != "max")
    return invalid_model("{}: mode '{}' is not one of 'avg', 'max'", node.describe(), mode);
  a.mode_max = mode == "max";
  // Opset 10 has no coordinate_transformation_mode: its behaviour is output_half_pixel.
  if (node.opset >= 16) {
    GK_TRY(std::string coord, attrs.get_string("coordinate_transformation_mode", "half_pixel"));
    if (coord != "half_pixel" && coord != "output_half_pixel")
      return invalid_model("{}: coordinate_transformation_mode '{}' is not one of 'half_pixel', 'output_half_pixel'",
                           node.describe(), coord);
    a.half_pixel = coord == "half_pixel";
  }
  return dm::make_attrs(a);
}

bool roi_align_dtype_ok(DType t) { return type_in(t, kFloatTypes); }

Status infer_roi_align(InferContext& ctx) {
  const auto& at = attrs_as<RoiAlignAttrs>(ctx.attrs);
  const TensorType &x = ctx.in(0), &rois = ctx.in(1), &idx = ctx.in(2);
  if (x.shape.size() != 4) return ctx.fail(fmt::format("X must be 4-D (N, C, H, W), got {}", shape_str(x.shape)));
  if (rois.shape.size() != 2 || rois.shape[1] != 4)
    return ctx.fail(fmt::format("rois must be [num_rois, 4], got {}", shape_str(rois.shape)));
  if (rois.dtype != x.dtype) return ctx.fail("rois must have X's element type");
  if (idx.dtype != DType::kI64) return ctx.fail("batch_indices must be int64");
  if (idx.shape.size() != 1 || idx.shape[0] != rois.shape[0])
    return ctx.fail(fmt::format("batch_indices {} does not match rois {}", shape_str(idx.shape), shape_str(rois.shape)));
  ctx.outputs[0] = {x.dtype, {rois.shape[0], x.shape[1], at.output_height, at.output_width}};
  return ok_status();
}

constexpr double kMaxRoiSamples = 4294967296.0;

Status run_roi_align(KernelContext& ctx) {
  const auto& at = ctx.attrs<RoiAlignAttrs>();
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (!roi_align_dtype_ok(x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  if (x.numel() == 0) return ctx.fail(fmt::format("X {} is empty but there are rois to pool", shape_str(x.shape)));
  // A fixed sampling_ratio costs ratio^2 bilinear samples per output element
  // whatever the rois are (an adaptive grid is clipped to the image in the
  // kernel). Mask R-CNN's heads take about 2^28; past 2^32 a run would take
  // minutes and is refused instead of hanging its caller.
  const double samples = static_cast<double>(n) * at.sampling_ratio * at.sampling_ratio;
  if (samples > kMaxRoiSamples)
    return resource_exhausted("{}: sampling_ratio {} over {} output elements is {:.3g} bilinear samples, more than "
                              "the 2^32 one run may take",
                              ctx.node().describe(), at.sampling_ratio, n, samples);
  gk_roi_align_args a{};
  a.batch = x.shape[0];
  a.channels = x.shape[1];
  a.height = x.shape[2];
  a.width = x.shape[3];
  a.pooled_h = at.output_height;
  a.pooled_w = at.output_width;
  a.spatial_scale = at.spatial_scale;
  a.sampling_ratio = at.sampling_ratio;
  a.mode_max = at.mode_max ? 1 : 0;
  a.half_pixel = at.half_pixel ? 1 : 0;
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.in(1).ptr).ptr(ctx.in(2).ptr).ptr(y.ptr).pod(a).ptr(ctx.error_flag()).i64(n);
  return ctx.launch(kernel_sources::detection, dm::entry("gk_roi_align", kernel_type_name(x.dtype)), grid_for(n),
                    args);
}

constexpr OpImpl kRoiAlign{&parse_roi_align, &infer_roi_align, &run_roi_align};

struct MaxRoiPoolAttrs {
  int64_t pooled_h = 1, pooled_w = 1;
  float spatial_scale = 1.0f;
};

Result<ParsedAttrs> parse_max_roi_pool(const AttrMap& attrs, const NodeView& node) {
  MaxRoiPoolAttrs a;
  GK_TRY(std::vector<int64_t> pooled, attrs.require_ints("pooled_shape"));
  if (pooled.size() != 2 || pooled[0] < 1 || pooled[1] < 1 || pooled[0] > (1 << 20) || pooled[1] > (1 << 20))
    return invalid_model("{}: pooled_shape must be two sizes in [1, 2^20], got {}", node.describe(),
                         shape_str(pooled));
  a.pooled_h = pooled[0];
  a.pooled_w = pooled[1];
  GK_TRY(a.spatial_scale, attrs.get_float("spatial_scale", 1.0f));
  return dm::make_attrs(a);
}

Status infer_max_roi_pool(InferContext& ctx) {
  const auto& at = attrs_as<MaxRoiPoolAttrs>(ctx.attrs);
  const TensorType &x = ctx.in(0), &rois = ctx.in(1);
  if (x.shape.size() != 4) return ctx.fail(fmt::format("X must be 4-D (N, C, H, W), got {}", shape_str(x.shape)));
  if (rois.shape.size() != 2 || rois.shape[1] != 5)
    return ctx.fail(fmt::format("rois must be [num_rois, 5] (batch_id, x1, y1, x2, y2), got {}", shape_str(rois.shape)));
  if (rois.dtype != x.dtype) return ctx.fail("rois must have X's element type");
  ctx.outputs[0] = {x.dtype, {rois.shape[0], x.shape[1], at.pooled_h, at.pooled_w}};
  return ok_status();
}

Status run_max_roi_pool(KernelContext& ctx) {
  const auto& at = ctx.attrs<MaxRoiPoolAttrs>();
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (!roi_align_dtype_ok(x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  if (x.numel() == 0) return ctx.fail(fmt::format("X {} is empty but there are rois to pool", shape_str(x.shape)));
  gk_max_roi_pool_args a{};
  a.batch = x.shape[0];
  a.channels = x.shape[1];
  a.height = x.shape[2];
  a.width = x.shape[3];
  a.pooled_h = at.pooled_h;
  a.pooled_w = at.pooled_w;
  a.spatial_scale = at.spatial_scale;
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.in(1).ptr).ptr(y.ptr).pod(a).ptr(ctx.error_flag()).i64(n);
  return ctx.launch(kernel_sources::detection, dm::entry("gk_max_roi_pool", kernel_type_name(x.dtype)), grid_for(n),
                    args);
}

constexpr OpImpl kMaxRoiPool{&parse_max_roi_pool, &infer_max_roi_pool, &run_max_roi_pool};

// MaxRoiPool-22 only widened the types (bf16); one implementation serves both.
const OpSchema kRoiAlignOps[] = {
    {"", "RoiAlign", 10, 15, &kRoiAlign, {}},
    {"", "RoiAlign", 16, kOpsetCurrent, &kRoiAlign, {}},
    {"", "MaxRoiPool", 1, 21, &kMaxRoiPool, {}},
    {"", "MaxRoiPool", 22, kOpsetCurrent, &kMaxRoiPool, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> roi_align_ops() { return kRoiAlignOps; }
}  // namespace families

}  // namespace gk

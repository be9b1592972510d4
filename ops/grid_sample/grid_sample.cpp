// GridSample (16: 4-D only, modes bilinear/nearest/bicubic; 20 and 22: rank r+2 with
// modes linear/nearest/cubic, 22 adds bfloat16) and AffineGrid (20: 2-D and 3-D).
// X and grid may have different float types; the kernel computes in double when
// either is double, else in float. Spatial ranks above GK_GS_MAX_DIMS are refused.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/grid_sample/grid_sample.cuh"

namespace gk {
namespace {

struct GridSampleAttrs {
  int32_t mode = 0;     // 0 linear, 1 nearest, 2 cubic (gk_grid_sample_args)
  int32_t padding = 0;  // 0 zeros, 1 border, 2 reflection
  bool align_corners = false;
};

Result<ParsedAttrs> parse_grid_sample(const AttrMap& attrs, const NodeView& node) {
  GridSampleAttrs a;
  // Opset 16 spells the modes bilinear/bicubic, 20 renamed them linear/cubic; both
  // spellings are taken at every version (the semantics did not change).
  GK_TRY(std::string mode, attrs.get_string("mode", "linear"));
  if (mode == "linear" || mode == "bilinear") a.mode = 0;
  else if (mode == "nearest") a.mode = 1;
  else if (mode == "cubic" || mode == "bicubic") a.mode = 2;
  else
    return invalid_model("{}: mode '{}' is not one of 'linear' ('bilinear'), 'nearest', 'cubic' ('bicubic')",
                         node.describe(), mode);
  GK_TRY(std::string padding, attrs.get_string("padding_mode", "zeros"));
  if (padding == "zeros") a.padding = 0;
  else if (padding == "border") a.padding = 1;
  else if (padding == "reflection") a.padding = 2;
  else
    return invalid_model("{}: padding_mode '{}' is not one of 'zeros', 'border', 'reflection'", node.describe(),
                         padding);
  GK_TRY(int64_t align, attrs.get_int("align_corners", 0));
  if (align != 0 && align != 1) return invalid_model("{}: align_corners {} must be 0 or 1", node.describe(), align);
  a.align_corners = align == 1;
  return dm::make_attrs(a);
}

Status infer_grid_sample(InferContext& ctx) {
  const TensorType &x = ctx.in(0), &grid = ctx.in(1);
  const size_t rank = x.shape.size();
  if (ctx.node.opset < 20 && rank != 4)
    return ctx.fail(fmt::format("X must be 4-D (N, C, H, W) before opset 20, got {}", shape_str(x.shape)));
  if (rank < 3) return ctx.fail(fmt::format("X must have rank >= 3 (N, C, spatial...), got {}", shape_str(x.shape)));
  const size_t r = rank - 2;
  if (grid.shape.size() != rank || grid.shape[0] != x.shape[0] || grid.shape[rank - 1] != static_cast<int64_t>(r))
    return ctx.fail(fmt::format("grid {} must be (N={}, out spatial..., {}) for X {}", shape_str(grid.shape),
                                x.shape[0], r, shape_str(x.shape)));
  if (!type_in(grid.dtype, kFloatTypes))
    return ctx.fail(fmt::format("grid must be a float tensor, got {}", dtype_name(grid.dtype)));
  Shape out = {x.shape[0], x.shape[1]};
  out.insert(out.end(), grid.shape.begin() + 1, grid.shape.end() - 1);
  ctx.outputs[0] = {x.dtype, out};
  return ok_status();
}

Status run_grid_sample(KernelContext& ctx) {
  const auto& at = ctx.attrs<GridSampleAttrs>();
  const TensorRef &x = ctx.in(0), &grid = ctx.in(1), &y = ctx.out(0);
  if (!type_in(x.dtype, kFloatTypes)) return unsupported_dtype(ctx.node(), x.dtype);
  if (!type_in(grid.dtype, kFloatTypes)) return unsupported_dtype(ctx.node(), grid.dtype);
  if (y.numel() == 0) return ok_status();
  const size_t r = x.shape.size() - 2;
  if (r > GK_GS_MAX_DIMS)
    return unimplemented("{}: {} spatial dims exceed the supported {}", ctx.node().describe(), r, GK_GS_MAX_DIMS);
  gk_grid_sample_args a{};
  a.rank = static_cast<int32_t>(r);
  a.mode = at.mode;
  a.padding = at.padding;
  a.align_corners = at.align_corners ? 1 : 0;
  a.channels = x.shape[1];
  a.in_points = 1;
  for (size_t d = 0; d < r; ++d) {
    a.in_dims[d] = x.shape[d + 2];
    a.in_points *= x.shape[d + 2];
  }
  if (a.in_points == 0)
    return ctx.fail(fmt::format("X {} has an empty spatial dim but the output {} is not empty", shape_str(x.shape),
                                shape_str(y.shape)));
  a.out_points = numel(std::span<const int64_t>(y.shape).subspan(2));
  const int64_t n = x.shape[0] * a.out_points;
  const KernelName entry = dm::entry("gk_grid_sample", kernel_type_name(x.dtype), kernel_type_name(grid.dtype));
  return ctx.launch(kernel_sources::grid_sample, entry, grid_for(n),
                    KernelArgs().ptr(x.ptr).ptr(grid.ptr).ptr(y.ptr).pod(a).i64(n));
}

struct AffineGridAttrs {
  bool align_corners = false;
};

Result<ParsedAttrs> parse_affine_grid(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(int64_t align, attrs.get_int("align_corners", 0));
  if (align != 0 && align != 1) return invalid_model("{}: align_corners {} must be 0 or 1", node.describe(), align);
  return dm::make_attrs(AffineGridAttrs{align == 1});
}

Status infer_affine_grid(InferContext& ctx) {
  const TensorType& theta = ctx.in(0);
  if (!type_in(theta.dtype, kFloatTypes))
    return ctx.fail(fmt::format("theta must be a float tensor, got {}", dtype_name(theta.dtype)));
  GK_TRY(std::vector<int64_t> size, dm::host_ints(ctx, 1));
  if (size.size() != 4 && size.size() != 5)
    return ctx.fail(fmt::format("size must have 4 (N, C, H, W) or 5 (N, C, D, H, W) values, got {}", size.size()));
  const int64_t r = static_cast<int64_t>(size.size()) - 2;
  if (theta.shape.size() != 3 || theta.shape[0] != size[0] || theta.shape[1] != r || theta.shape[2] != r + 1)
    return ctx.fail(fmt::format("theta {} must be ({}, {}, {}) for size N={}", shape_str(theta.shape), size[0], r,
                                r + 1, size[0]));
  Shape out = {size[0]};
  for (int64_t d = 0; d < r; ++d) {
    if (size[d + 2] < 1) return ctx.fail(fmt::format("size[{}] = {} must be >= 1", d + 2, size[d + 2]));
    out.push_back(size[d + 2]);
  }
  out.push_back(r);
  GK_RETURN_IF_ERROR(checked_numel(out).status());
  ctx.outputs[0] = {theta.dtype, out};
  return ok_status();
}

Status run_affine_grid(KernelContext& ctx) {
  const auto& at = ctx.attrs<AffineGridAttrs>();
  const TensorRef &theta = ctx.in(0), &grid = ctx.out(0);
  if (!type_in(theta.dtype, kFloatTypes)) return unsupported_dtype(ctx.node(), theta.dtype);
  if (grid.numel() == 0) return ok_status();
  const int32_t r = static_cast<int32_t>(grid.shape.size()) - 2;
  int64_t dims[3] = {1, 1, 1};
  int64_t points = 1;
  for (int32_t d = 0; d < r; ++d) {
    dims[d] = grid.shape[d + 1];
    points *= dims[d];
  }
  const int64_t n = grid.shape[0] * points;
  KernelArgs args;
  args.ptr(theta.ptr).ptr(grid.ptr).i32(r).i32(at.align_corners ? 1 : 0).i64(dims[0]).i64(dims[1]).i64(dims[2]);
  args.i64(points).i64(n);
  return ctx.launch(kernel_sources::grid_sample, dm::entry("gk_affine_grid", kernel_type_name(theta.dtype)),
                    grid_for(n), args);
}

constexpr OpImpl kGridSample{&parse_grid_sample, &infer_grid_sample, &run_grid_sample};
constexpr OpImpl kAffineGrid{&parse_affine_grid, &infer_affine_grid, &run_affine_grid};

const OpSchema kGridSampleOps[] = {
    {"", "GridSample", 16, 19, &kGridSample, {}},
    {"", "GridSample", 20, 21, &kGridSample, {}},
    {"", "GridSample", 22, kOpsetCurrent, &kGridSample, {}},
    {"", "AffineGrid", 20, kOpsetCurrent, &kAffineGrid, {.host_inputs = 0b10u}},
};

}  // namespace

namespace families {
std::span<const OpSchema> grid_sample_ops() { return kGridSampleOps; }
}  // namespace families

}  // namespace gk

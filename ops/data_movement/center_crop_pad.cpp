// CenterCropPad (18): each listed axis is cropped (start rounded down, so an odd
// excess leaves the extra element on the right) or zero-padded (an odd pad puts the
// extra element on the right) to the host-known target `shape`. Both are one
// constant-mode pad with a per-axis begin offset, negative where cropping, so the
// data-movement family's gk_dm_pad kernel does the copy for every element width.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

namespace gk {
namespace {

struct CenterCropPadAttrs {
  std::vector<int64_t> axes;  // empty: every axis
  bool has_axes = false;
};

Result<ParsedAttrs> parse_center_crop_pad(const AttrMap& attrs, const NodeView&) {
  CenterCropPadAttrs a;
  a.has_axes = attrs.has("axes");
  GK_TRY(a.axes, attrs.get_ints("axes"));
  return dm::make_attrs(std::move(a));
}

// The output shape and each axis's begin offset (output index - input index).
struct CropPadPlan {
  Shape out;
  std::vector<int64_t> begin;
};

Result<CropPadPlan> plan_center_crop_pad(const NodeView& node, const CenterCropPadAttrs& at, const Shape& in,
                                         const std::vector<int64_t>& target) {
  const int64_t rank = static_cast<int64_t>(in.size());
  std::vector<int64_t> axes;
  if (at.has_axes) {
    std::vector<bool> seen(in.size(), false);
    for (int64_t ax : at.axes) {
      GK_TRY(int64_t a, dm::normalize_axis(node, ax, rank, "axes"));
      if (seen[a]) return invalid_model("{}: axis {} is repeated in axes", node.describe(), ax);
      seen[a] = true;
      axes.push_back(a);
    }
  } else {
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  }
  if (target.size() != axes.size())
    return invalid_model("{}: shape has {} values but there are {} axes", node.describe(), target.size(),
                         axes.size());
  CropPadPlan plan{in, std::vector<int64_t>(in.size(), 0)};
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t a = axes[i], dim = in[a], want = target[i];
    if (want < 0) return invalid_model("{}: shape[{}] = {} must be >= 0", node.describe(), i, want);
    plan.out[a] = want;
    plan.begin[a] = want >= dim ? (want - dim) / 2 : -((dim - want) / 2);
  }
  return plan;
}

Status infer_center_crop_pad(InferContext& ctx) {
  GK_TRY(std::vector<int64_t> target, dm::host_ints(ctx, 1));
  GK_TRY(CropPadPlan plan, plan_center_crop_pad(ctx.node, attrs_as<CenterCropPadAttrs>(ctx.attrs), ctx.in(0).shape,
                                                target));
  GK_RETURN_IF_ERROR(checked_numel(plan.out).status());
  ctx.outputs[0] = {ctx.in(0).dtype, plan.out};
  return ok_status();
}

Status run_center_crop_pad(KernelContext& ctx) {
  const TensorRef &in = ctx.in(0), &out = ctx.out(0);
  GK_TRY(size_t esize, dm::element_bytes(ctx.node(), in.dtype));
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  if (!ctx.in(1).host) return unimplemented("{}: shape must be known before the run", ctx.node().describe());
  GK_TRY(CropPadPlan plan, plan_center_crop_pad(ctx.node(), ctx.attrs<CenterCropPadAttrs>(), in.shape,
                                                ctx.in(1).host->to_i64_vector()));
  if (in.shape.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("{}: rank {} exceeds the supported {}", ctx.node().describe(), in.shape.size(), kMaxRank);
  dm::PadMap map;
  map.rank = static_cast<int32_t>(in.shape.size());
  map.mode = 0;
  const auto strides = contiguous_strides(in.shape);
  for (size_t d = 0; d < in.shape.size(); ++d) {
    map.out_dims[d] = out.shape[d];
    map.in_dims[d] = in.shape[d];
    map.in_strides[d] = strides[d];
    map.begin[d] = plan.begin[d];
  }
  return ctx.launch(kernel_sources::data_movement, dm::entry("gk_dm_pad", dm::width_name(esize)), grid_for(n),
                    KernelArgs().ptr(in.ptr).ptr(out.ptr).pod(map).i64(0).i64(n));
}

constexpr OpImpl kCenterCropPad{&parse_center_crop_pad, &infer_center_crop_pad, &run_center_crop_pad};

const OpSchema kCenterCropPadOps[] = {
    {"", "CenterCropPad", 18, kOpsetCurrent, &kCenterCropPad, {.host_inputs = 0b10u}},
};

}  // namespace

namespace families {
std::span<const OpSchema> center_crop_pad_ops() { return kCenterCropPadOps; }
}  // namespace families

}  // namespace gk

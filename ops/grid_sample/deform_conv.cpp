// DeformConv (19; 22 adds bfloat16): X [N, C, spatial...], W [oC, C/group, kernel...],
// offset [N, offset_group * prod(kernel) * r, out...], optional B [oC] and mask
// [N, offset_group * prod(kernel), out...]. Window geometry (pads, strides,
// dilations, kernel_shape or W's dims) comes from the shared conv window rules; the
// offset's spatial dims must equal the window's output. A direct gather per output
// element (gk_deform_conv): the sampled input differs per output point, so there is
// no shared im2col panel to reuse.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/grid_sample/grid_sample.cuh"
#include "ops/common/spatial.h"

namespace gk {
namespace {

struct DeformConvAttrs {
  WindowAttrs window;
  int64_t group = 1, offset_group = 1;
};

Result<ParsedAttrs> parse_deform_conv(const AttrMap& attrs, const NodeView& node) {
  DeformConvAttrs a;
  GK_TRY(a.window, parse_window(attrs, node, false));
  GK_TRY(a.group, attrs.get_int("group", 1));
  GK_TRY(a.offset_group, attrs.get_int("offset_group", 1));
  if (a.group < 1 || a.offset_group < 1)
    return invalid_model("{}: group {} and offset_group {} must be >= 1", node.describe(), a.group, a.offset_group);
  return dm::make_attrs(std::move(a));
}

// Validates every operand against X and W and returns the kernel arguments.
Result<gk_deform_conv_args> plan_deform_conv(const NodeView& node, const DeformConvAttrs& at, const Shape& x,
                                             const Shape& w, const Shape& offset, const Shape* bias,
                                             const Shape* mask) {
  if (x.size() < 3 || x.size() > 2 + static_cast<size_t>(kMaxSpatial))
    return invalid_model("{}: X must have 1 to {} spatial dims, got {}", node.describe(), kMaxSpatial, shape_str(x));
  const size_t r = x.size() - 2;
  if (w.size() != x.size())
    return invalid_model("{}: W {} must have X's rank {}", node.describe(), shape_str(w), x.size());
  const int64_t C = x[1], oC = w[0];
  if (C % at.group != 0 || oC % at.group != 0 || w[1] * at.group != C)
    return invalid_model("{}: X channels {} and W {} do not fit group {}", node.describe(), C, shape_str(w), at.group);
  if (C % at.offset_group != 0)
    return invalid_model("{}: X channels {} must be a multiple of offset_group {}", node.describe(), C,
                         at.offset_group);
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (!at.window.kernel.empty() && at.window.kernel != kernel)
    return invalid_model("{}: kernel_shape {} does not match W {}", node.describe(), shape_str(at.window.kernel),
                         shape_str(w));
  GK_TRY(Window win, make_window(node, at.window, Shape(x.begin() + 2, x.end()), kernel));
  gk_deform_conv_args a{};
  a.rank = static_cast<int32_t>(r);
  a.channels = C;
  a.out_channels = oC;
  a.group = at.group;
  a.offset_group = at.offset_group;
  a.in_points = a.out_points = a.kernel_points = 1;
  const int lead = kMaxSpatial - static_cast<int>(r);  // Window pads dims with leading 1s
  for (size_t d = 0; d < r; ++d) {
    a.in_dims[d] = win.in[lead + d];
    a.out_dims[d] = win.out[lead + d];
    a.kernel[d] = win.k[lead + d];
    a.stride[d] = win.s[lead + d];
    a.dilation[d] = win.dil[lead + d];
    a.pad_begin[d] = win.pad_begin[lead + d];
    a.in_points *= a.in_dims[d];
    a.out_points *= a.out_dims[d];
    a.kernel_points *= a.kernel[d];
  }
  Shape want_offset = {x[0], at.offset_group * a.kernel_points * static_cast<int64_t>(r)};
  Shape want_mask = {x[0], at.offset_group * a.kernel_points};
  for (size_t d = 0; d < r; ++d) {
    want_offset.push_back(a.out_dims[d]);
    want_mask.push_back(a.out_dims[d]);
  }
  if (offset != want_offset)
    return invalid_model("{}: offset {} must be {} for this window", node.describe(), shape_str(offset),
                         shape_str(want_offset));
  if (mask && *mask != want_mask)
    return invalid_model("{}: mask {} must be {}", node.describe(), shape_str(*mask), shape_str(want_mask));
  if (bias && (bias->size() != 1 || (*bias)[0] != oC))
    return invalid_model("{}: B {} must be [{}]", node.describe(), shape_str(*bias), oC);
  a.has_bias = bias ? 1 : 0;
  a.has_mask = mask ? 1 : 0;
  return a;
}

Status infer_deform_conv(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  for (size_t i = 1; i < ctx.inputs.size(); ++i)
    if (ctx.node.has_input(i) && ctx.in(i).dtype != x.dtype)
      return ctx.fail(fmt::format("input {} is {} but X is {}", i, dtype_name(ctx.in(i).dtype), dtype_name(x.dtype)));
  const bool has_b = ctx.node.has_input(3), has_m = ctx.node.has_input(4);
  GK_TRY(gk_deform_conv_args a,
         plan_deform_conv(ctx.node, attrs_as<DeformConvAttrs>(ctx.attrs), x.shape, ctx.in(1).shape, ctx.in(2).shape,
                          has_b ? &ctx.in(3).shape : nullptr, has_m ? &ctx.in(4).shape : nullptr));
  Shape out = {x.shape[0], a.out_channels};
  for (int32_t d = 0; d < a.rank; ++d) out.push_back(a.out_dims[d]);
  ctx.outputs[0] = {x.dtype, out};
  return ok_status();
}

Status run_deform_conv(KernelContext& ctx) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (!type_in(x.dtype, kFloatTypes)) return unsupported_dtype(ctx.node(), x.dtype);
  const bool has_b = ctx.num_inputs() > 3 && ctx.in(3).present();
  const bool has_m = ctx.num_inputs() > 4 && ctx.in(4).present();
  GK_TRY(gk_deform_conv_args a,
         plan_deform_conv(ctx.node(), ctx.attrs<DeformConvAttrs>(), x.shape, ctx.in(1).shape, ctx.in(2).shape,
                          has_b ? &ctx.in(3).shape : nullptr, has_m ? &ctx.in(4).shape : nullptr));
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.in(1).ptr).ptr(ctx.in(2).ptr).ptr(has_b ? ctx.in(3).ptr : DevPtr{0});
  args.ptr(has_m ? ctx.in(4).ptr : DevPtr{0}).ptr(y.ptr).pod(a).i64(n);
  return ctx.launch(kernel_sources::grid_sample, dm::entry("gk_deform_conv", kernel_type_name(x.dtype)), grid_for(n),
                    args);
}

constexpr OpImpl kDeformConv{&parse_deform_conv, &infer_deform_conv, &run_deform_conv};

const OpSchema kDeformConvOps[] = {
    {"", "DeformConv", 19, 21, &kDeformConv, {}},
    {"", "DeformConv", 22, kOpsetCurrent, &kDeformConv, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> deform_conv_ops() { return kDeformConvOps; }
}  // namespace families

}  // namespace gk

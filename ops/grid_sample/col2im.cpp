// Col2Im (18): input [N, C * prod(block_shape), L] → [N, C, image_shape...], the
// inverse of im2col with dilations, pads and strides (PyTorch's fold, N-D). The
// image and block shapes are host-known inputs: they decide the output shape. Each
// output element gathers its overlapping contributions (gk_col2im_gather), so no atomics.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/common/checked_int.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/grid_sample/grid_sample.cuh"

namespace gk {
namespace {

struct Col2ImAttrs {
  std::vector<int64_t> dilations, pads, strides;  // empty: the defaults
};

Result<ParsedAttrs> parse_col2im(const AttrMap& attrs, const NodeView& node) {
  Col2ImAttrs a;
  GK_TRY(a.dilations, attrs.get_ints("dilations"));
  GK_TRY(a.pads, attrs.get_ints("pads"));
  GK_TRY(a.strides, attrs.get_ints("strides"));
  for (int64_t v : a.dilations)
    if (v < 1) return invalid_model("{}: dilations must be >= 1, got {}", node.describe(), v);
  for (int64_t v : a.strides)
    if (v < 1) return invalid_model("{}: strides must be >= 1, got {}", node.describe(), v);
  for (int64_t v : a.pads)
    if (v < 0) return invalid_model("{}: pads must be >= 0, got {}", node.describe(), v);
  return dm::make_attrs(std::move(a));
}

constexpr TypeSet kCol2ImTypes = kNumericTypes;

// The geometry shared by infer and run: every check on the host values lives here.
Result<gk_col2im_args> plan_col2im(const NodeView& node, const Col2ImAttrs& at, const Shape& in,
                                   const std::vector<int64_t>& image, const std::vector<int64_t>& block) {
  const size_t r = image.size();
  if (in.size() != 3)
    return invalid_model("{}: input must be 3-D [N, C * prod(block_shape), L], got {}", node.describe(),
                         shape_str(in));
  if (r < 1 || r > static_cast<size_t>(GK_MAX_RANK) || block.size() != r)
    return invalid_model("{}: image_shape ({} values) and block_shape ({} values) must have the same length in "
                         "[1, {}]",
                         node.describe(), image.size(), block.size(), GK_MAX_RANK);
  if ((!at.dilations.empty() && at.dilations.size() != r) || (!at.strides.empty() && at.strides.size() != r) ||
      (!at.pads.empty() && at.pads.size() != 2 * r))
    return invalid_model("{}: dilations and strides need {} values and pads {}, got {}, {} and {}", node.describe(),
                         r, 2 * r, at.dilations.size(), at.strides.size(), at.pads.size());
  gk_col2im_args a{};
  a.rank = static_cast<int32_t>(r);
  a.image_points = a.block_points = a.col_points = 1;
  for (size_t d = 0; d < r; ++d) {
    if (image[d] < 1 || block[d] < 1)
      return invalid_model("{}: image_shape {} and block_shape {} must be positive", node.describe(),
                           shape_str(image), shape_str(block));
    a.image[d] = image[d];
    a.block[d] = block[d];
    a.dilation[d] = at.dilations.empty() ? 1 : at.dilations[d];
    a.stride[d] = at.strides.empty() ? 1 : at.strides[d];
    a.pad_begin[d] = at.pads.empty() ? 0 : at.pads[d];
    const int64_t pad_end = at.pads.empty() ? 0 : at.pads[d + r];
    // The kernel's positions lie in [-span, padded]: both must fit int64.
    CheckedI64 c;
    const int64_t span = c.add(c.mul(a.dilation[d], block[d] - 1), 1);
    const int64_t padded = c.add(c.add(image[d], a.pad_begin[d]), pad_end);
    if (c.overflow)
      return invalid_model("{}: the dilated block (dilation {}, block {}) or the padded image (image {}, pads {} "
                           "and {}) along spatial axis {} exceeds int64",
                           node.describe(), a.dilation[d], block[d], image[d], a.pad_begin[d], pad_end, d);
    const int64_t room = padded - span;
    if (room < 0)
      return invalid_model("{}: dilated block {} does not fit the padded image {} along spatial axis {}",
                           node.describe(), span, padded, d);
    a.col[d] = room / a.stride[d] + 1;
  }
  GK_TRY(a.image_points, checked_numel(image));
  GK_TRY(a.block_points, checked_numel(block));
  GK_TRY(a.col_points, checked_numel(std::span<const int64_t>(a.col, r)));
  if (in[1] % a.block_points != 0)
    return invalid_model("{}: input dim 1 ({}) must be a multiple of prod(block_shape) = {}", node.describe(), in[1],
                         a.block_points);
  if (in[2] != a.col_points)
    return invalid_model("{}: input dim 2 ({}) must equal the number of blocks {}", node.describe(), in[2],
                         a.col_points);
  return a;
}

Status infer_col2im(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  GK_TRY(std::vector<int64_t> image, dm::host_ints(ctx, 1));
  GK_TRY(std::vector<int64_t> block, dm::host_ints(ctx, 2));
  GK_TRY(gk_col2im_args a, plan_col2im(ctx.node, attrs_as<Col2ImAttrs>(ctx.attrs), x.shape, image, block));
  Shape out = {x.shape[0], x.shape[1] / a.block_points};
  out.insert(out.end(), image.begin(), image.end());
  GK_RETURN_IF_ERROR(checked_numel(out).status());
  ctx.outputs[0] = {x.dtype, out};
  return ok_status();
}

Status run_col2im(KernelContext& ctx) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (!type_in(x.dtype, kCol2ImTypes)) return unsupported_dtype(ctx.node(), x.dtype);
  if (!ctx.in(1).host || !ctx.in(2).host)
    return unimplemented("{}: image_shape and block_shape must be known before the run", ctx.node().describe());
  GK_TRY(gk_col2im_args a, plan_col2im(ctx.node(), ctx.attrs<Col2ImAttrs>(), x.shape, ctx.in(1).host->to_i64_vector(),
                                       ctx.in(2).host->to_i64_vector()));
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  return ctx.launch(kernel_sources::grid_sample, dm::entry("gk_col2im_gather", kernel_type_name(x.dtype)), grid_for(n),
                    KernelArgs().ptr(x.ptr).ptr(y.ptr).pod(a).i64(n));
}

constexpr OpImpl kCol2Im{&parse_col2im, &infer_col2im, &run_col2im};

const OpSchema kCol2ImOps[] = {
    {"", "Col2Im", 18, kOpsetCurrent, &kCol2Im, {.host_inputs = 0b110u}},
};

}  // namespace

namespace families {
std::span<const OpSchema> col2im_ops() { return kCol2ImOps; }
}  // namespace families

}  // namespace gk

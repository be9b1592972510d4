// DepthToSpace (DCR, and CRD from opset 11) and SpaceToDepth as 6-D transposes of
// the NCHW input, each one strided copy.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"

#include <limits>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

struct BlockAttrs {
  int64_t blocksize = 0;
  bool crd = false;
};

Result<ParsedAttrs> parse_block(const AttrMap& a, const NodeView& node) {
  BlockAttrs attrs;
  GK_TRY(attrs.blocksize, a.require_int("blocksize"));
  // 2^20 keeps blocksize^2 and a dim times blocksize inside int64 for any dim a
  // tensor can have; real models use 2 to 8.
  if (attrs.blocksize < 1 || attrs.blocksize > (1 << 20))
    return invalid_model("{}: blocksize {} must be in [1, 2^20]", node.describe(), attrs.blocksize);
  GK_TRY(std::string mode, a.get_string("mode", "DCR"));
  if (mode != "DCR" && mode != "CRD")
    return invalid_model("{}: mode '{}' is not DCR or CRD", node.describe(), mode);
  attrs.crd = mode == "CRD";
  return make_attrs(attrs);
}

Status infer_depth_to_space(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  const int64_t b = attrs_as<BlockAttrs>(ctx.attrs).blocksize;
  if (in.size() != 4 || in[1] % (b * b) != 0)
    return ctx.fail(fmt::format("input {} must be NCHW with C divisible by blocksize^2 = {}", shape_str(in), b * b));
  // An empty tensor may declare any other dims (C = 0 passes the check above).
  if (in[2] > std::numeric_limits<int64_t>::max() / b || in[3] > std::numeric_limits<int64_t>::max() / b)
    return ctx.fail(fmt::format("input {} times blocksize {} overflows int64", shape_str(in), b));
  ctx.outputs[0] = {ctx.in(0).dtype, {in[0], in[1] / (b * b), in[2] * b, in[3] * b}};
  return ok_status();
}

Status run_depth_to_space(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  const auto& attrs = ctx.attrs<BlockAttrs>();
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  const int64_t b = attrs.blocksize, N = in.shape[0], C = in.shape[1], H = in.shape[2], W = in.shape[3];
  const int64_t c = C / (b * b);
  // Output viewed as [N, c, H, b1, W, b2].
  Shape view{N, c, H, b, W, b};
  std::vector<int64_t> strides;
  if (attrs.crd)  // input [N, c, b1, b2, H, W]
    strides = {C * H * W, b * b * H * W, W, b * H * W, 1, H * W};
  else  // DCR: input [N, b1, b2, c, H, W]
    strides = {C * H * W, H * W, W, b * c * H * W, 1, c * H * W};
  return strided_copy(ctx, esize, in.ptr, view, std::move(strides), ctx.out(0).ptr);
}

Status infer_space_to_depth(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  const int64_t b = attrs_as<BlockAttrs>(ctx.attrs).blocksize;
  if (in.size() != 4 || in[2] % b != 0 || in[3] % b != 0)
    return ctx.fail(fmt::format("input {} must be NCHW with H and W divisible by blocksize {}", shape_str(in), b));
  if (in[1] > std::numeric_limits<int64_t>::max() / (b * b))
    return ctx.fail(fmt::format("input {} times blocksize^2 {} overflows int64", shape_str(in), b * b));
  ctx.outputs[0] = {ctx.in(0).dtype, {in[0], in[1] * b * b, in[2] / b, in[3] / b}};
  return ok_status();
}

Status run_space_to_depth(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  const int64_t b = ctx.attrs<BlockAttrs>().blocksize, N = in.shape[0], C = in.shape[1], H = in.shape[2],
                W = in.shape[3];
  // Output viewed as [N, b1, b2, C, H/b, W/b] over the input [N, C, H/b, b1, W/b, b2].
  Shape view{N, b, b, C, H / b, W / b};
  std::vector<int64_t> strides{C * H * W, W, 1, H * W, b * W, b};
  return strided_copy(ctx, esize, in.ptr, view, std::move(strides), ctx.out(0).ptr);
}

constexpr OpImpl kDepthToSpace{&parse_block, &infer_depth_to_space, &run_depth_to_space};
constexpr OpImpl kSpaceToDepth{&parse_block, &infer_space_to_depth, &run_space_to_depth};

const OpSchema kSpaceDepthOps[] = {
    {"", "DepthToSpace", 1, kOpsetCurrent, &kDepthToSpace, {}},
    {"", "SpaceToDepth", 1, kOpsetCurrent, &kSpaceToDepth, {}},
};

}  // namespace

std::span<const OpSchema> space_depth_ops() { return kSpaceDepthOps; }

}  // namespace gk::families

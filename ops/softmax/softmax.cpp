// Softmax, LogSoftmax, Hardmax. Before opset 13 the input is coerced to 2-D at
// `axis` (default 1) and each row of prod(shape[axis:]) elements is normalised;
// from 13 on the op works along the single axis `axis` (default -1).
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

struct SoftmaxAttrs {
  int mode = 0;  // GK_SOFTMAX / GK_LOGSOFTMAX / GK_HARDMAX in ops/softmax/softmax.cuh
  bool coerce_2d = false;
  int64_t axis = -1;
};

Result<ParsedAttrs> parse_impl(const AttrMap& a, const NodeView& node, bool coerce_2d) {
  auto r = std::make_shared<SoftmaxAttrs>();
  r->mode = node.op_type == "LogSoftmax" ? 1 : node.op_type == "Hardmax" ? 2 : 0;
  r->coerce_2d = coerce_2d;
  GK_TRY(r->axis, a.get_int("axis", coerce_2d ? 1 : -1));
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_2d(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, true); }
Result<ParsedAttrs> parse_axis(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, false); }

Result<RowGeometry> geometry(const SoftmaxAttrs& r, const Shape& shape, const NodeView& node) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (r.coerce_2d) {
    // Axis may equal rank here (every row has one element).
    if (r.axis < -rank || r.axis > rank)
      return invalid_model("{}: axis {} is out of the range [{}, {}]", node.describe(), r.axis, -rank, rank);
    const int64_t axis = r.axis < 0 ? r.axis + rank : r.axis;
    RowGeometry g;
    g.rows = 1;
    for (int64_t d = 0; d < axis; ++d) g.rows *= shape[d];
    for (int64_t d = axis; d < rank; ++d) g.len *= shape[d];
    return g;
  }
  if (rank == 0) {
    RowGeometry g;
    g.rows = 1;
    return g;
  }
  GK_TRY(int64_t axis, normalize_axis(r.axis, rank, node.describe()));
  return axis_geometry(shape, axis);
}

Status infer(InferContext& ctx) {
  const auto& r = attrs_as<SoftmaxAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!dtype_is_float(x.dtype))
    return unimplemented("{}: element type {} is not supported (float types only)", ctx.node.describe(),
                         dtype_name(x.dtype));
  GK_RETURN_IF_ERROR(geometry(r, x.shape, ctx.node).status());
  ctx.outputs[0] = x;
  return ok_status();
}

Status run(KernelContext& ctx) {
  const auto& r = ctx.attrs<SoftmaxAttrs>();
  const TensorRef& x = ctx.in(0);
  TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  GK_TRY(RowGeometry g, geometry(r, x.shape, ctx.node()));
  // untuned: a block per row once rows are long, unless they are strided columns.
  const bool block = g.len > 64 && (g.inner == 1 || g.rows < 2048);
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).pod(g);
  return ctx.launch(kernel_sources::softmax,
                    KernelName::format("gk_softmax_{}<{}, {}>", {block ? "block" : "thread", kernel_type_name(x.dtype),
                                                                 KernelName::number(r.mode)}),
                    block ? rows_launch(g.rows, g.len) : grid_for(g.rows), args);
}

const OpImpl kSoftmax2d{&parse_2d, &infer, &run};
const OpImpl kSoftmaxAxis{&parse_axis, &infer, &run};

const OpSchema kSoftmaxSchemas[] = {
    {"", "Softmax", 1, 12, &kSoftmax2d, {}},
    {"", "Softmax", 13, kOpsetCurrent, &kSoftmaxAxis, {}},
    {"", "LogSoftmax", 1, 12, &kSoftmax2d, {}},
    {"", "LogSoftmax", 13, kOpsetCurrent, &kSoftmaxAxis, {}},
    {"", "Hardmax", 1, 12, &kSoftmax2d, {}},
    {"", "Hardmax", 13, kOpsetCurrent, &kSoftmaxAxis, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> softmax_ops() { return kSoftmaxSchemas; }
}  // namespace families

}  // namespace gk

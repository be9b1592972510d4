// ArgMax / ArgMin: the int64 index of the extreme element along one axis.
// select_last_index arrived in opset 12; before it ties always go to the first.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

struct ArgAttrs {
  bool is_max = true;
  int64_t axis = 0;
  bool keepdims = true;
  bool select_last = false;
};

Result<ParsedAttrs> parse(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<ArgAttrs>();
  r->is_max = node.op_type == "ArgMax";
  GK_TRY(r->axis, a.get_int("axis", 0));
  GK_TRY(int64_t keep, a.get_int("keepdims", 1));
  GK_TRY(int64_t last, a.get_int("select_last_index", 0));
  r->keepdims = keep != 0;
  r->select_last = last != 0;
  return ParsedAttrs(std::move(r));
}

Status infer(InferContext& ctx) {
  const auto& r = attrs_as<ArgAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!kernel_type_name(x.dtype) || x.dtype == DType::kBool)
    return unimplemented("{}: element type {} is not supported", ctx.node.describe(), dtype_name(x.dtype));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (rank == 0) return ctx.fail("the input must have rank >= 1");
  GK_TRY(int64_t axis, normalize_axis(r.axis, rank, ctx.node.describe()));
  Shape rest = x.shape;
  rest.erase(rest.begin() + axis);
  if (x.shape[axis] == 0 && numel(rest) > 0)
    return ctx.fail(fmt::format("axis {} has no elements to choose from", axis));
  Shape out = x.shape;
  if (r.keepdims) out[axis] = 1;
  else out.erase(out.begin() + axis);
  ctx.outputs[0] = {DType::kI64, std::move(out)};
  return ok_status();
}

Status run(KernelContext& ctx) {
  const auto& r = ctx.attrs<ArgAttrs>();
  const TensorRef& x = ctx.in(0);
  TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  GK_TRY(int64_t axis, normalize_axis(r.axis, static_cast<int64_t>(x.shape.size()), ctx.node().describe()));
  RowGeometry g = axis_geometry(x.shape, axis);
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).pod(g).i32(r.select_last ? 1 : 0);
  return ctx.launch(
      kernel_sources::reduce,
      KernelName::format("gk_argreduce<{}, {}>", {kernel_type_name(x.dtype), KernelName::number(r.is_max ? 1 : 0)}),
      grid_for(g.rows), args);
}

const OpImpl kArgReduce{&parse, &infer, &run};

const OpSchema kArgSchemas[] = {
    {"", "ArgMax", 1, kOpsetCurrent, &kArgReduce, {}},
    {"", "ArgMin", 1, kOpsetCurrent, &kArgReduce, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> arg_reduce_ops() { return kArgSchemas; }
}  // namespace families

}  // namespace gk

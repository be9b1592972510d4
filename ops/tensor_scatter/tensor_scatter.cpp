// TensorScatter (opset 24): the KV-cache update. present = past_cache with update's
// rows along `axis` written at write_indices[batch] + s (mode linear or circular).
// Output 0 may take past_cache's buffer (inplace_input = 0): the copy then
// vanishes and only the update's rows are written.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

namespace gk {
namespace {

struct ScatterAttrs {
  int64_t axis = -2;
  bool circular = false;
};

// Mirrors gk_tensor_scatter_params in ops/tensor_scatter/tensor_scatter.cuh.
struct ScatterParams {
  int64_t n, per_batch, seq, max_seq, inner;
  int32_t circular, has_indices;
};
static_assert(sizeof(ScatterParams) == 48);

Result<ParsedAttrs> parse_scatter(const AttrMap& attrs, const NodeView& node) {
  ScatterAttrs a;
  GK_TRY(a.axis, attrs.get_int("axis", -2));
  GK_TRY(std::string mode, attrs.get_string("mode", "linear"));
  if (mode != "linear" && mode != "circular")
    return invalid_model("{}: mode '{}' is not supported (allowed: linear, circular)", node.describe(), mode);
  a.circular = mode == "circular";
  return dm::make_attrs(a);
}

Result<int64_t> scatter_axis(const NodeView& node, const ScatterAttrs& a, const Shape& past) {
  GK_TRY(int64_t axis, dm::normalize_axis(node, a.axis, static_cast<int64_t>(past.size())));
  if (axis == 0) return invalid_model("{}: axis {} is the batch dimension", node.describe(), a.axis);
  return axis;
}

Status infer_scatter(InferContext& ctx) {
  const auto& a = attrs_as<ScatterAttrs>(ctx.attrs);
  const TensorType& past = ctx.in(0);
  const TensorType& update = ctx.in(1);
  if (update.dtype != past.dtype)
    return ctx.fail(fmt::format("update type {} differs from past_cache type {}", dtype_name(update.dtype),
                                dtype_name(past.dtype)));
  GK_RETURN_IF_ERROR(dm::element_bytes(ctx.node, past.dtype).status());
  if (past.shape.size() < 2)
    return ctx.fail(fmt::format("past_cache {} needs rank >= 2 (batch and sequence)", shape_str(past.shape)));
  GK_TRY(int64_t axis, scatter_axis(ctx.node, a, past.shape));
  bool ok = update.shape.size() == past.shape.size();
  for (size_t d = 0; ok && d < past.shape.size(); ++d)
    ok = static_cast<int64_t>(d) == axis ? update.shape[d] <= past.shape[d] : update.shape[d] == past.shape[d];
  if (!ok)
    return ctx.fail(fmt::format("update {} must equal past_cache {} except along axis {}, where it may not be "
                                "longer",
                                shape_str(update.shape), shape_str(past.shape), axis));
  if (ctx.node.has_input(2)) {
    const TensorType& idx = ctx.in(2);
    if (idx.dtype != DType::kI64 || idx.shape != Shape{past.shape[0]})
      return ctx.fail(fmt::format("write_indices must be int64 [{}], got {} {}", past.shape[0],
                                  dtype_name(idx.dtype), shape_str(idx.shape)));
  }
  ctx.outputs[0] = past;
  return ok_status();
}

Status run_scatter(KernelContext& ctx) {
  const auto& a = ctx.attrs<ScatterAttrs>();
  const TensorRef& past = ctx.in(0);
  const TensorRef& update = ctx.in(1);
  const TensorRef& out = ctx.out(0);
  GK_TRY(size_t esize, dm::element_bytes(ctx.node(), past.dtype));
  GK_RETURN_IF_ERROR(dm::copy_input(ctx, 0, 0));
  if (update.numel() == 0) return ok_status();
  GK_TRY(int64_t axis, scatter_axis(ctx.node(), a, past.shape));
  const std::span<const int64_t> dims(past.shape);
  const int64_t prefix = numel(dims.first(axis));
  ScatterParams p{};
  p.n = update.numel();
  p.per_batch = prefix / past.shape[0];
  p.seq = update.shape[axis];
  p.max_seq = past.shape[axis];
  p.inner = numel(dims.subspan(axis + 1));
  p.circular = a.circular ? 1 : 0;
  p.has_indices = ctx.num_inputs() > 2 && ctx.in(2).present() ? 1 : 0;
  const DevPtr indices = p.has_indices ? ctx.in(2).ptr : 0;
  return ctx.launch(kernel_sources::tensor_scatter, dm::entry("gk_tensor_scatter", dm::width_name(esize)),
                    grid_for(p.n),
                    KernelArgs().ptr(out.ptr).ptr(update.ptr).ptr(indices).ptr(ctx.error_flag()).pod(p));
}

const OpImpl kTensorScatter{&parse_scatter, &infer_scatter, &run_scatter};

const OpSchema kTensorScatterSchemas[] = {
    {"", "TensorScatter", 24, kOpsetCurrent, &kTensorScatter, {.inplace_input = 0}},
};

}  // namespace

namespace families {
std::span<const OpSchema> tensor_scatter_ops() { return kTensorScatterSchemas; }
}  // namespace families

}  // namespace gk

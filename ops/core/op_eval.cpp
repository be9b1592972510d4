#include "ops/core/op_eval.h"

namespace gk {

Result<HostTensor> download_tensor(Kit& kit, DType dtype, const Shape& shape, DevPtr ptr) {
  GK_TRY(HostTensor h, HostTensor::allocate(dtype, shape));
  if (h.bytes() > 0) GK_RETURN_IF_ERROR(kit.device().download(h.mutable_bytes(), ptr, h.bytes()));
  return h;
}

Status infer_node(const OpSchema& schema, InferContext& ictx, std::span<const TensorRef> inputs, size_t num_outputs) {
  ictx.inputs.clear();
  ictx.values.clear();
  for (const TensorRef& in : inputs) {
    ictx.inputs.push_back(in.present() ? TensorType{in.dtype, in.shape} : TensorType{});
    ictx.values.push_back(in.present() ? in.host : nullptr);
  }
  ictx.outputs.assign(num_outputs, TensorType{});
  return schema.impl->infer(ictx);
}

Result<std::vector<TensorRef>> allocate_outputs(Kit& kit, const InferContext& ictx, std::vector<GkBuf>& owned) {
  std::vector<TensorRef> outputs(ictx.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].dtype = ictx.outputs[i].dtype;
    outputs[i].shape = ictx.outputs[i].shape;
    if (ictx.dynamic_shape || !ictx.node.has_output(i)) continue;
    GK_TRY(int64_t n, checked_numel(outputs[i].shape));
    GK_TRY(GkBuf buf, kit.alloc(outputs[i].dtype, n));
    outputs[i].ptr = buf.ptr();
    owned.push_back(std::move(buf));
  }
  return outputs;
}

Status invoke_node(const InvokeEnv& env, const NodeCall& call, std::span<const TensorRef> inputs,
                   std::span<TensorRef> outputs, std::vector<GkBuf>& owned) {
  KernelContext ctx(env.kit, call.node, call.attrs, inputs, outputs, env.error_flag, env.profiler, env.tag,
                    env.kernels);
  GK_RETURN_IF_ERROR(call.schema.impl->run(ctx));
  for (GkBuf& b : ctx.owned()) owned.push_back(std::move(b));
  return ok_status();
}

Result<OpEvalResult> evaluate_op(Kit& kit, const OpSchema& schema, const NodeView& node,
                                 const ParsedAttrs& parsed, std::span<const HostTensor* const> inputs,
                                 bool inputs_host_known) {
  std::vector<GkBuf> keep;
  std::vector<TensorRef> refs;
  for (const HostTensor* in : inputs) {
    TensorRef ref;
    if (in) ref = {in->dtype(), in->shape(), 0, inputs_host_known ? in : nullptr};
    refs.push_back(std::move(ref));
  }
  InferContext ictx{node, parsed, {}, {}, {}, false, {}};
  GK_RETURN_IF_ERROR(infer_node(schema, ictx, refs, static_cast<size_t>(std::max(node.num_outputs, 0))));

  // Values infer() computed for every output (Shape, Size, the host-only string
  // ops) are the result, as in the plan builder: nothing is launched.
  bool values_known = !ictx.output_values.empty();
  for (size_t i = 0; i < ictx.outputs.size(); ++i)
    if (node.has_output(i) && (i >= ictx.output_values.size() || !ictx.output_values[i])) values_known = false;
  if (values_known) {
    OpEvalResult result;
    for (size_t i = 0; i < ictx.outputs.size(); ++i)
      result.outputs.push_back(node.has_output(i) ? *ictx.output_values[i] : HostTensor());
    return result;
  }

  // Strings never reach the device; ops that take them (Cast) read ref.host.
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i] || inputs[i]->dtype() == DType::kString) continue;
    GK_TRY(GkBuf buf, kit.upload(*inputs[i]));
    refs[i].ptr = buf.ptr();
    keep.push_back(std::move(buf));
  }
  GK_TRY(std::vector<TensorRef> outputs, allocate_outputs(kit, ictx, keep));
  GK_TRY(GkBuf flag, kit.alloc(DType::kI32, 1));
  GK_RETURN_IF_ERROR(kit.device().memset(flag.ptr(), 0, 4));
  GK_RETURN_IF_ERROR(invoke_node(InvokeEnv{kit, flag.ptr()}, NodeCall{schema, node, parsed}, refs, outputs, keep));
  GK_RETURN_IF_ERROR(kit.sync());
  int32_t flag_value = 0;
  GK_RETURN_IF_ERROR(kit.device().download(&flag_value, flag.ptr(), 4));
  if (flag_value != 0) return out_of_range("{}: an index was out of range", node.describe());

  OpEvalResult result;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!node.has_output(i)) {
      result.outputs.emplace_back();
      continue;
    }
    GK_TRY(HostTensor h, download_tensor(kit, outputs[i].dtype, outputs[i].shape, outputs[i].ptr));
    result.outputs.push_back(std::move(h));
  }
  return result;
}

}  // namespace gk

#include "ops/core/op_eval.h"

namespace gk {

Result<HostTensor> download_tensor(Kit& kit, DType dtype, const Shape& shape, DevPtr ptr) {
  GK_TRY(HostTensor h, HostTensor::allocate(dtype, shape));
  if (h.bytes() > 0) GK_RETURN_IF_ERROR(kit.device().download(h.mutable_bytes(), ptr, h.bytes()));
  return h;
}

Result<OpEvalResult> evaluate_op(Kit& kit, const OpSchema& schema, const NodeView& node,
                                 const ParsedAttrs& parsed, std::span<const HostTensor* const> inputs,
                                 bool inputs_host_known) {
  InferContext ictx{node, parsed, {}, {}, {}, false, {}};
  for (const HostTensor* in : inputs) {
    ictx.inputs.push_back(in ? TensorType{in->dtype(), in->shape()} : TensorType{});
    ictx.values.push_back(inputs_host_known ? in : nullptr);
  }
  ictx.outputs.resize(node.num_outputs);
  GK_RETURN_IF_ERROR(schema.impl->infer(ictx));

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

  std::vector<GkBuf> keep;
  std::vector<TensorRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    TensorRef ref;
    if (inputs[i] && inputs[i]->dtype() == DType::kString) {
      // Strings never reach the device; ops that take them (Cast) read ref.host.
      ref = {DType::kString, inputs[i]->shape(), 0, ictx.values[i]};
    } else if (inputs[i]) {
      GK_TRY(GkBuf buf, kit.upload(*inputs[i]));
      ref = {inputs[i]->dtype(), inputs[i]->shape(), buf.ptr(), ictx.values[i]};
      keep.push_back(std::move(buf));
    }
    refs.push_back(std::move(ref));
  }
  std::vector<TensorRef> outputs(ictx.outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].dtype = ictx.outputs[i].dtype;
    outputs[i].shape = ictx.outputs[i].shape;
    if (ictx.dynamic_shape || !node.has_output(i)) continue;
    GK_TRY(int64_t n, checked_numel(outputs[i].shape));
    GK_TRY(GkBuf buf, kit.alloc(outputs[i].dtype, n));
    outputs[i].ptr = buf.ptr();
    keep.push_back(std::move(buf));
  }
  GK_TRY(GkBuf flag, kit.alloc(DType::kI32, 1));
  GK_RETURN_IF_ERROR(kit.device().memset(flag.ptr(), 0, 4));
  KernelContext kctx(kit, node, parsed, refs, outputs, flag.ptr(), nullptr, nullptr);
  GK_RETURN_IF_ERROR(schema.impl->run(kctx));
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

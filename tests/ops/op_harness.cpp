#include "tests/ops/op_harness.h"

#include <mutex>

namespace gk::test {

Kit& cpu_kit() {
  static Kit kit = [] {
    KitOptions options;
    options.device.kind = BackendKind::kCpu;
    options.cpu_kernels = cpu_kernel_tables();
    auto k = Kit::open(std::move(options));
    if (!k.ok()) {
      fmt::print(stderr, "cannot open the CPU kit: {}\n", k.status().to_string());
      std::abort();
    }
    return std::move(k).value();
  }();
  return kit;
}

Result<OpResult> run_op(const OpCall& call, Kit& kit) {
  const OpSchema* schema = find_op(call.domain, call.op_type, call.opset);
  if (!schema) return unimplemented("no op {} at opset {}", call.op_type, call.opset);
  NodeView node;
  node.name = call.op_type + "_test";
  node.op_type = call.op_type;
  node.domain = call.domain;
  node.opset = call.opset;
  for (const auto& in : call.inputs) node.input_present.push_back(in.has_value());
  node.num_outputs = call.num_outputs;
  node.output_present.assign(call.num_outputs, true);

  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(call.attrs, node));
  }
  InferContext ictx{node, parsed, {}, {}, {}, false};
  for (const auto& in : call.inputs) {
    ictx.inputs.push_back(in ? TensorType{in->dtype(), in->shape()} : TensorType{});
    ictx.values.push_back(in && call.inputs_host_known ? &*in : nullptr);
  }
  ictx.outputs.resize(call.num_outputs);
  GK_RETURN_IF_ERROR(schema->impl->infer(ictx));

  std::vector<GkBuf> keep;
  std::vector<TensorRef> inputs;
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    TensorRef ref;
    if (call.inputs[i]) {
      const HostTensor& h = *call.inputs[i];
      GK_TRY(GkBuf buf, kit.upload(h));
      ref = {h.dtype(), h.shape(), buf.ptr(), ictx.values[i]};
      keep.push_back(std::move(buf));
    }
    inputs.push_back(std::move(ref));
  }
  std::vector<TensorRef> outputs(call.num_outputs);
  for (int i = 0; i < call.num_outputs; ++i) {
    outputs[i].dtype = ictx.outputs[i].dtype;
    outputs[i].shape = ictx.outputs[i].shape;
    if (!ictx.dynamic_shape) {
      GK_TRY(int64_t n, checked_numel(outputs[i].shape));
      GK_TRY(GkBuf buf, kit.alloc(outputs[i].dtype, n));
      outputs[i].ptr = buf.ptr();
      keep.push_back(std::move(buf));
    }
  }
  GK_TRY(GkBuf flag, kit.alloc(DType::kI32, 1));
  GK_RETURN_IF_ERROR(flag.upload_i64(std::vector<int64_t>{0}));
  KernelContext kctx(kit, node, parsed, inputs, outputs, flag.ptr(), nullptr, nullptr);
  GK_RETURN_IF_ERROR(schema->impl->run(kctx));
  GK_RETURN_IF_ERROR(kit.sync());
  GK_TRY(auto flag_value, flag.download_i64());
  if (flag_value[0] != 0) return out_of_range("{}: an index was out of range", node.describe());

  OpResult result;
  for (int i = 0; i < call.num_outputs; ++i) {
    const TensorRef& o = outputs[i];
    GK_TRY(int64_t n, checked_numel(o.shape));
    GK_TRY(HostTensor h, HostTensor::allocate(o.dtype, o.shape));
    if (n > 0) {
      GkBuf view = GkBuf::wrap(o.dtype, n, o.ptr);
      GK_RETURN_IF_ERROR(kit.device().download(h.mutable_bytes(), o.ptr, h.bytes()));
      (void)view;
    }
    result.outputs.push_back(std::move(h));
  }
  return result;
}

HostTensor f32(Shape shape, std::vector<float> values) {
  return HostTensor::from_vector(DType::kF32, std::move(shape), values);
}
HostTensor i64(Shape shape, std::vector<int64_t> values) {
  return HostTensor::from_vector(DType::kI64, std::move(shape), values);
}

}  // namespace gk::test

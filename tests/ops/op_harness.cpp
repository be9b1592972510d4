#include "tests/ops/op_harness.h"

#include "ops/core/op_eval.h"

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
  std::vector<const HostTensor*> inputs;
  for (const auto& in : call.inputs) {
    node.input_present.push_back(in.has_value());
    inputs.push_back(in ? &*in : nullptr);
  }
  node.num_outputs = call.num_outputs;
  node.output_present.assign(call.num_outputs, true);
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(call.attrs, node));
  }
  GK_TRY(OpEvalResult r, evaluate_op(kit, *schema, node, parsed, inputs, call.inputs_host_known));
  return OpResult{std::move(r.outputs)};
}

HostTensor f32(Shape shape, std::vector<float> values) {
  return HostTensor::from_vector(DType::kF32, std::move(shape), values);
}
HostTensor i64(Shape shape, std::vector<int64_t> values) {
  return HostTensor::from_vector(DType::kI64, std::move(shape), values);
}

}  // namespace gk::test

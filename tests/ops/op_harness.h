// Runs one operator outside any graph: find_op → parse → infer → allocate → run →
// sync → download, on a CPU kit. What op family tests use before (and beside) the
// executor.
#pragma once

#include "ops/core/op.h"

#include <string>
#include <vector>

namespace gk::test {

struct OpCall {
  std::string op_type;
  std::string domain;                        // "" = ai.onnx
  int opset = 17;
  AttrMap attrs;
  std::vector<std::optional<HostTensor>> inputs;  // nullopt = absent optional input
  int num_outputs = 1;
  // Inputs whose values are visible to infer() as host-known (e.g. Reshape's shape).
  // Default: every input given is host-known, as constant inputs are in models.
  bool inputs_host_known = true;
};

struct OpResult {
  std::vector<HostTensor> outputs;
};

// The process-wide CPU kit with every op family's CPU kernels.
Kit& cpu_kit();
Result<OpResult> run_op(const OpCall& call, Kit& kit = cpu_kit());

// Helpers for building inputs.
HostTensor f32(Shape shape, std::vector<float> values);
HostTensor i64(Shape shape, std::vector<int64_t> values);
template <typename T>
std::vector<T> values_of(const HostTensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

}  // namespace gk::test

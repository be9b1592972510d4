// Runs one operator outside any graph: find_op → parse → infer → allocate → run →
// sync → download, on a kit. What op family tests use before (and beside) the
// executor. run_op_all_backends() runs the case on the CPU and on every other
// available backend (CUDA where a driver and a GPU exist) and checks each against
// the CPU (STYLE.md 14: CPU is the oracle for CUDA).
#pragma once

#include "ops/core/op.h"
#include "tests/support/compare.h"

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

// The kits besides the CPU's that run_op_all_backends() checks: the CUDA kit
// (GK_DEVICE, else the best device), opened once, where Kit::open finds a driver and
// a GPU; none where it reports Unavailable. Any other error opening it fails the case.
std::vector<Kit*> other_backend_kits();

// How close another backend's output of `dtype` must be to the CPU's for `op_type`:
// Tol{} (0 ulp, compared bit for bit) for integer, bool and string outputs and for
// index, data-movement and exactly rounded ops; the op's stated tolerance otherwise
// (op_harness.cpp), widened to a half/bfloat16 output's rounding step.
Tol backend_tolerance(std::string_view op_type, DType dtype);

// Runs `call` on the CPU and on each of other_backend_kits(), and checks that each
// backend fails with the CPU's code where the CPU fails and otherwise returns the
// CPU's outputs within backend_tolerance(). Returns the CPU's result for the test's
// own checks. Without another backend it is run_op(call).
Result<OpResult> run_op_all_backends(const OpCall& call);

// Helpers for building inputs.
HostTensor f32(Shape shape, std::vector<float> values);
HostTensor i64(Shape shape, std::vector<int64_t> values);
template <typename T>
std::vector<T> values_of(const HostTensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.numel());
}

}  // namespace gk::test

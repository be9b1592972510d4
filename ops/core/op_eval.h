// Invoking one node: the single path every caller takes (the executor's steps, its
// plan-time evaluation, ops the executor calls outside a plan, the op tests).
// infer_node() types the outputs; allocate_outputs() gives each a buffer where the
// rule knows its shape; invoke_node() launches. evaluate_op() chains them on host
// tensors: infer → upload → run → sync → download.
#pragma once

#include "ops/core/op.h"

#include <optional>
#include <vector>

namespace gk {

// A node as the executor holds it: its schema, its view and its parsed attributes.
struct NodeCall {
  const OpSchema& schema;
  const NodeView& node;
  const ParsedAttrs& attrs;
};

// Where a node's kernels launch: the kit, the step's index-error flag, the
// profiler and tag, and the step's resolved kernels (null outside a plan).
struct InvokeEnv {
  Kit& kit;
  DevPtr error_flag = 0;
  Profiler* profiler = nullptr;
  const LaunchTag* tag = nullptr;
  StepKernels* kernels = nullptr;
};

// Types `num_outputs` outputs from the inputs' types and host values
// (TensorRef::host; an absent operand is kUndefined) by the op's rule, into `ictx`
// (built over the same node and attributes).
Status infer_node(const OpSchema& schema, InferContext& ictx, std::span<const TensorRef> inputs, size_t num_outputs);

// One TensorRef per inferred output; each present output whose shape the rule
// knows gets a buffer (kept in `owned`). Outputs of dynamic-shape ops stay
// unallocated: the op allocates them once it knows their shape.
Result<std::vector<TensorRef>> allocate_outputs(Kit& kit, const InferContext& ictx, std::vector<GkBuf>& owned);

// Launches the node on `inputs` → `outputs` (no sync). Buffers the op allocated
// (scratch, dynamic outputs) move to `owned`: they must outlive the launches.
Status invoke_node(const InvokeEnv& env, const NodeCall& call, std::span<const TensorRef> inputs,
                   std::span<TensorRef> outputs, std::vector<GkBuf>& owned);

struct OpEvalResult {
  std::vector<HostTensor> outputs;
};

// `inputs[i]` null = absent optional input. With `inputs_host_known`, infer() sees
// every input's value (as constant inputs are in models).
Result<OpEvalResult> evaluate_op(Kit& kit, const OpSchema& schema, const NodeView& node,
                                 const ParsedAttrs& parsed, std::span<const HostTensor* const> inputs,
                                 bool inputs_host_known = true);

// Downloads `count` elements at `ptr` into a new host tensor of `shape`.
Result<HostTensor> download_tensor(Kit& kit, DType dtype, const Shape& shape, DevPtr ptr);

}  // namespace gk

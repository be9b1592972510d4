// Runs one operator once on host tensors: infer → upload → run → sync → download.
// The executor's plan-time evaluation (shape arithmetic, constant folding) and the
// op tests both use it, on a CPU kit.
#pragma once

#include "ops/core/op.h"

#include <optional>
#include <vector>

namespace gk {

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

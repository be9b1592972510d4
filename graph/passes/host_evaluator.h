// Evaluates one node on host tensors at plan time, for constant folding. graph/
// declares it and runtime/ implements it on the CPU backend (graph/ knows no device);
// tests inject a small fake.
#pragma once

#include "backends/status.h"
#include "graph/ir.h"
#include "runtime/kit/host_tensor.h"

#include <span>
#include <vector>

namespace gk {

class HostEvaluator {
 public:
  virtual ~HostEvaluator() = default;
  // One tensor per entry of node.outputs (an empty HostTensor for an absent one).
  // `inputs` has one pointer per entry of node.inputs, nullptr for an absent one.
  // Unimplemented means "cannot evaluate this op on the host": the node is kept.
  virtual Result<std::vector<HostTensor>> evaluate(const Node& node, std::span<const HostTensor* const> inputs) = 0;
};

}  // namespace gk

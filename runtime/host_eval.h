// Evaluating one node on the host: plan time folds the nodes whose inputs are all
// known (build_plan), run time evaluates small steps whose inputs the run has on
// the host (Executor::run_dynamic_step). Both go through evaluate_on_host.
#pragma once

#include "graph/ir.h"
#include "ops/core/op_eval.h"

#include <functional>

namespace gk {

// A present input as the host evaluation sees it: its value, or null for an input
// only its type is read of (a type-only input whose value is on the device:
// Shape, Size, CastLike), which gets a placeholder of `dtype` with no elements.
struct HostInput {
  const HostTensor* value = nullptr;
  DType dtype = DType::kF32;
};

// `input(v)` describes each present input of `node`; absent optional inputs
// (kNoValue) are passed as absent.
Result<OpEvalResult> evaluate_on_host(Kit& host_kit, const Node& node,
                                      const std::function<HostInput(ValueId)>& input);

}  // namespace gk

// The sequence ops at run time: a sequence is a list of device tensors
// (NamedBuf::sequence), built and read by these steps; SequenceMap runs its body
// per element through the executor.
#pragma once

#include "runtime/control_flow.h"

namespace gk {

// `inputs[i]` is node input i; returns one value per node output.
Result<std::vector<NamedBuf>> run_sequence_op(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                              const RunSubgraph& run);

}  // namespace gk

// If, Loop and Scan at run time: each reads its condition or trip count on the
// host (a sync), runs its subgraph through the executor once per iteration, and
// stacks the per-iteration scan outputs on the device.
#pragma once

#include "graph/ir.h"
#include "runtime/session.h"

#include <functional>
#include <vector>

namespace gk {

// Runs `g` once: `formal` holds its declared inputs in order; the caller adds the
// values `g` captures from enclosing graphs. The outputs are owned by the caller.
using RunSubgraph = std::function<Result<std::vector<NamedBuf>>(const Graph& g, std::vector<NamedBuf> formal)>;

// `inputs[i]` is node input i (an absent optional input has no buffer and no
// host value). Returns one buffer per node output; absent outputs stay empty.
Result<std::vector<NamedBuf>> run_control_flow(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                               const RunSubgraph& run);

}  // namespace gk

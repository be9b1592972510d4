// Graph optimisation passes, each with a name that turns it off
// (`PassOptions::disabled`). They run on the top-level graph after load and before
// shape inference and planning. Passes match nodes by op type strings (load time,
// never a run) and read traits through node.schema when it is set.
#pragma once

#include "backends/status.h"
#include "graph/ir.h"
#include "graph/passes/host_evaluator.h"

#include <set>
#include <span>
#include <string>
#include <string_view>

namespace gk {

struct PassOptions {
  std::set<std::string> disabled;  // pass names, e.g. "fold-constants"
  // fold-constants keeps a node whose output would exceed this. Large constant
  // outputs come from Expand/Tile/ConstantOfShape of tiny inputs: folding them holds
  // a host copy and a device copy for the session's life and lengthens the upload,
  // while the kernel rebuilding them costs microseconds. 16 MiB stays above every
  // shape computation and the weight transposes of usual CNN layers. Untuned.
  size_t fold_max_bytes = size_t{16} << 20;
  bool enabled(std::string_view name) const { return disabled.count(std::string(name)) == 0; }
};

// The passes in the order run_passes applies them. "eliminate-dead" runs first and
// again last (cleaning up what the others orphaned). Elementwise-chain fusion is not
// a pass yet: it needs a fused kernel on the ops side.
std::span<const std::string_view> pass_names();

// Runs every enabled pass. An unknown name in `options.disabled` is InvalidArgument
// listing the known ones. `eval` may be null: constant folding is then skipped.
// Every node's `covers` is set to {its own name} when empty before the first pass.
Status run_passes(Graph& graph, const PassOptions& options, HostEvaluator* eval);

}  // namespace gk

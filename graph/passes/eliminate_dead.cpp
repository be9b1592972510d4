#include "graph/passes/pass_util.h"

namespace gk::passes {

// A node is live when one of its outputs is a graph output or read by a live node
// (directly or from a subgraph). Walking the topological order backwards decides
// each node after all its readers.
Status eliminate_dead(Graph& g) {
  std::vector<bool> live(g.values.size(), false);
  for (ValueId v : g.outputs)
    if (v >= 0 && static_cast<size_t>(v) < live.size()) live[v] = true;
  for (size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].is_graph_output) live[v] = true;
  std::vector<bool> dead(g.nodes.size(), true);
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    bool used = false;
    for (ValueId v : n.outputs) used = used || (v >= 0 && live[v]);
    if (!used) continue;
    dead[i] = false;
    for (ValueId v : n.inputs)
      if (v >= 0) live[v] = true;
    for (ValueId v : n.implicit_inputs)
      if (v >= 0) live[v] = true;
  }
  erase_nodes(g, dead);
  // Constants nobody reads any more (a folded node's inputs, a replaced weight):
  // release their host memory so they are neither kept nor uploaded.
  for (Value& v : g.values)
    if (v.initializer && v.consumers.empty() && !v.is_graph_output && !v.is_graph_input) v.initializer.reset();
  return ok_status();
}

}  // namespace gk::passes

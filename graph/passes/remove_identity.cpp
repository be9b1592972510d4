#include "graph/passes/pass_util.h"

namespace gk::passes {
namespace {

// Dropout at inference passes its input through; it stays when its mask is read
// or when training_mode (input 2, opset 12+) is not a constant false.
bool passes_through(const Graph& g, const Node& n, const std::vector<bool>& outside) {
  if (is_op(n, "Identity")) return true;
  if (!is_op(n, "Dropout")) return false;
  if (n.outputs.size() > 1 && n.outputs[1] != kNoValue) {
    const ValueId mask = n.outputs[1];
    if (outside[mask] || !g.values[mask].consumers.empty()) return false;
  }
  if (ValueId tm = input_of(n, 2); tm != kNoValue) {
    const HostTensor* t = constant(g, tm);
    if (!t || t->numel() != 1 || t->as_i64(0) != 0) return false;
  }
  return true;
}

}  // namespace

// y = Identity(x): readers of y read x. When y is a graph output (or read by a
// subgraph by name) its name must survive: x's producer then writes y directly,
// unless x is itself an input, a constant or seen from outside, and the node stays
// as a copy.
Status remove_identity(Graph& g) {
  const std::vector<bool> outside = named_from_outside(g);
  std::vector<bool> dead(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    const ValueId x = input_of(n, 0);
    const ValueId y = n.outputs.empty() ? kNoValue : n.outputs[0];
    if (x == kNoValue || y == kNoValue || !passes_through(g, n, outside)) continue;
    if (!outside[y]) {
      replace_uses(g, y, x);
    } else {
      const Value& xv = g.values[x];
      if (outside[x] || xv.producer < 0 || xv.is_graph_input || xv.initializer) continue;
      Node& producer = g.nodes[xv.producer];
      for (ValueId& out : producer.outputs)
        if (out == x) out = y;
      replace_uses(g, x, y);
    }
    dead[i] = true;
    n.inputs.clear();
    n.outputs.clear();
    g.rebuild_uses();
  }
  erase_nodes(g, dead);
  return ok_status();
}

}  // namespace gk::passes

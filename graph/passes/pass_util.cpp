#include "graph/passes/pass_util.h"

#include <memory>

namespace gk::passes {

bool is_op(const Node& node, std::string_view op_type) {
  return node.view.op_type == op_type && (node.view.domain.empty() || node.view.domain == "ai.onnx");
}

std::vector<bool> named_from_outside(const Graph& g) {
  std::vector<bool> out(g.values.size(), false);
  for (ValueId v : g.outputs)
    if (v >= 0 && static_cast<size_t>(v) < out.size()) out[v] = true;
  for (size_t v = 0; v < g.values.size(); ++v)
    if (g.values[v].is_graph_output) out[v] = true;
  for (const Node& n : g.nodes)
    for (ValueId v : n.implicit_inputs)
      if (v >= 0 && static_cast<size_t>(v) < out.size()) out[v] = true;
  return out;
}

const HostTensor* constant(const Graph& g, ValueId v) {
  if (v < 0 || static_cast<size_t>(v) >= g.values.size()) return nullptr;
  return g.values[v].initializer.get();
}

ValueId input_of(const Node& node, size_t i) { return i < node.inputs.size() ? node.inputs[i] : kNoValue; }

int sole_consumer(const Graph& g, const std::vector<bool>& outside, ValueId v) {
  if (v < 0 || static_cast<size_t>(v) >= g.values.size() || outside[v]) return -1;
  const Value& val = g.values[v];
  if (val.consumers.size() != 1) return -1;
  const Node& n = g.nodes[val.consumers[0]];
  for (ValueId iv : n.implicit_inputs)
    if (iv == v) return -1;
  return val.consumers[0];
}

void replace_uses(Graph& g, ValueId from, ValueId to) {
  for (Node& n : g.nodes)
    for (ValueId& in : n.inputs)
      if (in == from) in = to;
}

void erase_nodes(Graph& g, const std::vector<bool>& dead) {
  std::vector<Node> kept;
  kept.reserve(g.nodes.size());
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (!dead[i]) kept.push_back(std::move(g.nodes[i]));
  g.nodes = std::move(kept);
  g.rebuild_uses();
}

ValueId add_constant(Graph& g, const std::string& base, HostTensor t) {
  std::string name = base;
  for (int k = 1; g.find(name) != kNoValue; ++k) name = base + "_" + std::to_string(k);
  Value v;
  v.name = name;
  v.dtype = t.dtype();
  v.has_shape = true;
  for (int64_t d : t.shape()) v.dims.push_back(Dim{d, {}});
  v.initializer = std::make_shared<const HostTensor>(std::move(t));
  return g.add_value(std::move(v));
}

Status set_attribute(Node& node, const std::string& name, Attribute value) {
  node.attrs.set(name, std::move(value));
  if (node.schema && node.schema->impl && node.schema->impl->parse) {
    GK_TRY(node.parsed, node.schema->impl->parse(node.attrs, node.view));
  }
  return ok_status();
}

void set_node_constant(Graph& g, int node, size_t i, const std::string& suffix, HostTensor t) {
  const ValueId old = input_of(g.nodes[node], i);
  const bool private_use = old != kNoValue && g.values[old].consumers.size() == 1 &&
                           !g.values[old].is_graph_output && !g.values[old].is_graph_input;
  if (private_use) {
    Value& v = g.values[old];
    v.dtype = t.dtype();
    v.has_shape = true;
    v.dims.clear();
    for (int64_t d : t.shape()) v.dims.push_back(Dim{d, {}});
    v.initializer = std::make_shared<const HostTensor>(std::move(t));
    return;
  }
  const std::string base = (old != kNoValue ? g.values[old].name : g.nodes[node].view.name) + suffix;
  const ValueId nv = add_constant(g, base, std::move(t));
  Node& n = g.nodes[node];
  if (n.inputs.size() <= i) n.inputs.resize(i + 1, kNoValue);
  n.inputs[i] = nv;
  if (n.view.input_present.size() <= i) n.view.input_present.resize(i + 1, false);
  n.view.input_present[i] = true;
}

}  // namespace gk::passes

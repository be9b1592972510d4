#include "graph/ir.h"

#include <cassert>

namespace gk {

ValueId Graph::find(const std::string& name) const {
  auto it = by_name.find(name);
  return it == by_name.end() ? kNoValue : it->second;
}

ValueId Graph::add_value(Value v) {
  auto id = static_cast<ValueId>(values.size());
  // Passes may add anonymous temporaries; only named values are looked up.
  if (!v.name.empty()) {
    [[maybe_unused]] bool inserted = by_name.emplace(v.name, id).second;
    assert(inserted && "Graph::add_value: name already defined");
  }
  values.push_back(std::move(v));
  return id;
}

void Graph::rebuild_uses() {
  for (Value& v : values) {
    v.producer = -1;
    v.consumers.clear();
  }
  auto use = [&](ValueId id, int node) {
    if (id == kNoValue) return;
    auto& c = values[static_cast<size_t>(id)].consumers;
    // One entry per consuming node, even when it reads the value twice (Mul(x, x)).
    if (c.empty() || c.back() != node) c.push_back(node);
  };
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    int idx = static_cast<int>(i);
    for (ValueId in : n.inputs) use(in, idx);
    for (ValueId in : n.implicit_inputs) use(in, idx);
    for (ValueId out : n.outputs)
      if (out != kNoValue) values[static_cast<size_t>(out)].producer = idx;
  }
}

int64_t Model::opset(const std::string& domain) const {
  const std::string& want = domain == "ai.onnx" ? std::string() : domain;
  for (const OpsetImport& o : opsets)
    if (o.domain == want) return o.version;
  return 0;
}

}  // namespace gk

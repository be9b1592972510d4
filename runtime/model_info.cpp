#include "runtime/model_info.h"

#include "graph/loader.h"

namespace gk {

Result<ModelInfo> inspect_model(const std::string& path) {
  GK_TRY(Model m, load_model(path, LoadOptions{.allow_unsupported = true}));
  const Graph& g = m.graph;
  ModelInfo info;
  info.ir_version = m.ir_version;
  info.opsets = m.opsets;
  info.producer_name = m.producer_name;
  info.producer_version = m.producer_version;
  auto describe = [&](ValueId v) {
    const Value& value = g.values[v];
    return IoDesc{value.name, value.dtype, value.dims, value.has_shape};
  };
  for (ValueId v : g.inputs) info.inputs.push_back(describe(v));
  for (ValueId v : g.outputs) info.outputs.push_back(describe(v));
  for (const Node& n : g.nodes) info.ops[(n.view.domain.empty() ? "" : n.view.domain + ".") + n.view.op_type]++;
  info.nodes = static_cast<int64_t>(g.nodes.size());
  for (const Value& v : g.values)
    if (v.initializer) {
      info.parameters += v.initializer->numel();
      info.parameter_bytes += v.initializer->bytes();
    }
  info.unsupported = find_unsupported(m);
  return info;
}

}  // namespace gk

// Test helpers for the pass tests: build IR graphs by hand (no loader, no
// schemas), run passes, read folded constants.
#pragma once

#include "graph/passes/passes.h"
#include "tests/ops/op_builders.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

namespace gk::test {

// The f32 op_harness.h declares: op_harness.cpp is not linked into gk_test_graph.
inline HostTensor f32(Shape shape, std::vector<float> v) {
  return HostTensor::from_vector(DType::kF32, std::move(shape), v);
}

struct Builder {
  Graph g;
  ValueId value(const std::string& name) {
    Value v;
    v.name = name;
    v.dtype = DType::kF32;
    return g.add_value(std::move(v));
  }
  ValueId input(const std::string& name) {
    ValueId v = value(name);
    g.values[v].is_graph_input = true;
    g.inputs.push_back(v);
    return v;
  }
  ValueId init(const std::string& name, HostTensor t) {
    ValueId v = value(name);
    g.values[v].dtype = t.dtype();
    g.values[v].initializer = std::make_shared<const HostTensor>(std::move(t));
    return v;
  }
  void output(ValueId v) {
    g.values[v].is_graph_output = true;
    g.outputs.push_back(v);
  }
  // Outputs named in `outs` ("" = absent); returns the node index.
  int node(const std::string& op, const std::string& name, std::vector<ValueId> in, std::vector<std::string> outs,
           AttrMap attrs = {}, int opset = 13) {
    Node n;
    n.view.name = name;
    n.view.op_type = op;
    n.view.opset = opset;
    for (ValueId v : in) n.view.input_present.push_back(v != kNoValue);
    for (const std::string& o : outs) {
      n.outputs.push_back(o.empty() ? kNoValue : value(o));
      n.view.output_present.push_back(!o.empty());
    }
    n.view.num_outputs = static_cast<int>(outs.size());
    n.inputs = std::move(in);
    n.attrs = std::move(attrs);
    g.nodes.push_back(std::move(n));
    return static_cast<int>(g.nodes.size() - 1);
  }
  ValueId out(int node, size_t k = 0) const { return g.nodes[node].outputs[k]; }
  ValueId id(const std::string& name) const { return g.find(name); }
};

inline std::vector<std::string> op_types(const Graph& g) {
  std::vector<std::string> s;
  for (const Node& n : g.nodes) s.push_back(n.view.op_type);
  return s;
}

inline std::vector<double> values_of(const Graph& g, ValueId v) {
  REQUIRE(v != kNoValue);
  REQUIRE(g.values[v].initializer);
  return g.values[v].initializer->to_f64_vector();
}

inline Status run(Graph& g, std::set<std::string> disabled = {}, HostEvaluator* eval = nullptr) {
  PassOptions o;
  o.disabled = std::move(disabled);
  return run_passes(g, o, eval);
}

// Adds two f32 tensors of one shape (or a scalar second operand); counts its calls.
class FakeEvaluator : public HostEvaluator {
 public:
  int calls = 0;
  Result<std::vector<HostTensor>> evaluate(const Node& node, std::span<const HostTensor* const> in) override {
    ++calls;
    if (node.view.op_type != "Add") return unimplemented("fake evaluator: only Add");
    const HostTensor &a = *in[0], &b = *in[1];
    GK_TRY(HostTensor out, HostTensor::allocate(DType::kF32, a.shape()));
    for (int64_t i = 0; i < a.numel(); ++i)
      out.mutable_data<float>()[i] = a.data<float>()[i] + b.data<float>()[b.numel() == 1 ? 0 : i];
    std::vector<HostTensor> r;
    r.push_back(std::move(out));
    return r;
  }
};

}  // namespace gk::test

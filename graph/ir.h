// The graph IR: what the loader builds and every later stage reads. No onnx::
// type appears here or anywhere outside graph/loader*.cpp.
#pragma once

#include "backends/dtype.h"
#include "ops/core/attributes.h"
#include "ops/core/schema.h"
#include "runtime/kit/host_tensor.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gk {

using ValueId = int32_t;
constexpr ValueId kNoValue = -1;

// A dimension: known (value >= 0) or symbolic (value < 0, `symbol` may be empty
// for an anonymous dim).
struct Dim {
  int64_t value = -1;
  std::string symbol;
  bool known() const { return value >= 0; }
};

// The kind of a value's declared type (ONNX TypeProto's oneof). Non-tensor kinds
// keep their innermost tensor element type in Value::dtype.
enum class ValueKind : int8_t { kTensor = 0, kSequence, kOptional, kMap, kSparseTensor, kOpaque };

struct Value {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  DType dtype = DType::kUndefined;
  bool has_shape = false;              // the model declares a shape (rank known)
  std::vector<Dim> dims;
  int producer = -1;                   // node index, -1 for inputs and initializers
  std::vector<int> consumers;          // node indices, in order
  std::shared_ptr<const HostTensor> initializer;  // constant value, if any
  bool is_graph_input = false;         // fed by the caller (not an initializer)
  bool is_graph_output = false;
};

struct Node {
  NodeView view;                       // name, op_type, domain, opset, presence, epilogue
  const OpSchema* schema = nullptr;    // null only in models loaded for inspection
  AttrMap attrs;
  ParsedAttrs parsed;                  // schema->impl->parse(attrs) at load
  std::vector<ValueId> inputs;         // kNoValue for an absent optional input
  std::vector<ValueId> outputs;        // kNoValue for an absent optional output
  // Values of this graph that the node's subgraphs (If/Loop/Scan bodies) read by
  // name: they order the node after their producers and keep them alive.
  std::vector<ValueId> implicit_inputs;
  std::vector<std::string> covers;     // ONNX node names this node stands for (fusion)
  std::vector<Node> fused;             // for fused elementwise chains: the member nodes
};

struct Graph {
  std::string name;
  std::vector<Value> values;
  std::unordered_map<std::string, ValueId> by_name;
  std::vector<Node> nodes;             // topological order
  std::vector<ValueId> inputs;         // graph inputs the caller feeds, in model order
  std::vector<ValueId> outputs;        // graph outputs, in model order
  // Subgraphs only: values read from an enclosing graph, matched by name at run
  // time (producer -1, neither input nor initializer).
  std::vector<ValueId> captures;

  ValueId find(const std::string& name) const;
  ValueId add_value(Value v);          // name must be new
  // Recomputes producer/consumers from nodes (after a pass edits the graph).
  void rebuild_uses();
};

// The gk::Graph held by a kGraph attribute (If branches, Loop/Scan bodies).
inline const Graph* subgraph_of(const Attribute& a) {
  return a.kind == Attribute::Kind::kGraph ? static_cast<const Graph*>(a.graph.get()) : nullptr;
}

struct OpsetImport {
  std::string domain;  // "" for ai.onnx
  int64_t version = 0;
};

struct Model {
  std::string path;                    // "" when loaded from memory
  int64_t ir_version = 0;
  std::vector<OpsetImport> opsets;
  std::string producer_name, producer_version, graph_doc;
  std::map<std::string, std::string> metadata;
  Graph graph;
  // What the loader accepted outside the spec, as ONNX Runtime does (one line
  // each, naming the value or node); the session logs them as warnings.
  std::vector<std::string> warnings;

  int64_t opset(const std::string& domain) const;  // 0 when not imported
};

// A (domain, op, opset) the registry cannot run, with the nodes using it.
struct UnsupportedOp {
  std::string domain, op_type;
  int64_t opset = 0;
  std::vector<std::string> nodes;
};

}  // namespace gk

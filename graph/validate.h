// The loader's validation, on the IR (no onnx:: types): problems are collected
// across the whole model and reported at once.
#pragma once

#include "graph/ir.h"

#include <string>
#include <string_view>
#include <vector>

namespace gk {

struct LoadProblems {
  std::vector<std::string> invalid;      // the model breaks the spec → InvalidModel
  std::vector<std::string> unsupported;  // valid, but beyond gkrun (versions, types, attribute values)
  std::vector<UnsupportedOp> ops;        // ops the registry cannot run, in first-seen order
  // Accepted as ONNX Runtime accepts them, but outside the spec (a declared dim of
  // -1, a shadowed outer name, ...): the load succeeds and these reach
  // Model::warnings, each naming the value or node.
  std::vector<std::string> warnings;

  void add_invalid(std::string what) { invalid.push_back(std::move(what)); }
  void add_unsupported(std::string what) { unsupported.push_back(std::move(what)); }
  void add_warning(std::string what) { warnings.push_back(std::move(what)); }
  // A Status from a decoder: Unimplemented counts as unsupported, anything else as
  // invalid; `context` is prefixed.
  void add(const Status& s, std::string_view context = {});
  void add_op(std::string_view domain, std::string_view op_type, int64_t opset, std::string node);

  // Ok when nothing blocks the load. Unimplemented when the only problems are
  // unsupported ones, InvalidModel otherwise; the message lists every problem.
  Status to_status(std::string_view source, bool allow_unsupported) const;
};

// Orders g.nodes topologically (stable: a model already in order keeps its order)
// using inputs and implicit inputs. A cycle is reported naming the nodes on it;
// the nodes are then left in model order.
void sort_topologically(Graph& g, LoadProblems& problems, std::string_view context);

// Resolves each node's schema for its (domain, op, opset) and parses its
// attributes; unknown ops go to problems.ops, parse errors are named by node.
void resolve_ops(Graph& g, LoadProblems& problems, std::string_view context);

// Adds every unsupported op of `g` and its subgraphs to `out`.
void collect_unsupported(const Graph& g, std::vector<UnsupportedOp>& out);

}  // namespace gk

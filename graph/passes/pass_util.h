// Private to graph/passes: the edits every pass makes, and the passes themselves.
#pragma once

#include "graph/ir.h"
#include "graph/passes/host_evaluator.h"

#include <string_view>
#include <vector>

namespace gk::passes {

// An ai.onnx node of this type.
bool is_op(const Node& node, std::string_view op_type);

// Values whose name the outside world sees: graph outputs and values a subgraph
// reads by name. A pass may not drop or rename them.
std::vector<bool> named_from_outside(const Graph& g);

// The initializer of `v`, or null.
const HostTensor* constant(const Graph& g, ValueId v);

// Node input i when present, else kNoValue.
ValueId input_of(const Node& node, size_t i);

// The only node reading `v` (through explicit inputs), or -1 when there are none,
// several, or `v` is seen from outside. Needs fresh producer/consumers.
int sole_consumer(const Graph& g, const std::vector<bool>& outside, ValueId v);

// Every explicit read of `from` now reads `to`.
void replace_uses(Graph& g, ValueId from, ValueId to);

// Drops the marked nodes and recomputes producer/consumers.
void erase_nodes(Graph& g, const std::vector<bool>& dead);

// A new initializer value named after `base` (made unique).
ValueId add_constant(Graph& g, const std::string& base, HostTensor t);

// Replaces v's constant with `t`, keeping its name when no other node reads it,
// else adds a new constant and points `node`'s input `i` at it.
void set_node_constant(Graph& g, int node, size_t i, const std::string& suffix, HostTensor t);

// Sets the node's attribute `name` and parses its attributes again, so the parsed
// form its kernels read agrees with the attribute a pass rewrote.
Status set_attribute(Node& node, const std::string& name, Attribute value);

// The passes. Each returns with producer/consumers up to date.
Status eliminate_dead(Graph& g);
Status remove_identity(Graph& g);
Status fold_constants(Graph& g, HostEvaluator& eval, size_t max_bytes);
Status fold_batchnorm(Graph& g);
Status pretranspose_weights(Graph& g);
Status fuse_activation(Graph& g);

}  // namespace gk::passes

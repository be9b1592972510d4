// Private to graph/loader*.cpp: the one header that names onnx:: protobuf types.
// Nothing outside the loader includes it, so those types never reach the IR.
#pragma once

#include "graph/external_data.h"
#include "graph/ir.h"
#include "graph/validate.h"

#include <onnx/onnx_pb.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>

namespace gk::loader {

// Parses `size` bytes into `msg` with the 2 GiB - 1 total-bytes limit protobuf
// allows; a corrupt or truncated message is InvalidModel naming `what`, and no
// exception escapes.
Status parse_message(google::protobuf::MessageLite& msg, const void* data, size_t size,
                     std::string_view what);

// TensorProto → HostTensor, in every storage form (raw_data, typed fields,
// external data). `t` is mutable so raw_data is moved into the tensor, not copied.
// Messages name the tensor as `what`.
Result<HostTensor> decode_tensor(onnx::TensorProto& t, ExternalDataFiles& files, std::string_view what);

// SparseTensorProto → dense HostTensor (fixed-width element types only).
Result<HostTensor> decode_sparse_tensor(onnx::SparseTensorProto& t, ExternalDataFiles& files,
                                        std::string_view what);

// Applies a declared type (graph input/output, value_info) to `v`, checking it
// against what is already known (an initializer, another declaration). A
// declared element type that disagrees is always an error. With
// `shape_is_inferred` (a node's output, Constant nodes included, whose shape
// inference recomputes at plan time) a disagreeing rank or dimension is a
// warning and the declared shape is dropped, as ONNX Runtime merges leniently.
void apply_declared_type(Value& v, const onnx::TypeProto& tp, LoadProblems& problems, std::string_view context,
                         bool shape_is_inferred = false);

// The tensor a Constant node produces, from whichever attribute form it uses
// (value, sparse_value, value_float(s), value_int(s), value_string(s)).
Result<HostTensor> constant_value(onnx::NodeProto& node, ExternalDataFiles& files, std::string_view what);

// What converting a graph needs from the model around it.
struct LoadContext {
  const Model& model;          // opset imports
  ExternalDataFiles& files;
  LoadProblems& problems;
  std::set<std::string> reported_domains;  // domains missing from opset_import, named once
  // Nodes inlined from a model-local function: the function's opset_import.
  std::map<const onnx::NodeProto*, std::shared_ptr<const std::vector<OpsetImport>>> node_opsets;

  // The opset a node was written against: its function's import of the domain,
  // else the model's (0 when neither imports it).
  int64_t opset_for(const onnx::NodeProto& np, const std::string& domain) const;
};

// Inlines every call of a model-local function (ModelProto.functions) in the
// main graph and its subgraphs, recursively; records the inlined nodes' opsets
// in ctx.node_opsets. Recursion and malformed calls go to ctx.problems.
void inline_functions(onnx::ModelProto& mp, LoadContext& ctx);

// Converts the main graph: values, declared types, initializers, Constant nodes
// (as initializers), nodes with their attributes and subgraphs; then sorts the
// nodes and resolves their ops. Every problem goes to ctx.problems.
void convert_main_graph(onnx::GraphProto& gp, Graph& g, LoadContext& ctx);

}  // namespace gk::loader

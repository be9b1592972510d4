#pragma once

#include "graph/ir.h"

#include <string>
#include <vector>

namespace gk {

// Supported ranges; the validator's messages quote them.
constexpr int64_t kMinIrVersion = 3;
constexpr int64_t kMaxIrVersion = 11;
constexpr int64_t kMinOpset = 7;
constexpr int64_t kMaxOpset = 24;

struct LoadOptions {
  // For `gkrun info`: keep nodes whose op is unsupported (schema == nullptr)
  // instead of failing; every other validation error still fails.
  bool allow_unsupported = false;
};

// Parses, converts to the IR and validates the whole graph, collecting every
// problem (all unsupported ops, dangling/duplicate names, cycles, type
// mismatches, IR/opset range) into one InvalidModel/Unimplemented error.
Result<Model> load_model(const std::string& path, const LoadOptions& options = {});
// From bytes in memory; external data resolves against `base_dir` ("" forbids it).
Result<Model> load_model_from_memory(const void* data, size_t size, const std::string& base_dir,
                                     const LoadOptions& options = {});

// Every unsupported (domain, op, opset) in the model, with its nodes.
std::vector<UnsupportedOp> find_unsupported(const Model& model);

// Decodes a serialized onnx.TensorProto (.pb test data, --input FILE.pb).
// `base_dir` is for external data ("" forbids it).
Result<HostTensor> parse_tensor_proto(const void* data, size_t size, const std::string& base_dir,
                                      std::string* name = nullptr);

}  // namespace gk

#pragma once

#include "graph/ir.h"

#include <string>
#include <vector>

namespace gk {

// Supported ranges; the validator's messages quote them. The maxima are those of
// the spec in shared/onnx-spec (IR_VERSION 13, operators up to opset 27), which the
// ONNX backend test data also uses. A model outside them is unsupported
// (Unimplemented), not invalid.
constexpr int64_t kMinIrVersion = 3;
constexpr int64_t kMaxIrVersion = 13;
// Opset 1..6 models load: each op's registered range decides whether it runs, so an
// old model whose ops kept their semantics (Conv-1, Relu-6, ...) runs, and the rest
// are named as unsupported (op, opset) pairs.
constexpr int64_t kMinOpset = 1;
constexpr int64_t kMaxOpset = 27;

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

// Decodes a serialized onnx.SequenceProto of tensors (test data of sequence values).
Result<std::vector<HostTensor>> parse_sequence_proto(const void* data, size_t size,
                                                     const std::string& base_dir,
                                                     std::string* name = nullptr);

// A decoded onnx.OptionalProto: empty, a tensor, or a sequence of tensors.
struct OptionalValue {
  bool has_value = false;
  bool is_sequence = false;
  HostTensor tensor;
  std::vector<HostTensor> sequence;
};
Result<OptionalValue> parse_optional_proto(const void* data, size_t size, const std::string& base_dir,
                                           std::string* name = nullptr);

}  // namespace gk

// What graph/ sees of an operator: the node view, shape/type inference, traits and
// the registration entries. No device types: an OpImpl's launcher takes a
// KernelContext (ops/core/op.h), which only ops/ and runtime/ see. graph/ resolves
// each node to an OpSchema once at load, parses its attributes and infers shapes.
#pragma once

#include "backends/status.h"
#include "ops/core/attributes.h"
#include "runtime/kit/host_tensor.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gk {

class KernelContext;  // ops/core/op.h: what a launcher sees of a run

struct TensorType {
  DType dtype = DType::kUndefined;
  Shape shape;
};

// An activation folded into a producer's epilogue by the fusion pass.
struct Epilogue {
  enum class Kind : int32_t { kNone = 0, kRelu, kClip, kSigmoid, kSilu, kHardSigmoid, kHardSwish, kLeakyRelu, kTanh };
  Kind kind = Kind::kNone;
  float alpha = 0, beta = 0;  // Clip min/max, LeakyRelu alpha, HardSigmoid alpha/beta
};

// What an op sees of its node.
struct NodeView {
  std::string name;
  std::string op_type;
  std::string domain;
  int opset = 0;                      // the model's opset for this node's domain
  std::vector<bool> input_present;    // false for an absent optional input ("")
  int num_outputs = 0;                // outputs the model names (trailing absent dropped)
  std::vector<bool> output_present;
  Epilogue epilogue;                  // set by the fusion pass on ops that accept one

  bool has_input(size_t i) const { return i < input_present.size() && input_present[i]; }
  bool has_output(size_t i) const { return i < output_present.size() && output_present[i]; }
  // "node 'conv1' (Conv)"
  std::string describe() const;
};

using ParsedAttrs = std::shared_ptr<const void>;

template <typename T>
const T& attrs_as(const ParsedAttrs& a) {
  return *static_cast<const T*>(a.get());
}

// Shape and type inference, on concrete shapes (symbolic dims are bound first).
struct InferContext {
  const NodeView& node;
  const ParsedAttrs& attrs;
  std::vector<TensorType> inputs;           // absent optional inputs: kUndefined
  std::vector<const HostTensor*> values;    // host-known input values, else nullptr
  std::vector<TensorType> outputs;          // the rule fills these (sized to num_outputs)
  // Set when an output's shape depends on device data (NonZero, NMS, Unique): the
  // launcher then allocates those outputs itself (KernelContext::allocate_output).
  bool dynamic_shape = false;
  // Outputs whose value the rule can compute from input types alone (Shape, Size):
  // the executor then knows them at plan time and launches nothing for them.
  std::vector<std::shared_ptr<const HostTensor>> output_values;

  const TensorType& in(size_t i) const { return inputs[i]; }
  bool has_value(size_t i) const { return i < values.size() && values[i] != nullptr; }
  // A required host value: InvalidModel naming the node and input when unknown.
  Result<const HostTensor*> value(size_t i) const;
  Status fail(std::string_view what) const;  // InvalidModel "node 'x' (Op): what"
};

struct OpImpl {
  // May be null: the op has no attributes.
  Result<ParsedAttrs> (*parse)(const AttrMap& attrs, const NodeView& node) = nullptr;
  Status (*infer)(InferContext& ctx) = nullptr;
  Status (*run)(KernelContext& ctx) = nullptr;
};

// The nodes the executor runs itself, set at registration so nothing compares an
// op type during a run.
enum class ExecutorOp : uint8_t {
  kNone,
  kIf,
  kLoop,
  kScan,
  kSequenceEmpty,
  kSequenceConstruct,
  kSequenceInsert,
  kSequenceErase,
  kSequenceAt,
  kSequenceLength,
  kSplitToSequence,
  kConcatFromSequence,
  kSequenceMap,
  kOptional,
  kOptionalHasElement,
  kOptionalGetElement,
};

struct OpTraits {
  int inplace_input = -1;     // output 0 may take input i's buffer when i dies here
  int alias_input = -1;       // output 0 is a zero-copy view of input i (same bytes)
  uint32_t host_inputs = 0;   // bit i: input i's value is needed at plan time
  uint32_t type_only_inputs = 0;  // bit i: only input i's type is read (CastLike's target)
  bool accepts_epilogue = false;
  bool elementwise = false;   // candidate for elementwise-chain fusion
  // If/Loop/Scan, SequenceMap and the sequence ops: the executor runs the node
  // itself (subgraphs, or values that are lists of tensors), dispatching on this.
  ExecutorOp executor_op = ExecutorOp::kNone;
  // Identity: an input that is a sequence or an empty optional passes through.
  bool passes_containers = false;
  // Shape, Size: the output is computed from the input's shape alone, never its data.
  bool reads_shape_only = false;

  bool runs_in_executor() const { return executor_op != ExecutorOp::kNone; }
};

struct OpSchema {
  const char* domain;   // "" is ai.onnx
  const char* op_type;
  int since_version;
  int end_version;      // inclusive; 1000 = still current
  const OpImpl* impl;
  OpTraits traits;
};

constexpr int kOpsetCurrent = 1000;

// The registration table: every family's entries.
std::span<const OpSchema> op_table();
// The entry for (domain, op_type) at `opset`: the largest since_version <= opset.
const OpSchema* find_op(std::string_view domain, std::string_view op_type, int opset);

}  // namespace gk

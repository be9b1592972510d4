// The operator contract. An op family file defines OpImpl values (attribute parser,
// shape/type rule, launcher) and lists them, with opset ranges and traits, in its
// family table; ops/registry.cpp concatenates the family tables. graph/ resolves
// each node to an OpSchema once at load; the executor calls impl->run per launch.
#pragma once

#include "backends/status.h"
#include "ops/core/attributes.h"
#include "ops/core/kernel_name.h"
#include "runtime/kit/host_tensor.h"
#include "runtime/kit/kit.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gk {

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

// A tensor on the device during a run.
struct TensorRef {
  DType dtype = DType::kUndefined;
  Shape shape;
  DevPtr ptr = 0;                    // 0 for absent optional operands and empty tensors
  const HostTensor* host = nullptr;  // the value when known at plan time
  int64_t numel() const { return gk::numel(shape); }
  bool present() const { return dtype != DType::kUndefined; }
};

class KernelContext {
 public:
  KernelContext(Kit& kit, const NodeView& node, const ParsedAttrs& attrs, std::span<const TensorRef> inputs,
                std::span<TensorRef> outputs, DevPtr error_flag, Profiler* profiler, const LaunchTag* tag,
                StepKernels* kernels = nullptr)
      : kit_(kit),
        node_(node),
        attrs_(attrs),
        inputs_(inputs),
        outputs_(outputs),
        error_flag_(error_flag),
        profiler_(profiler),
        tag_(tag),
        kernels_(kernels) {}

  Kit& kit() const { return kit_; }
  const NodeView& node() const { return node_; }
  template <typename T>
  const T& attrs() const { return attrs_as<T>(attrs_); }
  const ParsedAttrs& raw_attrs() const { return attrs_; }  // null when the op parsed none
  const TensorRef& in(size_t i) const { return inputs_[i]; }
  size_t num_inputs() const { return inputs_.size(); }
  TensorRef& out(size_t i) const { return outputs_[i]; }
  size_t num_outputs() const { return outputs_.size(); }
  // int32 on the device; kernels gk_raise() it on an out-of-range index.
  DevPtr error_flag() const { return error_flag_; }

  // Launch on the run's stream, tagged for the profiler. Within a plan step the
  // kernel comes from the step's resolved kernels; the first launch (and any launch
  // outside a plan) formats the name and asks the kit, which compiles it once.
  Status launch(const KernelSource& source, const KernelName& entry, const LaunchConfig& config,
                const KernelArgs& args);
  // Workspace that lives until the end of the run.
  Result<GkBuf> scratch(DType dtype, int64_t count);
  // Dynamic-shape ops: allocate output i once its shape is known (after a sync).
  Status allocate_output(size_t i, Shape shape);
  Status fail(std::string_view what) const;  // InvalidArgument naming the node

 private:
  Kit& kit_;
  const NodeView& node_;
  const ParsedAttrs& attrs_;
  std::span<const TensorRef> inputs_;
  std::span<TensorRef> outputs_;
  DevPtr error_flag_;
  Profiler* profiler_;
  const LaunchTag* tag_;
  StepKernels* kernels_;
  std::vector<GkBuf> scratch_;
  friend class Executor;

 public:
  std::vector<GkBuf>& owned() { return scratch_; }  // scratch and dynamic outputs
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

// Every kernel family: its source (for NVRTC) and its CPU table.
struct KernelFamily {
  const KernelSource* source;
  CpuKernelTable cpu;
};
std::span<const KernelFamily> kernel_families();
std::vector<CpuKernelTable> cpu_kernel_tables();

}  // namespace gk

// The launch side of the operator contract: what a launcher sees of a run
// (KernelContext, TensorRef) and the kernel families. The schema side that graph/
// sees (node view, inference, traits, the registration table) is ops/core/schema.h.
// An op family defines OpImpl values and lists them, with opset ranges and traits,
// in its family table; ops/core/registry.cpp lists each family once. The executor
// calls impl->run per launch.
#pragma once

#include "ops/core/kernel_name.h"
#include "ops/core/schema.h"
#include "runtime/kit/kit.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gk {

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

// Every kernel family: its source (for NVRTC) and its CPU table.
struct KernelFamily {
  const KernelSource* source;
  CpuIsaTables cpu;
};
std::span<const KernelFamily> kernel_families();
std::vector<CpuIsaTables> cpu_kernel_tables();

}  // namespace gk

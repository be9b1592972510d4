// One run's state over a plan: every value's pointer and type, and each launched
// step's operands. A frame is made once per plan (operand shapes filled then) and
// reused by later runs, which only rebind pointers: a run of static steps builds
// no vector and copies no shape.
#pragma once

#include "runtime/plan.h"

#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace gk {

struct FrameValue {
  DevPtr ptr = 0;
  TensorType type;
  const HostTensor* host = nullptr;
  std::shared_ptr<const HostTensor> owned_host;      // a string made during the run
  std::shared_ptr<const std::vector<NamedBuf>> seq;  // a sequence value
  bool none = false;                                 // an empty optional
};

class Frame {
 public:
  Frame(const Graph& graph, const Plan& plan);

  // Points every value at this run's inputs (in the executor's input order),
  // output buffers and arena, and each static step's operands at those values.
  void bind(const Graph& graph, const Plan& plan, const std::vector<ValueId>& graph_inputs,
            const std::vector<const NamedBuf*>& inputs, const std::vector<NamedBuf>& outputs, DevPtr arena);

  // Lets go of what the run made (strings, sequences) so a frame waiting in its
  // pool holds no device memory; the run's buffers move to `until_sync`, as
  // launches still queued may read them.
  void release(std::vector<GkBuf>& until_sync);

  std::vector<FrameValue> values;
  // Device buffers of values whose shapes the run decided (runtime/plan.h,
  // Where::kDynamic), and device copies of values computed on the host during the
  // run; each goes back to the pool after its last reader (StepPlan::release).
  std::vector<GkBuf> run_buffers;
  // What this run did off the static path: steps planned during the run, and host
  // reads of device data (each a sync).
  int runtime_steps = 0;
  int host_reads = 0;

  // A static step's operands, bound by bind(); empty spans for dynamic steps.
  std::span<const TensorRef> step_inputs(size_t step) const;
  std::span<TensorRef> step_outputs(size_t step);

 private:
  struct StepOperands {
    uint32_t first = 0, inputs = 0, outputs = 0;
  };
  std::vector<StepOperands> steps_;
  std::vector<TensorRef> operands_;
  std::vector<ValueId> operand_values_;  // kNoValue for an absent operand
};

// The frames of one plan not in use by a run. Concurrent runs of a plan each take
// their own.
class FramePool {
 public:
  std::unique_ptr<Frame> take(const Graph& graph, const Plan& plan);
  void give_back(std::unique_ptr<Frame> frame);

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Frame>> free_;
};

}  // namespace gk

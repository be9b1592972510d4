// The executor, by phase: build_plan() compiles each input-shape signature once
// (runtime/plan.h); binding puts a run's inputs, outputs and arena into a Frame
// (runtime/frame.h); the step loop enqueues every step with no sync; where the
// device captures graphs, a GraphReplay (runtime/graph_replay.h) records the
// second run of a signature and replays it after that.
#pragma once

#include "runtime/frame.h"
#include "runtime/graph_replay.h"
#include "runtime/plan.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gk {

// A plan and the state runs keep beside it: recycled frames and the replay.
struct PlanState {
  std::shared_ptr<const Plan> plan;
  FramePool frames;
  GraphReplay replay;
};

class Executor {
 public:
  // Runs `graph` (a model's main graph, or an If/Loop/Scan body whose captured
  // values come in as inputs after its declared ones); `path` names it in errors.
  // `body` marks an If/Loop/Scan body, whose declared input dims are hints: a
  // loop-carried value may grow from its declared [0, ...] (torchvision's Mask
  // R-CNN pastes masks so), as ONNX Runtime allows.
  Executor(const Graph& graph, std::string path, Kit kit, Kit host_kit, bool cuda_graphs,
           std::string profile_prefix = {}, size_t memory_limit = 0, bool body = false);
  ~Executor();

  Result<std::vector<NamedBuf>> run(const std::vector<NamedBuf>& inputs, const RunOptions& options,
                                    RunInfo* info);
  // `input_values[i]` is the value of graph input i when an op needs it at plan time
  // (a Reshape shape, Reduce axes, Resize scales fed by the caller); it then joins
  // the plan's signature. Null for the others.
  Result<std::shared_ptr<PlanState>> plan_for(const std::vector<TensorType>& input_types,
                                              const std::vector<std::shared_ptr<const HostTensor>>& input_values,
                                              bool* created);
  // Graph inputs whose values some op needs at plan time (OpTraits::host_inputs).
  const std::vector<bool>& value_inputs() const { return value_inputs_; }
  // Graph inputs from which such a value is computed (a window length fed through
  // Sub/Cast into Range, a crop shape into Pad's pads). Small ones join the plan
  // signature, so the value is computed at plan time like any constant subgraph.
  const std::vector<bool>& derived_value_inputs() const { return derived_value_inputs_; }
  size_t plans_created() const;
  // Maps named inputs to the model's input order, checking names, dtypes and shapes.
  Result<std::vector<const NamedBuf*>> order_inputs(const std::vector<NamedBuf>& inputs) const;

 private:
  void find_value_inputs();
  // Enqueues steps [first, last) of a bound frame (no sync); buffers the steps
  // allocated go to `owned`.
  Status run_steps(const Plan& plan, Frame& frame, const RunOptions& options, DevPtr flags, std::vector<GkBuf>& owned,
                   size_t first, size_t last);
  Status run_dynamic_step(const Plan& plan, size_t s, Frame& frame, const RunOptions& options, DevPtr flags,
                          std::vector<GkBuf>& owned);
  Status run_executor_step(const Node& node, Frame& frame, const RunOptions& options, std::vector<GkBuf>& owned);
  // Outputs that are plan-time values or inputs, or whose shape was known only
  // during the run: copied into the per-run buffers.
  Status copy_out(const Plan& plan, Frame& frame, std::vector<NamedBuf>& outputs);
  // A value's elements on the host: read back once per run (a sync), then kept.
  Result<const HostTensor*> host_value(Frame& frame, ValueId v);
  // A value computed on the host during the run, copied to the device for a
  // device step that reads it; values already there are left alone.
  Status materialize(Frame& frame, ValueId v);
  Status check_flags(const Plan& plan, DevPtr flags);
  // Runs one control-flow or sequence node (sync: it reads its condition, trip
  // count or positions).
  Result<std::vector<NamedBuf>> run_control_flow_step(const Node& node, const std::vector<NamedBuf>& inputs,
                                                      const std::vector<NamedBuf>& implicit,
                                                      const RunOptions& options);

  const Graph& graph_;
  std::string path_;
  std::vector<ValueId> inputs_;  // the graph's declared inputs, then its captures
  Kit kit_;
  Kit host_kit_;
  bool cuda_graphs_;
  std::string profile_prefix_;
  size_t memory_limit_ = 0;  // bytes one plan may need; 0 = unlimited
  bool body_ = false;
  std::vector<bool> value_inputs_, derived_value_inputs_;
  mutable std::mutex plans_mutex_;
  std::map<std::string, std::shared_ptr<PlanState>> plans_;
  std::map<const Graph*, std::unique_ptr<Executor>> subgraphs_;  // one per If/Loop/Scan body
};

}  // namespace gk

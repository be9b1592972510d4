// The executor: plans each input-shape signature once (shape inference, plan-time
// evaluation of host-known values, memory plan) and runs plans in per-run frames.
#pragma once

#include "graph/ir.h"
#include "graph/planner.h"
#include "runtime/session.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gk {

// Where a value lives during a run.
enum class Where : uint8_t {
  kAbsent,    // no value (unused, or an absent optional)
  kInput,     // a caller's input buffer
  kOutput,    // a per-run output buffer
  kConstant,  // device copy of a plan-time value, owned by the plan
  kArena,     // arena + offset
  kAlias,     // the bytes of alias_root
  kDynamic,   // shape known only during the run; allocated by the run
};

struct ValuePlan {
  TensorType type;
  bool typed = false;
  std::shared_ptr<const HostTensor> host;  // value known at plan time
  Where where = Where::kAbsent;
  int io_index = -1;                       // kInput / kOutput
  int64_t offset = 0;                      // kArena
  ValueId alias_root = kNoValue;           // kAlias
  GkBuf constant;                          // kConstant
};

struct StepPlan {
  int node = -1;        // index into graph.nodes
  bool dynamic = false; // infer and allocate during the run
  bool skip = false;    // alias op whose output is its input's bytes: nothing to do
  LaunchTag tag;
};

struct Plan {
  std::vector<ValuePlan> values;
  std::vector<StepPlan> steps;
  std::vector<PlanTensor> tensors;
  MemoryPlan memory;
  PlanSummary summary;

  // Graph replay state: one captured graph per plan, with its own arena, flags and
  // the scratch its steps allocated; inputs and outputs are rebound per run.
  std::mutex graph_mutex;
  int runs = 0;
  bool has_graph = false;
  GraphId graph = 0;
  GraphCapture* graphs = nullptr;
  GkBuf graph_arena, graph_flags;
  std::vector<GkBuf> graph_scratch;
  std::vector<PointerRemap> graph_io;  // each input's, then each output's bound range (from, bytes)
  std::string graph_fallback;          // set once: why this plan never replays
  ~Plan() {
    if (has_graph && graphs) graphs->destroy_graph(graph);
  }
};

class Executor {
 public:
  // Runs `graph` (a model's main graph, or an If/Loop/Scan body whose captured
  // values come in as inputs after its declared ones); `path` names it in errors.
  Executor(const Graph& graph, std::string path, Kit kit, Kit host_kit, bool cuda_graphs,
           std::string profile_prefix = {});
  ~Executor();

  Result<std::vector<NamedBuf>> run(const std::vector<NamedBuf>& inputs, const RunOptions& options,
                                    RunInfo* info);
  // `input_values[i]` is the value of graph input i when an op needs it at plan time
  // (a Reshape shape, Reduce axes, Resize scales fed by the caller); it then joins
  // the plan's signature. Null for the others.
  Result<std::shared_ptr<Plan>> plan_for(const std::vector<TensorType>& input_types,
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
  Result<std::shared_ptr<Plan>> build_plan(const std::vector<TensorType>& input_types,
                                           const std::vector<std::shared_ptr<const HostTensor>>& input_values);
  void find_value_inputs();
  Status place_values(Plan& plan);
  // Enqueues every step of a frame (no sync); buffers the steps allocated go to `owned`.
  Status run_steps(Plan& plan, const std::vector<const NamedBuf*>& inputs, std::vector<NamedBuf>& outputs,
                   const RunOptions& options, DevPtr arena, DevPtr flags, std::vector<GkBuf>& owned);
  // Replays the plan's graph (capturing it first on the second run); false when
  // this run must take plain launches, with the reason in `info`.
  Result<bool> run_graph(Plan& plan, const std::vector<const NamedBuf*>& inputs, std::vector<NamedBuf>& outputs,
                         const RunOptions& options, RunInfo* info);
  Status capture(Plan& plan, const std::vector<const NamedBuf*>& inputs, std::vector<NamedBuf>& outputs);
  Status check_flags(const Plan& plan, DevPtr flags);

  // Runs one control-flow node (sync: it reads its condition or trip count).
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
  std::vector<bool> value_inputs_, derived_value_inputs_;
  mutable std::mutex plans_mutex_;
  std::map<std::string, std::shared_ptr<Plan>> plans_;
  std::map<const Graph*, std::unique_ptr<Executor>> subgraphs_;  // one per If/Loop/Scan body
};

}  // namespace gk

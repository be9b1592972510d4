// A plan: what one input-shape signature of a graph compiles to. Built once by
// build_plan() (runtime/plan_builder.h) and never changed after; the state of a
// run over it (runtime/frame.h) and its captured graph (runtime/graph_replay.h)
// live beside it.
#pragma once

#include "graph/ir.h"
#include "graph/planner.h"
#include "ops/core/op.h"
#include "runtime/session.h"

#include <memory>
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
  int io_index = -1;              // kInput / kOutput
  int64_t offset = 0;             // kArena
  ValueId alias_root = kNoValue;  // kAlias
  GkBuf constant;                 // kConstant
};

struct StepPlan {
  int node = -1;         // index into graph.nodes
  bool dynamic = false;  // infer and allocate during the run
  bool skip = false;     // alias op whose output is its input's bytes: nothing to do
  LaunchTag tag;
  // Values with run-time shapes whose last reader (or, unread, whose producer) is
  // this step: their buffers go back to the pool once it is enqueued.
  std::vector<ValueId> release;
};

struct Plan {
  std::vector<ValuePlan> values;
  std::vector<StepPlan> steps;
  std::vector<PlanTensor> tensors;
  MemoryPlan memory;
  PlanSummary summary;
  // Static steps come first (a static step reads only static values, so none waits
  // on a step with run-time shapes): steps [0, captured_steps) can be captured as a
  // graph and replayed, the rest run as plain launches after the replay.
  size_t captured_steps = 0;
  // Why the plan cannot be captured whole (the first step whose shapes are known
  // only during the run); empty when it can.
  std::string uncapturable;
  // The kernels each step resolves on its first launch, found by handle after
  // that (ops/kernel_name.h). Resolving needs the run's shapes, so it cannot
  // happen before the first run; the slots are written once and only read later.
  std::unique_ptr<StepKernels[]> step_kernels;
};

// What a plan is built from: the graph, its inputs (declared, then captured outer
// values), the kits, and the names errors and profiles use.
struct PlanRequest {
  const Graph& graph;
  const std::vector<ValueId>& inputs;
  Kit& kit;       // device constants are uploaded here
  Kit& host_kit;  // plan-time evaluation of host-known values (CPU)
  const std::string& path;
  const std::string& profile_prefix;
  size_t memory_limit = 0;  // SessionOptions::memory_limit; 0 = unlimited
};

// Shape inference in execution order, plan-time evaluation of host-computable
// values, then placement of every device value and the memory plan.
Result<std::shared_ptr<const Plan>> build_plan(const PlanRequest& request, const std::vector<TensorType>& input_types,
                                               const std::vector<std::shared_ptr<const HostTensor>>& input_values);

}  // namespace gk

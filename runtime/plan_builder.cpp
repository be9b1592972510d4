// Planning one input-shape signature: shape/type inference in execution order,
// plan-time evaluation of values computable on the host (shape arithmetic,
// constant subgraphs), then placement of every device value and the memory plan.
#include "ops/core/op_eval.h"
#include "runtime/host_eval.h"
#include "runtime/plan.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace gk {
namespace {

// Plan-time evaluation runs on the CPU backend; above this many output bytes a
// node runs on the device instead (a constant subgraph that large is a weight
// transform better done once per run than copied around). // untuned
constexpr size_t kHostEvalMaxBytes = size_t{64} << 20;

std::string shapes_of(const std::vector<TensorType>& types) {
  std::string s;
  for (const auto& t : types) {
    if (!s.empty()) s += ", ";
    s += t.dtype == DType::kUndefined ? std::string("-") : shape_str(t.shape);
  }
  return s;
}

Status place_values(const PlanRequest& req, Plan& plan);

// Where each value with a run-time shape dies: after the last step that reads it,
// or the step that makes it when nothing does. Graph outputs live to the end.
void plan_releases(const Graph& g, Plan& plan) {
  std::vector<int> last(g.values.size(), -1);
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Node& node = g.nodes[plan.steps[s].node];
    for (ValueId v : node.outputs)
      if (v != kNoValue) last[v] = std::max(last[v], static_cast<int>(s));
    for (ValueId v : node.inputs)
      if (v != kNoValue) last[v] = static_cast<int>(s);
    for (ValueId v : node.implicit_inputs) last[v] = static_cast<int>(s);
  }
  std::vector<bool> is_output(g.values.size(), false);
  for (ValueId out : g.outputs) is_output[out] = true;
  for (size_t v = 0; v < g.values.size(); ++v)
    if (plan.values[v].where == Where::kDynamic && !is_output[v] && last[v] >= 0)
      plan.steps[last[v]].release.push_back(static_cast<ValueId>(v));
}

// SessionOptions::memory_limit: what a plan needs on the device (its arena, the
// constants it uploads, the per-run output buffers) against the limit, refused
// before any run allocates. `done` is false while constants are still counted.
Status check_memory_limit(const PlanRequest& req, size_t arena, size_t constants, size_t outputs, bool done) {
  if (req.memory_limit == 0) return ok_status();
  const size_t need = arena + constants + outputs;
  if (need <= req.memory_limit) return ok_status();
  const std::string where = req.path.empty() ? "model" : req.path;
  if (!done)
    return resource_exhausted("{}: the plan needs at least {} bytes of device constants, over the memory limit "
                              "of {} bytes", where, constants, req.memory_limit);
  return resource_exhausted("{}: the plan needs {} bytes of device memory (arena {}, constants {}, outputs {}), "
                            "over the memory limit of {} bytes", where, need, arena, constants, outputs,
                            req.memory_limit);
}

}  // namespace

Result<std::shared_ptr<const Plan>> build_plan(const PlanRequest& req, const std::vector<TensorType>& input_types,
                                               const std::vector<std::shared_ptr<const HostTensor>>& input_values) {
  const Graph& g = req.graph;
  const std::vector<ValueId>& inputs_ = req.inputs;
  auto plan = std::make_shared<Plan>();
  plan->values.resize(g.values.size());
  std::vector<bool> dynamic(g.values.size(), false);

  for (size_t v = 0; v < g.values.size(); ++v) {
    if (g.values[v].initializer) {
      auto& vp = plan->values[v];
      vp.host = g.values[v].initializer;
      vp.type = {vp.host->dtype(), vp.host->shape()};
      vp.typed = true;
    }
  }
  for (size_t i = 0; i < inputs_.size(); ++i) {
    auto& vp = plan->values[inputs_[i]];
    vp.type = input_types[i];
    vp.typed = true;
    vp.where = Where::kInput;
    vp.io_index = static_cast<int>(i);
    if (i < input_values.size()) vp.host = input_values[i];
    // A sequence's elements, and whether an optional holds a value, are known
    // only during the run.
    const ValueKind kind = g.values[inputs_[i]].kind;
    if (kind == ValueKind::kSequence || kind == ValueKind::kOptional) dynamic[inputs_[i]] = true;
  }

  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (!node.schema)
      return unimplemented("{}: op {} is not supported", node.view.describe(), node.view.op_type);
    bool any_dynamic = false, all_host = true;
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const ValueId in = node.inputs[i];
      if (in == kNoValue) continue;
      any_dynamic |= dynamic[in];
      if (!plan->values[in].typed && !dynamic[in])
        return internal_error("{}: input '{}' has no type at plan time", node.view.describe(),
                              g.values[in].name);
      const bool type_only = i < 32 && ((node.schema->traits.type_only_inputs >> i) & 1u);
      all_host &= plan->values[in].host != nullptr || type_only;
    }
    StepPlan step;
    step.node = static_cast<int>(n);
    step.tag.nodes =
        req.profile_prefix + (node.covers.empty() ? node.view.name : fmt::format("{}", fmt::join(node.covers, ",")));
    step.tag.op_type = node.view.op_type;
    if (node.view.epilogue.kind != Epilogue::Kind::kNone) step.tag.op_type += "+act";
    // A shape-deciding input (TopK's K, a Reshape shape, Range's limit) computed
    // from the run's data: the step is planned when the run reaches it, from the
    // value read back then (runtime/executor.cpp, run_dynamic_step).
    bool runtime_value = false;
    for (size_t i = 0; i < node.inputs.size() && i < 32; ++i) {
      const ValueId in = node.inputs[i];
      if (in != kNoValue && ((node.schema->traits.host_inputs >> i) & 1u) && !plan->values[in].host)
        runtime_value = true;
    }
    // Control flow runs its subgraphs during the run: its outputs' shapes are
    // known only then.
    if (any_dynamic || runtime_value || node.schema->traits.runs_in_executor()) {
      for (ValueId in : node.implicit_inputs)
        if (!plan->values[in].typed && !dynamic[in])
          return internal_error("{}: '{}', read by its subgraph, has no type at plan time", node.view.describe(),
                                g.values[in].name);
      for (ValueId out : node.outputs)
        if (out != kNoValue) dynamic[out] = true;
      step.dynamic = true;
      plan->steps.push_back(std::move(step));
      continue;
    }

    std::vector<TensorRef> typed;
    for (ValueId in : node.inputs) {
      if (in == kNoValue)
        typed.emplace_back();
      else
        typed.push_back({plan->values[in].type.dtype, plan->values[in].type.shape, 0, plan->values[in].host.get()});
    }
    InferContext ictx{node.view, node.parsed, {}, {}, {}, false, {}};
    Status s = infer_node(*node.schema, ictx, typed, node.outputs.size());
    if (!s.ok()) return s.with_context(req.path.empty() ? "model" : req.path);
    step.tag.shapes = shapes_of(ictx.inputs);

    bool values_known = !ictx.output_values.empty();
    for (size_t o = 0; o < node.outputs.size(); ++o)
      if (node.outputs[o] != kNoValue && (o >= ictx.output_values.size() || !ictx.output_values[o]))
        values_known = false;
    if (values_known) {
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        if (node.outputs[o] == kNoValue) continue;
        auto& vp = plan->values[node.outputs[o]];
        vp.host = ictx.output_values[o];
        vp.type = {vp.host->dtype(), vp.host->shape()};
        vp.typed = true;
      }
      ++plan->summary.host_nodes;
      continue;
    }

    // A view op (Identity, Reshape, Squeeze...) of a host string: the same strings
    // in the inferred shape (strings cannot take the device round trip below).
    const int alias = node.schema->traits.alias_input;
    if (alias >= 0 && static_cast<size_t>(alias) < node.inputs.size() && node.inputs[alias] != kNoValue &&
        plan->values[node.inputs[alias]].host && plan->values[node.inputs[alias]].host->dtype() == DType::kString &&
        node.outputs.size() >= 1 && node.outputs[0] != kNoValue) {
      auto& vp = plan->values[node.outputs[0]];
      vp.host = std::make_shared<HostTensor>(
          HostTensor::strings(ictx.outputs[0].shape, plan->values[node.inputs[alias]].host->string_values()));
      vp.type = {DType::kString, ictx.outputs[0].shape};
      vp.typed = true;
      ++plan->summary.host_nodes;
      continue;
    }

    // A string made from a value the run computes (Cast to string of a device
    // tensor): strings live on the host, so the step runs when the run reaches it,
    // its inputs read back then (runtime/executor.cpp, run_dynamic_step).
    if (std::any_of(ictx.outputs.begin(), ictx.outputs.end(),
                    [](const TensorType& t) { return t.dtype == DType::kString; })) {
      for (ValueId out : node.outputs)
        if (out != kNoValue) dynamic[out] = true;
      step.dynamic = true;
      plan->steps.push_back(std::move(step));
      continue;
    }

    size_t out_bytes = 0;
    for (const auto& t : ictx.outputs) out_bytes += dtype_storage_bytes(t.dtype, numel(t.shape));
    if (all_host && out_bytes <= kHostEvalMaxBytes) {
      auto r = evaluate_on_host(req.host_kit, node, [&](ValueId in) {
        return HostInput{plan->values[in].host.get(), plan->values[in].type.dtype};
      });
      if (!r.ok()) return r.status().with_context(req.path.empty() ? "model" : req.path);
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        if (node.outputs[o] == kNoValue) continue;
        auto& vp = plan->values[node.outputs[o]];
        vp.host = std::make_shared<HostTensor>(std::move(r->outputs[o]));
        vp.type = {vp.host->dtype(), vp.host->shape()};
        vp.typed = true;
      }
      ++plan->summary.host_nodes;
      continue;
    }
    for (size_t o = 0; o < node.outputs.size(); ++o) {
      if (node.outputs[o] == kNoValue) continue;
      auto& vp = plan->values[node.outputs[o]];
      vp.type = ictx.outputs[o];
      vp.typed = true;
      if (ictx.dynamic_shape) dynamic[node.outputs[o]] = true;
    }
    step.dynamic = ictx.dynamic_shape;
    plan->steps.push_back(std::move(step));
  }
  for (size_t v = 0; v < g.values.size(); ++v)
    if (dynamic[v]) plan->values[v].where = Where::kDynamic;
  // Static steps first: the longest prefix a graph can capture. Order within each
  // kind is kept, so every step still follows the steps it reads from.
  std::stable_partition(plan->steps.begin(), plan->steps.end(), [](const StepPlan& st) { return !st.dynamic; });
  plan->captured_steps = static_cast<size_t>(
      std::find_if(plan->steps.begin(), plan->steps.end(), [](const StepPlan& st) { return st.dynamic; }) -
      plan->steps.begin());
  GK_RETURN_IF_ERROR(place_values(req, *plan));
  plan_releases(g, *plan);
  for (const StepPlan& step : plan->steps)
    if (step.dynamic) {
      plan->uncapturable = fmt::format("{} has an output shape known only during the run (a sync mid-run)",
                                       g.nodes[step.node].view.describe());
      break;
    }
  plan->step_kernels = std::make_unique<StepKernels[]>(plan->steps.size());
  return std::shared_ptr<const Plan>(std::move(plan));
}

namespace {

Status place_values(const PlanRequest& req, Plan& plan) {
  const Graph& g = req.graph;
  // Graph outputs get their own buffer per run (returned to the caller), unless
  // their shape is only known during the run.
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    auto& vp = plan.values[g.outputs[i]];
    if (vp.where == Where::kDynamic || vp.where == Where::kInput) continue;
    vp.where = Where::kOutput;
    vp.io_index = static_cast<int>(i);
  }

  // Values read by device steps: plan-time values become device constants.
  std::vector<int> step_of(g.values.size(), -1);
  auto read_values = [](const Node& node) {
    std::vector<ValueId> read = node.inputs;
    read.insert(read.end(), node.implicit_inputs.begin(), node.implicit_inputs.end());
    return read;
  };
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const Node& node = g.nodes[plan.steps[s].node];
    for (ValueId in : read_values(node)) {
      if (in == kNoValue) continue;
      auto& vp = plan.values[in];
      if (vp.host && vp.where == Where::kAbsent) {
        vp.where = Where::kConstant;
        // Strings never reach a kernel: ops read them through TensorRef::host.
        if (vp.host->dtype() == DType::kString) continue;
        plan.summary.constant_bytes += vp.host->bytes();
        GK_RETURN_IF_ERROR(check_memory_limit(req, 0, plan.summary.constant_bytes, 0, false));
        GK_TRY(vp.constant, req.kit.upload(*vp.host));
      }
    }
  }
  // Graph outputs that are plan-time values are copied from a device constant.
  for (ValueId out : g.outputs) {
    auto& vp = plan.values[out];
    if (vp.host && !vp.constant.owns_memory() && vp.host->dtype() != DType::kString) {
      GK_TRY(vp.constant, req.kit.upload(*vp.host));
    }
  }

  // Device values produced by steps: arena tensors, aliases and in-place pairs.
  plan.tensors.assign(g.values.size(), PlanTensor{});
  for (size_t v = 0; v < g.values.size(); ++v) {
    plan.tensors[v].name = g.values[v].name;
    plan.tensors[v].pinned = true;
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    StepPlan& step = plan.steps[s];
    const Node& node = g.nodes[step.node];
    const int si = static_cast<int>(s);
    for (ValueId in : read_values(node))
      if (in != kNoValue) plan.tensors[in].last_use = std::max(plan.tensors[in].last_use, si);
    if (step.dynamic) continue;
    for (size_t o = 0; o < node.outputs.size(); ++o) {
      ValueId out = node.outputs[o];
      if (out == kNoValue) continue;
      auto& vp = plan.values[out];
      auto& t = plan.tensors[out];
      t.first_use = si;
      t.last_use = std::max(t.last_use, si);
      if (vp.where != Where::kAbsent) continue;  // graph output
      vp.where = Where::kArena;
      t.pinned = false;
      t.bytes = dtype_storage_bytes(vp.type.dtype, numel(vp.type.shape));
      const OpTraits& traits = node.schema->traits;
      if (o == 0 && traits.alias_input >= 0 && static_cast<size_t>(traits.alias_input) < node.inputs.size()) {
        ValueId src = node.inputs[traits.alias_input];
        if (src != kNoValue && plan.values[src].where != Where::kDynamic &&
            plan.values[src].where != Where::kOutput) {
          vp.where = Where::kAlias;
          vp.alias_root = src;
          t.alias_of = src;
          step.skip = true;
        }
      } else if (o == 0 && traits.inplace_input >= 0 &&
                 static_cast<size_t>(traits.inplace_input) < node.inputs.size()) {
        ValueId src = node.inputs[traits.inplace_input];
        if (src != kNoValue && plan.values[src].where == Where::kArena) t.inplace_of = src;
      }
    }
  }
  // Aliases of aliases point at the root that owns the bytes.
  for (auto& vp : plan.values)
    while (vp.where == Where::kAlias && plan.values[vp.alias_root].where == Where::kAlias)
      vp.alias_root = plan.values[vp.alias_root].alias_root;

  GK_TRY(plan.memory, plan_memory(plan.tensors));
  GK_RETURN_IF_ERROR(verify_plan(plan.tensors, plan.memory));
  for (size_t v = 0; v < g.values.size(); ++v)
    if (plan.values[v].where == Where::kArena) {
      plan.values[v].offset = plan.memory.offsets[v];
      if (plan.values[v].offset < 0)
        return internal_error("planner left value '{}' without an offset", g.values[v].name);
    }
  plan.summary.planned_peak_bytes = plan.memory.arena_bytes;
  size_t output_bytes = 0;
  for (ValueId out : g.outputs) {
    const ValuePlan& vp = plan.values[out];
    if (vp.where == Where::kOutput && vp.typed && vp.type.dtype != DType::kString)
      output_bytes += dtype_storage_bytes(vp.type.dtype, numel(vp.type.shape));
  }
  GK_RETURN_IF_ERROR(check_memory_limit(req, plan.memory.arena_bytes, plan.summary.constant_bytes, output_bytes, true));
  plan.summary.naive_bytes = plan.memory.naive_bytes;
  plan.summary.lower_bound_bytes = plan.memory.lower_bound_bytes;
  std::vector<size_t> live(plan.steps.size(), 0);
  for (size_t v = 0; v < g.values.size(); ++v) {
    const PlanTensor& t = plan.tensors[v];
    if (plan.values[v].where != Where::kArena || plan.memory.root[v] != static_cast<int>(v)) continue;
    for (int s = std::max(t.first_use, 0); s <= t.last_use && s < static_cast<int>(live.size()); ++s)
      live[s] += t.bytes;
  }
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const StepPlan& step = plan.steps[s];
    if (step.dynamic) {
      ++plan.summary.dynamic_nodes;
      plan.summary.runtime_steps.push_back(g.nodes[step.node].view.describe());
    } else {
      ++plan.summary.device_nodes;
    }
    plan.summary.live_bytes_by_nodes[step.tag.nodes] = live[s];
  }
  return ok_status();
}

}  // namespace

}  // namespace gk

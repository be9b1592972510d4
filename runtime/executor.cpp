// Running a plan: one frame per run (arena, outputs, index-error flags), one
// launch per node with no sync between launches, one sync at the end. Where the
// device can capture (a CUDA Graph), the second run of a shape signature is
// captured and later runs replay it with their input and output ranges rebound.
#include "runtime/executor.h"

#include "ops/core/op_eval.h"
#include "runtime/control_flow.h"
#include "runtime/host_eval.h"
#include "runtime/sequence_ops.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace gk {
namespace {

template <typename T>
void append_bytes(std::string& key, const T& v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// The plan cache key: each input's dtype and dims as raw bytes (no formatting on
// the run path), then the values of inputs that join the signature.
std::string signature_of(const std::vector<TensorType>& types,
                         const std::vector<std::shared_ptr<const HostTensor>>& values) {
  std::string key;
  for (const auto& t : types) {
    append_bytes(key, static_cast<int32_t>(t.dtype));
    append_bytes(key, static_cast<int32_t>(t.shape.size()));
    for (int64_t d : t.shape) append_bytes(key, d);
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    append_bytes(key, static_cast<int32_t>(i));
    if (values[i]->dtype() == DType::kString) {
      for (const std::string& str : values[i]->string_values()) {
        append_bytes(key, static_cast<uint64_t>(str.size()));
        key += str;
      }
      continue;
    }
    append_bytes(key, static_cast<uint64_t>(values[i]->bytes()));
    if (values[i]->bytes() > 0) key.append(static_cast<const char*>(values[i]->raw()), values[i]->bytes());
  }
  return key;
}

// A derived value input joins the plan signature only when it is this small: a
// length, a shape or a few scales, not an image whose every new value would plan
// the whole model again.
constexpr int64_t kMaxDerivedValueElements = 64;

// A plan caches one entry per shape signature (and per value of the small inputs
// that join it); a Loop body whose iteration number feeds a Slice plans once per
// iteration, so the cache is bounded. // untuned
constexpr size_t kMaxPlans = 256;

}  // namespace

Executor::Executor(const Graph& graph, std::string path, Kit kit, Kit host_kit, bool cuda_graphs,
                   std::string profile_prefix, size_t memory_limit, bool body)
    : graph_(graph), path_(std::move(path)), kit_(std::move(kit)), host_kit_(std::move(host_kit)),
      cuda_graphs_(cuda_graphs), profile_prefix_(std::move(profile_prefix)), memory_limit_(memory_limit),
      body_(body) {
  inputs_ = graph_.inputs;
  inputs_.insert(inputs_.end(), graph_.captures.begin(), graph_.captures.end());
  find_value_inputs();
  for (const Node& node : graph_.nodes)
    for (const auto& [name, attr] : node.attrs.all())
      if (const Graph* sub = subgraph_of(attr))
        subgraphs_.emplace(sub, std::make_unique<Executor>(*sub, path_, kit_, host_kit_, cuda_graphs_,
                                                           profile_prefix_ + node.view.name + "/",
                                                           memory_limit_, /*body=*/true));
}

Executor::~Executor() = default;

void Executor::find_value_inputs() {
  const Graph& g = graph_;
  value_inputs_.assign(inputs_.size(), false);
  derived_value_inputs_.assign(inputs_.size(), false);
  std::vector<int> producer(g.values.size(), -1);
  for (size_t n = 0; n < g.nodes.size(); ++n)
    for (ValueId out : g.nodes[n].outputs)
      if (out != kNoValue) producer[out] = static_cast<int>(n);
  auto input_index = [&](ValueId v) -> int {
    auto it = std::find(inputs_.begin(), inputs_.end(), v);
    return it == inputs_.end() ? -1 : static_cast<int>(it - inputs_.begin());
  };
  // Strings live on the host: every op reading one needs its value at plan time.
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (g.values[inputs_[i]].dtype == DType::kString) value_inputs_[i] = true;
  std::vector<bool> seen(g.values.size(), false);
  std::vector<ValueId> work;
  for (const Node& node : g.nodes) {
    if (!node.schema) continue;
    for (size_t i = 0; i < node.inputs.size() && i < 32; ++i) {
      const ValueId v = node.inputs[i];
      if (v == kNoValue || !((node.schema->traits.host_inputs >> i) & 1u)) continue;
      if (int k = input_index(v); k >= 0) value_inputs_[k] = true;
      else work.push_back(v);
    }
  }
  while (!work.empty()) {
    const ValueId v = work.back();
    work.pop_back();
    if (seen[v] || g.values[v].initializer) continue;
    seen[v] = true;
    if (int k = input_index(v); k >= 0) {
      derived_value_inputs_[k] = !value_inputs_[k];
      continue;
    }
    if (producer[v] < 0) continue;
    const Node& p = g.nodes[producer[v]];
    // Their values come from the input's shape, which the signature holds already.
    if (p.schema && p.schema->traits.reads_shape_only) continue;
    for (ValueId in : p.inputs)
      if (in != kNoValue) work.push_back(in);
  }
}

size_t Executor::plans_created() const {
  std::lock_guard lock(plans_mutex_);
  return plans_.size();
}

Result<std::vector<const NamedBuf*>> Executor::order_inputs(const std::vector<NamedBuf>& inputs) const {
  const Graph& g = graph_;
  std::vector<const NamedBuf*> ordered(inputs_.size(), nullptr);
  for (const NamedBuf& in : inputs) {
    ValueId v = g.find(in.name);
    auto it = std::find(inputs_.begin(), inputs_.end(), v);
    if (v == kNoValue || it == inputs_.end()) {
      std::string names;
      for (ValueId i : inputs_) names += (names.empty() ? "'" : ", '") + g.values[i].name + "'";
      return invalid_argument("unknown input '{}' (the model's inputs are {})", in.name, names);
    }
    ordered[it - inputs_.begin()] = &in;
  }
  std::map<std::string, int64_t> symbols;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const Value& decl = g.values[inputs_[i]];
    if (!ordered[i]) return invalid_argument("missing input '{}'", decl.name);
    const NamedBuf& in = *ordered[i];
    if (in.none && decl.kind != ValueKind::kOptional)
      return invalid_argument("input '{}' is an empty optional, the model declares {}", decl.name,
                              decl.kind == ValueKind::kSequence ? "a sequence" : "a tensor");
    if (decl.kind == ValueKind::kOptional) continue;  // empty, a tensor or a sequence
    if ((decl.kind == ValueKind::kSequence) != (in.sequence != nullptr))
      return invalid_argument("input '{}' is {}, the model declares {}", decl.name,
                              in.sequence ? "a sequence" : "a tensor",
                              decl.kind == ValueKind::kSequence ? "a sequence" : "a tensor");
    if (in.sequence) continue;
    if (decl.dtype != DType::kUndefined && in.dtype() != decl.dtype)
      return invalid_argument("input '{}' is {}, the model declares {}", decl.name, dtype_name(in.dtype()),
                              dtype_name(decl.dtype));
    if (decl.dtype == DType::kString && !in.host)
      return invalid_argument("input '{}' is a string tensor: pass it as a host tensor (NamedBuf::host)",
                              decl.name);
    GK_TRY(int64_t n, checked_numel(in.shape));
    if (n != in.count())
      return invalid_argument("input '{}': shape {} has {} elements, the buffer holds {}", decl.name,
                              shape_str(in.shape), n, in.count());
    if (!decl.has_shape) continue;
    if (decl.dims.size() != in.shape.size())
      return invalid_argument("input '{}' has rank {} (shape {}), the model declares rank {}", decl.name,
                              in.shape.size(), shape_str(in.shape), decl.dims.size());
    if (body_) continue;
    for (size_t d = 0; d < decl.dims.size(); ++d) {
      const Dim& dim = decl.dims[d];
      if (dim.known() && dim.value != in.shape[d])
        return invalid_argument("input '{}': dim {} is {}, the model declares {}", decl.name, d, in.shape[d],
                                dim.value);
      if (!dim.known() && !dim.symbol.empty()) {
        auto [it, fresh] = symbols.emplace(dim.symbol, in.shape[d]);
        if (!fresh && it->second != in.shape[d])
          return invalid_argument("input '{}': dim {} ('{}') is {}, but '{}' is {} in another input", decl.name,
                                  d, dim.symbol, in.shape[d], dim.symbol, it->second);
      }
    }
  }
  return ordered;
}

Result<std::shared_ptr<PlanState>> Executor::plan_for(
    const std::vector<TensorType>& input_types, const std::vector<std::shared_ptr<const HostTensor>>& input_values,
    bool* created) {
  const std::string key = signature_of(input_types, input_values);
  {
    std::lock_guard lock(plans_mutex_);
    auto it = plans_.find(key);
    if (it != plans_.end()) {
      if (created) *created = false;
      return it->second;
    }
  }
  // Planned outside the lock; two threads racing on a new shape both plan and the
  // first insert wins (plans are pure functions of the shapes).
  const PlanRequest request{graph_, inputs_, kit_, host_kit_, path_, profile_prefix_, memory_limit_};
  auto state = std::make_shared<PlanState>();
  GK_TRY(state->plan, build_plan(request, input_types, input_values));
  std::lock_guard lock(plans_mutex_);
  if (plans_.size() >= kMaxPlans) plans_.erase(plans_.begin());  // runs in flight hold their plan
  auto [it, inserted] = plans_.emplace(key, std::move(state));
  if (created) *created = inserted;
  return it->second;
}

Status Executor::check_flags(const Plan& plan, DevPtr flags) {
  if (plan.steps.empty()) return ok_status();
  std::vector<int32_t> values(plan.steps.size());
  GK_RETURN_IF_ERROR(kit_.device().download(values.data(), flags, values.size() * 4));
  for (size_t s = 0; s < values.size(); ++s)
    if (values[s] != 0) {
      const Node& node = graph_.nodes[plan.steps[s].node];
      return out_of_range("{}: an index input is out of range for the data it indexes (inputs {})",
                          node.view.describe(), plan.steps[s].tag.shapes);
    }
  return ok_status();
}

namespace {

Status check_run_limits(const RunOptions& options, const Node& node) {
  if (options.cancel && options.cancel->load(std::memory_order_relaxed))
    return cancelled("the run was cancelled before {}", node.view.describe());
  if (std::chrono::steady_clock::now() >= options.deadline)
    return deadline_exceeded("the run's deadline passed before {}", node.view.describe());
  return ok_status();
}

}  // namespace

Status Executor::run_steps(const Plan& plan, Frame& frame, const RunOptions& options, DevPtr flags,
                           std::vector<GkBuf>& owned, size_t first, size_t last) {
  const Graph& g = graph_;
  const bool limited = options.limited();
  for (size_t s = first; s < last; ++s) {
    const StepPlan& step = plan.steps[s];
    if (step.skip) continue;
    const Node& node = g.nodes[step.node];
    if (limited) GK_RETURN_IF_ERROR(check_run_limits(options, node));
    if (node.schema->traits.runs_in_executor()) {
      GK_RETURN_IF_ERROR(run_executor_step(node, frame, options, owned));
      for (ValueId v : step.release) frame.run_buffers[v] = GkBuf();
      continue;
    }
    if (step.dynamic) {
      GK_RETURN_IF_ERROR(run_dynamic_step(plan, s, frame, options, flags, owned));
      // Launches run in stream order, so a buffer handed back now is reused only
      // by work queued after this step's.
      for (ValueId v : step.release) frame.run_buffers[v] = GkBuf();
      continue;
    }
    const InvokeEnv env{kit_, flags + 4 * s, options.profiler, &step.tag, &plan.step_kernels[s]};
    Status st = invoke_node(env, NodeCall{*node.schema, node.view, node.parsed}, frame.step_inputs(s),
                            frame.step_outputs(s), owned);
    if (!st.ok()) return st.code() == StatusCode::kInternal ? st : st.with_context(node.view.describe());
  }
  return ok_status();
}

Status Executor::run_executor_step(const Node& node, Frame& frame, const RunOptions& options,
                                   std::vector<GkBuf>& owned) {
  const Graph& g = graph_;
  auto named = [&](ValueId v) {
    NamedBuf b;
    if (v == kNoValue) return b;
    const FrameValue& fv = frame.values[v];
    b.name = g.values[v].name;
    b.shape = fv.type.shape;
    if (fv.none)
      b.none = true;
    else if (fv.seq)
      b.sequence = fv.seq;
    else if (fv.type.dtype == DType::kString)
      b.host = fv.owned_host ? fv.owned_host : std::shared_ptr<const HostTensor>(std::shared_ptr<void>(), fv.host);
    else
      b.buf = GkBuf::wrap(fv.type.dtype, numel(fv.type.shape), fv.ptr);
    return b;
  };
  for (ValueId in : node.inputs)
    if (in != kNoValue) GK_RETURN_IF_ERROR(materialize(frame, in));
  for (ValueId in : node.implicit_inputs) GK_RETURN_IF_ERROR(materialize(frame, in));
  std::vector<NamedBuf> cf_inputs, cf_implicit;
  for (ValueId in : node.inputs) cf_inputs.push_back(named(in));
  for (ValueId in : node.implicit_inputs) cf_implicit.push_back(named(in));
  GK_TRY(std::vector<NamedBuf> results, run_control_flow_step(node, cf_inputs, cf_implicit, options));
  for (size_t o = 0; o < node.outputs.size() && o < results.size(); ++o) {
    const ValueId out = node.outputs[o];
    if (out == kNoValue) continue;
    FrameValue& fv = frame.values[out];
    fv.type = {results[o].dtype(), results[o].shape};
    fv.ptr = results[o].buf.ptr();
    fv.owned_host = results[o].host;
    fv.host = fv.owned_host.get();
    fv.seq = results[o].sequence;
    fv.none = results[o].none;
    if (!results[o].buf.is_none()) frame.run_buffers[out] = std::move(results[o].buf);
  }
  return ok_status();
}

namespace {

// A step planned during the run computes on the host when every input it reads is
// known there and its outputs are this small: shape arithmetic (Shape, Gather,
// Min, Concat feeding a Reshape or a TopK's K) then costs no launch and no read
// back. // untuned
constexpr int64_t kRunHostEvalMaxElements = 4096;

}  // namespace

Result<const HostTensor*> Executor::host_value(Frame& frame, ValueId v) {
  FrameValue& fv = frame.values[v];
  if (fv.host) return fv.host;
  GK_TRY(HostTensor h, download_tensor(kit_, fv.type.dtype, fv.type.shape, fv.ptr));
  ++frame.host_reads;
  // Formatted only at debug level (gkrun -v): which values cost a sync.
  spdlog::debug("{}run-time read of '{}' ({} elements)", profile_prefix_, graph_.values[v].name, h.numel());
  fv.owned_host = std::make_shared<HostTensor>(std::move(h));
  fv.host = fv.owned_host.get();
  return fv.host;
}

Status Executor::materialize(Frame& frame, ValueId v) {
  FrameValue& fv = frame.values[v];
  if (fv.ptr || !fv.host || fv.type.dtype == DType::kString || fv.host->numel() == 0) return ok_status();
  GK_TRY(GkBuf buf, kit_.upload(*fv.host));
  fv.ptr = buf.ptr();
  frame.run_buffers[v] = std::move(buf);
  return ok_status();
}

Status Executor::run_dynamic_step(const Plan& plan, size_t s, Frame& frame, const RunOptions& options, DevPtr flags,
                                  std::vector<GkBuf>& owned) {
  const StepPlan& step = plan.steps[s];
  const Node& node = graph_.nodes[step.node];
  for (ValueId in : node.inputs)
    if (in != kNoValue && (frame.values[in].seq != nullptr || frame.values[in].none)) {
      if (!node.schema->traits.passes_containers || node.outputs.empty() || node.outputs[0] == kNoValue)
        return unimplemented(
            "{} reads a sequence or an empty optional; only the sequence and optional ops, "
            "control flow and Identity take one",
            node.view.describe());
      frame.values[node.outputs[0]] = frame.values[node.inputs[0]];
      return ok_status();
    }
  ++frame.runtime_steps;
  // Shapes are known only now: infer with this run's shapes, reading back the
  // values the op needs on the host (a sync each, once per value; such plans are
  // not captured).
  const OpTraits& traits = node.schema->traits;
  std::vector<TensorRef> ins;
  bool all_host = true;
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const ValueId in = node.inputs[i];
    if (in == kNoValue) {
      ins.emplace_back();
      continue;
    }
    const bool needs_value = i < 32 && ((traits.host_inputs >> i) & 1u);
    const bool type_only = i < 32 && ((traits.type_only_inputs >> i) & 1u);
    const FrameValue& fv = frame.values[in];
    if (needs_value && !fv.host && numel(fv.type.shape) > 0) GK_RETURN_IF_ERROR(host_value(frame, in).status());
    all_host &= fv.host != nullptr || type_only;
    ins.push_back(TensorRef{fv.type.dtype, fv.type.shape, fv.ptr, fv.host});
  }
  const NodeCall call{*node.schema, node.view, node.parsed};
  InferContext ictx{node.view, node.parsed, {}, {}, {}, false, {}};
  GK_RETURN_IF_ERROR(infer_node(*node.schema, ictx, ins, node.outputs.size()));
  // Strings live on the host: a step that reads or makes one computes there, its
  // device inputs read back (a Cast to string of a computed tensor, LabelEncoder
  // of an ArgMax), whatever their size.
  bool on_host = std::any_of(ins.begin(), ins.end(), [](const TensorRef& t) { return t.dtype == DType::kString; });
  for (const TensorType& t : ictx.outputs) on_host |= t.dtype == DType::kString;
  if (on_host && !all_host) {
    for (size_t i = 0; i < node.inputs.size(); ++i) {
      const ValueId in = node.inputs[i];
      if (in == kNoValue || (i < 32 && ((traits.type_only_inputs >> i) & 1u)) || frame.values[in].host) continue;
      GK_TRY(ins[i].host, host_value(frame, in));
    }
    all_host = true;
    GK_RETURN_IF_ERROR(infer_node(*node.schema, ictx, ins, node.outputs.size()));
  }

  // Outputs the rule computed from types (Shape, Size), or small outputs of host
  // inputs: computed here, copied to the device only if a device step reads them.
  bool values_known = !ictx.output_values.empty();
  int64_t out_elements = 0;
  for (size_t o = 0; o < node.outputs.size(); ++o) {
    if (node.outputs[o] == kNoValue) continue;
    if (o >= ictx.output_values.size() || !ictx.output_values[o]) values_known = false;
    out_elements += numel(ictx.outputs[o].shape);
  }
  if (values_known || (all_host && !ictx.dynamic_shape && (on_host || out_elements <= kRunHostEvalMaxElements))) {
    std::vector<std::shared_ptr<const HostTensor>> results(node.outputs.size());
    if (values_known) {
      results = ictx.output_values;
    } else {
      auto r = evaluate_on_host(host_kit_, node, [&](ValueId in) {
        return HostInput{frame.values[in].host, frame.values[in].type.dtype};
      });
      if (!r.ok()) return r.status().code() == StatusCode::kInternal ? r.status()
                                                                      : r.status().with_context(node.view.describe());
      for (size_t o = 0; o < node.outputs.size(); ++o)
        if (node.outputs[o] != kNoValue) results[o] = std::make_shared<HostTensor>(std::move(r->outputs[o]));
    }
    for (size_t o = 0; o < node.outputs.size(); ++o) {
      const ValueId out = node.outputs[o];
      if (out == kNoValue) continue;
      FrameValue& fv = frame.values[out];
      fv.owned_host = results[o];
      fv.host = fv.owned_host.get();
      fv.type = {fv.host->dtype(), fv.host->shape()};
      fv.ptr = 0;
    }
    return ok_status();
  }

  for (size_t i = 0; i < node.inputs.size(); ++i) {
    if (node.inputs[i] == kNoValue) continue;
    GK_RETURN_IF_ERROR(materialize(frame, node.inputs[i]));
    ins[i].ptr = frame.values[node.inputs[i]].ptr;
  }
  std::vector<GkBuf> made;
  GK_TRY(std::vector<TensorRef> outs, allocate_outputs(kit_, ictx, made));
  const InvokeEnv env{kit_, flags + 4 * s, options.profiler, &step.tag, &plan.step_kernels[s]};
  Status st = invoke_node(env, call, ins, outs, made);
  if (!st.ok()) return st.code() == StatusCode::kInternal ? st : st.with_context(node.view.describe());
  if (ictx.dynamic_shape) ++frame.host_reads;  // the op read its own count back (NonZero, NMS, Unique)
  for (size_t o = 0; o < node.outputs.size(); ++o) {
    const ValueId out = node.outputs[o];
    if (out == kNoValue) continue;
    FrameValue& fv = frame.values[out];
    fv.ptr = outs[o].ptr;
    fv.type = {outs[o].dtype, outs[o].shape};
    fv.host = nullptr;
    fv.owned_host.reset();
    // The output's buffer is the frame's until its last reader; scratch stays to the sync.
    for (GkBuf& b : made)
      if (b.owns_memory() && b.ptr() == fv.ptr && fv.ptr != 0) {
        frame.run_buffers[out] = std::move(b);
        break;
      }
  }
  for (GkBuf& b : made)
    if (b.owns_memory()) owned.push_back(std::move(b));
  return ok_status();
}

Status Executor::copy_out(const Plan& plan, Frame& frame, std::vector<NamedBuf>& outputs) {
  const Graph& g = graph_;
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValuePlan& vp = plan.values[g.outputs[i]];
    if (vp.where == Where::kOutput && !vp.host) continue;
    if (outputs[i].host) continue;  // a string, set when the run began
    GK_RETURN_IF_ERROR(materialize(frame, g.outputs[i]));
    const FrameValue& fv = frame.values[g.outputs[i]];
    if (fv.none || fv.seq) {
      outputs[i].none = fv.none;
      outputs[i].sequence = fv.seq;
      continue;
    }
    if (fv.type.dtype == DType::kString) {
      outputs[i].host = fv.owned_host ? fv.owned_host : std::make_shared<HostTensor>(*fv.host);
      outputs[i].shape = fv.type.shape;
      continue;
    }
    if (outputs[i].buf.is_none()) {
      GK_TRY(outputs[i].buf, kit_.alloc(fv.type.dtype, numel(fv.type.shape)));
      outputs[i].shape = fv.type.shape;
    }
    const size_t bytes = outputs[i].buf.bytes();
    if (bytes > 0) GK_RETURN_IF_ERROR(kit_.device().copy(outputs[i].buf.ptr(), fv.ptr, bytes));
  }
  return ok_status();
}

Result<std::vector<NamedBuf>> Executor::run_control_flow_step(const Node& node, const std::vector<NamedBuf>& inputs,
                                                              const std::vector<NamedBuf>& implicit,
                                                              const RunOptions& options) {
  RunSubgraph run = [&](const Graph& sub, std::vector<NamedBuf> formal) -> Result<std::vector<NamedBuf>> {
    auto it = subgraphs_.find(&sub);
    if (it == subgraphs_.end()) return internal_error("{}: no executor for its subgraph", node.view.describe());
    for (ValueId c : sub.captures) {
      const std::string& name = sub.values[c].name;
      auto found = std::find_if(implicit.begin(), implicit.end(), [&](const NamedBuf& b) { return b.name == name; });
      if (found == implicit.end())
        return internal_error("{}: its subgraph reads '{}', which the node does not provide", node.view.describe(),
                              name);
      formal.push_back(*found);
    }
    auto outs = it->second->run(formal, options, nullptr);
    if (!outs.ok()) return outs.status().with_context(node.view.describe());
    return outs;
  };
  switch (node.schema->traits.executor_op) {
    case ExecutorOp::kIf:
    case ExecutorOp::kLoop:
    case ExecutorOp::kScan:
      return run_control_flow(kit_, node, inputs, run);
    default:
      return run_sequence_op(kit_, node, inputs, run);
  }
}

Result<std::vector<NamedBuf>> Executor::run(const std::vector<NamedBuf>& inputs, const RunOptions& options,
                                            RunInfo* info) {
  const Graph& g = graph_;
  GK_TRY(std::vector<const NamedBuf*> ordered, order_inputs(inputs));
  std::vector<TensorType> types;
  for (const NamedBuf* in : ordered) types.push_back({in->dtype(), in->shape});
  std::vector<std::shared_ptr<const HostTensor>> values(ordered.size());
  for (size_t i = 0; i < ordered.size(); ++i) {
    if (ordered[i]->sequence || ordered[i]->none || g.values[inputs_[i]].kind == ValueKind::kOptional)
      continue;  // planned as a value known only during the run
    if (ordered[i]->host) {
      values[i] = ordered[i]->host;
      continue;
    }
    if (!value_inputs_[i] && !(derived_value_inputs_[i] && ordered[i]->buf.count() <= kMaxDerivedValueElements))
      continue;
    GK_TRY(HostTensor h, download_tensor(kit_, ordered[i]->dtype(), ordered[i]->shape, ordered[i]->buf.ptr()));
    values[i] = std::make_shared<HostTensor>(std::move(h));
  }
  bool created = false;
  GK_TRY(std::shared_ptr<PlanState> state, plan_for(types, values, &created));
  if (info) info->new_plan = created;
  const Plan& plan = *state->plan;

  // Every output whose shape the plan knows gets its buffer now (a captured graph
  // writes into them); the others are allocated by the run.
  std::vector<NamedBuf> outputs(g.outputs.size());
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    outputs[i].name = g.values[g.outputs[i]].name;
    const ValuePlan& vp = plan.values[g.outputs[i]];
    if (vp.where == Where::kDynamic) continue;
    if (vp.type.dtype == DType::kString) {
      if (!vp.host)
        return unimplemented("output '{}' is a string computed during the run; strings are host-only",
                             outputs[i].name);
      outputs[i].host = vp.host;
      outputs[i].shape = vp.type.shape;
      continue;
    }
    GK_TRY(outputs[i].buf, kit_.alloc(vp.type.dtype, numel(vp.type.shape)));
    outputs[i].shape = vp.type.shape;
  }

  // One run of the plan into a frame bound to (arena, flags): the steps, then the
  // output copies, all enqueued with no sync.
  auto enqueue = [&](DevPtr arena, DevPtr flags, std::vector<GkBuf>& owned, GraphReplay::Steps steps) -> Status {
    std::unique_ptr<Frame> frame = state->frames.take(g, plan);
    frame->bind(g, plan, inputs_, ordered, outputs, arena);
    Status s = run_steps(plan, *frame, options, flags, owned, steps.first, steps.last);
    if (s.ok() && steps.finish) s = copy_out(plan, *frame, outputs);
    if (info && steps.finish) {
      info->runtime_steps = frame->runtime_steps;
      info->host_reads = frame->host_reads;
    }
    frame->release(owned);
    state->frames.give_back(std::move(frame));
    return s;
  };
  if (cuda_graphs_ && kit_.device().graphs()) {
    auto check = [&](DevPtr flags) { return check_flags(plan, flags); };
    GK_TRY(bool replayed, state->replay.run(kit_, plan, ordered, outputs, options, info, enqueue, check));
    if (replayed) return outputs;
  } else if (info && kit_.backend() == BackendKind::kCuda) {
    info->graph_fallback = cuda_graphs_ ? "this backend cannot capture graphs" : "disabled by the caller";
  }

  const size_t flag_bytes = std::max<size_t>(plan.steps.size(), 1) * 4;
  GK_TRY(GkBuf arena, kit_.alloc(DType::kU8, static_cast<int64_t>(plan.memory.arena_bytes)));
  GK_TRY(GkBuf flags, kit_.alloc(DType::kU8, static_cast<int64_t>(flag_bytes)));
  GK_RETURN_IF_ERROR(kit_.device().memset(flags.ptr(), 0, flag_bytes));
  std::vector<GkBuf> owned;
  GK_RETURN_IF_ERROR(enqueue(arena.ptr(), flags.ptr(), owned, {0, plan.steps.size(), true}));
  // The frame's dynamic and scratch buffers must outlive the launches that use them.
  GK_RETURN_IF_ERROR(kit_.sync());
  GK_RETURN_IF_ERROR(check_flags(plan, flags.ptr()));
  return outputs;
}

}  // namespace gk

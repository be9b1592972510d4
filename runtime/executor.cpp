// Running a plan: one frame per run (arena, outputs, index-error flags), one
// launch per node with no sync between launches, one sync at the end. Where the
// device can capture (a CUDA Graph), the second run of a shape signature is
// captured and later runs replay it with their input and output ranges rebound.
#include "runtime/executor.h"

#include "ops/core/op_eval.h"
#include "runtime/control_flow.h"
#include "runtime/sequence_ops.h"

#include <spdlog/spdlog.h>

namespace gk {
namespace {

std::string signature_of(const std::vector<TensorType>& types) {
  std::string s;
  for (const auto& t : types) s += fmt::format("{}:{};", static_cast<int>(t.dtype), shape_str(t.shape));
  return s;
}

// A derived value input joins the plan signature only when it is this small: a
// length, a shape or a few scales, not an image whose every new value would plan
// the whole model again.
constexpr int64_t kMaxDerivedValueElements = 64;

// A plan caches one entry per shape signature (and per value of the small inputs
// that join it); a Loop body whose iteration number feeds a Slice plans once per
// iteration, so the cache is bounded. // untuned
constexpr size_t kMaxPlans = 256;

// Runtime state of one value in a frame.
struct FrameValue {
  DevPtr ptr = 0;
  TensorType type;
  const HostTensor* host = nullptr;
  std::shared_ptr<const HostTensor> owned_host;  // a string made during the run
  std::shared_ptr<const std::vector<NamedBuf>> seq;  // a sequence value
  bool none = false;                                 // an empty optional
};

}  // namespace

Executor::Executor(const Graph& graph, std::string path, Kit kit, Kit host_kit, bool cuda_graphs,
                   std::string profile_prefix)
    : graph_(graph), path_(std::move(path)), kit_(std::move(kit)), host_kit_(std::move(host_kit)),
      cuda_graphs_(cuda_graphs), profile_prefix_(std::move(profile_prefix)) {
  inputs_ = graph_.inputs;
  inputs_.insert(inputs_.end(), graph_.captures.begin(), graph_.captures.end());
  find_value_inputs();
  for (const Node& node : graph_.nodes)
    for (const auto& [name, attr] : node.attrs.all())
      if (const Graph* sub = subgraph_of(attr))
        subgraphs_.emplace(sub, std::make_unique<Executor>(*sub, path_, kit_, host_kit_, cuda_graphs_,
                                                           profile_prefix_ + node.view.name + "/"));
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
    if (p.view.op_type == "Shape" || p.view.op_type == "Size") continue;
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

Result<std::shared_ptr<Plan>> Executor::plan_for(const std::vector<TensorType>& input_types,
                                                  const std::vector<std::shared_ptr<const HostTensor>>& input_values,
                                                  bool* created) {
  std::string key = signature_of(input_types);
  for (size_t i = 0; i < input_values.size(); ++i) {
    if (!input_values[i]) continue;
    key += fmt::format("#{}=", i);
    if (input_values[i]->dtype() == DType::kString) {
      for (const std::string& str : input_values[i]->string_values()) key += fmt::format("{}:{}", str.size(), str);
      continue;
    }
    const auto* bytes = static_cast<const uint8_t*>(input_values[i]->raw());
    for (size_t b = 0; b < input_values[i]->bytes(); ++b) key += fmt::format("{:02x}", bytes[b]);
  }
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
  GK_TRY(std::shared_ptr<Plan> plan, build_plan(input_types, input_values));
  std::lock_guard lock(plans_mutex_);
  if (plans_.size() >= kMaxPlans) plans_.erase(plans_.begin());  // runs in flight hold their plan
  auto [it, inserted] = plans_.emplace(key, plan);
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

Status Executor::run_steps(Plan& plan, const std::vector<const NamedBuf*>& inputs, std::vector<NamedBuf>& outputs,
                           const RunOptions& options, DevPtr arena, DevPtr flags, std::vector<GkBuf>& owned) {
  const Graph& g = graph_;
  std::vector<FrameValue> frame(g.values.size());
  for (size_t v = 0; v < g.values.size(); ++v) {
    const ValuePlan& vp = plan.values[v];
    FrameValue& fv = frame[v];
    fv.type = vp.type;
    fv.host = vp.host.get();
    switch (vp.where) {
      case Where::kInput: fv.ptr = inputs[vp.io_index]->buf.ptr(); break;
      case Where::kOutput: fv.ptr = vp.host ? vp.constant.ptr() : outputs[vp.io_index].buf.ptr(); break;
      case Where::kConstant: fv.ptr = vp.constant.ptr(); break;
      case Where::kArena: fv.ptr = arena + static_cast<DevPtr>(vp.offset); break;
      default: break;
    }
  }
  for (size_t v = 0; v < g.values.size(); ++v)
    if (plan.values[v].where == Where::kAlias) frame[v].ptr = frame[plan.values[v].alias_root].ptr;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    FrameValue& fv = frame[inputs_[i]];
    fv.seq = inputs[i]->sequence;
    fv.none = inputs[i]->none;
    if (g.values[inputs_[i]].kind == ValueKind::kOptional && !fv.seq && !fv.none) {  // planned as dynamic
      fv.ptr = inputs[i]->buf.ptr();
      fv.type = {inputs[i]->dtype(), inputs[i]->shape};
      fv.host = inputs[i]->host.get();
    }
  }

  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const StepPlan& step = plan.steps[s];
    if (step.skip) continue;
    const Node& node = g.nodes[step.node];
    std::vector<TensorRef> ins, outs;
    for (ValueId in : node.inputs) {
      if (in == kNoValue) {
        ins.emplace_back();
        continue;
      }
      const FrameValue& fv = frame[in];
      ins.push_back({fv.type.dtype, fv.type.shape, fv.ptr, fv.host});
    }
    if (node.schema->traits.runs_in_executor) {
      auto named = [&](ValueId v) {
        NamedBuf b;
        if (v == kNoValue) return b;
        const FrameValue& fv = frame[v];
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
      std::vector<NamedBuf> cf_inputs, cf_implicit;
      for (ValueId in : node.inputs) cf_inputs.push_back(named(in));
      for (ValueId in : node.implicit_inputs) cf_implicit.push_back(named(in));
      GK_TRY(std::vector<NamedBuf> results, run_control_flow_step(node, cf_inputs, cf_implicit, options));
      for (size_t o = 0; o < node.outputs.size() && o < results.size(); ++o) {
        const ValueId out = node.outputs[o];
        if (out == kNoValue) continue;
        FrameValue& fv = frame[out];
        fv.type = {results[o].dtype(), results[o].shape};
        fv.ptr = results[o].buf.ptr();
        fv.owned_host = results[o].host;
        fv.host = fv.owned_host.get();
        fv.seq = results[o].sequence;
        fv.none = results[o].none;
        if (!results[o].buf.is_none()) owned.push_back(std::move(results[o].buf));
      }
      continue;
    }
    if (step.dynamic) {
      bool reads_sequence = false;
      for (ValueId in : node.inputs)
        reads_sequence |= in != kNoValue && (frame[in].seq != nullptr || frame[in].none);
      if (reads_sequence) {
        if (node.view.op_type != "Identity" || node.outputs.empty() || node.outputs[0] == kNoValue)
          return unimplemented("{} reads a sequence or an empty optional; only the sequence and optional ops, "
                               "control flow and Identity take one",
                               node.view.describe());
        frame[node.outputs[0]] = frame[node.inputs[0]];
        continue;
      }
    }
    std::vector<HostTensor> fetched;  // host values a dynamic step needs
    if (step.dynamic) {
      // Shapes are known only now: infer with this run's shapes, fetching the
      // values the op needs on the host (a sync; such plans are not captured).
      InferContext ictx{node.view, node.parsed, {}, {}, {}, false, {}};
      fetched.reserve(node.inputs.size());
      for (size_t i = 0; i < node.inputs.size(); ++i) {
        ictx.inputs.push_back(ins[i].present() ? TensorType{ins[i].dtype, ins[i].shape} : TensorType{});
        const HostTensor* value = ins[i].host;
        if (!value && ins[i].present() && (node.schema->traits.host_inputs >> i) & 1u) {
          GK_TRY(HostTensor h, download_tensor(kit_, ins[i].dtype, ins[i].shape, ins[i].ptr));
          fetched.push_back(std::move(h));
          value = &fetched.back();
        }
        ictx.values.push_back(value);
      }
      ictx.outputs.resize(node.outputs.size());
      GK_RETURN_IF_ERROR(node.schema->impl->infer(ictx));
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        TensorRef ref{ictx.outputs[o].dtype, ictx.outputs[o].shape, 0, nullptr};
        if (!ictx.dynamic_shape && node.outputs[o] != kNoValue) {
          GK_TRY(GkBuf buf, kit_.alloc(ref.dtype, numel(ref.shape)));
          ref.ptr = buf.ptr();
          owned.push_back(std::move(buf));
        }
        outs.push_back(std::move(ref));
      }
    } else {
      for (ValueId out : node.outputs) {
        if (out == kNoValue) {
          outs.emplace_back();
          continue;
        }
        const FrameValue& fv = frame[out];
        outs.push_back({fv.type.dtype, fv.type.shape, fv.ptr, nullptr});
      }
    }
    KernelContext ctx(kit_, node.view, node.parsed, ins, outs, flags + 4 * s, options.profiler, &step.tag);
    Status st = node.schema->impl->run(ctx);
    if (!st.ok()) return st.code() == StatusCode::kInternal ? st : st.with_context(node.view.describe());
    for (GkBuf& b : ctx.owned()) owned.push_back(std::move(b));
    if (step.dynamic)
      for (size_t o = 0; o < node.outputs.size(); ++o) {
        ValueId out = node.outputs[o];
        if (out == kNoValue) continue;
        frame[out].ptr = outs[o].ptr;
        frame[out].type = {outs[o].dtype, outs[o].shape};
      }
  }

  // Outputs that are plan-time values or inputs, or whose shape was known only
  // during the run: copied into the per-run buffers.
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const ValuePlan& vp = plan.values[g.outputs[i]];
    if (vp.where == Where::kOutput && !vp.host) continue;
    if (outputs[i].host) continue;  // a string, set when the run began
    const FrameValue& fv = frame[g.outputs[i]];
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
  const std::string& op = node.view.op_type;
  if (op == "If" || op == "Loop" || op == "Scan") return run_control_flow(kit_, node, inputs, run);
  return run_sequence_op(kit_, node, inputs, run);
}

Status Executor::capture(Plan& plan, const std::vector<const NamedBuf*>& inputs, std::vector<NamedBuf>& outputs) {
  const Graph& g = graph_;
  for (const StepPlan& step : plan.steps)
    if (step.dynamic)
      return unimplemented("{} has an output shape known only during the run (a sync mid-run)",
                           g.nodes[step.node].view.describe());
  // A replay moves each input and output by its address range; two that share
  // bytes could not be told apart.
  std::vector<PointerRemap> io;
  auto bind = [&](const std::string& name, const GkBuf& buf) -> Status {
    const PointerRemap r{buf.ptr(), buf.bytes(), 0};
    for (const PointerRemap& o : io)
      if (r.bytes && o.bytes && r.from < o.from + o.bytes && o.from < r.from + r.bytes)
        return unimplemented("'{}' shares memory with another input or output of this run", name);
    io.push_back(r);
    return ok_status();
  };
  for (size_t i = 0; i < inputs.size(); ++i) GK_RETURN_IF_ERROR(bind(inputs[i]->name, inputs[i]->buf));
  for (const NamedBuf& out : outputs) GK_RETURN_IF_ERROR(bind(out.name, out.buf));

  const size_t flag_bytes = std::max<size_t>(plan.steps.size(), 1) * 4;
  GK_TRY(GkBuf arena, kit_.alloc(DType::kU8, static_cast<int64_t>(plan.memory.arena_bytes)));
  GK_TRY(GkBuf flags, kit_.alloc(DType::kU8, static_cast<int64_t>(flag_bytes)));
  GraphCapture& graphs = *kit_.device().graphs();
  GK_RETURN_IF_ERROR(graphs.begin_capture());
  std::vector<GkBuf> scratch;
  Status s = kit_.device().memset(flags.ptr(), 0, flag_bytes);
  if (s.ok()) s = run_steps(plan, inputs, outputs, RunOptions{}, arena.ptr(), flags.ptr(), scratch);
  Result<GraphId> id = graphs.end_capture();
  if (!s.ok()) {
    if (id.ok()) graphs.destroy_graph(*id);
    return s;
  }
  if (!id.ok()) return id.status();
  plan.graph = *id;
  plan.graphs = &graphs;
  plan.has_graph = true;
  plan.graph_arena = std::move(arena);
  plan.graph_flags = std::move(flags);
  plan.graph_scratch = std::move(scratch);
  plan.graph_io = std::move(io);
  return ok_status();
}

Result<bool> Executor::run_graph(Plan& plan, const std::vector<const NamedBuf*>& inputs,
                                 std::vector<NamedBuf>& outputs, const RunOptions& options, RunInfo* info) {
  auto fallback = [&](std::string why) {
    if (info) info->graph_fallback = std::move(why);
    return false;
  };
  if (options.profiler) return fallback("profiling times each launch: plain launches");
  if (kit_.autosync()) return fallback("autosync syncs after each launch: plain launches");
  // One replay at a time per plan (the graph owns one arena); a concurrent run of
  // the same shape takes plain launches in its own frame instead of waiting.
  std::unique_lock lock(plan.graph_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return fallback("another run is replaying this shape's graph: plain launches");
  if (!plan.graph_fallback.empty()) return fallback(plan.graph_fallback);
  if (!plan.has_graph) {
    if (++plan.runs < 2) return fallback("first run of this shape: plain launches, captured on the next");
    Status s = capture(plan, inputs, outputs);
    if (!s.ok()) {
      plan.graph_fallback = "not captured: " + s.message();
      spdlog::debug("graph replay off for this shape: {}", s.message());
      return fallback(plan.graph_fallback);
    }
    if (info) info->graph_captured = true;
  }

  std::vector<PointerRemap> remap;
  std::vector<DevPtr> now;
  for (const NamedBuf* in : inputs) now.push_back(in->buf.ptr());
  for (const NamedBuf& out : outputs) now.push_back(out.buf.ptr());
  for (size_t i = 0; i < now.size(); ++i) {
    PointerRemap& bound = plan.graph_io[i];
    if (bound.from != now[i] && bound.bytes) remap.push_back({bound.from, bound.bytes, now[i]});
  }
  if (!remap.empty()) GK_RETURN_IF_ERROR(plan.graphs->rebind_pointers(plan.graph, remap));
  for (size_t i = 0; i < now.size(); ++i) plan.graph_io[i].from = now[i];
  GK_RETURN_IF_ERROR(plan.graphs->launch_graph(plan.graph));
  GK_RETURN_IF_ERROR(kit_.sync());
  GK_RETURN_IF_ERROR(check_flags(plan, plan.graph_flags.ptr()));
  if (info) info->graph_replayed = true;
  return true;
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
  GK_TRY(std::shared_ptr<Plan> plan, plan_for(types, values, &created));
  if (info) info->new_plan = created;

  // Every output whose shape the plan knows gets its buffer now (a captured graph
  // writes into them); the others are allocated by the run.
  std::vector<NamedBuf> outputs(g.outputs.size());
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    outputs[i].name = g.values[g.outputs[i]].name;
    const ValuePlan& vp = plan->values[g.outputs[i]];
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

  if (cuda_graphs_ && kit_.device().graphs()) {
    GK_TRY(bool replayed, run_graph(*plan, ordered, outputs, options, info));
    if (replayed) return outputs;
  } else if (info && kit_.backend() == BackendKind::kCuda) {
    info->graph_fallback = cuda_graphs_ ? "this backend cannot capture graphs" : "disabled by the caller";
  }

  const size_t flag_bytes = std::max<size_t>(plan->steps.size(), 1) * 4;
  GK_TRY(GkBuf arena, kit_.alloc(DType::kU8, static_cast<int64_t>(plan->memory.arena_bytes)));
  GK_TRY(GkBuf flags, kit_.alloc(DType::kU8, static_cast<int64_t>(flag_bytes)));
  GK_RETURN_IF_ERROR(kit_.device().memset(flags.ptr(), 0, flag_bytes));
  std::vector<GkBuf> owned;
  GK_RETURN_IF_ERROR(run_steps(*plan, ordered, outputs, options, arena.ptr(), flags.ptr(), owned));
  // The frame's dynamic and scratch buffers must outlive the launches that use them.
  GK_RETURN_IF_ERROR(kit_.sync());
  GK_RETURN_IF_ERROR(check_flags(*plan, flags.ptr()));
  return outputs;
}

}  // namespace gk

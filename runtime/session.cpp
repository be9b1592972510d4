#include "runtime/session.h"

#include "graph/loader.h"
#include "ops/core/op.h"
#include "runtime/executor.h"
#include "runtime/graph_passes.h"

#include <spdlog/spdlog.h>

namespace gk {

Result<Kit> open_kit(const std::string& backend, int device, int threads, size_t memory_budget) {
  KitOptions options;
  options.device.ordinal = device;
  options.device.threads = threads;
  options.cpu_kernels = cpu_kernel_tables();
  options.pool.idle_budget = memory_budget;
  if (backend == "cuda" || backend == "auto") {
    options.device.kind = BackendKind::kCuda;
    auto kit = Kit::open(options);
    if (kit.ok() || backend == "cuda") return kit;
    spdlog::debug("CUDA unavailable, using the CPU backend: {}", kit.status().message());
  } else if (backend != "cpu") {
    return invalid_argument("unknown backend '{}' (expected auto, cpu or cuda)", backend);
  }
  options.device.kind = BackendKind::kCpu;
  return Kit::open(options);
}

Session::~Session() = default;

Result<std::shared_ptr<Session>> Session::open(const std::string& path, SessionOptions options) {
  GK_TRY(Model model, load_model(path));
  return finish_open(std::move(model), std::move(options));
}

Result<std::shared_ptr<Session>> Session::open_from_memory(const void* data, size_t size, SessionOptions options) {
  GK_TRY(Model model, load_model_from_memory(data, size, ""));
  return finish_open(std::move(model), std::move(options));
}

Result<std::shared_ptr<Session>> Session::finish_open(Model model, SessionOptions options) {
  std::shared_ptr<Session> s(new Session());
  s->model_ = std::move(model);
  for (const std::string& w : s->model_.warnings) spdlog::warn("{}", w);
  if (options.kit.valid()) {
    s->kit_ = options.kit;
  } else {
    GK_TRY(s->kit_, open_kit(options.backend, options.device, options.threads, options.memory_budget));
  }
  if (s->kit_.backend() == BackendKind::kCpu) {
    s->host_kit_ = s->kit_;
  } else {
    GK_TRY(s->host_kit_, open_kit("cpu", -1, options.threads, 0));
  }
  GK_RETURN_IF_ERROR(apply_passes(s->model_, options.disabled_passes, s->host_kit_));
  s->options_ = std::move(options);
  s->options_.kit = Kit();  // the session holds kit_; no second owner
  const Graph& g = s->model_.graph;
  auto describe = [&](ValueId v) {
    const Value& value = g.values[v];
    return IoDesc{value.name, value.dtype, value.dims, value.has_shape, value.kind};
  };
  for (ValueId v : g.inputs) s->inputs_.push_back(describe(v));
  for (ValueId v : g.outputs) s->outputs_.push_back(describe(v));
  s->executor_ = std::make_unique<Executor>(s->model_.graph, s->model_.path, s->kit_, s->host_kit_,
                                            s->options_.cuda_graphs,
                                            s->options_.profile_prefix, s->options_.memory_limit);
  return s;
}

Result<std::vector<NamedBuf>> Session::run_device(const std::vector<NamedBuf>& inputs, const RunOptions& options,
                                                  RunInfo* info) const {
  return executor_->run(inputs, options, info);
}

std::chrono::steady_clock::time_point RunOptions::deadline_in(double seconds) {
  using namespace std::chrono;
  const steady_clock::time_point now = steady_clock::now();
  if (!(seconds > 0)) return now;
  if (seconds > 1e9) return steady_clock::time_point::max();  // 31 years: none (and no overflow)
  return now + duration_cast<steady_clock::duration>(duration<double>(seconds));
}

Result<std::vector<NamedTensor>> Session::run(const std::vector<NamedTensor>& inputs, const RunOptions& options,
                                              RunInfo* info) const {
  std::vector<NamedBuf> bufs;
  bufs.reserve(inputs.size());
  for (const NamedTensor& in : inputs) {
    if (in.none) {
      NamedBuf b{in.name, GkBuf(), {}};
      b.none = true;
      bufs.push_back(std::move(b));
      continue;
    }
    if (in.sequence) {
      auto elements = std::make_shared<std::vector<NamedBuf>>();
      for (const HostTensor& t : *in.sequence) {
        Kit kit = kit_;
        if (t.dtype() == DType::kString) {
          elements->push_back({"", GkBuf(), t.shape(), std::make_shared<HostTensor>(t)});
          continue;
        }
        GK_TRY(GkBuf buf, kit.upload(t));
        elements->push_back({"", std::move(buf), t.shape()});
      }
      NamedBuf b{in.name, GkBuf(), {}};
      b.sequence = std::move(elements);
      bufs.push_back(std::move(b));
      continue;
    }
    if (in.tensor.dtype() == DType::kString) {
      bufs.push_back({in.name, GkBuf(), in.tensor.shape(), std::make_shared<HostTensor>(in.tensor)});
      continue;
    }
    Kit kit = kit_;
    GK_TRY(GkBuf buf, kit.upload(in.tensor));
    bufs.push_back({in.name, std::move(buf), in.tensor.shape()});
  }
  GK_TRY(std::vector<NamedBuf> outs, executor_->run(bufs, options, info));
  std::vector<NamedTensor> result;
  result.reserve(outs.size());
  for (NamedBuf& o : outs) {
    if (o.none) {
      NamedTensor t{o.name, HostTensor()};
      t.none = true;
      result.push_back(std::move(t));
      continue;
    }
    if (o.sequence) {
      auto elements = std::make_shared<std::vector<HostTensor>>();
      for (const NamedBuf& e : *o.sequence) {
        if (e.host) {
          elements->push_back(*e.host);
          continue;
        }
        GK_TRY(HostTensor h, e.buf.download(e.shape));
        elements->push_back(std::move(h));
      }
      result.push_back({o.name, HostTensor(), std::move(elements)});
      continue;
    }
    if (o.host) {
      result.push_back({o.name, *o.host});
      continue;
    }
    GK_TRY(HostTensor h, o.buf.download(o.shape));
    result.push_back({o.name, std::move(h)});
  }
  return result;
}

Result<PlanSummary> Session::plan_summary(const std::vector<std::pair<std::string, Shape>>& input_shapes,
                                          bool per_tensor_table) const {
  const Graph& g = model_.graph;
  std::vector<TensorType> types(g.inputs.size());
  for (size_t i = 0; i < g.inputs.size(); ++i) {
    const Value& v = g.values[g.inputs[i]];
    types[i].dtype = v.dtype;
    auto it = std::find_if(input_shapes.begin(), input_shapes.end(),
                           [&](const auto& p) { return p.first == v.name; });
    if (it == input_shapes.end()) return invalid_argument("no shape given for input '{}'", v.name);
    // The run path checks this in order_inputs; a shape given here reaches the
    // planner directly, whose size arithmetic assumes it fits int64.
    if (auto n = checked_numel(it->second); !n.ok())
      return invalid_argument("input '{}': {}", v.name, n.status().message());
    types[i].shape = it->second;
  }
  for (size_t i = 0; i < g.inputs.size(); ++i)
    if (executor_->value_inputs()[i])
      return unimplemented("input '{}' is read as a value when planning (e.g. a shape or axes input): "
                           "the plan depends on its data, not only its shape",
                           g.values[g.inputs[i]].name);
  GK_TRY(std::shared_ptr<PlanState> state, executor_->plan_for(types, {}, nullptr));
  const std::shared_ptr<const Plan>& plan = state->plan;
  PlanSummary summary = plan->summary;
  if (per_tensor_table) summary.table = format_plan(plan->tensors, plan->memory, true);
  return summary;
}

size_t Session::plans_created() const { return executor_->plans_created(); }

}  // namespace gk

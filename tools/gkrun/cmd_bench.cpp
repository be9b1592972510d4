// gkrun bench MODEL: warm-up, then timed runs; latency percentiles and throughput.
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"
#include "tools/gkrun/json.h"

#include <unistd.h>

#include <algorithm>
#include <numeric>

namespace gk::cli {
namespace {

struct BenchFlags {
  ModelFlags model;
  int iterations = 0;       // 0: run for `duration`
  double duration_s = 5.0;
  int warmup = 3;
  std::string graph = "on";
  bool json = false;
};

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(rank);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

int bench(BenchFlags& f) {
  f.model.graphs = f.graph == "on";
  double session_ms = 0;
  auto session = open_session(f.model, &session_ms);
  if (!session.ok()) return report_error(session.status());
  const Session& s = **session;
  auto inputs = make_inputs(s, f.model);
  if (!inputs.ok()) return report_error(inputs.status());
  // Inputs live on the device for the whole benchmark, as in a serving loop.
  std::vector<NamedBuf> bufs;
  for (const NamedTensor& in : *inputs) {
    Kit kit = s.kit();
    auto buf = kit.upload(in.tensor);
    if (!buf.ok()) return report_error(buf.status());
    bufs.push_back({in.name, *buf, in.tensor.shape()});
  }
  const CompileStats c0 = s.kit().device().compile_stats();
  double t0 = now_ms();
  auto first = s.run_device(bufs);
  const double first_ms = now_ms() - t0;
  if (!first.ok()) return report_error(first.status());
  const CompileStats c1 = s.kit().device().compile_stats();
  for (int i = 0; i < f.warmup; ++i)
    if (auto r = s.run_device(bufs); !r.ok()) return report_error(r.status());

  const bool progress = !f.json && isatty(STDERR_FILENO);
  std::vector<double> ms;
  RunInfo info;
  const double start = now_ms();
  for (int i = 0;; ++i) {
    if (f.iterations > 0 ? i >= f.iterations : (now_ms() - start) >= f.duration_s * 1000.0 && i > 0) break;
    t0 = now_ms();
    auto r = s.run_device(bufs, {}, &info);
    ms.push_back(now_ms() - t0);
    if (!r.ok()) return report_error(r.status());
    if (progress && i % 10 == 0) fmt::print(stderr, "\rbench: {} runs, last {:.2f} ms   ", i + 1, ms.back());
  }
  if (progress) fmt::print(stderr, "\r{:60}\r", "");
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const double mean = std::accumulate(ms.begin(), ms.end(), 0.0) / static_cast<double>(ms.size());
  std::vector<std::pair<std::string, Shape>> shapes;
  for (const NamedTensor& in : *inputs) shapes.emplace_back(in.name, in.tensor.shape());
  auto plan = s.plan_summary(shapes);
  const size_t peak = plan.ok() ? plan->planned_peak_bytes : 0;
  const int64_t compiles = c1.compiles - c0.compiles;
  const int64_t hits = (c1.disk_hits - c0.disk_hits) + (c1.memory_hits - c0.memory_hits);

  if (f.json) {
    JsonWriter w;
    w.begin_object().field("model", f.model.model).field("backend", backend_name(s.backend()));
    w.field("device", s.kit().device().info().name).field("iterations", static_cast<int64_t>(ms.size()));
    if (!s.kit().device().info().isa.empty()) w.field("isa", s.kit().device().info().isa);
    w.field("min_ms", sorted.front()).field("median_ms", percentile(sorted, 50)).field("mean_ms", mean);
    w.field("p90_ms", percentile(sorted, 90)).field("p99_ms", percentile(sorted, 99)).field("max_ms", sorted.back());
    w.field("throughput_per_s", 1000.0 / mean).field("session_ms", session_ms).field("first_run_ms", first_ms);
    w.field("kernel_compiles", compiles).field("kernel_cache_hits", hits).field("peak_bytes", peak);
    w.field("cuda_graph", info.graph_replayed);
    w.end_object();
    fmt::print("{}\n", w.str());
    return kExitOk;
  }
  const DeviceInfo& dev = s.kit().device().info();
  fmt::print("model       {}\nbackend     {} ({}{}{})\n", f.model.model, backend_name(s.backend()), dev.name,
             dev.isa.empty() ? "" : ", ", dev.isa);
  fmt::print("session     {:.1f} ms\nfirst run   {:.1f} ms ({} kernel compiles, {} cache hits)\n", session_ms, first_ms,
             compiles, hits);
  fmt::print("runs        {}\nlatency ms  min {:.3f}  median {:.3f}  mean {:.3f}  p90 {:.3f}  p99 {:.3f}  max {:.3f}\n",
             ms.size(), sorted.front(), percentile(sorted, 50), mean, percentile(sorted, 90), percentile(sorted, 99),
             sorted.back());
  fmt::print("throughput  {:.2f} runs/s\npeak memory {} planned\n", 1000.0 / mean, format_bytes(peak));
  if (!info.graph_fallback.empty()) fmt::print("cuda graph  off: {}\n", info.graph_fallback);
  return kExitOk;
}

}  // namespace

void add_bench(CLI::App& root, int* exit_code) {
  auto* cmd = root.add_subcommand("bench", "benchmark a model: latency percentiles, throughput, memory");
  auto f = std::make_shared<BenchFlags>();
  f->model.add_to(*cmd);
  cmd->add_option("--iterations", f->iterations, "timed runs (default: run for --duration)");
  cmd->add_option("--duration", f->duration_s, "seconds of timed runs when --iterations is not given (default 5)");
  cmd->add_option("--warmup", f->warmup, "untimed runs after the first (default 3)");
  cmd->add_option("--graph", f->graph, "CUDA Graph replay on|off")->check(CLI::IsMember({"on", "off"}));
  cmd->add_flag("--json", f->json, "one JSON object on stdout");
  cmd->callback([f, exit_code] { *exit_code = bench(*f); });
}

}  // namespace gk::cli

// gkrun MODEL: run once on given or random inputs, print every output and the time.
#include "runtime/kit/chrome_trace.h"
#include "runtime/tensor_io.h"
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"
#include "tools/gkrun/output_format.h"

#include <filesystem>
#include <fstream>

namespace gk::cli {
namespace {

struct RunFlags {
  ModelFlags model;
  std::string output_dir;
  std::string save_inputs;
  bool profile = false;
  std::string trace;
  bool json = false;
  double timeout_s = 0;  // 0: none
};

// Each run gets its own deadline, timeout_s from its start.
RunOptions limits_of(const RunFlags& f) {
  RunOptions o;
  if (f.timeout_s > 0) o.deadline = RunOptions::deadline_in(f.timeout_s);
  return o;
}

int run_model(const RunFlags& f) {
  double open_ms = 0;
  auto session = open_session(f.model, &open_ms);
  if (!session.ok()) return report_error(session.status());
  const Session& s = **session;
  auto inputs = make_inputs(s, f.model);
  if (!inputs.ok()) return report_error(inputs.status());

  const CompileStats before = s.kit().device().compile_stats();
  double t0 = now_ms();
  auto first = s.run(*inputs, limits_of(f));
  const double first_ms = now_ms() - t0;
  if (!first.ok()) return report_error(first.status());
  const CompileStats after = s.kit().device().compile_stats();

  Profiler profiler(s.kit().device());
  RunOptions options = limits_of(f);
  if (f.profile || !f.trace.empty()) options.profiler = &profiler;
  t0 = now_ms();
  auto outputs = s.run(*inputs, options);
  const double run_ms = now_ms() - t0;
  if (!outputs.ok()) return report_error(outputs.status());
  if (options.profiler) {
    Status st = profiler.resolve();
    if (!st.ok()) return report_error(st);
  }

  if (!f.save_inputs.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(f.save_inputs, ec);
    for (const NamedTensor& in : *inputs) {
      Status st = write_npy((std::filesystem::path(f.save_inputs) / (in.name + ".npy")).string(), in.tensor);
      if (!st.ok()) return report_error(st);
    }
  }
  if (!f.output_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(f.output_dir, ec);
    for (const NamedTensor& o : *outputs) {
      std::string safe = o.name;
      for (char& c : safe)
        if (c == '/' || c == '\\' || c == ':') c = '_';
      Status st = write_npy((std::filesystem::path(f.output_dir) / (safe + ".npy")).string(), o.tensor);
      if (!st.ok()) return report_error(st);
    }
  }
  PlanSummary plan;
  if (!f.trace.empty()) {
    std::vector<std::pair<std::string, Shape>> shapes;
    for (const NamedTensor& in : *inputs) shapes.emplace_back(in.name, in.tensor.shape());
    auto summary = s.plan_summary(shapes);
    if (summary.ok()) plan = *summary;
    std::ofstream(f.trace) << chrome_trace(profiler, plan.live_bytes_by_nodes);
  }

  const int64_t compiles = after.compiles - before.compiles;
  const int64_t cache_hits = (after.disk_hits - before.disk_hits) + (after.memory_hits - before.memory_hits);
  if (f.json) {
    JsonWriter w;
    w.begin_object().field("model", f.model.model).field("backend", backend_name(s.backend()));
    w.begin_array("outputs");
    for (const NamedTensor& o : *outputs) output_json(w, o);
    w.end_array();
    w.field("session_ms", open_ms).field("first_run_ms", first_ms).field("run_ms", run_ms);
    w.field("kernel_compiles", compiles).field("kernel_cache_hits", cache_hits);
    if (options.profiler) w.raw("profile", profiler.json());
    w.end_object();
    fmt::print("{}\n", w.str());
    return kExitOk;
  }
  fmt::print("model {}  backend {} ({})\n", f.model.model, backend_name(s.backend()), s.kit().device().info().name);
  for (const NamedTensor& in : *inputs)
    fmt::print("input  {}  {}  {}\n", in.name, dtype_name(in.tensor.dtype()), shape_str(in.tensor.shape()));
  for (const NamedTensor& o : *outputs) fmt::print("output {}\n", describe_output(o));
  fmt::print("time   session {:.1f} ms, first run {:.1f} ms ({} kernel compiles, {} cache hits), run {:.2f} ms\n",
             open_ms, first_ms, compiles, cache_hits, run_ms);
  if (f.profile) fmt::print("\n{}", profiler.table(15));
  return kExitOk;
}

}  // namespace

void add_run(CLI::App& root, int* exit_code) {
  auto flags = std::make_shared<RunFlags>();
  root.add_option("model", flags->model.model, "ONNX model file (runs it once)");
  root.add_option("--backend", flags->model.backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  root.add_option("--device", flags->model.device, "CUDA device ordinal");
  root.add_option("--threads", flags->model.threads, "CPU worker threads");
  root.add_option("--input", flags->model.inputs, "NAME=FILE (.npy or TensorProto .pb)");
  root.add_option("--shape", flags->model.shapes, "NAME=1x3x224x224");
  root.add_option("--seed", flags->model.seed, "seed for random inputs");
  root.add_option("--disable-pass", flags->model.disable_passes, "turn a graph pass off by name");
  root.add_option("--memory-limit", flags->model.memory_limit,
                  "refuse a plan that needs more device memory than this (bytes, or 512K, 64M, 2G)");
  root.add_option("--timeout", flags->timeout_s, "stop a run that takes longer than this many seconds (DeadlineExceeded)")
      ->check(CLI::PositiveNumber);
  root.add_option("--output-dir", flags->output_dir, "save outputs as .npy");
  root.add_option("--save-inputs", flags->save_inputs, "save the inputs used as .npy (to replay them elsewhere)");
  root.add_flag("--profile", flags->profile, "print the hot-kernel table");
  root.add_option("--trace", flags->trace, "write a Chrome trace (Perfetto) of the run");
  root.add_flag("--json", flags->json, "one JSON object on stdout");
  root.callback([&root, flags, exit_code] {
    if (!root.get_subcommands().empty()) return;
    if (flags->model.model.empty()) {
      fmt::print(stderr, "gkrun: no model given (see gkrun --help)\n");
      *exit_code = kExitInvalid;
      return;
    }
    *exit_code = run_model(*flags);
  });
}

}  // namespace gk::cli

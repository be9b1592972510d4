// gkrun profile MODEL: where the time goes, per kernel and per op type.
#include "runtime/kit/chrome_trace.h"
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"
#include "tools/gkrun/output_format.h"

#include <fstream>

namespace gk::cli {

void add_profile(CLI::App& root, int* exit_code) {
  auto* cmd = root.add_subcommand("profile", "hot-kernel report: time per kernel, node and op type");
  struct Flags {
    ModelFlags model;
    int iterations = 10;
    size_t top = 20;
    std::string trace;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  f->model.add_to(*cmd);
  cmd->add_option("--iterations", f->iterations, "profiled runs after one warm-up (default 10)");
  cmd->add_option("--top", f->top, "rows of the kernel table (default 20, 0 = all)");
  cmd->add_option("--trace", f->trace, "write a Chrome trace (Perfetto) of the profiled runs");
  cmd->add_flag("--json", f->json, "one JSON object on stdout");
  cmd->callback([f, exit_code] {
    auto session = open_session(f->model);
    if (!session.ok()) return void(*exit_code = report_error(session.status()));
    const Session& s = **session;
    auto inputs = make_inputs(s, f->model);
    if (!inputs.ok()) return void(*exit_code = report_error(inputs.status()));
    if (auto warm = s.run(*inputs); !warm.ok()) return void(*exit_code = report_error(warm.status()));
    Profiler profiler(s.kit().device());
    RunOptions options{&profiler};
    RunInfo info;
    for (int i = 0; i < std::max(f->iterations, 1); ++i) {
      auto r = s.run(*inputs, options, &info);
      if (!r.ok()) return void(*exit_code = report_error(r.status()));
      if (Status st = profiler.resolve(); !st.ok()) return void(*exit_code = report_error(st));
    }
    if (!f->trace.empty()) {
      std::vector<std::pair<std::string, Shape>> shapes;
      for (const NamedTensor& in : *inputs) shapes.emplace_back(in.name, in.tensor.shape());
      auto plan = s.plan_summary(shapes);
      std::ofstream out(f->trace);
      out << chrome_trace(profiler, plan.ok() ? plan->live_bytes_by_nodes : std::map<std::string, size_t>{});
      if (!out) return void(*exit_code = report_error(invalid_argument("--trace {}: cannot write", f->trace)));
    }
    if (f->json) {
      std::string json = profiler.json(f->top);
      if (!json.empty() && json.back() == '}')
        json.insert(json.size() - 1, fmt::format("{}\"runtime_shape_steps\":{},\"host_reads_per_run\":{}",
                                                 json.size() > 2 ? "," : "", info.runtime_steps, info.host_reads));
      fmt::print("{}\n", json);
    } else {
      fmt::print("model {}  backend {}  {} runs\n", f->model.model, backend_name(s.backend()),
                 std::max(f->iterations, 1));
      // Every host read is a sync between launches and keeps the run from being captured.
      if (info.runtime_steps > 0)
        fmt::print("run-time shapes: {} steps planned during each run, {} host reads (syncs) per run\n",
                   info.runtime_steps, info.host_reads);
      fmt::print("\n{}", profiler.table(f->top));
    }
    *exit_code = kExitOk;
  });
}

}  // namespace gk::cli

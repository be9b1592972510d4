// gkrun check DIR: run an ONNX test folder and compare with its expected outputs.
#include "runtime/conformance.h"
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"

namespace gk::cli {

void add_check(CLI::App& root, int* exit_code) {
  auto* cmd = root.add_subcommand("check", "run an ONNX test folder (model.onnx + test_data_set_*) and compare");
  struct Flags {
    std::string dir;
    CheckOptions options;
    std::string backend = "auto";
    int threads = 0;
  };
  auto f = std::make_shared<Flags>();
  cmd->add_option("dir", f->dir, "test folder, or a light model's .onnx")->required();
  cmd->add_option("--rtol", f->options.rtol, "relative tolerance (default 1e-3)");
  cmd->add_option("--atol", f->options.atol, "absolute tolerance (default 1e-7)");
  cmd->add_option("--backend", f->backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--threads", f->threads, "CPU worker threads");
  cmd->callback([f, exit_code] {
    f->options.session.backend = f->backend;
    f->options.session.threads = f->threads;
    CheckReport r = check_test_case(f->dir, f->options);
    for (const OutputCheck& o : r.outputs)
      fmt::print("{}  {}  {}  max abs {:.3g}  max rel {:.3g}{}\n", o.data_set, o.name, o.pass ? "ok" : "MISMATCH",
                 o.max_abs, o.max_rel, o.problem.empty() ? "" : "  (" + o.problem + ")");
    // A folder that could not be checked (missing, no model, a model we cannot open)
    // is an error like any other: one line on stderr. A verdict on outputs is stdout.
    if (r.outputs.empty() && r.outcome != CheckOutcome::kPass)
      fmt::print(stderr, "gkrun: check: {}\n", r.message);
    else
      fmt::print("check: {}\n", r.message);
    *exit_code = r.exit_code();
  });
}

}  // namespace gk::cli

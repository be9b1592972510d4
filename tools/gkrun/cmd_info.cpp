// gkrun info MODEL: what the model is, what we cannot run, and its memory plan.
#include "runtime/model_info.h"
#include "tools/gkrun/commands.h"
#include "tools/gkrun/common.h"
#include "tools/gkrun/json.h"

#include <map>

namespace gk::cli {
namespace {

std::string dims_text(const IoDesc& d) {
  if (!d.has_shape) return "?";
  std::string s;
  for (const Dim& dim : d.dims) {
    if (!s.empty()) s += "x";
    s += dim.known() ? std::to_string(dim.value) : (dim.symbol.empty() ? "?" : dim.symbol);
  }
  return s.empty() ? "scalar" : s;
}

}  // namespace

void add_info(CLI::App& root, int* exit_code) {
  auto* cmd = root.add_subcommand("info", "model summary: versions, inputs/outputs, ops, parameters, memory plan");
  struct Flags {
    ModelFlags model;
    bool json = false;
  };
  auto f = std::make_shared<Flags>();
  f->model.add_to(*cmd);
  cmd->add_flag("--json", f->json, "one JSON object on stdout");
  cmd->callback([f, exit_code, &root] {
    const bool verbose = root.get_option("--verbose")->as<bool>();
    auto loaded = inspect_model(f->model.model);
    if (!loaded.ok()) return void(*exit_code = report_error(loaded.status()));
    const ModelInfo& m = *loaded;
    const std::map<std::string, int>& ops = m.ops;
    const int64_t params = m.parameters;
    const size_t param_bytes = m.parameter_bytes;
    const std::vector<UnsupportedOp>& unsupported = m.unsupported;

    // The memory plan needs every input's shape: declared, or bound with --shape.
    std::optional<PlanSummary> plan;
    std::string plan_note;
    // A model every op of which we know may still be one we cannot run (a future IR
    // version or opset): info then exits as `gkrun MODEL` would.
    Status cannot_run = ok_status();
    if (unsupported.empty()) {
      auto session = open_session(f->model);
      if (!session.ok()) cannot_run = session.status();
      if (session.ok()) {
        auto inputs = make_inputs(**session, f->model);
        if (inputs.ok()) {
          std::vector<std::pair<std::string, Shape>> shapes;
          for (const NamedTensor& in : *inputs) shapes.emplace_back(in.name, in.tensor.shape());
          auto summary = (*session)->plan_summary(shapes, verbose);
          if (summary.ok()) plan = *summary;
          else plan_note = summary.status().to_string();
        } else {
          plan_note = inputs.status().message();
        }
      } else {
        plan_note = session.status().to_string();
      }
    } else {
      plan_note = "model has unsupported ops";
    }

    if (f->json) {
      JsonWriter w;
      w.begin_object().field("model", f->model.model).field("ir_version", m.ir_version);
      w.begin_object("opsets");
      for (const OpsetImport& o : m.opsets) w.field(o.domain.empty() ? "ai.onnx" : o.domain, o.version);
      w.end_object();
      for (const char* key : {"inputs", "outputs"}) {
        w.begin_array(key);
        for (const IoDesc& d : key[0] == 'i' ? m.inputs : m.outputs) {
          w.begin_object().field("name", d.name).field("dtype", dtype_name(d.dtype)).field("shape", dims_text(d));
          w.end_object();
        }
        w.end_array();
      }
      w.begin_object("ops");
      for (const auto& [op, count] : ops) w.field(op, count);
      w.end_object();
      w.field("nodes", m.nodes).field("parameters", params);
      w.field("parameter_bytes", param_bytes);
      w.begin_array("unsupported");
      for (const UnsupportedOp& u : unsupported) {
        w.begin_object().field("op_type", u.op_type).field("domain", u.domain).field("opset", u.opset);
        w.begin_array("nodes");
        for (const std::string& n : u.nodes) w.raw({}, "\"" + json_escape(n) + "\"");
        w.end_array().end_object();
      }
      w.end_array();
      if (plan) {
        w.field("planned_peak_bytes", plan->planned_peak_bytes).field("naive_bytes", plan->naive_bytes);
        w.field("lower_bound_bytes", plan->lower_bound_bytes).field("constant_bytes", plan->constant_bytes);
        w.field("device_nodes", plan->device_nodes).field("host_nodes", plan->host_nodes);
        w.field("runtime_shape_nodes", plan->dynamic_nodes);
        w.begin_array("runtime_shape_steps");
        for (const std::string& n : plan->runtime_steps) w.raw({}, "\"" + json_escape(n) + "\"");
        w.end_array();
      } else {
        w.raw("planned_peak_bytes", "null").raw("naive_bytes", "null").raw("lower_bound_bytes", "null");
        w.field("plan_note", plan_note);
      }
      w.end_object();
      fmt::print("{}\n", w.str());
      *exit_code = !unsupported.empty() ? kExitInvalid : cannot_run.ok() ? kExitOk : report_error(cannot_run);
      return;
    }
    fmt::print("model       {}\nir version  {}\nopsets     ", f->model.model, m.ir_version);
    for (const OpsetImport& o : m.opsets) fmt::print(" {}:{}", o.domain.empty() ? "ai.onnx" : o.domain, o.version);
    fmt::print("\nproducer    {} {}\n", m.producer_name, m.producer_version);
    for (const IoDesc& d : m.inputs) {
      fmt::print("input       {}  {}  {}\n", d.name, dtype_name(d.dtype), dims_text(d));
    }
    for (const IoDesc& d : m.outputs) {
      fmt::print("output      {}  {}  {}\n", d.name, dtype_name(d.dtype), dims_text(d));
    }
    fmt::print("nodes       {}\nparameters  {} ({})\nops        ", m.nodes, params, format_bytes(param_bytes));
    for (const auto& [op, count] : ops) fmt::print(" {}x{}", op, count);
    fmt::print("\n");
    if (unsupported.empty()) fmt::print("unsupported none\n");
    for (const UnsupportedOp& u : unsupported)
      fmt::print("unsupported {} ({}, opset {}) at {} node(s): {}\n", u.op_type, u.domain.empty() ? "ai.onnx" : u.domain,
                 u.opset, u.nodes.size(), fmt::join(u.nodes, ", "));
    if (plan) {
      fmt::print("memory plan planned peak {} | naive sum {} | lower bound {} | constants {}\n",
                 format_bytes(plan->planned_peak_bytes), format_bytes(plan->naive_bytes),
                 format_bytes(plan->lower_bound_bytes), format_bytes(plan->constant_bytes));
      fmt::print("steps       {} launched, {} evaluated at plan time, {} with run-time shapes\n", plan->device_nodes,
                 plan->host_nodes, plan->dynamic_nodes);
      // The steps planned during the run: where a detection graph's data decides a
      // shape (a TopK's K, a NonZero count) and the run reads a value back.
      constexpr size_t kListed = 8;
      if (!plan->runtime_steps.empty()) {
        const size_t shown = verbose ? plan->runtime_steps.size() : std::min(kListed, plan->runtime_steps.size());
        fmt::print("run-time    {}{}\n",
                   fmt::join(plan->runtime_steps.begin(), plan->runtime_steps.begin() + static_cast<long>(shown), ", "),
                   shown < plan->runtime_steps.size()
                       ? fmt::format(" and {} more (--verbose lists all)", plan->runtime_steps.size() - shown)
                       : std::string());
      }
      if (verbose) fmt::print("{}\n", plan->table);
    } else {
      fmt::print("memory plan unavailable: {}\n", plan_note);
    }
    *exit_code = !unsupported.empty() ? kExitInvalid : cannot_run.ok() ? kExitOk : report_error(cannot_run);
  });
}

}  // namespace gk::cli

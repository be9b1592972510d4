// The C API's options and sessions: open, describe inputs and outputs, end
// profiling. Runs and their outputs are in c_run.cpp.
#include "runtime/api/c_handles.h"

#include "runtime/kit/chrome_trace.h"

#include <fstream>

namespace {

using gk::capi::guard;
using gk::capi::to_c;

gkrun_io_slot make_slot(const gk::IoDesc& d) {
  gkrun_io_slot slot;
  slot.name = d.name;
  slot.dtype = d.dtype;
  slot.kind = d.kind == gk::ValueKind::kTensor ? 0 : d.kind == gk::ValueKind::kSequence ? 1 : 2;
  if (d.has_shape) {
    slot.rank = static_cast<int64_t>(d.dims.size());
    for (const gk::Dim& dim : d.dims) {
      slot.dims.push_back(dim.known() ? dim.value : -1);
      slot.symbols.push_back(dim.known() ? "" : dim.symbol);
    }
  }
  for (const std::string& s : slot.symbols) slot.symbol_ptrs.push_back(s.c_str());
  return slot;
}

gk::Status wrap_session(gk::Result<std::shared_ptr<gk::Session>> opened, const gkrun_options* options,
                        gkrun_session** out) {
  const bool profiling = options && options->profiling;
  if (!opened.ok()) return opened.status();
  auto s = std::make_unique<gkrun_session>();
  s->session = std::move(opened).value();
  for (const gk::IoDesc& d : s->session->inputs()) s->inputs.push_back(make_slot(d));
  for (const gk::IoDesc& d : s->session->outputs()) s->outputs.push_back(make_slot(d));
  if (profiling) s->profiler = std::make_unique<gk::Profiler>(s->session->kit().device());
  if (options) s->run_timeout_s = options->run_timeout_s;
  *out = s.release();
  return gk::ok_status();
}

gk::Status io_info(const std::vector<gkrun_io_slot>& slots, const char* what, size_t index, gkrun_io_info* out) {
  if (!out) return gk::invalid_argument("gkrun_session_{}_info: out is NULL", what);
  if (index >= slots.size())
    return gk::out_of_range("gkrun_session_{}_info: index {} is out of range, the model has {} {}s", what, index,
                            slots.size(), what);
  const gkrun_io_slot& s = slots[index];
  out->name = s.name.c_str();
  out->dtype = static_cast<gkrun_dtype>(s.dtype);
  out->rank = s.rank;
  out->dims = s.dims.empty() ? nullptr : s.dims.data();
  out->dim_symbols = s.symbol_ptrs.empty() ? nullptr : s.symbol_ptrs.data();
  out->kind = s.kind;
  return gk::ok_status();
}

}  // namespace

extern "C" {

gkrun_status* gkrun_options_create(gkrun_options** out) {
  return guard("gkrun_options_create", [&] {
    if (!out) return gk::invalid_argument("gkrun_options_create: out is NULL");
    *out = new gkrun_options();
    return gk::ok_status();
  });
}

void gkrun_options_free(gkrun_options* options) { delete options; }

gkrun_status* gkrun_options_set_backend(gkrun_options* options, const char* backend) {
  return guard("gkrun_options_set_backend", [&] {
    if (!options || !backend) return gk::invalid_argument("gkrun_options_set_backend: options or backend is NULL");
    const std::string b = backend;
    if (b != "auto" && b != "cpu" && b != "cuda")
      return gk::invalid_argument("gkrun_options_set_backend: unknown backend '{}'; backends are auto, cpu, cuda", b);
    options->session.backend = b;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_set_device(gkrun_options* options, int device) {
  return guard("gkrun_options_set_device", [&] {
    if (!options) return gk::invalid_argument("gkrun_options_set_device: options is NULL");
    if (device < -1) return gk::invalid_argument("gkrun_options_set_device: device {} must be >= -1", device);
    options->session.device = device;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_set_threads(gkrun_options* options, int threads) {
  return guard("gkrun_options_set_threads", [&] {
    if (!options) return gk::invalid_argument("gkrun_options_set_threads: options is NULL");
    if (threads < 0) return gk::invalid_argument("gkrun_options_set_threads: threads {} must be >= 0", threads);
    options->session.threads = threads;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_disable_pass(gkrun_options* options, const char* pass) {
  return guard("gkrun_options_disable_pass", [&] {
    if (!options || !pass) return gk::invalid_argument("gkrun_options_disable_pass: options or pass is NULL");
    options->session.disabled_passes.insert(pass);
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_set_cuda_graphs(gkrun_options* options, int enable) {
  return guard("gkrun_options_set_cuda_graphs", [&] {
    if (!options) return gk::invalid_argument("gkrun_options_set_cuda_graphs: options is NULL");
    options->session.cuda_graphs = enable != 0;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_set_profiling(gkrun_options* options, int enable) {
  return guard("gkrun_options_set_profiling", [&] {
    if (!options) return gk::invalid_argument("gkrun_options_set_profiling: options is NULL");
    options->profiling = enable != 0;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_options_set_run_timeout(gkrun_options* options, double seconds) {
  return guard("gkrun_options_set_run_timeout", [&] {
    if (!options) return gk::invalid_argument("gkrun_options_set_run_timeout: options is NULL");
    if (!(seconds >= 0))
      return gk::invalid_argument("gkrun_options_set_run_timeout: seconds is {}; must be >= 0 (0: no limit)", seconds);
    options->run_timeout_s = seconds;
    return gk::ok_status();
  });
}

gkrun_status* gkrun_session_open(const char* path, const gkrun_options* options, gkrun_session** out) {
  return guard("gkrun_session_open", [&] {
    if (!path || !out) return gk::invalid_argument("gkrun_session_open: path or out is NULL");
    *out = nullptr;
    gk::SessionOptions o = options ? options->session : gk::SessionOptions{};
    return wrap_session(gk::Session::open(path, std::move(o)), options, out);
  });
}

gkrun_status* gkrun_session_open_from_memory(const void* data, size_t size, const gkrun_options* options,
                                             gkrun_session** out) {
  return guard("gkrun_session_open_from_memory", [&] {
    if (!out) return gk::invalid_argument("gkrun_session_open_from_memory: out is NULL");
    *out = nullptr;
    if (!data && size) return gk::invalid_argument("gkrun_session_open_from_memory: data is NULL for {} bytes", size);
    gk::SessionOptions o = options ? options->session : gk::SessionOptions{};
    return wrap_session(gk::Session::open_from_memory(data, size, std::move(o)), options, out);
  });
}

void gkrun_session_close(gkrun_session* session) { delete session; }

const char* gkrun_session_backend(const gkrun_session* session) {
  return session ? gk::backend_name(session->session->backend()) : "";
}

size_t gkrun_session_input_count(const gkrun_session* session) { return session ? session->inputs.size() : 0; }
size_t gkrun_session_output_count(const gkrun_session* session) { return session ? session->outputs.size() : 0; }

gkrun_status* gkrun_session_input_info(const gkrun_session* session, size_t index, gkrun_io_info* out) {
  return guard("gkrun_session_input_info", [&] {
    if (!session) return gk::invalid_argument("gkrun_session_input_info: session is NULL");
    return io_info(session->inputs, "input", index, out);
  });
}

gkrun_status* gkrun_session_output_info(const gkrun_session* session, size_t index, gkrun_io_info* out) {
  return guard("gkrun_session_output_info", [&] {
    if (!session) return gk::invalid_argument("gkrun_session_output_info: session is NULL");
    return io_info(session->outputs, "output", index, out);
  });
}

gkrun_status* gkrun_session_end_profiling(gkrun_session* session, const char* path) {
  return guard("gkrun_session_end_profiling", [&] {
    if (!session || !path) return gk::invalid_argument("gkrun_session_end_profiling: session or path is NULL");
    if (!session->profiler)
      return gk::invalid_argument("gkrun_session_end_profiling: profiling is off (gkrun_options_set_profiling)");
    std::lock_guard<std::mutex> lock(session->profile_mutex);
    std::map<std::string, size_t> live;
    if (!session->last_shapes.empty()) {
      auto plan = session->session->plan_summary(session->last_shapes);
      if (plan.ok()) live = plan->live_bytes_by_nodes;
    }
    {
      std::ofstream out(path);
      out << gk::chrome_trace(*session->profiler, live);
      if (!out) return gk::invalid_argument("gkrun_session_end_profiling: cannot write '{}'", path);
    }
    session->profiler->clear();
    return gk::ok_status();
  });
}

}  // extern "C"

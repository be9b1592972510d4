// The C API's runs: gkrun_tensor inputs become the session's host or device
// tensors (borrowed, not copied: the session uploads or binds them during the
// call), gkrun_value inputs share their storage, and the outputs (tensors,
// sequences, empty optionals) are kept as values in a gkrun_values until it is
// freed.
#include "runtime/api/c_handles.h"

#include "runtime/kit/shape.h"

namespace {

using gk::capi::guard;

std::string input_label(const char* name, size_t index) {
  return name ? fmt::format("input '{}'", name) : fmt::format("input {}", index);
}

gk::Result<std::vector<gk::NamedTensor>> host_inputs(const gkrun_tensor* inputs, size_t count) {
  std::vector<gk::NamedTensor> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const gkrun_tensor& t = inputs[i];
    const std::string what = input_label(t.name, i);
    if (!t.name) return gk::invalid_argument("{}: name is NULL", what);
    GK_TRY(gk::capi::CheckedTensor c, gk::capi::check_tensor(t, what));
    GK_TRY(gk::HostTensor h, gk::capi::host_tensor(t, c, /*copy=*/false, what));
    out.push_back({t.name, std::move(h)});
  }
  return out;
}

// Values as the session's inputs; their tensors' storage is shared, not copied.
gk::Result<std::vector<gk::NamedTensor>> value_inputs(const gkrun_session& session, const char* const* names,
                                                      const gkrun_value* const* values, size_t count) {
  std::vector<gk::NamedTensor> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const std::string what = input_label(names[i], i);
    if (!names[i]) return gk::invalid_argument("{}: name is NULL", what);
    if (!values[i]) return gk::invalid_argument("{}: value is NULL", what);
    const gkrun_value& v = *values[i];
    if (v.on_device || !v.unsupported.empty())
      return gk::invalid_argument("{}: the value holds device pointers (from gkrun_session_run_device); "
                                  "gkrun_session_run_values takes host values", what);
    // The executor checks kinds and tensor dtypes; a sequence's element type is
    // checked here, where the value carries it even when the sequence is empty.
    for (const gkrun_io_slot& decl : session.inputs)
      if (decl.name == names[i] && decl.kind == GKRUN_VALUE_SEQUENCE && v.kind == GKRUN_VALUE_SEQUENCE &&
          decl.dtype != gk::DType::kUndefined && v.dtype != decl.dtype)
        return gk::invalid_argument("{} is a sequence of {}, the model declares a sequence of {}", what,
                                    gk::dtype_name(v.dtype), gk::dtype_name(decl.dtype));
    gk::NamedTensor t{names[i], gk::HostTensor()};
    if (v.kind == GKRUN_VALUE_NONE) {
      t.none = true;
    } else if (v.kind == GKRUN_VALUE_SEQUENCE) {
      auto elements = std::make_shared<std::vector<gk::HostTensor>>();
      for (const gkrun_tensor_slot& e : v.elements) elements->push_back(e.host);
      t.sequence = std::move(elements);
    } else {
      t.tensor = v.tensor.host;
    }
    out.push_back(std::move(t));
  }
  return out;
}

gk::Result<std::vector<gk::NamedBuf>> device_inputs(const gkrun_tensor* inputs, size_t count) {
  std::vector<gk::NamedBuf> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const gkrun_tensor& t = inputs[i];
    const std::string what = input_label(t.name, i);
    if (!t.name) return gk::invalid_argument("{}: name is NULL", what);
    GK_TRY(gk::capi::CheckedTensor c, gk::capi::check_tensor(t, what));
    if (c.dtype == gk::DType::kString)
      return gk::invalid_argument("input '{}': string tensors live on the host; use gkrun_session_run", t.name);
    const gk::DevPtr ptr = reinterpret_cast<gk::DevPtr>(t.data);
    out.push_back({t.name, gk::GkBuf::wrap(c.dtype, c.count, ptr), c.shape});
  }
  return out;
}

// Runs under the profile lock when profiling (see gkrun_session), else unlocked.
template <typename F>
gk::Status with_profiler(const gkrun_session& s, const std::vector<std::pair<std::string, gk::Shape>>& shapes, F&& run) {
  gk::RunOptions options;
  if (s.run_timeout_s > 0) options.deadline = gk::RunOptions::deadline_in(s.run_timeout_s);
  if (!s.profiler) return run(options);
  auto& session = const_cast<gkrun_session&>(s);
  std::lock_guard<std::mutex> lock(session.profile_mutex);
  options.profiler = session.profiler.get();
  GK_RETURN_IF_ERROR(run(options));
  GK_RETURN_IF_ERROR(session.profiler->resolve());
  session.last_shapes = shapes;
  return gk::ok_status();
}

gk::Status check_run_args(const gkrun_session* session, const gkrun_tensor* inputs, size_t count,
                          gkrun_values** outputs, const char* fn) {
  if (!session || !outputs) return gk::invalid_argument("{}: session or outputs is NULL", fn);
  *outputs = nullptr;
  if (count && !inputs) return gk::invalid_argument("{}: inputs is NULL for {} inputs", fn, count);
  return gk::ok_status();
}

std::vector<std::pair<std::string, gk::Shape>> shapes_of(const gkrun_tensor* inputs, size_t count) {
  std::vector<std::pair<std::string, gk::Shape>> shapes;
  for (size_t i = 0; i < count; ++i) shapes.emplace_back(inputs[i].name, gk::Shape(inputs[i].shape, inputs[i].shape + inputs[i].rank));
  return shapes;
}

const gkrun_value* find_value(const gkrun_values* values, const char* name) {
  for (const gkrun_value& v : values->slots)
    if (v.name == name) return &v;
  return nullptr;
}

gk::Status no_output(const gkrun_values& values, const char* name, const char* fn) {
  std::string names;
  for (const gkrun_value& v : values.slots) names += (names.empty() ? "'" : ", '") + v.name + "'";
  return gk::invalid_argument("{}: no output '{}'; outputs are {}", fn, name, names);
}

gk::Status tensor_of(const gkrun_value& v, const char* fn, gkrun_tensor* out) {
  if (!v.unsupported.empty()) return gk::unimplemented("{}: output '{}' is {}", fn, v.name, v.unsupported);
  if (v.kind != GKRUN_VALUE_TENSOR)
    return gk::invalid_argument("{}: output '{}' is {}; read it with gkrun_values_value", fn, v.name,
                                v.kind == GKRUN_VALUE_SEQUENCE ? "a sequence" : "an empty optional");
  gk::capi::fill_tensor(v.tensor, v.name, v.on_device, out);
  return gk::ok_status();
}

// The declared element type of output `name` (an empty sequence's dtype).
gk::DType declared_dtype(const gkrun_session& s, const std::string& name) {
  for (const gkrun_io_slot& o : s.outputs)
    if (o.name == name) return o.dtype;
  return gk::DType::kUndefined;
}

// One device tensor as a slot; a string tensor (host only) has no device form.
bool device_slot(const gk::NamedBuf& b, gkrun_tensor_slot* slot) {
  if (b.host) return false;
  slot->dtype = b.buf.dtype();
  slot->shape = b.shape;
  slot->device = b.buf;
  return true;
}

gkrun_value device_value(gk::NamedBuf b, gk::DType declared) {
  constexpr const char* kStrings = "a string tensor or a sequence of them (host only; use gkrun_session_run)";
  gkrun_value v;
  v.name = b.name;
  v.on_device = true;
  if (b.none) {
    v.kind = GKRUN_VALUE_NONE;
  } else if (b.sequence) {
    v.kind = GKRUN_VALUE_SEQUENCE;
    v.dtype = declared;
    for (const gk::NamedBuf& e : *b.sequence) {
      v.elements.emplace_back();
      if (!device_slot(e, &v.elements.back())) v.unsupported = kStrings;
    }
    if (!v.elements.empty()) v.dtype = v.elements.front().dtype;
  } else {
    if (!device_slot(b, &v.tensor)) v.unsupported = kStrings;
    v.dtype = b.dtype();
  }
  return v;
}

// The host run both entry points share: inputs as the session's, outputs as values.
gk::Status run_host(const gkrun_session& session, const std::vector<gk::NamedTensor>& in,
                    std::vector<std::pair<std::string, gk::Shape>> shapes, gkrun_values** outputs) {
  std::vector<gk::NamedTensor> result;
  GK_RETURN_IF_ERROR(with_profiler(session, shapes, [&](const gk::RunOptions& o) {
    auto r = session.session->run(in, o);
    if (!r.ok()) return r.status();
    result = std::move(r).value();
    return gk::ok_status();
  }));
  auto values = std::make_unique<gkrun_values>();
  for (gk::NamedTensor& t : result) {
    const gk::DType declared = declared_dtype(session, t.name);
    values->slots.push_back(gk::capi::host_value(std::move(t), declared));
  }
  *outputs = values.release();
  return gk::ok_status();
}

}  // namespace

extern "C" {

gkrun_status* gkrun_session_run(const gkrun_session* session, const gkrun_tensor* inputs, size_t input_count,
                                gkrun_values** outputs) {
  return guard("gkrun_session_run", [&]() -> gk::Status {
    GK_RETURN_IF_ERROR(check_run_args(session, inputs, input_count, outputs, "gkrun_session_run"));
    GK_TRY(std::vector<gk::NamedTensor> in, host_inputs(inputs, input_count));
    return run_host(*session, in, shapes_of(inputs, input_count), outputs);
  });
}

gkrun_status* gkrun_session_run_values(const gkrun_session* session, const char* const* names,
                                       const gkrun_value* const* inputs, size_t input_count, gkrun_values** outputs) {
  return guard("gkrun_session_run_values", [&]() -> gk::Status {
    if (!session || !outputs) return gk::invalid_argument("gkrun_session_run_values: session or outputs is NULL");
    *outputs = nullptr;
    if (input_count && (!names || !inputs))
      return gk::invalid_argument("gkrun_session_run_values: names or inputs is NULL for {} inputs", input_count);
    GK_TRY(std::vector<gk::NamedTensor> in, value_inputs(*session, names, inputs, input_count));
    std::vector<std::pair<std::string, gk::Shape>> shapes;
    for (const gk::NamedTensor& t : in)
      if (!t.sequence && !t.none) shapes.emplace_back(t.name, t.tensor.shape());
    return run_host(*session, in, std::move(shapes), outputs);
  });
}

gkrun_status* gkrun_session_run_device(const gkrun_session* session, const gkrun_tensor* inputs, size_t input_count,
                                       gkrun_values** outputs) {
  return guard("gkrun_session_run_device", [&]() -> gk::Status {
    GK_RETURN_IF_ERROR(check_run_args(session, inputs, input_count, outputs, "gkrun_session_run_device"));
    GK_TRY(std::vector<gk::NamedBuf> in, device_inputs(inputs, input_count));
    std::vector<gk::NamedBuf> result;
    GK_RETURN_IF_ERROR(with_profiler(*session, shapes_of(inputs, input_count), [&](const gk::RunOptions& o) {
      auto r = session->session->run_device(in, o);
      if (!r.ok()) return r.status();
      result = std::move(r).value();
      return gk::ok_status();
    }));
    auto values = std::make_unique<gkrun_values>();
    values->on_device = true;
    for (gk::NamedBuf& b : result) {
      const gk::DType declared = declared_dtype(*session, b.name);
      values->slots.push_back(device_value(std::move(b), declared));
    }
    *outputs = values.release();
    return gk::ok_status();
  });
}

size_t gkrun_values_count(const gkrun_values* values) { return values ? values->slots.size() : 0; }

int gkrun_values_on_device(const gkrun_values* values) { return values && values->on_device ? 1 : 0; }

gkrun_status* gkrun_values_get(const gkrun_values* values, size_t index, gkrun_tensor* out) {
  return guard("gkrun_values_get", [&] {
    if (!values || !out) return gk::invalid_argument("gkrun_values_get: values or out is NULL");
    if (index >= values->slots.size())
      return gk::out_of_range("gkrun_values_get: index {} is out of range, the run has {} outputs", index,
                              values->slots.size());
    return tensor_of(values->slots[index], "gkrun_values_get", out);
  });
}

gkrun_status* gkrun_values_find(const gkrun_values* values, const char* name, gkrun_tensor* out) {
  return guard("gkrun_values_find", [&] {
    if (!values || !name || !out) return gk::invalid_argument("gkrun_values_find: values, name or out is NULL");
    const gkrun_value* v = find_value(values, name);
    if (!v) return no_output(*values, name, "gkrun_values_find");
    return tensor_of(*v, "gkrun_values_find", out);
  });
}

gkrun_status* gkrun_values_value(const gkrun_values* values, size_t index, const gkrun_value** out) {
  return guard("gkrun_values_value", [&] {
    if (!values || !out) return gk::invalid_argument("gkrun_values_value: values or out is NULL");
    if (index >= values->slots.size())
      return gk::out_of_range("gkrun_values_value: index {} is out of range, the run has {} outputs", index,
                              values->slots.size());
    *out = &values->slots[index];
    return gk::ok_status();
  });
}

gkrun_status* gkrun_values_find_value(const gkrun_values* values, const char* name, const gkrun_value** out) {
  return guard("gkrun_values_find_value", [&] {
    if (!values || !name || !out) return gk::invalid_argument("gkrun_values_find_value: values, name or out is NULL");
    const gkrun_value* v = find_value(values, name);
    if (!v) return no_output(*values, name, "gkrun_values_find_value");
    *out = v;
    return gk::ok_status();
  });
}

void gkrun_values_free(gkrun_values* values) { delete values; }

}  // extern "C"

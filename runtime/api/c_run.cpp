// The C API's runs: gkrun_tensor inputs become the session's host or device
// tensors (borrowed, not copied: the session uploads or binds them during the
// call), and the outputs are kept in a gkrun_values until it is freed.
#include "runtime/api/c_handles.h"

#include "runtime/kit/shape.h"

namespace {

using gk::capi::guard;

struct Checked {
  gk::DType dtype = gk::DType::kUndefined;
  gk::Shape shape;
  int64_t count = 0;
};

// Name, dtype, shape and byte count of one input, each checked; the message names
// the input by position and name.
gk::Result<Checked> check_input(const gkrun_tensor& t, size_t index) {
  if (!t.name) return gk::invalid_argument("input {}: name is NULL", index);
  const std::string name = t.name;
  const int64_t code = gk::capi::dtype_code(t.dtype);
  gk::Result<gk::DType> dtype = gk::dtype_from_code(code);
  if (!dtype.ok())
    return gk::invalid_argument("input '{}': dtype code {} is not a tensor element type ({})", name, code,
                                dtype.status().message());
  if (t.rank && !t.shape) return gk::invalid_argument("input '{}': shape is NULL for rank {}", name, t.rank);
  Checked c;
  c.dtype = *dtype;
  c.shape.assign(t.shape, t.shape + t.rank);
  gk::Result<int64_t> count = gk::checked_numel(c.shape);
  if (!count.ok())
    return gk::invalid_argument("input '{}': shape {}: {}", name, gk::shape_str(c.shape), count.status().message());
  c.count = *count;
  const size_t want = c.dtype == gk::DType::kString ? static_cast<size_t>(c.count) * sizeof(const char*)
                                                    : gk::dtype_storage_bytes(c.dtype, c.count);
  if (t.bytes != want)
    return gk::invalid_argument("input '{}': {} {} needs {} bytes, got {}", name, gk::dtype_name(c.dtype),
                                gk::shape_str(c.shape), want, t.bytes);
  if (want && !t.data) return gk::invalid_argument("input '{}': data is NULL for {} bytes", name, want);
  return c;
}

gk::Result<std::vector<gk::NamedTensor>> host_inputs(const gkrun_tensor* inputs, size_t count) {
  std::vector<gk::NamedTensor> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const gkrun_tensor& t = inputs[i];
    GK_TRY(Checked c, check_input(t, i));
    if (c.dtype == gk::DType::kString) {
      const char* const* strings = static_cast<const char* const*>(t.data);
      std::vector<std::string> values;
      values.reserve(static_cast<size_t>(c.count));
      for (int64_t e = 0; e < c.count; ++e) {
        if (!strings[e]) return gk::invalid_argument("input '{}': string element {} is NULL", t.name, e);
        values.emplace_back(strings[e]);
      }
      out.push_back({t.name, gk::HostTensor::strings(c.shape, std::move(values))});
      continue;
    }
    gk::Result<gk::HostTensor> h = gk::HostTensor::borrow(c.dtype, c.shape, nullptr, t.data, t.bytes);
    if (!h.ok()) return h.status().with_context(fmt::format("input '{}'", t.name));
    out.push_back({t.name, std::move(h).value()});
  }
  return out;
}

gk::Result<std::vector<gk::NamedBuf>> device_inputs(const gkrun_tensor* inputs, size_t count) {
  std::vector<gk::NamedBuf> out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const gkrun_tensor& t = inputs[i];
    GK_TRY(Checked c, check_input(t, i));
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
  if (!s.profiler) return run(gk::RunOptions{});
  auto& session = const_cast<gkrun_session&>(s);
  std::lock_guard<std::mutex> lock(session.profile_mutex);
  gk::RunOptions options;
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

const gkrun_value_slot* find_slot(const gkrun_values* values, const char* name) {
  for (const gkrun_value_slot& s : values->slots)
    if (s.name == name) return &s;
  return nullptr;
}

gk::Status fill(const gkrun_values& values, const gkrun_value_slot& s, gkrun_tensor* out) {
  if (!s.unsupported.empty())
    return gk::unimplemented("output '{}' is {}; the C API returns tensors only", s.name, s.unsupported);
  out->name = s.name.c_str();
  out->dtype = static_cast<gkrun_dtype>(s.dtype);
  out->shape = s.shape.empty() ? nullptr : s.shape.data();
  out->rank = s.shape.size();
  if (s.dtype == gk::DType::kString) {
    out->data = s.strings.data();
    out->bytes = s.strings.size() * sizeof(const char*);
  } else if (values.on_device) {
    out->data = reinterpret_cast<const void*>(s.device.ptr());
    out->bytes = s.device.bytes();
  } else {
    out->data = s.host.raw();
    out->bytes = s.host.bytes();
  }
  return gk::ok_status();
}

}  // namespace

extern "C" {

gkrun_status* gkrun_session_run(const gkrun_session* session, const gkrun_tensor* inputs, size_t input_count,
                                gkrun_values** outputs) {
  return guard("gkrun_session_run", [&]() -> gk::Status {
    GK_RETURN_IF_ERROR(check_run_args(session, inputs, input_count, outputs, "gkrun_session_run"));
    GK_TRY(std::vector<gk::NamedTensor> in, host_inputs(inputs, input_count));
    std::vector<gk::NamedTensor> result;
    GK_RETURN_IF_ERROR(with_profiler(*session, shapes_of(inputs, input_count), [&](const gk::RunOptions& o) {
      auto r = session->session->run(in, o);
      if (!r.ok()) return r.status();
      result = std::move(r).value();
      return gk::ok_status();
    }));
    auto values = std::make_unique<gkrun_values>();
    for (gk::NamedTensor& t : result) {
      gkrun_value_slot slot;
      slot.name = t.name;
      if (t.sequence) slot.unsupported = "a sequence";
      else if (t.none) slot.unsupported = "an empty optional";
      slot.dtype = t.tensor.dtype();
      slot.shape = t.tensor.shape();
      slot.host = std::move(t.tensor);
      if (slot.dtype == gk::DType::kString)
        for (const std::string& v : slot.host.string_values()) slot.strings.push_back(v.c_str());
      values->slots.push_back(std::move(slot));
    }
    *outputs = values.release();
    return gk::ok_status();
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
      gkrun_value_slot slot;
      slot.name = b.name;
      if (b.sequence) slot.unsupported = "a sequence";
      else if (b.none) slot.unsupported = "an empty optional";
      else if (b.host) slot.unsupported = "a string tensor (host only; use gkrun_session_run)";
      slot.dtype = b.buf.dtype();
      slot.shape = b.shape;
      slot.device = std::move(b.buf);
      values->slots.push_back(std::move(slot));
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
    return fill(*values, values->slots[index], out);
  });
}

gkrun_status* gkrun_values_find(const gkrun_values* values, const char* name, gkrun_tensor* out) {
  return guard("gkrun_values_find", [&] {
    if (!values || !name || !out) return gk::invalid_argument("gkrun_values_find: values, name or out is NULL");
    const gkrun_value_slot* s = find_slot(values, name);
    if (!s) {
      std::string names;
      for (const gkrun_value_slot& v : values->slots) names += (names.empty() ? "'" : ", '") + v.name + "'";
      return gk::invalid_argument("gkrun_values_find: no output '{}'; outputs are {}", name, names);
    }
    return fill(*values, *s, out);
  });
}

void gkrun_values_free(gkrun_values* values) { delete values; }

}  // extern "C"

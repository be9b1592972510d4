// The C API's values: tensors, sequences of tensors and empty optionals, made by
// the caller (copies it owns) or read from a run's gkrun_values (borrowed), and
// the gkrun_tensor checks and conversions the runs share.
#include "runtime/api/c_handles.h"

#include "runtime/kit/shape.h"

namespace gk::capi {

Result<CheckedTensor> check_tensor(const gkrun_tensor& t, const std::string& what) {
  const int64_t code = dtype_code(t.dtype);
  Result<DType> dtype = dtype_from_code(code);
  if (!dtype.ok())
    return invalid_argument("{}: dtype code {} is not a tensor element type ({})", what, code,
                            dtype.status().message());
  if (t.rank && !t.shape) return invalid_argument("{}: shape is NULL for rank {}", what, t.rank);
  CheckedTensor c;
  c.dtype = *dtype;
  c.shape.assign(t.shape, t.shape + t.rank);
  Result<int64_t> count = checked_numel(c.shape);
  if (!count.ok()) return invalid_argument("{}: shape {}: {}", what, shape_str(c.shape), count.status().message());
  c.count = *count;
  const size_t want = c.dtype == DType::kString ? static_cast<size_t>(c.count) * sizeof(const char*)
                                                : dtype_storage_bytes(c.dtype, c.count);
  if (t.bytes != want)
    return invalid_argument("{}: {} {} needs {} bytes, got {}", what, dtype_name(c.dtype), shape_str(c.shape), want,
                            t.bytes);
  if (want && !t.data) return invalid_argument("{}: data is NULL for {} bytes", what, want);
  return c;
}

Result<HostTensor> host_tensor(const gkrun_tensor& t, const CheckedTensor& c, bool copy, const std::string& what) {
  if (c.dtype == DType::kString) {
    const char* const* strings = static_cast<const char* const*>(t.data);
    std::vector<std::string> values;
    values.reserve(static_cast<size_t>(c.count));
    for (int64_t e = 0; e < c.count; ++e) {
      if (!strings[e]) return invalid_argument("{}: string element {} is NULL", what, e);
      values.emplace_back(strings[e]);
    }
    return HostTensor::strings(c.shape, std::move(values));
  }
  Result<HostTensor> h = copy ? HostTensor::from_bytes(c.dtype, c.shape, t.data, t.bytes)
                              : HostTensor::borrow(c.dtype, c.shape, nullptr, t.data, t.bytes);
  if (!h.ok()) return h.status().with_context(what);
  return h;
}

gkrun_tensor_slot host_slot(HostTensor t) {
  gkrun_tensor_slot slot;
  slot.dtype = t.dtype();
  slot.shape = t.shape();
  slot.host = std::move(t);
  if (slot.dtype == DType::kString)
    for (const std::string& v : slot.host.string_values()) slot.strings.push_back(v.c_str());
  return slot;
}

void fill_tensor(const gkrun_tensor_slot& s, const std::string& name, bool on_device, gkrun_tensor* out) {
  out->name = name.c_str();
  out->dtype = static_cast<gkrun_dtype>(s.dtype);
  out->shape = s.shape.empty() ? nullptr : s.shape.data();
  out->rank = s.shape.size();
  if (s.dtype == DType::kString) {
    out->data = s.strings.data();
    out->bytes = s.strings.size() * sizeof(const char*);
  } else if (on_device) {
    out->data = reinterpret_cast<const void*>(s.device.ptr());
    out->bytes = s.device.bytes();
  } else {
    out->data = s.host.raw();
    out->bytes = s.host.bytes();
  }
}

gkrun_value host_value(NamedTensor t, DType declared) {
  gkrun_value v;
  v.name = std::move(t.name);
  if (t.none) {
    v.kind = GKRUN_VALUE_NONE;
  } else if (t.sequence) {
    v.kind = GKRUN_VALUE_SEQUENCE;
    for (const HostTensor& e : *t.sequence) v.elements.push_back(host_slot(e));
    v.dtype = v.elements.empty() ? declared : v.elements.front().dtype;
  } else {
    v.tensor = host_slot(std::move(t.tensor));
    v.dtype = v.tensor.dtype;
  }
  return v;
}

}  // namespace gk::capi

namespace {

using gk::capi::guard;

const char* kind_name(gkrun_value_kind kind) {
  switch (kind) {
    case GKRUN_VALUE_TENSOR: return "a tensor";
    case GKRUN_VALUE_SEQUENCE: return "a sequence";
    case GKRUN_VALUE_NONE: return "an empty optional";
    default: return "invalid";
  }
}

// "value" for one the caller made, "output 'y'" for one from a run.
std::string value_label(const gkrun_value& v) { return v.name.empty() ? "the value" : "output '" + v.name + "'"; }

gk::Status check_readable(const gkrun_value& v, gkrun_value_kind want, const char* fn) {
  if (!v.unsupported.empty()) return gk::unimplemented("{}: {} is {}", fn, value_label(v), v.unsupported);
  if (v.kind != want)
    return gk::invalid_argument("{}: {} is {}, not {}{}", fn, value_label(v), kind_name(v.kind), kind_name(want),
                                v.kind == GKRUN_VALUE_SEQUENCE ? " (read its elements with gkrun_value_get_element)"
                                                               : "");
  return gk::ok_status();
}

}  // namespace

extern "C" {

gkrun_status* gkrun_value_tensor(const gkrun_tensor* tensor, gkrun_value** out) {
  return guard("gkrun_value_tensor", [&]() -> gk::Status {
    if (!tensor || !out) return gk::invalid_argument("gkrun_value_tensor: tensor or out is NULL");
    *out = nullptr;
    const std::string what = "gkrun_value_tensor";
    GK_TRY(gk::capi::CheckedTensor c, gk::capi::check_tensor(*tensor, what));
    GK_TRY(gk::HostTensor h, gk::capi::host_tensor(*tensor, c, /*copy=*/true, what));
    auto v = std::make_unique<gkrun_value>();
    v->tensor = gk::capi::host_slot(std::move(h));
    v->dtype = c.dtype;
    *out = v.release();
    return gk::ok_status();
  });
}

gkrun_status* gkrun_value_sequence(gkrun_dtype dtype, const gkrun_tensor* elements, size_t count, gkrun_value** out) {
  return guard("gkrun_value_sequence", [&]() -> gk::Status {
    if (!out) return gk::invalid_argument("gkrun_value_sequence: out is NULL");
    *out = nullptr;
    if (count && !elements) return gk::invalid_argument("gkrun_value_sequence: elements is NULL for {} elements", count);
    gk::Result<gk::DType> element_type = gk::dtype_from_code(dtype);
    if (!element_type.ok())
      return gk::invalid_argument("gkrun_value_sequence: dtype code {} is not a tensor element type",
                                  static_cast<int>(dtype));
    auto v = std::make_unique<gkrun_value>();
    v->kind = GKRUN_VALUE_SEQUENCE;
    v->dtype = *element_type;
    for (size_t i = 0; i < count; ++i) {
      const std::string what = fmt::format("gkrun_value_sequence: element {}", i);
      GK_TRY(gk::capi::CheckedTensor c, gk::capi::check_tensor(elements[i], what));
      if (c.dtype != v->dtype)
        return gk::invalid_argument("{} is {}, the sequence holds {}", what, gk::dtype_name(c.dtype),
                                    gk::dtype_name(v->dtype));
      GK_TRY(gk::HostTensor h, gk::capi::host_tensor(elements[i], c, /*copy=*/true, what));
      v->elements.push_back(gk::capi::host_slot(std::move(h)));
    }
    *out = v.release();
    return gk::ok_status();
  });
}

gkrun_status* gkrun_value_optional_none(gkrun_value** out) {
  return guard("gkrun_value_optional_none", [&] {
    if (!out) return gk::invalid_argument("gkrun_value_optional_none: out is NULL");
    *out = new gkrun_value();
    (*out)->kind = GKRUN_VALUE_NONE;
    return gk::ok_status();
  });
}

void gkrun_value_free(gkrun_value* value) { delete value; }

gkrun_value_kind gkrun_value_get_kind(const gkrun_value* value) { return value ? value->kind : GKRUN_VALUE_INVALID; }

gkrun_dtype gkrun_value_dtype(const gkrun_value* value) {
  return value ? static_cast<gkrun_dtype>(value->dtype) : GKRUN_DTYPE_UNDEFINED;
}

size_t gkrun_value_element_count(const gkrun_value* value) {
  return value && value->kind == GKRUN_VALUE_SEQUENCE ? value->elements.size() : 0;
}

gkrun_status* gkrun_value_get_tensor(const gkrun_value* value, gkrun_tensor* out) {
  return guard("gkrun_value_get_tensor", [&]() -> gk::Status {
    if (!value || !out) return gk::invalid_argument("gkrun_value_get_tensor: value or out is NULL");
    GK_RETURN_IF_ERROR(check_readable(*value, GKRUN_VALUE_TENSOR, "gkrun_value_get_tensor"));
    gk::capi::fill_tensor(value->tensor, value->name, value->on_device, out);
    return gk::ok_status();
  });
}

gkrun_status* gkrun_value_get_element(const gkrun_value* value, size_t index, gkrun_tensor* out) {
  return guard("gkrun_value_get_element", [&]() -> gk::Status {
    if (!value || !out) return gk::invalid_argument("gkrun_value_get_element: value or out is NULL");
    GK_RETURN_IF_ERROR(check_readable(*value, GKRUN_VALUE_SEQUENCE, "gkrun_value_get_element"));
    if (index >= value->elements.size())
      return gk::out_of_range("gkrun_value_get_element: index {} is out of range, {} has {} elements", index,
                              value_label(*value), value->elements.size());
    gk::capi::fill_tensor(value->elements[index], value->name, value->on_device, out);
    return gk::ok_status();
  });
}

}  // extern "C"

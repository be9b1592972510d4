// What the C API's opaque handles hold, and the two helpers every entry point
// uses: a gk::Status becomes a gkrun_status* (NULL for ok), and no C++ exception
// crosses into C (GKRUN_GUARD turns one into an Internal or ResourceExhausted
// status). Private to libgkrun: nothing here is installed.
#pragma once

#include "runtime/api/gkrun.h"
#include "runtime/kit/profiler.h"
#include "runtime/session.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

struct gkrun_status {
  gk::StatusCode code = gk::StatusCode::kInternal;
  std::string message;
};

struct gkrun_options {
  gk::SessionOptions session;
  bool profiling = false;
  double run_timeout_s = 0;  // 0: none
};

// One graph input or output as gkrun_io_info shows it; the arrays stay put for the
// session's lifetime.
struct gkrun_io_slot {
  std::string name;
  gk::DType dtype = gk::DType::kUndefined;
  int64_t rank = -1;
  std::vector<int64_t> dims;
  std::vector<std::string> symbols;
  std::vector<const char*> symbol_ptrs;
  int kind = 0;
};

struct gkrun_session {
  std::shared_ptr<gk::Session> session;
  std::vector<gkrun_io_slot> inputs, outputs;
  // With profiling on, runs take `profile_mutex` so that resolve() never reads the
  // events of a run still in flight; the shapes of the last run give the trace its
  // memory track.
  std::unique_ptr<gk::Profiler> profiler;
  std::mutex profile_mutex;
  std::vector<std::pair<std::string, gk::Shape>> last_shapes;
  double run_timeout_s = 0;  // each run's deadline, from its start; 0: none
};

// One tensor as gkrun_tensor shows it: host data or a device buffer, and for a
// string tensor the pointers into its values that gkrun_tensor.data exposes.
struct gkrun_tensor_slot {
  gk::DType dtype = gk::DType::kUndefined;
  gk::Shape shape;
  gk::HostTensor host;
  gk::GkBuf device;
  std::vector<const char*> strings;
};

// A tensor, a sequence of tensors or an empty optional: made by the caller
// (gkrun_value_tensor, ...) or one output of a run, held in its gkrun_values.
struct gkrun_value {
  std::string name;  // the output's name; "" for a value the caller made
  gkrun_value_kind kind = GKRUN_VALUE_TENSOR;
  gk::DType dtype = gk::DType::kUndefined;  // the tensor's, or the sequence's elements'
  bool on_device = false;                   // data pointers are device pointers
  gkrun_tensor_slot tensor;                 // kind tensor
  std::vector<gkrun_tensor_slot> elements;  // kind sequence
  std::string unsupported;  // non-empty: why a device run's output has no C form
};

struct gkrun_values {
  bool on_device = false;
  std::vector<gkrun_value> slots;
};

namespace gk::capi {

// A C caller may store any int in a gkrun_dtype (a C enum is an int), but in C++
// loading a value outside the enumerators' range (0..31 here) as the enum is
// undefined (UBSan: "load of value 99, which is not a valid value for type
// 'gkrun_dtype'"), so the code is read as its underlying integer.
inline int64_t dtype_code(const gkrun_dtype& dtype) {
  std::underlying_type_t<gkrun_dtype> raw;
  std::memcpy(&raw, &dtype, sizeof raw);
  return static_cast<int64_t>(raw);
}

inline gkrun_status* to_c(const Status& s) {
  if (s.ok()) return nullptr;
  return new (std::nothrow) gkrun_status{s.code(), s.message()};
}

// Wraps an entry point's body (a lambda returning Status): exceptions from
// allocation or the standard library become statuses, never an abort.
template <typename F>
gkrun_status* guard(const char* fn, F&& body) noexcept {
  try {
    return to_c(body());
  } catch (const std::bad_alloc&) {
    return to_c(resource_exhausted("{}: out of memory", fn));
  } catch (const std::exception& e) {
    return to_c(internal_error("{}: {}", fn, e.what()));
  } catch (...) {
    return to_c(internal_error("{}: unknown exception", fn));
  }
}

// A gkrun_tensor's dtype, shape and byte count, checked; `what` names it in the
// message ("input 'x'", "gkrun_value_sequence: element 2").
struct CheckedTensor {
  DType dtype = DType::kUndefined;
  Shape shape;
  int64_t count = 0;
};
Result<CheckedTensor> check_tensor(const gkrun_tensor& t, const std::string& what);
// `t` as a host tensor: its strings copied, its other data borrowed for the call
// (copy false) or copied into the tensor (copy true).
Result<HostTensor> host_tensor(const gkrun_tensor& t, const CheckedTensor& c, bool copy, const std::string& what);
// A host tensor as a slot (string pointers taken).
gkrun_tensor_slot host_slot(HostTensor t);
// Fills `out` from a slot; `name` becomes out->name.
void fill_tensor(const gkrun_tensor_slot& s, const std::string& name, bool on_device, gkrun_tensor* out);
// A run's host output as a value; an empty sequence takes `declared` (the model's
// element type) as its dtype.
gkrun_value host_value(NamedTensor t, DType declared);

}  // namespace gk::capi

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
};

// One output of a run, host or device; `strings` points into the host tensor's
// string values for a string output.
struct gkrun_value_slot {
  std::string name;
  gk::DType dtype = gk::DType::kUndefined;
  gk::Shape shape;
  gk::HostTensor host;
  gk::GkBuf device;
  std::vector<const char*> strings;
  std::string unsupported;  // non-empty: why this output has no tensor form (a sequence, ...)
};

struct gkrun_values {
  bool on_device = false;
  std::vector<gkrun_value_slot> slots;
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

}  // namespace gk::capi

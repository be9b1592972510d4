// Errors as values: every path a model, an input or a device can reach returns
// a Status or a Result<T>. Aborting checks guard only our own invariants.
#pragma once

#include <fmt/format.h>

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace gk {

enum class StatusCode {
  kOk = 0,
  kInvalidModel,
  kInvalidArgument,
  kOutOfRange,
  kUnimplemented,
  kResourceExhausted,
  kUnavailable,
  kDeviceError,
  kInternal,
  kDeadlineExceeded,  // a run went past RunOptions::deadline
  kCancelled,         // a run was stopped through RunOptions::cancel
};

const char* status_code_name(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok_status() { return {}; }
  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "InvalidModel: model.onnx: node 'conv1': ..."
  std::string to_string() const;

  // Prefix context ("while loading model.onnx") to the message, keeping the code.
  Status with_context(std::string_view context) const;
  void ignore() const {}

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status ok_status() { return {}; }

template <typename... Args>
Status make_status(StatusCode code, fmt::format_string<Args...> f, Args&&... args) {
  return Status(code, fmt::format(f, std::forward<Args>(args)...));
}

#define GK_ERROR_FACTORY(Name, Code)                                      \
  template <typename... Args>                                             \
  Status Name(fmt::format_string<Args...> f, Args&&... args) {            \
    return Status(StatusCode::Code, fmt::format(f, std::forward<Args>(args)...)); \
  }
GK_ERROR_FACTORY(invalid_model, kInvalidModel)
GK_ERROR_FACTORY(invalid_argument, kInvalidArgument)
GK_ERROR_FACTORY(out_of_range, kOutOfRange)
GK_ERROR_FACTORY(unimplemented, kUnimplemented)
GK_ERROR_FACTORY(resource_exhausted, kResourceExhausted)
GK_ERROR_FACTORY(unavailable, kUnavailable)
GK_ERROR_FACTORY(device_error, kDeviceError)
GK_ERROR_FACTORY(internal_error, kInternal)
GK_ERROR_FACTORY(deadline_exceeded, kDeadlineExceeded)
GK_ERROR_FACTORY(cancelled, kCancelled)
#undef GK_ERROR_FACTORY

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "Result built from an ok Status has no value");
    if (status_.ok()) status_ = Status(StatusCode::kInternal, "Result from ok status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { assert(ok()); return *value_; }
  const T& value() const& { assert(ok()); return *value_; }
  T&& value() && { assert(ok()); return std::move(*value_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace gk

#define GK_CONCAT_INNER(a, b) a##b
#define GK_CONCAT(a, b) GK_CONCAT_INNER(a, b)

#define GK_RETURN_IF_ERROR(expr)               \
  do {                                         \
    ::gk::Status gk_status_ = (expr);          \
    if (!gk_status_.ok()) return gk_status_;   \
  } while (0)

// GK_TRY(auto x, make_x());  — binds the value or returns the error.
#define GK_TRY(decl, expr) GK_TRY_IMPL(GK_CONCAT(gk_result_, __LINE__), decl, expr)
#define GK_TRY_IMPL(tmp, decl, expr)            \
  auto tmp = (expr);                            \
  if (!tmp.ok()) return tmp.status();           \
  decl = std::move(tmp).value()

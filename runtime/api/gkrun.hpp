// gkrun's C++ API: a header-only wrapper over the C API (gkrun.h), installed as
// <prefix>/include/gkrun/gkrun.hpp; link gkrun::gkrun as for C. C++17.
//
//   gkrun::Session session("model.onnx", gkrun::Options().backend("cpu"));
//   std::vector<float> x = {1, 2, 3};
//   gkrun::Outputs out = session.run({gkrun::TensorRef("x", {1, 3}, x)});
//   std::vector<float> y = out.tensor("y").to_vector<float>();
//
// Errors are exceptions: every failing C call throws gkrun::Error (a
// std::runtime_error carrying the gkrun_code and the C API's message). Why not a
// Result type: a Session is opened in its constructor, which has no return
// value; code ported from onnxruntime's C++ API (Ort::Exception) expects it; and a
// caller built without exceptions has the C API itself, whose every function
// returns its error as a value.
//
// Ownership: Session, Options, Value and Outputs own their C handles (RAII,
// move-only). TensorRef borrows the caller's data for the call it is passed to.
// TensorView and ValueRef borrow from the Value or Outputs they came from and are
// valid as long as it is.
#ifndef GKRUN_HPP_
#define GKRUN_HPP_

#include <gkrun/gkrun.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gkrun {

class Error : public std::runtime_error {
 public:
  Error(gkrun_code code, const std::string& message)
      : std::runtime_error(std::string(gkrun_code_name(code)) + ": " + message), code_(code) {}
  gkrun_code code() const noexcept { return code_; }

 private:
  gkrun_code code_;
};

namespace detail {

struct Free {
  void operator()(gkrun_status* p) const noexcept { gkrun_status_free(p); }
  void operator()(gkrun_options* p) const noexcept { gkrun_options_free(p); }
  void operator()(gkrun_session* p) const noexcept { gkrun_session_close(p); }
  void operator()(gkrun_value* p) const noexcept { gkrun_value_free(p); }
  void operator()(gkrun_values* p) const noexcept { gkrun_values_free(p); }
};

// Throws the status as an Error (freeing it); nothing for NULL.
inline void check(gkrun_status* raw) {
  std::unique_ptr<gkrun_status, Free> status(raw);
  if (status) throw Error(gkrun_status_code(status.get()), gkrun_status_message(status.get()));
}

}  // namespace detail

// The gkrun_dtype of a C++ element type. Bool tensors (one byte per element, 0 or
// 1) have none: std::vector<bool> packs bits; read them through TensorView::data().
template <typename T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr gkrun_dtype value = GKRUN_DTYPE_FLOAT32; };
template <> struct dtype_of<double> { static constexpr gkrun_dtype value = GKRUN_DTYPE_FLOAT64; };
template <> struct dtype_of<int8_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_INT8; };
template <> struct dtype_of<int16_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_INT16; };
template <> struct dtype_of<int32_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_INT32; };
template <> struct dtype_of<int64_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_INT64; };
template <> struct dtype_of<uint8_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_UINT8; };
template <> struct dtype_of<uint16_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_UINT16; };
template <> struct dtype_of<uint32_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_UINT32; };
template <> struct dtype_of<uint64_t> { static constexpr gkrun_dtype value = GKRUN_DTYPE_UINT64; };

// A tensor in the caller's memory, handed to a run or to Value::tensor: the data
// is borrowed (it must outlive the call), the name and shape are held here.
class TensorRef {
 public:
  TensorRef(std::string name, std::vector<int64_t> shape, gkrun_dtype dtype, const void* data, size_t bytes)
      : name_(std::move(name)), shape_(std::move(shape)), dtype_(dtype), data_(data), bytes_(bytes) {}
  template <typename T>
  TensorRef(std::string name, std::vector<int64_t> shape, const std::vector<T>& data)
      : TensorRef(std::move(name), std::move(shape), dtype_of<T>::value, data.data(), data.size() * sizeof(T)) {}
  // An unnamed tensor: a sequence element, or a Value's data.
  template <typename T>
  TensorRef(std::vector<int64_t> shape, const std::vector<T>& data) : TensorRef("", std::move(shape), data) {}

  // The C view; valid while this TensorRef and its data are.
  gkrun_tensor c() const {
    return {name_.c_str(), dtype_, shape_.data(), shape_.size(), data_, bytes_};
  }

 private:
  std::string name_;
  std::vector<int64_t> shape_;
  gkrun_dtype dtype_;
  const void* data_;
  size_t bytes_;
};

// A tensor read from a run or a value (host memory unless it came from
// run_device); borrowed, see Ownership above.
class TensorView {
 public:
  explicit TensorView(const gkrun_tensor& t) : t_(t) {}
  std::string name() const { return t_.name ? t_.name : ""; }
  gkrun_dtype dtype() const { return t_.dtype; }
  std::vector<int64_t> shape() const { return std::vector<int64_t>(t_.shape, t_.shape + t_.rank); }
  int64_t count() const {
    int64_t n = 1;
    for (size_t d = 0; d < t_.rank; ++d) n *= t_.shape[d];
    return n;
  }
  const void* data() const { return t_.data; }
  size_t bytes() const { return t_.bytes; }
  const gkrun_tensor& c() const { return t_; }

  // The elements as T, copied; Error (InvalidArgument) when T is not the dtype.
  template <typename T>
  std::vector<T> to_vector() const {
    if (dtype_of<T>::value != t_.dtype)
      throw Error(GKRUN_INVALID_ARGUMENT, "tensor '" + name() + "' is " + gkrun_dtype_name(t_.dtype) + ", not " +
                                              gkrun_dtype_name(dtype_of<T>::value));
    std::vector<T> out(static_cast<size_t>(count()));
    if (t_.bytes) std::memcpy(out.data(), t_.data, t_.bytes);
    return out;
  }
  // A string tensor's elements.
  std::vector<std::string> strings() const {
    if (t_.dtype != GKRUN_DTYPE_STRING)
      throw Error(GKRUN_INVALID_ARGUMENT, "tensor '" + name() + "' is " + gkrun_dtype_name(t_.dtype) + ", not string");
    const char* const* s = static_cast<const char* const*>(t_.data);
    return std::vector<std::string>(s, s + t_.bytes / sizeof(const char*));
  }

 private:
  gkrun_tensor t_;
};

// A tensor, a sequence of tensors or an empty optional, borrowed (from a Value or
// an Outputs).
class ValueRef {
 public:
  explicit ValueRef(const gkrun_value* v) : v_(v) {}
  gkrun_value_kind kind() const { return gkrun_value_get_kind(v_); }
  bool is_tensor() const { return kind() == GKRUN_VALUE_TENSOR; }
  bool is_sequence() const { return kind() == GKRUN_VALUE_SEQUENCE; }
  bool is_none() const { return kind() == GKRUN_VALUE_NONE; }
  gkrun_dtype dtype() const { return gkrun_value_dtype(v_); }
  // A sequence's element count (0 for a tensor or an empty optional).
  size_t size() const { return gkrun_value_element_count(v_); }
  // The tensor (Error unless a tensor value).
  TensorView tensor() const {
    gkrun_tensor t;
    detail::check(gkrun_value_get_tensor(v_, &t));
    return TensorView(t);
  }
  // Sequence element `index` (Error unless a sequence; OutOfRange past size()).
  TensorView operator[](size_t index) const {
    gkrun_tensor t;
    detail::check(gkrun_value_get_element(v_, index, &t));
    return TensorView(t);
  }
  const gkrun_value* c() const { return v_; }

 private:
  const gkrun_value* v_;
};

// A value the caller owns, holding a copy of the data it was made from.
class Value {
 public:
  static Value tensor(const TensorRef& t) {
    const gkrun_tensor c = t.c();
    gkrun_value* v = nullptr;
    detail::check(gkrun_value_tensor(&c, &v));
    return Value(v);
  }
  template <typename T>
  static Value tensor(std::vector<int64_t> shape, const std::vector<T>& data) {
    return tensor(TensorRef(std::move(shape), data));
  }
  static Value sequence(gkrun_dtype dtype, const std::vector<TensorRef>& elements) {
    std::vector<gkrun_tensor> c;
    c.reserve(elements.size());
    for (const TensorRef& e : elements) c.push_back(e.c());
    gkrun_value* v = nullptr;
    detail::check(gkrun_value_sequence(dtype, c.data(), c.size(), &v));
    return Value(v);
  }
  static Value none() {
    gkrun_value* v = nullptr;
    detail::check(gkrun_value_optional_none(&v));
    return Value(v);
  }

  ValueRef ref() const { return ValueRef(v_.get()); }
  operator ValueRef() const { return ref(); }  // NOLINT: a Value is usable wherever a ValueRef is
  gkrun_value_kind kind() const { return ref().kind(); }
  size_t size() const { return ref().size(); }

 private:
  explicit Value(gkrun_value* v) : v_(v) {}
  std::unique_ptr<gkrun_value, detail::Free> v_;
};

// A run's outputs, in the model's order; owns them.
class Outputs {
 public:
  explicit Outputs(gkrun_values* v) : v_(v) {}
  size_t size() const { return gkrun_values_count(v_.get()); }
  bool on_device() const { return gkrun_values_on_device(v_.get()) != 0; }
  ValueRef operator[](size_t index) const {
    const gkrun_value* v = nullptr;
    detail::check(gkrun_values_value(v_.get(), index, &v));
    return ValueRef(v);
  }
  ValueRef operator[](const std::string& name) const {
    const gkrun_value* v = nullptr;
    detail::check(gkrun_values_find_value(v_.get(), name.c_str(), &v));
    return ValueRef(v);
  }
  // The tensor output `name` (Error for a sequence or an empty optional).
  TensorView tensor(const std::string& name) const {
    gkrun_tensor t;
    detail::check(gkrun_values_find(v_.get(), name.c_str(), &t));
    return TensorView(t);
  }

 private:
  std::unique_ptr<gkrun_values, detail::Free> v_;
};

class Options {
 public:
  Options() {
    gkrun_options* o = nullptr;
    detail::check(gkrun_options_create(&o));
    o_.reset(o);
  }
  Options& backend(const std::string& b) { return set(gkrun_options_set_backend(o_.get(), b.c_str())); }
  Options& device(int d) { return set(gkrun_options_set_device(o_.get(), d)); }
  Options& threads(int n) { return set(gkrun_options_set_threads(o_.get(), n)); }
  Options& disable_pass(const std::string& p) { return set(gkrun_options_disable_pass(o_.get(), p.c_str())); }
  Options& cuda_graphs(bool on) { return set(gkrun_options_set_cuda_graphs(o_.get(), on ? 1 : 0)); }
  Options& profiling(bool on) { return set(gkrun_options_set_profiling(o_.get(), on ? 1 : 0)); }
  Options& run_timeout(double seconds) { return set(gkrun_options_set_run_timeout(o_.get(), seconds)); }
  const gkrun_options* c() const { return o_.get(); }

 private:
  Options& set(gkrun_status* st) {
    detail::check(st);
    return *this;
  }
  std::unique_ptr<gkrun_options, detail::Free> o_;
};

// A graph input or output as the model declares it.
struct IoInfo {
  std::string name;
  gkrun_dtype dtype = GKRUN_DTYPE_UNDEFINED;
  bool has_shape = false;
  std::vector<int64_t> dims;         // -1: symbolic or unknown
  std::vector<std::string> symbols;  // "batch", or "" for a known dim
  gkrun_value_kind kind = GKRUN_VALUE_TENSOR;  // GKRUN_VALUE_NONE here: an optional
};

// One input of Session::run(values): the graph input's name and its value.
struct NamedValue {
  std::string name;
  ValueRef value;
};

class Session {
 public:
  explicit Session(const std::string& path, const Options& options = Options()) {
    gkrun_session* s = nullptr;
    detail::check(gkrun_session_open(path.c_str(), options.c(), &s));
    s_.reset(s);
  }
  // A serialized ModelProto in memory (copied).
  static Session from_memory(const void* data, size_t size, const Options& options = Options()) {
    gkrun_session* s = nullptr;
    detail::check(gkrun_session_open_from_memory(data, size, options.c(), &s));
    return Session(s);
  }

  std::string backend() const { return gkrun_session_backend(s_.get()); }
  std::vector<IoInfo> inputs() const { return describe(true); }
  std::vector<IoInfo> outputs() const { return describe(false); }

  // Host tensors in, host copies of every output back.
  Outputs run(const std::vector<TensorRef>& inputs) const {
    std::vector<gkrun_tensor> c;
    c.reserve(inputs.size());
    for (const TensorRef& t : inputs) c.push_back(t.c());
    gkrun_values* out = nullptr;
    detail::check(gkrun_session_run(s_.get(), c.data(), c.size(), &out));
    return Outputs(out);
  }
  // Values in (tensors, sequences, empty optionals), for models that take them.
  Outputs run(const std::vector<NamedValue>& inputs) const {
    std::vector<const char*> names;
    std::vector<const gkrun_value*> values;
    for (const NamedValue& in : inputs) {
      names.push_back(in.name.c_str());
      values.push_back(in.value.c());
    }
    gkrun_values* out = nullptr;
    detail::check(gkrun_session_run_values(s_.get(), names.data(), values.data(), values.size(), &out));
    return Outputs(out);
  }

  // With Options().profiling(true): writes the runs' launches as a Chrome trace.
  void end_profiling(const std::string& path) { detail::check(gkrun_session_end_profiling(s_.get(), path.c_str())); }
  const gkrun_session* c() const { return s_.get(); }

 private:
  explicit Session(gkrun_session* s) : s_(s) {}
  std::vector<IoInfo> describe(bool in) const {
    std::vector<IoInfo> out;
    const size_t n = in ? gkrun_session_input_count(s_.get()) : gkrun_session_output_count(s_.get());
    for (size_t i = 0; i < n; ++i) {
      gkrun_io_info c;
      detail::check(in ? gkrun_session_input_info(s_.get(), i, &c) : gkrun_session_output_info(s_.get(), i, &c));
      IoInfo info;
      info.name = c.name;
      info.dtype = c.dtype;
      info.has_shape = c.rank >= 0;
      for (int64_t d = 0; d < c.rank; ++d) {
        info.dims.push_back(c.dims[d]);
        info.symbols.push_back(c.dim_symbols[d]);
      }
      info.kind = static_cast<gkrun_value_kind>(c.kind);
      out.push_back(std::move(info));
    }
    return out;
  }
  std::unique_ptr<gkrun_session, detail::Free> s_;
};

}  // namespace gkrun

#endif  // GKRUN_HPP_

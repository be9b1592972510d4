// gkrun._gkrun: the Python module's native half, a thin layer over the C API
// (runtime/api/gkrun.h). It holds a session, describes its inputs and outputs,
// runs numpy arrays (lists of them for sequences, None for empty optionals) and
// returns the same; the onnxruntime-shaped classes
// (InferenceSession, SessionOptions, NodeArg) are Python, in gkrun/__init__.py.
// A gkrun error becomes gkrun.Error (a RuntimeError) with `code` set to the
// status code's name ("InvalidArgument").
#include <gkrun/gkrun.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

struct GkError {
  std::string code;
  std::string message;
};

void check(gkrun_status* raw) {
  if (!raw) return;
  GkError e{gkrun_code_name(gkrun_status_code(raw)), gkrun_status_message(raw)};
  gkrun_status_free(raw);
  throw e;
}

struct OptionsDeleter {
  void operator()(gkrun_options* o) const { gkrun_options_free(o); }
};
struct ValuesDeleter {
  void operator()(gkrun_values* v) const { gkrun_values_free(v); }
};

// numpy's name for a gkrun dtype; none for types numpy lacks (bfloat16, float8...).
std::optional<std::string> numpy_name(gkrun_dtype t) {
  switch (t) {
    case GKRUN_DTYPE_FLOAT32: return "float32";
    case GKRUN_DTYPE_FLOAT64: return "float64";
    case GKRUN_DTYPE_FLOAT16: return "float16";
    case GKRUN_DTYPE_INT8: return "int8";
    case GKRUN_DTYPE_INT16: return "int16";
    case GKRUN_DTYPE_INT32: return "int32";
    case GKRUN_DTYPE_INT64: return "int64";
    case GKRUN_DTYPE_UINT8: return "uint8";
    case GKRUN_DTYPE_UINT16: return "uint16";
    case GKRUN_DTYPE_UINT32: return "uint32";
    case GKRUN_DTYPE_UINT64: return "uint64";
    case GKRUN_DTYPE_BOOL: return "bool";
    default: return std::nullopt;
  }
}

py::dict io_dict(const gkrun_io_info& info) {
  py::dict d;
  d["name"] = std::string(info.name);
  d["dtype"] = static_cast<int>(info.dtype);
  d["kind"] = info.kind;
  if (info.rank < 0) {
    d["shape"] = py::none();
  } else {
    py::list shape;
    for (int64_t i = 0; i < info.rank; ++i) {
      if (info.dims[i] >= 0) shape.append(info.dims[i]);
      else if (info.dim_symbols[i][0]) shape.append(std::string(info.dim_symbols[i]));
      else shape.append(py::none());
    }
    d["shape"] = shape;
  }
  return d;
}

// One output as a numpy array (a copy: the values are freed after the run).
py::object to_numpy(const gkrun_tensor& t) {
  std::vector<py::ssize_t> shape(t.shape, t.shape + t.rank);
  if (t.dtype == GKRUN_DTYPE_STRING) {
    py::list values;
    const char* const* strings = static_cast<const char* const*>(t.data);
    for (size_t i = 0; i < t.bytes / sizeof(const char*); ++i) values.append(py::str(strings[i]));
    py::array out = py::module_::import("numpy").attr("array")(values, py::arg("dtype") = "object");
    return out.attr("reshape")(py::tuple(py::cast(shape)));
  }
  std::optional<std::string> name = numpy_name(t.dtype);
  if (!name)
    throw GkError{"Unimplemented", std::string("output '") + t.name + "' is " + gkrun_dtype_name(t.dtype) +
                                       ", which numpy has no dtype for"};
  py::array out(py::dtype(*name), shape);
  if (t.bytes != static_cast<size_t>(out.nbytes()))
    throw GkError{"Internal", std::string("output '") + t.name + "': byte count does not match its shape"};
  if (t.bytes) std::memcpy(out.mutable_data(), t.data, t.bytes);
  return out;
}

// One tensor of a feed: a C-contiguous numpy array whose dtype the Python side
// has mapped to a gkrun dtype code, or a list of str for a string tensor. Holds
// what the gkrun_tensor it makes points into.
struct FeedTensor {
  int dtype = 0;
  std::vector<int64_t> shape;
  py::array array;
  std::vector<std::string> strings;
  std::vector<const char*> string_ptrs;

  // t: (dtype code, array) or (8, [str], shape), from index `at` of the tuple.
  gkrun_tensor load(const py::tuple& t, size_t at, const std::string& name) {
    dtype = t[at].cast<int>();
    if (dtype == GKRUN_DTYPE_STRING) {
      shape = t[at + 2].cast<std::vector<int64_t>>();
      strings = t[at + 1].cast<std::vector<std::string>>();
      for (const std::string& s : strings) string_ptrs.push_back(s.c_str());
      return {nullptr, GKRUN_DTYPE_STRING, shape.data(), shape.size(), string_ptrs.data(),
              string_ptrs.size() * sizeof(const char*)};
    }
    array = py::array::ensure(t[at + 1], py::array::c_style);
    if (!array) throw GkError{"InvalidArgument", "input '" + name + "' is not an array"};
    shape.assign(array.shape(), array.shape() + array.ndim());
    return {nullptr, static_cast<gkrun_dtype>(dtype), shape.data(), shape.size(), array.data(),
            static_cast<size_t>(array.nbytes())};
  }
};

struct ValueDeleter {
  void operator()(gkrun_value* v) const { gkrun_value_free(v); }
};
using OwnedValue = std::unique_ptr<gkrun_value, ValueDeleter>;

// A feed as a gkrun_value: ("name", "none"), ("name", "seq", dtype code, [(code,
// array) or (8, [str], shape), ...]) or a tensor feed (name, code, array...).
OwnedValue feed_value(const py::tuple& f, const std::string& name) {
  gkrun_value* v = nullptr;
  if (py::isinstance<py::str>(f[1]) && f[1].cast<std::string>() == "none") {
    check(gkrun_value_optional_none(&v));
  } else if (py::isinstance<py::str>(f[1]) && f[1].cast<std::string>() == "seq") {
    const py::list items = f[3].cast<py::list>();
    std::vector<FeedTensor> owned(items.size());
    std::vector<gkrun_tensor> elements;
    for (size_t i = 0; i < items.size(); ++i)
      elements.push_back(owned[i].load(items[i].cast<py::tuple>(), 0, name));
    check(gkrun_value_sequence(static_cast<gkrun_dtype>(f[2].cast<int>()), elements.data(), elements.size(), &v));
  } else {
    FeedTensor t;
    const gkrun_tensor c = t.load(f, 1, name);
    check(gkrun_value_tensor(&c, &v));
  }
  return OwnedValue(v);
}

// One output: a numpy array, a list of arrays (a sequence) or None (an empty optional).
py::object to_python(const gkrun_value* v) {
  gkrun_tensor t;
  switch (gkrun_value_get_kind(v)) {
    case GKRUN_VALUE_NONE: return py::none();
    case GKRUN_VALUE_SEQUENCE: {
      py::list out;
      for (size_t i = 0; i < gkrun_value_element_count(v); ++i) {
        check(gkrun_value_get_element(v, i, &t));
        out.append(to_numpy(t));
      }
      return out;
    }
    default: check(gkrun_value_get_tensor(v, &t)); return to_numpy(t);
  }
}

class Session {
 public:
  Session(py::object model, const std::string& backend, int device, int threads,
          const std::vector<std::string>& disabled_passes, bool profiling, bool cuda_graphs, double run_timeout) {
    gkrun_options* raw = nullptr;
    check(gkrun_options_create(&raw));
    std::unique_ptr<gkrun_options, OptionsDeleter> options(raw);
    check(gkrun_options_set_backend(raw, backend.c_str()));
    check(gkrun_options_set_device(raw, device));
    check(gkrun_options_set_threads(raw, threads));
    check(gkrun_options_set_profiling(raw, profiling ? 1 : 0));
    check(gkrun_options_set_cuda_graphs(raw, cuda_graphs ? 1 : 0));
    check(gkrun_options_set_run_timeout(raw, run_timeout));
    for (const std::string& p : disabled_passes) check(gkrun_options_disable_pass(raw, p.c_str()));
    gkrun_session* s = nullptr;
    if (py::isinstance<py::bytes>(model)) {
      std::string bytes = model.cast<std::string>();
      py::gil_scoped_release unlocked;
      check(gkrun_session_open_from_memory(bytes.data(), bytes.size(), raw, &s));
    } else {
      std::string path = py::str(model);
      py::gil_scoped_release unlocked;
      check(gkrun_session_open(path.c_str(), raw, &s));
    }
    session_ = s;
  }
  ~Session() { gkrun_session_close(session_); }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  std::string backend() const { return gkrun_session_backend(session_); }

  py::list inputs() const { return describe(true); }
  py::list outputs() const { return describe(false); }

  // feeds: (name, dtype code, array or list of str), or for sequence and optional
  // inputs the forms feed_value reads; returns every output in the model's order.
  // Tensor-only feeds take gkrun_session_run, which borrows the arrays; any other
  // goes through gkrun values (copies).
  py::list run(const py::list& feeds) {
    bool tensors_only = true;
    for (const py::handle& f : feeds) tensors_only = tensors_only && !py::isinstance<py::str>(f.cast<py::tuple>()[1]);
    std::vector<std::string> names(feeds.size());
    std::vector<FeedTensor> owned(feeds.size());
    std::vector<gkrun_tensor> inputs(feeds.size());
    std::vector<OwnedValue> values;
    std::vector<const gkrun_value*> value_ptrs;
    std::vector<const char*> name_ptrs;
    for (size_t i = 0; i < feeds.size(); ++i) {
      py::tuple f = feeds[i].cast<py::tuple>();
      names[i] = f[0].cast<std::string>();
      if (tensors_only) {
        inputs[i] = owned[i].load(f, 1, names[i]);
        inputs[i].name = names[i].c_str();
      } else {
        values.push_back(feed_value(f, names[i]));
        value_ptrs.push_back(values.back().get());
        name_ptrs.push_back(names[i].c_str());
      }
    }
    gkrun_values* raw = nullptr;
    gkrun_status* st = nullptr;
    {
      py::gil_scoped_release unlocked;
      st = tensors_only ? gkrun_session_run(session_, inputs.data(), inputs.size(), &raw)
                        : gkrun_session_run_values(session_, name_ptrs.data(), value_ptrs.data(), value_ptrs.size(), &raw);
    }
    check(st);
    std::unique_ptr<gkrun_values, ValuesDeleter> results(raw);
    py::list out;
    for (size_t i = 0; i < gkrun_values_count(raw); ++i) {
      const gkrun_value* v = nullptr;
      check(gkrun_values_value(raw, i, &v));
      out.append(to_python(v));
    }
    return out;
  }

  void end_profiling(const std::string& path) { check(gkrun_session_end_profiling(session_, path.c_str())); }

 private:
  py::list describe(bool inputs) const {
    py::list out;
    const size_t n = inputs ? gkrun_session_input_count(session_) : gkrun_session_output_count(session_);
    for (size_t i = 0; i < n; ++i) {
      gkrun_io_info info;
      check(inputs ? gkrun_session_input_info(session_, i, &info) : gkrun_session_output_info(session_, i, &info));
      out.append(io_dict(info));
    }
    return out;
  }

  gkrun_session* session_ = nullptr;
};

}  // namespace

PYBIND11_MODULE(_gkrun, m) {
  m.doc() = "gkrun's native session (use gkrun.InferenceSession)";
  // gkrun.Error: a RuntimeError whose `code` attribute is the status code's name.
  // The type lives as long as the module (held by its dict); the translator
  // borrows it.
  static PyObject* error_type = PyErr_NewException("gkrun._gkrun.Error", PyExc_RuntimeError, nullptr);
  m.attr("Error") = py::reinterpret_borrow<py::object>(error_type);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const GkError& e) {
      py::object exc = py::reinterpret_borrow<py::object>(error_type)(py::str(e.code + ": " + e.message));
      exc.attr("code") = e.code;
      PyErr_SetObject(error_type, exc.ptr());
    }
  });
  m.def("version", [] { return std::string(gkrun_version()); });
  m.def("dtype_name", [](int code) { return std::string(gkrun_dtype_name(static_cast<gkrun_dtype>(code))); });
  py::class_<Session>(m, "Session")
      .def(py::init<py::object, const std::string&, int, int, const std::vector<std::string>&, bool, bool, double>(),
           py::arg("model"), py::arg("backend") = "auto", py::arg("device") = -1, py::arg("threads") = 0,
           py::arg("disabled_passes") = std::vector<std::string>{}, py::arg("profiling") = false,
           py::arg("cuda_graphs") = true, py::arg("run_timeout") = 0.0)
      .def_property_readonly("backend", &Session::backend)
      .def("inputs", &Session::inputs)
      .def("outputs", &Session::outputs)
      .def("run", &Session::run)
      .def("end_profiling", &Session::end_profiling);
}

// gkrun._gkrun: the Python module's native half, a thin layer over the C API
// (runtime/api/gkrun.h). It holds a session, describes its inputs and outputs,
// runs numpy arrays and returns numpy arrays; the onnxruntime-shaped classes
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

// An input: a C-contiguous numpy array whose dtype the Python side has mapped to
// a gkrun dtype code, or a list of str for a string tensor.
struct Feed {
  std::string name;
  int dtype = 0;
  std::vector<int64_t> shape;
  py::array array;
  std::vector<std::string> strings;
  std::vector<const char*> string_ptrs;
};

class Session {
 public:
  Session(py::object model, const std::string& backend, int device, int threads,
          const std::vector<std::string>& disabled_passes, bool profiling, bool cuda_graphs) {
    gkrun_options* raw = nullptr;
    check(gkrun_options_create(&raw));
    std::unique_ptr<gkrun_options, OptionsDeleter> options(raw);
    check(gkrun_options_set_backend(raw, backend.c_str()));
    check(gkrun_options_set_device(raw, device));
    check(gkrun_options_set_threads(raw, threads));
    check(gkrun_options_set_profiling(raw, profiling ? 1 : 0));
    check(gkrun_options_set_cuda_graphs(raw, cuda_graphs ? 1 : 0));
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

  // feeds: (name, dtype code, array or list of str); returns every output in
  // the model's order.
  py::list run(const py::list& feeds) {
    std::vector<Feed> owned(feeds.size());
    std::vector<gkrun_tensor> inputs(feeds.size());
    for (size_t i = 0; i < feeds.size(); ++i) {
      py::tuple f = feeds[i].cast<py::tuple>();
      Feed& d = owned[i];
      d.name = f[0].cast<std::string>();
      d.dtype = f[1].cast<int>();
      if (d.dtype == GKRUN_DTYPE_STRING) {
        d.shape = f[3].cast<std::vector<int64_t>>();
        d.strings = f[2].cast<std::vector<std::string>>();
        for (const std::string& s : d.strings) d.string_ptrs.push_back(s.c_str());
        inputs[i] = {d.name.c_str(), GKRUN_DTYPE_STRING, d.shape.data(), d.shape.size(), d.string_ptrs.data(),
                     d.string_ptrs.size() * sizeof(const char*)};
        continue;
      }
      d.array = py::array::ensure(f[2], py::array::c_style);
      if (!d.array) throw GkError{"InvalidArgument", "input '" + d.name + "' is not an array"};
      d.shape.assign(d.array.shape(), d.array.shape() + d.array.ndim());
      inputs[i] = {d.name.c_str(), static_cast<gkrun_dtype>(d.dtype), d.shape.data(), d.shape.size(),
                   d.array.data(), static_cast<size_t>(d.array.nbytes())};
    }
    gkrun_values* raw = nullptr;
    gkrun_status* st = nullptr;
    {
      py::gil_scoped_release unlocked;
      st = gkrun_session_run(session_, inputs.data(), inputs.size(), &raw);
    }
    check(st);
    std::unique_ptr<gkrun_values, ValuesDeleter> values(raw);
    py::list out;
    for (size_t i = 0; i < gkrun_values_count(raw); ++i) {
      gkrun_tensor t;
      check(gkrun_values_get(raw, i, &t));
      out.append(to_numpy(t));
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
      .def(py::init<py::object, const std::string&, int, int, const std::vector<std::string>&, bool, bool>(),
           py::arg("model"), py::arg("backend") = "auto", py::arg("device") = -1, py::arg("threads") = 0,
           py::arg("disabled_passes") = std::vector<std::string>{}, py::arg("profiling") = false,
           py::arg("cuda_graphs") = true)
      .def_property_readonly("backend", &Session::backend)
      .def("inputs", &Session::inputs)
      .def("outputs", &Session::outputs)
      .def("run", &Session::run)
      .def("end_profiling", &Session::end_profiling);
}

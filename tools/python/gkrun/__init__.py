"""gkrun: an ONNX inference runtime, with onnxruntime's Python shape.

    import gkrun as ort   # was: import onnxruntime as ort
    sess = ort.InferenceSession("model.onnx", providers=["CUDAExecutionProvider", "CPUExecutionProvider"])
    x = sess.get_inputs()[0]
    (y,) = sess.run(None, {x.name: array})

What is here: InferenceSession (path or bytes; get_inputs, get_outputs,
get_providers, run, end_profiling), SessionOptions (intra_op_num_threads,
enable_profiling, profile_file_prefix, graph_optimization_level,
disabled_optimizers), NodeArg, GraphOptimizationLevel, get_available_providers,
get_version_string. Errors raise gkrun.Error (a RuntimeError) whose `code` is the
status code's name ("InvalidArgument", "InvalidModel", ...).
"""
import enum
import time
import warnings

import numpy as np

from ._gkrun import Error
from ._gkrun import Session as _Session
from ._gkrun import dtype_name as _dtype_name
from ._gkrun import version as _version

__version__ = _version()

__all__ = [
    "Error",
    "GraphOptimizationLevel",
    "InferenceSession",
    "NodeArg",
    "SessionOptions",
    "get_available_providers",
    "get_version_string",
]

_CUDA = "CUDAExecutionProvider"
_CPU = "CPUExecutionProvider"

# ONNX TensorProto codes <-> onnxruntime's type names and numpy dtypes.
_ORT_TYPE = {
    1: "float", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32", 7: "int64", 8: "string",
    9: "bool", 10: "float16", 11: "double", 12: "uint32", 13: "uint64", 16: "bfloat16",
}
_NUMPY_CODE = {
    np.dtype(np.float32): 1, np.dtype(np.uint8): 2, np.dtype(np.int8): 3, np.dtype(np.uint16): 4,
    np.dtype(np.int16): 5, np.dtype(np.int32): 6, np.dtype(np.int64): 7, np.dtype(np.bool_): 9,
    np.dtype(np.float16): 10, np.dtype(np.float64): 11, np.dtype(np.uint32): 12, np.dtype(np.uint64): 13,
}
# The graph passes, by name (graph/passes/passes.cpp).
_PASSES = ["eliminate-dead", "remove-identity", "fold-constants", "fold-batchnorm", "fuse-activation"]


def _error(code, message):
    e = Error("%s: %s" % (code, message))
    e.code = code
    return e


def get_version_string():
    return __version__


def get_available_providers():
    """Both are built in: CUDA runs where a driver and GPU are present (the CUDA
    libraries are loaded at run time), the CPU everywhere."""
    return [_CUDA, _CPU]


class GraphOptimizationLevel(enum.IntEnum):
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class SessionOptions:
    """intra_op_num_threads: CPU workers (0: all cores). enable_profiling and
    profile_file_prefix: InferenceSession.end_profiling() writes
    <prefix>_<timestamp>.json, a Chrome trace. graph_optimization_level:
    ORT_DISABLE_ALL turns every gkrun pass off, ORT_ENABLE_BASIC keeps the
    clean-ups (dead nodes, Identity removal, constant folding) and drops the
    fusions, the others keep all. disabled_optimizers: pass names to turn off
    (eliminate-dead, remove-identity, fold-constants, fold-batchnorm,
    fuse-activation). enable_cuda_graph: capture and replay on CUDA (default on).
    run_timeout (a gkrun extension): a run past this many seconds stops with
    gkrun.Error code "DeadlineExceeded" (0: no limit)."""

    def __init__(self):
        self.intra_op_num_threads = 0
        self.inter_op_num_threads = 0  # accepted for compatibility; gkrun runs one stream
        self.enable_profiling = False
        self.profile_file_prefix = "gkrun_profile"
        self.graph_optimization_level = GraphOptimizationLevel.ORT_ENABLE_ALL
        self.disabled_optimizers = []
        self.enable_cuda_graph = True
        self.run_timeout = 0.0
        self.log_severity_level = 2  # accepted for compatibility

    def _disabled_passes(self):
        level = int(self.graph_optimization_level)
        disabled = set(self.disabled_optimizers)
        if level == GraphOptimizationLevel.ORT_DISABLE_ALL:
            disabled.update(_PASSES)
        elif level == GraphOptimizationLevel.ORT_ENABLE_BASIC:
            disabled.update(["fold-batchnorm", "fuse-activation"])
        return sorted(disabled)


class NodeArg:
    """A graph input or output: name, shape (ints, symbol strings, None for an
    unnamed unknown dim; None when the model declares no shape) and type
    ("tensor(float)", "seq(tensor(float))", "optional(tensor(int64))")."""

    def __init__(self, desc):
        self.name = desc["name"]
        self.shape = desc["shape"]
        element = "tensor(%s)" % _ORT_TYPE.get(desc["dtype"], _dtype_name(desc["dtype"]))
        self.type = {0: element, 1: "seq(%s)" % element}.get(desc["kind"], "optional(%s)" % element)
        self._dtype = desc["dtype"]
        self._kind = desc["kind"]

    def __repr__(self):
        return "NodeArg(name=%r, type=%r, shape=%r)" % (self.name, self.type, self.shape)


def _backend_for(providers, provider_options):
    """onnxruntime's provider list -> gkrun's backend and CUDA device."""
    if not providers:
        return "auto", -1
    names, device = [], -1
    for i, p in enumerate(providers):
        options = {}
        if isinstance(p, (tuple, list)):
            p, options = p[0], dict(p[1])
        elif provider_options and i < len(provider_options):
            options = dict(provider_options[i])
        if p not in (_CUDA, _CPU):
            warnings.warn("gkrun: provider %s is not available; available: %s" % (p, get_available_providers()))
            continue
        if p == _CUDA and "device_id" in options:
            device = int(options["device_id"])
        names.append(p)
    if not names:
        raise ValueError("gkrun: none of the providers %r is available; available: %s"
                         % (providers, get_available_providers()))
    if names[0] == _CPU:
        return "cpu", -1
    return ("auto" if _CPU in names else "cuda"), device


def _tensor(name, value, dtype):
    """One tensor for the native run: (dtype code, array) or (8, [str], shape)."""
    if dtype == 8 or np.asarray(value).dtype.kind in "USO":
        strings = np.asarray(value, dtype=object)
        return (8, [str(s) for s in strings.reshape(-1)], list(strings.shape))
    array = np.asarray(value)  # not ascontiguousarray: it makes a 0-d array 1-d
    if not array.flags.c_contiguous:
        array = array.copy(order="C")
    code = _NUMPY_CODE.get(array.dtype)
    if code is None:
        raise _error("InvalidArgument", "input '%s': numpy dtype %s has no ONNX tensor type gkrun runs"
                     % (name, array.dtype))
    return (code, array)


def _feed(name, value, desc):
    """An input as onnxruntime takes it: an array; for a sequence input a list of
    arrays; for an optional input None (empty), a list (a sequence) or an array."""
    kind, dtype = (desc._kind, desc._dtype) if desc is not None else (0, 0)
    if value is None:
        return (name, "none")
    if kind == 1 or (kind == 2 and isinstance(value, (list, tuple))):
        parts = [_tensor(name, v, dtype) for v in value]
        return (name, "seq", dtype or (parts[0][0] if parts else 0), parts)
    return (name,) + _tensor(name, value, dtype)


class InferenceSession:
    """InferenceSession(path_or_bytes, sess_options=None, providers=None,
    provider_options=None). run(output_names, input_feed) returns a list of numpy
    arrays, in output_names' order (all outputs when output_names is None); as in
    onnxruntime, a sequence is a list of arrays and an empty optional is None,
    both as inputs and as outputs."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None, **kwargs):
        options = sess_options or SessionOptions()
        backend, device = _backend_for(providers, provider_options)
        model = path_or_bytes if isinstance(path_or_bytes, bytes) else str(path_or_bytes)
        self._options = options
        self._session = _Session(model, backend=backend, device=device,
                                 threads=int(options.intra_op_num_threads),
                                 disabled_passes=options._disabled_passes(),
                                 profiling=bool(options.enable_profiling),
                                 cuda_graphs=bool(options.enable_cuda_graph),
                                 run_timeout=float(options.run_timeout))
        self._inputs = [NodeArg(d) for d in self._session.inputs()]
        self._outputs = [NodeArg(d) for d in self._session.outputs()]
        self._by_input = {a.name: a for a in self._inputs}

    def get_inputs(self):
        return list(self._inputs)

    def get_outputs(self):
        return list(self._outputs)

    def get_overridable_initializers(self):
        return []

    def get_providers(self):
        return [_CUDA, _CPU] if self._session.backend == "cuda" else [_CPU]

    def get_session_options(self):
        return self._options

    def run(self, output_names, input_feed, run_options=None):
        feeds = [_feed(name, value, self._by_input.get(name)) for name, value in input_feed.items()]
        results = self._session.run(feeds)
        if not output_names:
            return results
        index = {a.name: i for i, a in enumerate(self._outputs)}
        missing = [n for n in output_names if n not in index]
        if missing:
            raise _error("InvalidArgument", "no output %s; outputs are %s"
                         % (", ".join("'%s'" % n for n in missing), ", ".join("'%s'" % a.name for a in self._outputs)))
        return [results[index[n]] for n in output_names]

    def end_profiling(self):
        """Writes the launches recorded since the session opened (or the last
        call) as a Chrome trace and returns its file name."""
        path = "%s_%s.json" % (self._options.profile_file_prefix, time.strftime("%Y-%m-%d_%H-%M-%S"))
        self._session.end_profiling(path)
        return path

"""The Python module against numpy: tests/api/affine.onnx (y = relu(x @ W + b),
n = shape(x)) and models built here with onnx's helpers, each output compared
with the same arithmetic in numpy; the onnxruntime-shaped surface (NodeArg,
providers, SessionOptions, run's output selection, end_profiling) and the errors'
codes and messages."""
import json
import os
import pathlib

import numpy as np
import pytest

import gkrun

SOURCE = pathlib.Path(os.environ.get("GK_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
AFFINE = SOURCE / "tests" / "api" / "affine.onnx"
W = np.array([0.5, -1.0, 2.0, 0.25, -0.5, 1.5], np.float32).reshape(3, 2)
B = np.array([0.1, -0.2], np.float32)
CPU = ["CPUExecutionProvider"]


def affine_reference(x):
    return np.maximum(x @ W + B, 0)


@pytest.fixture(scope="module")
def session():
    return gkrun.InferenceSession(str(AFFINE), providers=CPU)


def test_inputs_and_outputs_describe_the_model(session):
    (x,) = session.get_inputs()
    assert (x.name, x.shape, x.type) == ("x", ["batch", 3], "tensor(float)")
    y, n = session.get_outputs()
    assert (y.name, y.shape, y.type) == ("y", ["batch", 2], "tensor(float)")
    assert (n.name, n.shape, n.type) == ("n", [2], "tensor(int64)")
    assert session.get_providers() == CPU
    assert gkrun.get_version_string() == gkrun.__version__ == "0.2.0"


def test_run_matches_numpy(session):
    rng = np.random.default_rng(7)
    for batch in (1, 5, 64):
        x = rng.standard_normal((batch, 3)).astype(np.float32)
        y, n = session.run(None, {"x": x})
        assert y.dtype == np.float32 and y.shape == (batch, 2)
        np.testing.assert_allclose(y, affine_reference(x), rtol=1e-5, atol=1e-6)
        assert n.dtype == np.int64 and n.tolist() == [batch, 3]


def test_run_selects_outputs_by_name(session):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (n,) = session.run(["n"], {"x": x})
    assert n.tolist() == [2, 3]
    n2, y = session.run(["n", "y"], {"x": x})
    np.testing.assert_allclose(y, affine_reference(x), rtol=1e-5, atol=1e-6)


def test_non_contiguous_input_is_read_in_logical_order(session):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)[:, 1:]  # a strided view
    (y,) = session.run(["y"], {"x": x})
    np.testing.assert_allclose(y, affine_reference(np.ascontiguousarray(x)), rtol=1e-5, atol=1e-6)


def test_open_from_bytes_and_options():
    options = gkrun.SessionOptions()
    options.intra_op_num_threads = 1
    options.graph_optimization_level = gkrun.GraphOptimizationLevel.ORT_DISABLE_ALL
    s = gkrun.InferenceSession(AFFINE.read_bytes(), sess_options=options, providers=CPU)
    x = np.full((4, 3), -0.5, np.float32)
    (y,) = s.run(["y"], {"x": x})
    np.testing.assert_allclose(y, affine_reference(x), rtol=1e-5, atol=1e-6)


def test_providers_map_to_backends():
    s = gkrun.InferenceSession(str(AFFINE), providers=["CPUExecutionProvider", "CUDAExecutionProvider"])
    assert s.get_providers() == CPU
    with pytest.warns(UserWarning, match="TensorrtExecutionProvider is not available"):
        s = gkrun.InferenceSession(str(AFFINE), providers=["TensorrtExecutionProvider", "CPUExecutionProvider"])
    assert s.get_providers() == CPU
    with pytest.raises(ValueError, match="none of the providers"):
        with pytest.warns(UserWarning):
            gkrun.InferenceSession(str(AFFINE), providers=["TensorrtExecutionProvider"])
    assert "CPUExecutionProvider" in gkrun.get_available_providers()


def test_profiling_writes_a_chrome_trace(tmp_path):
    options = gkrun.SessionOptions()
    options.enable_profiling = True
    options.profile_file_prefix = str(tmp_path / "affine")
    s = gkrun.InferenceSession(str(AFFINE), sess_options=options, providers=CPU)
    for _ in range(3):
        s.run(None, {"x": np.ones((2, 3), np.float32)})
    path = s.end_profiling()
    assert path.startswith(str(tmp_path / "affine_")) and path.endswith(".json")
    trace = json.loads(pathlib.Path(path).read_text())
    launches = [e for e in trace["traceEvents"] if e.get("ph") == "X"]
    gemm = [e for e in launches if "gemm" in e["args"]["nodes"]]
    assert len(gemm) == 3, launches  # one Gemm launch per run (the Relu is fused into it or runs beside it)
    assert all(e["dur"] >= 0 for e in launches)


def test_end_profiling_without_profiling_is_an_error(session):
    with pytest.raises(gkrun.Error, match="profiling is off") as e:
        session.end_profiling()
    assert e.value.code == "InvalidArgument"


def test_errors_carry_code_and_message(session, tmp_path):
    with pytest.raises(gkrun.Error) as e:
        session.run(None, {"nope": np.ones((1, 3), np.float32)})
    assert e.value.code == "InvalidArgument" and "nope" in str(e.value)
    with pytest.raises(gkrun.Error) as e:
        session.run(["z"], {"x": np.ones((1, 3), np.float32)})
    assert e.value.code == "InvalidArgument" and "no output 'z'; outputs are 'y', 'n'" in str(e.value)
    with pytest.raises(gkrun.Error) as e:
        session.run(None, {"x": np.ones((1, 3), np.complex64)})
    assert e.value.code == "InvalidArgument" and "numpy dtype complex64" in str(e.value)
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"definitely not a model")
    with pytest.raises(gkrun.Error) as e:
        gkrun.InferenceSession(str(bad), providers=CPU)
    assert e.value.code == "InvalidModel" and "bad.onnx" in str(e.value)
    options = gkrun.SessionOptions()
    options.disabled_optimizers = ["no-such-pass"]
    with pytest.raises(gkrun.Error) as e:
        gkrun.InferenceSession(str(AFFINE), sess_options=options, providers=CPU)
    assert e.value.code == "InvalidArgument" and "unknown pass 'no-such-pass'" in str(e.value)
    assert isinstance(e.value, RuntimeError)


def test_run_timeout_stops_an_endless_loop():
    # tests/api/endless_loop.onnx (make_value_models.py): a Loop of 2^62 iterations.
    options = gkrun.SessionOptions()
    options.run_timeout = 0.2
    s = gkrun.InferenceSession(str(SOURCE / "tests" / "api" / "endless_loop.onnx"), sess_options=options,
                               providers=CPU)
    with pytest.raises(gkrun.Error) as e:
        s.run(None, {"x": np.ones((1,), np.float32)})
    assert e.value.code == "DeadlineExceeded" and "the run's deadline passed before node '" in str(e.value)
    options.run_timeout = -1.0
    with pytest.raises(gkrun.Error) as e:
        gkrun.InferenceSession(str(AFFINE), sess_options=options, providers=CPU)
    assert e.value.code == "InvalidArgument" and "must be >= 0" in str(e.value)


# Models built with onnx's helpers (python3-onnx); skipped without it.
onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper  # noqa: E402


def make_model(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "t", inputs, outputs, list(initializers))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)]).SerializeToString()


def test_softmax_matmul_and_reduce_match_numpy():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((16, 8)).astype(np.float32)
    model = make_model(
        [helper.make_node("MatMul", ["a", "w"], ["m"]),
         helper.make_node("Softmax", ["m"], ["p"], axis=-1),
         helper.make_node("ReduceSum", ["p", "axes"], ["total"], keepdims=0)],
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [None, 16])],
        [helper.make_tensor_value_info("p", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("total", TensorProto.FLOAT, None)],
        [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.reshape(-1)),
         helper.make_tensor("axes", TensorProto.INT64, [1], [1])])
    s = gkrun.InferenceSession(model, providers=CPU)
    assert s.get_inputs()[0].shape == [None, 16]
    a = rng.standard_normal((10, 16)).astype(np.float32)
    p, total = s.run(None, {"a": a})
    m = a.astype(np.float64) @ w.astype(np.float64)
    e = np.exp(m - m.max(axis=1, keepdims=True))
    np.testing.assert_allclose(p, e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(total, np.ones(10), rtol=1e-5)


@pytest.mark.parametrize("np_dtype,onnx_type", [
    (np.int64, TensorProto.INT64), (np.int32, TensorProto.INT32), (np.uint8, TensorProto.UINT8),
    (np.float16, TensorProto.FLOAT16), (np.float64, TensorProto.DOUBLE)])
def test_dtypes_round_trip_through_add(np_dtype, onnx_type):
    model = make_model([helper.make_node("Add", ["a", "b"], ["c"])],
                       [helper.make_tensor_value_info("a", onnx_type, [2, 3]),
                        helper.make_tensor_value_info("b", onnx_type, [3])],
                       [helper.make_tensor_value_info("c", onnx_type, [2, 3])])
    s = gkrun.InferenceSession(model, providers=CPU)
    a = np.array([[1, 2, 3], [4, 5, 6]], np_dtype)
    b = np.array([10, 20, 30], np_dtype)
    (c,) = s.run(None, {"a": a, "b": b})
    assert c.dtype == np_dtype
    np.testing.assert_array_equal(c, a + b)


def test_bool_and_string_tensors():
    model = make_model(
        [helper.make_node("Not", ["flags"], ["inverted"]),
         helper.make_node("StringNormalizer", ["words"], ["lower"], case_change_action="LOWER",
                          domain="")],
        [helper.make_tensor_value_info("flags", TensorProto.BOOL, [4]),
         helper.make_tensor_value_info("words", TensorProto.STRING, [3])],
        [helper.make_tensor_value_info("inverted", TensorProto.BOOL, [4]),
         helper.make_tensor_value_info("lower", TensorProto.STRING, None)])
    s = gkrun.InferenceSession(model, providers=CPU)
    assert s.get_inputs()[1].type == "tensor(string)"
    flags = np.array([True, False, False, True])
    inverted, lower = s.run(None, {"flags": flags, "words": np.array(["Hello", "WORLD", "gkrun"])})
    assert inverted.dtype == np.bool_ and inverted.tolist() == [False, True, True, False]
    assert lower.tolist() == ["hello", "world", "gkrun"]
    with pytest.raises(gkrun.Error) as e:
        s.run(None, {"flags": flags, "wrods": np.array(["a", "b", "c"])})
    assert e.value.code == "InvalidArgument" and "wrods" in str(e.value)


def test_scalar_inputs_keep_rank_zero():
    model = make_model([helper.make_node("Mul", ["x", "k"], ["y"])],
                       [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3]),
                        helper.make_tensor_value_info("k", TensorProto.FLOAT, [])],
                       [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])])
    s = gkrun.InferenceSession(model, providers=CPU)
    assert s.get_inputs()[1].shape == []
    (y,) = s.run(None, {"x": np.array([1, 2, 3], np.float32), "k": np.float32(2.5)})
    np.testing.assert_array_equal(y, [2.5, 5.0, 7.5])
    with pytest.raises(gkrun.Error) as e:
        s.run(None, {"x": np.array([1, 2, 3], np.float32), "k": np.array([2.5], np.float32)})
    assert e.value.code == "InvalidArgument" and "input 'k' has rank 1" in str(e.value)


def test_sequences_are_lists_of_arrays():
    # tests/api/sequence.onnx (make_value_models.py): total = concat(parts), count = len(parts),
    # pieces = split(x, [1, 2]), pair = (x, total).
    s = gkrun.InferenceSession(str(SOURCE / "tests" / "api" / "sequence.onnx"), providers=CPU)
    parts_arg = s.get_inputs()[0]
    assert (parts_arg.name, parts_arg.type) == ("parts", "seq(tensor(float))")
    parts = [np.array([1, 2], np.float32), np.array([3, 4, 5], np.float32)]
    x = np.array([7, 8, 9], np.float32)
    total, count, pieces, pair = s.run(None, {"parts": parts, "x": x})
    np.testing.assert_array_equal(total, np.concatenate(parts))
    assert count.shape == () and int(count) == 2
    assert isinstance(pieces, list) and [p.tolist() for p in pieces] == [[7], [8, 9]]
    assert [p.tolist() for p in pair] == [x.tolist(), np.concatenate(parts).tolist()]
    # An output sequence fed back; an element of the wrong dtype is refused by name.
    (total,) = s.run(["total"], {"parts": pieces, "x": x})
    assert total.tolist() == [7, 8, 9]
    with pytest.raises(gkrun.Error, match="element 0 is float64, the sequence holds float32") as e:
        s.run(None, {"parts": [np.array([1.0])], "x": x})
    assert e.value.code == "InvalidArgument"


def test_empty_optionals_are_none():
    # tests/api/optional.onnx: has = OptionalHasElement(maybe), wrapped = Optional(x), empty = Optional().
    s = gkrun.InferenceSession(str(SOURCE / "tests" / "api" / "optional.onnx"), providers=CPU)
    assert s.get_inputs()[0].type == "optional(tensor(float))"
    x = np.array([7, 8], np.float32)
    has, wrapped, empty = s.run(None, {"maybe": None, "x": x})
    assert has.dtype == np.bool_ and not has and empty is None
    assert wrapped.tolist() == [7, 8]
    (has,) = s.run(["has"], {"maybe": np.array([1, 2], np.float32), "x": x})
    assert has
    with pytest.raises(gkrun.Error, match="input 'x' is an empty optional, the model declares a tensor"):
        s.run(None, {"maybe": None, "x": None})

"""ONNX backend node cases through the Python module and gkrun.backend (the
onnx.backend.base.Backend interface), from ../shared/onnx-backend-data/node:
each case's model.onnx run on its test_data_set_*/input_*.pb and compared with
output_*.pb at the backend test runner's tolerances (rtol 1e-3, atol 1e-7; the
C++ conformance runner uses the same). By default a fixed sample of cases from
the allow-list (tests/conformance/allowlist.txt); GK_PY_NODE_ALL=1 runs every
allow-listed node case whose tensors numpy can hold. Skipped without onnx
(python3-onnx) or the data folder."""
import os
import pathlib

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
from onnx import numpy_helper  # noqa: E402

import gkrun.backend  # noqa: E402

SOURCE = pathlib.Path(os.environ.get("GK_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
DATA = SOURCE.parent / "shared" / "onnx-backend-data" / "node"
ALLOWLIST = SOURCE / "tests" / "conformance" / "allowlist.txt"

# A spread of op families: elementwise, broadcasting, matmul/gemm, conv, pooling,
# normalisation, reductions, data movement, gather/scatter, casts, control flow,
# sequences and optionals (lists and None through the module).
SAMPLE = [
    "test_add_bcast", "test_relu", "test_sigmoid", "test_matmul_3d", "test_gemm_all_attributes",
    "test_conv_with_strides_and_asymmetric_padding", "test_maxpool_2d_pads", "test_averagepool_2d_ceil",
    "test_batchnorm_epsilon", "test_layer_normalization_4d_axis1", "test_softmax_axis_1",
    "test_reduce_mean_keepdims_random", "test_transpose_all_permutations_3", "test_concat_3d_axis_negative_2",
    "test_slice_neg_steps", "test_gather_elements_1", "test_scatter_elements_with_reduction_max",
    "test_resize_upsample_scales_linear", "test_cast_FLOAT_to_FLOAT16", "test_where_example",
    "test_top_k_negative_axis", "test_argmax_keepdims_random", "test_range_float_type_positive_delta",
    "test_if", "test_loop11", "test_nonmaxsuppression_center_point_box_format", "test_cumsum_2d_axis_1",
    "test_einsum_batch_matmul", "test_equal_bcast", "test_expand_dim_changed",
    "test_sequence_insert_at_back", "test_split_to_sequence_1", "test_sequence_map_add_2_sequences",
    "test_optional_get_element_sequence", "test_optional_has_element_empty_optional_input",
]


def allowlisted():
    if not ALLOWLIST.exists():
        return set()
    return {line.strip().split("/", 1)[1] for line in ALLOWLIST.read_text().splitlines()
            if line.startswith("node/")}


def cases():
    listed = allowlisted()
    if os.environ.get("GK_PY_NODE_ALL") == "1":
        return sorted(listed)
    return [c for c in SAMPLE if not listed or c in listed]


# Element types numpy holds (bfloat16, float8, int4 and the like it does not).
NUMPY_TYPES = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}


def element_type(t):
    """The tensor element type under a tensor, seq(...) or optional(...) type, or
    None for a map or sparse tensor."""
    while True:
        kind = t.WhichOneof("value")
        if kind == "tensor_type":
            return t.tensor_type.elem_type
        if kind == "sequence_type":
            t = t.sequence_type.elem_type
        elif kind == "optional_type":
            t = t.optional_type.elem_type
        else:
            return None


def why_not_numpy(model):
    """Why this case's inputs or outputs cannot travel as numpy arrays (lists of
    them for sequences, None for empty optionals), or None."""
    for vi in list(model.graph.input) + list(model.graph.output):
        elem = element_type(vi.type)
        if elem is None:
            return "%s is a %s" % (vi.name, vi.type.WhichOneof("value"))
        if elem not in NUMPY_TYPES:
            return "%s has element type %d" % (vi.name, elem)
    return None


def load_values(folder, prefix, infos):
    """input_N.pb / output_N.pb as the Python values the module takes and gives:
    a TensorProto as an array, a SequenceProto as a list, an OptionalProto as its
    value or None, each parsed as its graph input or output declares."""
    values = []
    for i, info in enumerate(infos):
        path = folder / ("%s_%d.pb" % (prefix, i))
        if not path.exists():
            break
        kind = info.type.WhichOneof("value")
        proto = {"sequence_type": onnx.SequenceProto, "optional_type": onnx.OptionalProto}.get(kind, onnx.TensorProto)()
        proto.ParseFromString(path.read_bytes())
        if kind == "sequence_type":
            values.append([as_str(a) for a in numpy_helper.to_list(proto)])
        elif kind == "optional_type":
            v = numpy_helper.to_optional(proto)
            values.append(None if v is None else [as_str(a) for a in v] if isinstance(v, list) else as_str(v))
        else:
            values.append(as_str(numpy_helper.to_array(proto)))
    return values


def as_str(a):
    """bytes elements of a string tensor as str, as the module returns them."""
    if a.dtype != object:
        return a
    return np.array([s.decode() if isinstance(s, bytes) else s for s in a.reshape(-1)], dtype=object).reshape(a.shape)


def check_value(got, want, where):
    if want is None or isinstance(want, list):
        assert type(got) is type(want), "%s: got %r, want %r" % (where, type(got), type(want))
        if want is not None:
            assert len(got) == len(want), "%s: %d elements, want %d" % (where, len(got), len(want))
            for k, (g, w) in enumerate(zip(got, want)):
                check_value(g, w, "%s[%d]" % (where, k))
        return
    assert got.shape == want.shape, "%s: shape %s, want %s" % (where, got.shape, want.shape)
    if want.dtype == object:
        assert got.reshape(-1).tolist() == want.reshape(-1).tolist(), where
    elif np.issubdtype(want.dtype, np.floating):
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-3, atol=1e-7,
                                   err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


@pytest.mark.parametrize("case", cases())
def test_node_case(case):
    folder = DATA / case
    if not folder.is_dir():
        pytest.skip("%s absent (the ONNX backend data lives in ../shared/onnx-backend-data)" % folder)
    model = onnx.load(str(folder / "model.onnx"))
    reason = why_not_numpy(model)
    if reason:
        pytest.skip("the C++ conformance runner's case: %s" % reason)
    rep = None
    initialized = {x.name for x in model.graph.initializer}
    graph_inputs = [i for i in model.graph.input if i.name not in initialized]
    for data_set in sorted(folder.glob("test_data_set_*")):
        feed = load_values(data_set, "input", graph_inputs)
        want = load_values(data_set, "output", model.graph.output)
        if len(feed) != len(graph_inputs):
            pytest.skip("optional inputs left out: the C++ runner's case")
        rep = rep or gkrun.backend.prepare(model, device="CPU")
        got = rep.run({i.name: v for i, v in zip(graph_inputs, feed)})
        assert len(got) == len(want)
        for g, w, info in zip(got, want, model.graph.output):
            check_value(g, w, "%s: output %s" % (case, info.name))


def test_backend_interface():
    assert gkrun.backend.supports_device("CPU")
    assert not gkrun.backend.supports_device("TPU")

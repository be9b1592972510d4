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
# normalisation, reductions, data movement, gather/scatter, casts, control flow.
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


def why_not_numpy(model):
    """Why this case's inputs or outputs cannot travel as numpy arrays, or None."""
    for vi in list(model.graph.input) + list(model.graph.output):
        if not vi.type.HasField("tensor_type"):
            return "%s is a %s" % (vi.name, vi.type.WhichOneof("value"))
        if vi.type.tensor_type.elem_type not in NUMPY_TYPES:
            return "%s has element type %d" % (vi.name, vi.type.tensor_type.elem_type)
    return None


def load_tensors(folder, prefix):
    tensors = []
    for i in range(1000):
        path = folder / ("%s_%d.pb" % (prefix, i))
        if not path.exists():
            break
        t = onnx.TensorProto()
        t.ParseFromString(path.read_bytes())
        tensors.append(t)
    return tensors


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
    for data_set in sorted(folder.glob("test_data_set_*")):
        inputs = load_tensors(data_set, "input")
        outputs = load_tensors(data_set, "output")
        feed = [numpy_helper.to_array(t) for t in inputs]
        want = [numpy_helper.to_array(t) for t in outputs]
        if len(inputs) != len([i for i in model.graph.input if i.name not in {x.name for x in model.graph.initializer}]):
            pytest.skip("optional inputs left out: the C++ runner's case")
        rep = rep or gkrun.backend.prepare(model, device="CPU")
        names = [i.name for i in model.graph.input if i.name not in {x.name for x in model.graph.initializer}]
        feed = {n: (np.array([s.decode() if isinstance(s, bytes) else s for s in a.reshape(-1)], dtype=object)
                    .reshape(a.shape) if a.dtype == object else a) for n, a in zip(names, feed)}
        got = rep.run(feed)
        assert len(got) == len(want)
        for g, w, info in zip(got, want, model.graph.output):
            assert g.shape == w.shape, "%s: output %s shape %s, want %s" % (case, info.name, g.shape, w.shape)
            if w.dtype == object:
                w = np.array([s.decode() if isinstance(s, bytes) else s for s in w.reshape(-1)], dtype=object)
                assert g.reshape(-1).tolist() == w.tolist()
            elif np.issubdtype(w.dtype, np.floating):
                np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=1e-3, atol=1e-7,
                                           err_msg="%s: output %s" % (case, info.name))
            else:
                np.testing.assert_array_equal(g, w, err_msg="%s: output %s" % (case, info.name))


def test_backend_interface():
    assert gkrun.backend.supports_device("CPU")
    assert not gkrun.backend.supports_device("TPU")

#!/usr/bin/python3
"""Writes tests/api/affine.onnx, the small model the C API, package and Python
tests run: y = Relu(x @ W + b) for x float32 [batch, 3], and n = Shape(x) (int64).
W and b are below; the tests compute the same from them independently."""
import sys

import onnx
from onnx import TensorProto, helper

W = [0.5, -1.0, 2.0, 0.25, -0.5, 1.5]  # 3x2, row-major
B = [0.1, -0.2]


def main(path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 2])
    n = helper.make_tensor_value_info("n", TensorProto.INT64, [2])
    nodes = [
        helper.make_node("Gemm", ["x", "W", "b"], ["g"], name="gemm"),
        helper.make_node("Relu", ["g"], ["y"], name="relu"),
        helper.make_node("Shape", ["x"], ["n"], name="shape"),
    ]
    inits = [helper.make_tensor("W", TensorProto.FLOAT, [3, 2], W), helper.make_tensor("b", TensorProto.FLOAT, [2], B)]
    graph = helper.make_graph(nodes, "affine", [x], [y, n], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="gkrun-tests")
    onnx.checker.check_model(model)
    onnx.save(model, path)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/api/affine.onnx")

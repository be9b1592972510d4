#!/usr/bin/python3
"""Writes a chain of N tiny Adds (x + c, N times, on a 1x8 float tensor): a model
whose run time is per-launch overhead, for `gkrun bench` and compare_ort.sh.

usage: make_add_chain.py OUT.onnx [N]   (N defaults to 1000)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    c = numpy_helper.from_array(np.full((1, 8), 0.5, dtype=np.float32), "c")
    nodes = []
    prev = "x"
    for i in range(n):
        cur = "y" if i == n - 1 else f"t{i}"
        nodes.append(helper.make_node("Add", [prev, "c"], [cur], name=f"add{i}"))
        prev = cur
    graph = helper.make_graph(
        nodes, f"add_chain_{n}",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8])],
        initializer=[c])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, out)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Writes the models the C API's sequence and optional tests run (tests/api, kept
in the tree as affine.onnx is); the tests compute the expected values by hand.

sequence.onnx (opset 18):
  inputs  parts: seq(float32 [k])   x: float32 [3]
  total  = ConcatFromSequence(parts, axis=0)     float32 [sum of k]
  count  = SequenceLength(parts)                 int64 []
  pieces = SplitToSequence(x, split=[1, 2])      seq(float32): [x0], [x1, x2]
  pair   = SequenceConstruct(x, total)           seq(float32): x, total
optional.onnx (opset 18):
  inputs  maybe: optional(float32 [2])   x: float32 [2]
  has     = OptionalHasElement(maybe)            bool []
  wrapped = Optional(x)                          optional(float32 [2]) holding x
  empty   = Optional() (type float32)            optional(float32), always empty
optional_get.onnx (opset 18): the same inputs,
  y       = OptionalGetElement(maybe) + x        float32 [2]; an error when maybe is empty
endless_loop.onnx (opset 16): input x: float32 [1]
  y       = Loop(M = 2^62, cond = true, x), the body doubling x: a run that would
            take centuries, for the run timeout
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


def save(model, path):
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def sequence_model():
    f = TensorProto.FLOAT
    seq_f = helper.make_sequence_type_proto(helper.make_tensor_type_proto(f, ["k"]))
    inputs = [helper.make_value_info("parts", seq_f), helper.make_tensor_value_info("x", f, [3])]
    outputs = [
        helper.make_tensor_value_info("total", f, ["t"]),
        helper.make_tensor_value_info("count", TensorProto.INT64, []),
        helper.make_value_info("pieces", helper.make_sequence_type_proto(helper.make_tensor_type_proto(f, ["p"]))),
        helper.make_value_info("pair", helper.make_sequence_type_proto(helper.make_tensor_type_proto(f, ["q"]))),
    ]
    nodes = [
        helper.make_node("ConcatFromSequence", ["parts"], ["total"], axis=0, name="concat"),
        helper.make_node("SequenceLength", ["parts"], ["count"], name="length"),
        helper.make_node("SplitToSequence", ["x", "split"], ["pieces"], axis=0, name="split"),
        helper.make_node("SequenceConstruct", ["x", "total"], ["pair"], name="construct"),
    ]
    inits = [helper.make_tensor("split", TensorProto.INT64, [2], [1, 2])]
    graph = helper.make_graph(nodes, "sequences", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="gkrun-tests")


def optional_model(get):
    f = TensorProto.FLOAT
    opt_f = helper.make_optional_type_proto(helper.make_tensor_type_proto(f, [2]))
    inputs = [helper.make_value_info("maybe", opt_f), helper.make_tensor_value_info("x", f, [2])]
    if get:
        outputs = [helper.make_tensor_value_info("y", f, [2])]
        nodes = [
            helper.make_node("OptionalGetElement", ["maybe"], ["got"], name="get"),
            helper.make_node("Add", ["got", "x"], ["y"], name="add"),
        ]
    else:
        outputs = [
            helper.make_tensor_value_info("has", TensorProto.BOOL, []),
            helper.make_value_info("wrapped", opt_f),
            helper.make_value_info("empty", helper.make_optional_type_proto(helper.make_tensor_type_proto(f, None))),
        ]
        nodes = [
            helper.make_node("OptionalHasElement", ["maybe"], ["has"], name="has"),
            helper.make_node("Optional", ["x"], ["wrapped"], name="wrap"),
            helper.make_node("Optional", [], ["empty"], type=helper.make_tensor_type_proto(f, None), name="empty"),
        ]
    graph = helper.make_graph(nodes, "optionals", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], producer_name="gkrun-tests")


def endless_loop_model():
    f = TensorProto.FLOAT
    body = helper.make_graph(
        [helper.make_node("Add", ["x_in", "x_in"], ["x_out"], name="double"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="keep")],
        "body",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_in", f, [1])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("x_out", f, [1])])
    inits = [helper.make_tensor("m", TensorProto.INT64, [], [2**62]),
             helper.make_tensor("cond", TensorProto.BOOL, [], [True])]
    graph = helper.make_graph([helper.make_node("Loop", ["m", "cond", "x"], ["y"], body=body, name="loop")],
                              "endless", [helper.make_tensor_value_info("x", f, [1])],
                              [helper.make_tensor_value_info("y", f, [1])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], producer_name="gkrun-tests")


def main(folder):
    save(sequence_model(), os.path.join(folder, "sequence.onnx"))
    save(optional_model(get=False), os.path.join(folder, "optional.onnx"))
    save(optional_model(get=True), os.path.join(folder, "optional_get.onnx"))
    save(endless_loop_model(), os.path.join(folder, "endless_loop.onnx"))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))

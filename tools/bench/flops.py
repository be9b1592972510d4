#!/usr/bin/python3
"""Counts a model's multiply-accumulate work at given input shapes, for the
benchmark's achieved GFLOP/s: FLOPs = 2 x MACs of Conv, ConvTranspose, MatMul,
Gemm, LSTM, GRU and RNN (the ops that hold nearly all of a vision or sequence
model's arithmetic; elementwise ops, pooling and normalisation are left out, so
the figure is a slight undercount). Shapes come from ONNX shape inference with
the inputs bound to the given dims; shape arithmetic (Shape, Slice, Gather,
Concat, ... feeding a Reshape) that ONNX's own data propagation misses (Slice-1
in PaddleOCR's recogniser) is evaluated here with numpy and replaced by constants,
then inference runs again.

    /usr/bin/python3 tools/bench/flops.py MODEL [NAME=1x3x224x224 ...] [--json]

Prints the total GFLOPs (or a JSON object with flops, per-op-type flops and the
nodes whose shapes could not be inferred: those count as 0 and are named).
"""
import json
import sys

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference


def _prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def _bind_inputs(model, shapes):
    init = {t.name for t in model.graph.initializer}
    for inp in model.graph.input:
        if inp.name in init:
            continue
        dims = inp.type.tensor_type.shape.dim
        if inp.name in shapes:
            want = shapes[inp.name]
            if len(want) != len(dims):
                raise ValueError(f"input '{inp.name}' has rank {len(dims)}, shape {want} given")
            for d, v in zip(dims, want):
                d.ClearField("dim_param")
                d.dim_value = v
        elif any(not d.HasField("dim_value") for d in dims):
            raise ValueError(f"input '{inp.name}' has symbolic dims; give NAME=DIMS")


def _shape_table(model):
    table = {}
    for t in model.graph.initializer:
        table[t.name] = list(t.dims)
    vis = list(model.graph.value_info) + list(model.graph.input) + list(model.graph.output)
    for v in vis:
        tt = v.type.tensor_type
        if not tt.HasField("shape"):
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        if all(d is not None and d > 0 for d in dims) or dims == []:
            table[v.name] = dims
    return table


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def node_macs(node, shape):
    """MACs of one node, or None when a needed shape is unknown."""
    def s(i):
        return shape.get(node.input[i]) if i < len(node.input) and node.input[i] else None

    op = node.op_type
    if op == "Conv":
        w, y = s(0 + 1), shape.get(node.output[0])
        return None if w is None or y is None else _prod(y) * _prod(w[1:])
    if op == "ConvTranspose":
        x, w = s(0), s(1)
        return None if x is None or w is None else _prod(x) * _prod(w[1:])
    if op == "MatMul":
        a, y = s(0), shape.get(node.output[0])
        return None if a is None or y is None else _prod(y) * a[-1]
    if op == "Gemm":
        a, y = s(0), shape.get(node.output[0])
        if a is None or y is None:
            return None
        k = a[0] if _attr(node, "transA", 0) else a[1]
        return _prod(y) * k
    if op in ("LSTM", "GRU", "RNN"):
        x, w, r = s(0), s(1), s(2)
        if x is None or w is None or r is None:
            return None
        if _attr(node, "layout", 0):
            x = [x[1], x[0], x[2]]
        seq, batch = x[0], x[1]
        d, gh, inp = w
        hidden = r[2]
        return seq * batch * d * gh * (inp + hidden)
    return 0


def _ints(v):
    return [int(x) for x in np.asarray(v).reshape(-1)]


def _eval_shape_op(node, val, shape):
    """The value of a shape-arithmetic node's first output from known inputs, or None."""
    op = node.op_type
    ins = list(node.input)

    def v(i):
        return val.get(ins[i]) if i < len(ins) and ins[i] else None

    if op == "Shape":
        if ins[0] not in shape:
            return None
        dims = np.array(shape[ins[0]], dtype=np.int64)
        start, end = _attr(node, "start", 0), _attr(node, "end", None)
        return dims[start:end]
    if op == "Constant":
        for a in node.attribute:
            if a.name == "value":
                return numpy_helper.to_array(a.t)
            if a.name in ("value_int", "value_ints"):
                return np.array(onnx.helper.get_attribute_value(a), dtype=np.int64)
        return None
    if op == "Size":
        return None if ins[0] not in shape else np.array(_prod(shape[ins[0]]), dtype=np.int64)
    args = [v(i) for i in range(len(ins))]
    if any(a is None for a in args[:1]):
        return None
    x = args[0]
    if op == "Slice":
        if len(ins) == 1:
            starts, ends = _attr(node, "starts", []), _attr(node, "ends", [])
            axes = _attr(node, "axes", list(range(len(starts))))
            steps = [1] * len(starts)
        else:
            if any(a is None for a in args[1:]):
                return None
            starts, ends = _ints(args[1]), _ints(args[2])
            axes = _ints(args[3]) if len(args) > 3 else list(range(len(starts)))
            steps = _ints(args[4]) if len(args) > 4 else [1] * len(starts)
        idx = [slice(None)] * x.ndim
        for st, en, ax, sp in zip(starts, ends, axes, steps):
            idx[ax] = slice(st, en, sp)
        return x[tuple(idx)]
    if op == "Gather":
        if args[1] is None:
            return None
        return np.take(x, args[1], axis=_attr(node, "axis", 0))
    if op == "Concat":
        if any(a is None for a in args):
            return None
        return np.concatenate([np.atleast_1d(a) for a in args], axis=_attr(node, "axis", 0))
    if op in ("Unsqueeze", "Squeeze"):
        axes = _attr(node, "axes", None)
        if axes is None and len(args) > 1:
            if args[1] is None:
                return None
            axes = _ints(args[1])
        if op == "Unsqueeze":
            for ax in sorted(a % (x.ndim + len(axes)) for a in axes):
                x = np.expand_dims(x, ax)
            return x
        return np.squeeze(x, axis=tuple(axes)) if axes else np.squeeze(x)
    if op == "Cast":
        to = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[_attr(node, "to", onnx.TensorProto.INT64)]
        return x.astype(to)
    if op in ("Add", "Sub", "Mul", "Div"):
        if args[1] is None:
            return None
        y = args[1]
        if op == "Div" and np.issubdtype(x.dtype, np.integer):
            return x // y
        return {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide}[op](x, y)
    return None


SHAPE_OPS = {"Shape", "Size", "Slice", "Gather", "Concat", "Unsqueeze", "Squeeze", "Cast", "Add", "Sub", "Mul",
             "Div", "Constant"}


def _fold_shape_arithmetic(model):
    """Replaces shape-arithmetic nodes whose values are known by Constants; returns
    how many it replaced."""
    inferred = shape_inference.infer_shapes(model, data_prop=True)
    shape = _shape_table(inferred)
    val = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer if _prod(t.dims) <= 64}
    replaced = 0
    for i, node in enumerate(model.graph.node):
        if node.op_type not in SHAPE_OPS or len(node.output) != 1:
            continue
        try:
            out = _eval_shape_op(node, val, shape)
        except (ValueError, IndexError, TypeError, np.AxisError):
            out = None
        if out is None or out.size > 64 or not np.issubdtype(out.dtype, np.integer):
            continue
        val[node.output[0]] = out
        if node.op_type != "Constant":
            const = onnx.helper.make_node("Constant", [], [node.output[0]], name=node.name,
                                          value=numpy_helper.from_array(np.asarray(out), node.output[0]))
            model.graph.node[i].CopyFrom(const)
            replaced += 1
    return replaced


def count(path, shapes):
    model = onnx.load(path)
    _bind_inputs(model, shapes)
    for _ in range(8):
        if not _fold_shape_arithmetic(model):
            break
    inferred = shape_inference.infer_shapes(model, data_prop=True)
    shape = _shape_table(inferred)
    total, by_op, unknown = 0, {}, []
    for node in inferred.graph.node:
        macs = node_macs(node, shape)
        if macs is None:
            unknown.append(node.name or node.output[0])
            continue
        if macs:
            total += 2 * macs
            by_op[node.op_type] = by_op.get(node.op_type, 0) + 2 * macs
    return {"model": path, "flops": total, "by_op": by_op, "unknown_nodes": unknown}


def parse_shape(arg):
    name, _, dims = arg.partition("=")
    if not name or not dims:
        raise ValueError(f"expected NAME=DIMS (e.g. x=1x3x224x224), got '{arg}'")
    return name, [int(d) for d in dims.split("x")]


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 2
    as_json = "--json" in argv
    args = [a for a in argv if a != "--json"]
    try:
        shapes = dict(parse_shape(a) for a in args[1:])
        result = count(args[0], shapes)
    except (ValueError, OSError, onnx.onnx_cpp2py_export.shape_inference.InferenceError) as e:
        print(f"flops: {args[0]}: {e}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result))
    else:
        print(f"{result['flops'] / 1e9:.3f} GFLOPs")
        for name in result["unknown_nodes"]:
            print(f"flops: shape unknown, counted as 0: {name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

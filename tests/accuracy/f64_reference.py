#!/usr/bin/python3
"""A float64 reference evaluator for ONNX graphs, in numpy, independent of gkrun.

    f64_reference.py MODEL INPUT_NAME=INPUT.npy OUT_DIR

Every float tensor (initializers, Constant values, the input) is widened to
float64 and every op computes in float64 (numpy's sums are pairwise, its
matrix products are BLAS dgemm), so the outputs are the model's exact result to
about 1e-13, against which float32 runtimes are measured. The outputs are
written as OUT_DIR/<name>.npy (names with '/' or ':' turned into '_').

It covers the ops (at their opset-9 to opset-13 semantics) that the PaddleOCR
recognisers use and fails naming any other op, so a model it cannot evaluate is
an error, never a wrong reference. Debian's python3-onnx (1.12) has no
onnx.reference, hence this file.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

F64 = np.float64


def widen(a):
    return a.astype(F64) if np.issubdtype(a.dtype, np.floating) else a


def attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def conv(x, w, b, at):
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    g = at.get("group", 1)
    sh, sw = at.get("strides", [1, 1])
    dh, dw = at.get("dilations", [1, 1])
    pt, pl, pb, pr = at.get("pads", [0, 0, 0, 0])
    if at.get("auto_pad", b"NOTSET") not in (b"NOTSET", "NOTSET"):
        raise SystemExit("f64_reference: Conv auto_pad is not supported")
    xp = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    # patches[n, c, i, j, oh, ow] = xp[n, c, oh*sh + i*dh, ow*sw + j*dw]
    patches = np.empty((n, c, kh, kw, oh, ow), dtype=F64)
    for i in range(kh):
        for j in range(kw):
            patches[:, :, i, j] = xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw]
    patches = patches.reshape(n, g, cg, kh, kw, oh, ow)
    wg = w.reshape(g, m // g, cg, kh, kw)
    y = np.einsum("gmckl,ngcklhw->ngmhw", wg, patches, optimize=True).reshape(n, m, oh, ow)
    if b is not None:
        y = y + b.reshape(1, m, 1, 1)
    return y


def avgpool(x, at):
    kh, kw = at["kernel_shape"]
    sh, sw = at.get("strides", [1, 1])
    if any(at.get("pads", [0, 0, 0, 0])) or at.get("ceil_mode", 0):
        raise SystemExit("f64_reference: AveragePool with pads or ceil_mode is not supported")
    n, c, h, w = x.shape
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    y = np.zeros((n, c, oh, ow), dtype=F64)
    for i in range(kh):
        for j in range(kw):
            y += x[:, :, i: i + sh * (oh - 1) + 1: sh, j: j + sw * (ow - 1) + 1: sw]
    return y / (kh * kw)


def softmax(x, axis, opset):
    if opset < 13:  # coerce to 2-D at axis
        shape = x.shape
        axis = axis % x.ndim
        x2 = x.reshape(int(np.prod(shape[:axis])), -1)
        e = np.exp(x2 - x2.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).reshape(shape)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def run_node(node, ins, opset):
    at = attrs(node)
    op = node.op_type
    x = ins[0] if ins else None
    if op == "Constant":
        return [widen(numpy_helper.to_array(at["value"]))]
    if op in ("Add", "Sub", "Mul", "Div", "Pow"):
        a, b = ins
        f = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Pow": np.power}[op]
        r = f(a, b)
        if op == "Div" and np.issubdtype(a.dtype, np.integer):
            r = np.trunc(a / b).astype(a.dtype)
        return [r]
    if op == "Conv":
        return [conv(x, ins[1], ins[2] if len(ins) > 2 else None, at)]
    if op == "MatMul":
        return [np.matmul(ins[0], ins[1])]
    if op == "Clip":
        lo = at.get("min", -np.inf) if len(ins) < 2 else ins[1]
        hi = at.get("max", np.inf) if len(ins) < 3 else ins[2]
        return [np.clip(x, lo, hi)]
    if op == "Cast":
        to = helper.tensor_dtype_to_np_dtype(at["to"]) if hasattr(helper, "tensor_dtype_to_np_dtype") else \
            onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[at["to"]]
        return [x.astype(F64) if np.issubdtype(np.dtype(to), np.floating) else x.astype(to)]
    if op == "Slice":
        if opset >= 10:
            starts, ends = ins[1], ins[2]
            axes = ins[3] if len(ins) > 3 else range(len(starts))
            steps = ins[4] if len(ins) > 4 else [1] * len(starts)
        else:
            starts, ends = at["starts"], at["ends"]
            axes = at.get("axes", range(len(starts)))
            steps = [1] * len(starts)
        sl = [slice(None)] * x.ndim
        for s, e, a, st in zip(starts, ends, axes, steps):
            sl[int(a)] = slice(int(s), int(e), int(st))
        return [x[tuple(sl)]]
    if op == "ReduceMean":
        return [x.mean(axis=tuple(at["axes"]), keepdims=bool(at.get("keepdims", 1)))]
    if op == "Transpose":
        return [np.transpose(x, at.get("perm"))]
    if op == "Sigmoid":
        return [1 / (1 + np.exp(-x))]
    if op == "HardSigmoid":
        return [np.clip(at.get("alpha", 0.2) * x + at.get("beta", 0.5), 0, 1)]
    if op == "Relu":
        return [np.maximum(x, 0)]
    if op == "Sqrt":
        return [np.sqrt(x)]
    if op == "Concat":
        return [np.concatenate(ins, axis=at["axis"])]
    if op == "Squeeze":
        axes = at.get("axes") if opset < 13 else (ins[1] if len(ins) > 1 else None)
        return [np.squeeze(x, axis=tuple(int(a) for a in axes)) if axes is not None else np.squeeze(x)]
    if op == "Unsqueeze":
        axes = at.get("axes") if opset < 13 else ins[1]
        return [np.expand_dims(x, tuple(int(a) for a in axes))]
    if op == "BatchNormalization":
        scale, bias, mean, var = ins[1:5]
        shape = (1, -1) + (1,) * (x.ndim - 2)
        inv = 1 / np.sqrt(var + at.get("epsilon", 1e-5))
        return [(x - mean.reshape(shape)) * inv.reshape(shape) * scale.reshape(shape) + bias.reshape(shape)]
    if op == "Reshape":
        shape = [int(v) for v in ins[1]]
        shape = [x.shape[i] if v == 0 else v for i, v in enumerate(shape)]
        return [x.reshape(shape)]
    if op == "Shape":
        return [np.array(x.shape, dtype=np.int64)]
    if op == "Softmax":
        return [softmax(x, at.get("axis", 1 if opset < 13 else -1), opset)]
    if op == "GlobalAveragePool":
        return [x.mean(axis=tuple(range(2, x.ndim)), keepdims=True)]
    if op == "AveragePool":
        return [avgpool(x, at)]
    raise SystemExit(f"f64_reference: op {op} (node {node.name}) is not supported")


def main():
    if len(sys.argv) != 4 or "=" not in sys.argv[2]:
        raise SystemExit("usage: f64_reference.py MODEL INPUT_NAME=INPUT.npy OUT_DIR")
    model = onnx.load(sys.argv[1])
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 13)
    name, path = sys.argv[2].split("=", 1)
    values = {i.name: widen(numpy_helper.to_array(i)) for i in model.graph.initializer}
    values[name] = widen(np.load(path))
    for node in model.graph.node:
        ins = [values[i] if i else None for i in node.input]
        while ins and ins[-1] is None:
            ins.pop()
        outs = run_node(node, ins, opset)
        for o, v in zip(node.output, outs):
            values[o] = v
    os.makedirs(sys.argv[3], exist_ok=True)
    for o in model.graph.output:
        safe = o.name.replace("/", "_").replace("\\", "_").replace(":", "_")
        np.save(os.path.join(sys.argv[3], safe + ".npy"), values[o.name])


if __name__ == "__main__":
    main()

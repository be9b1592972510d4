#!/usr/bin/env python3
"""Writes the differential sweep's corpus: single-node ONNX models with seeded inputs.

    gen_sweep.py OUT_DIR

Each case is a folder OUT_DIR/<case-id>/ with model.onnx and in_<i>.npy (one per
graph input, in order); OUT_DIR/manifest.json lists every case (id, op, input
count) and OUT_DIR/ops.json the registered ops the sweep covers and the ones it
does not (with why). The op list is gkrun's registration table, read from the
ops/ sources (the `{domain, op, since, end, impl, traits}` rows); allowed dtypes
come from the ONNX schema (onnx.defs) where this onnx knows the op at the case's
opset, else from the curated list next to the case. Inputs are seeded, and
integer inputs lie in ranges the op is defined on (indices in range, divisors
non-zero, shifts below the bit width), so a disagreement is never an input the
spec leaves undefined.
"""
import json
import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, defs, helper, numpy_helper, shape_inference

ROOT = Path(__file__).resolve().parents[3]
RNG = np.random.default_rng(20261202)

NP = {
    "tensor(float)": np.float32, "tensor(double)": np.float64, "tensor(float16)": np.float16,
    "tensor(int8)": np.int8, "tensor(uint8)": np.uint8, "tensor(int16)": np.int16,
    "tensor(uint16)": np.uint16, "tensor(int32)": np.int32, "tensor(uint32)": np.uint32,
    "tensor(int64)": np.int64, "tensor(uint64)": np.uint64, "tensor(bool)": np.bool_,
}
SHORT = {np.float32: "f32", np.float64: "f64", np.float16: "f16", np.int8: "s8", np.uint8: "u8",
         np.int16: "s16", np.uint16: "u16", np.int32: "s32", np.uint32: "u32", np.int64: "s64",
         np.uint64: "u64", np.bool_: "bool"}
FLOATS = [np.float32, np.float64, np.float16]
INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
SIGNED = [np.int8, np.int16, np.int32, np.int64]
ALL = FLOATS + INTS + [np.bool_]
# Data-movement ops do not look at values: four element sizes and bool are enough.
MOVE = [np.float32, np.float16, np.int8, np.int64, np.bool_]


def tcode(dt):
    return onnx.mapping.NP_TYPE_TO_TENSOR_TYPE[np.dtype(dt)]


def registered_ops():
    """(domain, op) pairs of gkrun's registration table, from the ops/ sources."""
    row = re.compile(r'\{"(|ai\.onnx|ai\.onnx\.ml|com\.microsoft)", "([A-Za-z0-9_]+)", [0-9]+')
    ops = set()
    for f in list((ROOT / "ops").rglob("*.cpp")) + list((ROOT / "runtime").rglob("*.cpp")):
        for m in row.finditer(f.read_text(errors="replace")):
            ops.add(("" if m.group(1) == "ai.onnx" else m.group(1), m.group(2)))
    return sorted(ops)


def allowed(op, opset, param="T", domain=""):
    """numpy dtypes the schema allows for a type parameter (those numpy has)."""
    try:
        s = defs.get_schema(op, opset, domain)
    except Exception:
        return None
    for c in s.type_constraints:
        if c.type_param_str == param:
            return [NP[t] for t in c.allowed_type_strs if t in NP]
    return None


def rand(shape, dt, lo=-2.0, hi=2.0):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return RNG.integers(0, 2, size=shape).astype(np.bool_)
    if dt.kind in "iu":
        ilo, ihi = int(np.ceil(lo)), int(np.floor(hi))
        if dt.kind == "u":
            ilo = max(ilo, 0)
        ihi = max(ihi, ilo)
        return RNG.integers(ilo, ihi + 1, size=shape).astype(dt)
    return RNG.uniform(lo, hi, size=shape).astype(dt)


class Corpus:
    def __init__(self, out):
        self.out = Path(out)
        self.cases = []
        self.ops = set()
        self.ids = set()

    def add(self, cid, op, inputs, attrs=None, opset=17, outputs=1, inits=None, domain="",
            out_types=None, optional_gaps=(), tol=None):
        """inputs: list of (name, array) graph inputs; inits: (name, array) initializers
        placed among the node inputs by name order given in `order` (inputs then inits
        unless a name list is passed as `optional_gaps`, where "" leaves a slot empty). tol: (rtol, atol)
        for float outputs, tighter than the sweep's default."""
        cid = cid.replace("/", "_")
        assert cid not in self.ids, cid
        self.ids.add(cid)
        inits = inits or []
        names = [n for n, _ in inputs] + [n for n, _ in inits]
        node_inputs = list(optional_gaps) if optional_gaps else names
        outs = [f"y{i}" for i in range(outputs)]
        node = helper.make_node(op, node_inputs, outs, domain=domain or None, **(attrs or {}))
        g_in = [helper.make_tensor_value_info(n, tcode(a.dtype), a.shape)
                for n, a in inputs]
        g_init = [numpy_helper.from_array(a, n) for n, a in inits]
        g_out = [helper.make_empty_tensor_value_info(o) for o in outs]
        imports = [helper.make_opsetid("", opset if not domain else 17)]
        if domain:
            imports.append(helper.make_opsetid(domain, opset))
        graph = helper.make_graph([node], "sweep", g_in, g_out, initializer=g_init)
        model = helper.make_model(graph, opset_imports=imports, producer_name="gen_sweep")
        model.ir_version = 8
        types = out_types
        if types is None:
            try:
                inferred = shape_inference.infer_shapes(model)
                known = {v.name: v.type.tensor_type.elem_type
                         for v in list(inferred.graph.value_info) + list(inferred.graph.output)
                         if v.type.tensor_type.elem_type}
                types = [known.get(o, 0) for o in outs]
            except Exception:
                types = [0] * outputs
            if any(t == 0 for t in types):
                first = tcode(inputs[0][1].dtype) if inputs else TensorProto.FLOAT
                types = [t or first for t in types]
        for o, t in zip(graph.output, types):
            o.type.tensor_type.elem_type = t if isinstance(t, int) else tcode(np.dtype(t))
        d = self.out / cid
        d.mkdir(parents=True, exist_ok=True)
        onnx.save(model, str(d / "model.onnx"))
        for i, (_, a) in enumerate(inputs):
            np.save(d / f"in_{i}.npy", a)
        case = {"id": cid, "op": (domain + ":" if domain else "") + op, "inputs": [n for n, _ in inputs]}
        if tol:
            case["tol"] = list(tol)
        self.cases.append(case)
        self.ops.add((domain, op))


def tname(dt):
    return SHORT[np.dtype(dt).type]


# ---------------------------------------------------------------- elementwise

UNARY_DOMAIN = {"Acos": (-0.9, 0.9), "Asin": (-0.9, 0.9), "Atanh": (-0.9, 0.9), "Acosh": (1.1, 3.0),
                "Log": (0.1, 3.0), "Sqrt": (0.0, 3.0), "Reciprocal": (0.5, 3.0), "Tan": (-1.2, 1.2),
                "Exp": (-3.0, 3.0)}
UNARY = ["Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Cos", "Cosh", "Erf", "Exp",
         "Floor", "Log", "Neg", "Reciprocal", "Relu", "Round", "Sigmoid", "Sign", "Sin", "Sinh", "Sqrt",
         "Tan", "Tanh", "Softplus", "Softsign", "Not", "IsNaN", "IsInf"]
UNARY_SHAPES = [("r3", [2, 3, 4]), ("r0", []), ("empty", [0, 3]), ("one", [1])]


def gen_unary(c):
    for op in UNARY:
        types = allowed(op, 17, "T" if op not in ("IsNaN", "IsInf") else "T1") or []
        lo, hi = UNARY_DOMAIN.get(op, (-2.0, 2.0))
        for dt in types:
            for sname, shape in UNARY_SHAPES:
                x = rand(shape, dt, lo, hi)
                if op == "Round" and np.dtype(dt).kind == "f" and x.size >= 4:
                    x.flat[:4] = [0.5, 1.5, 2.5, -0.5]  # half to even
                if op in ("IsNaN", "IsInf") and x.size >= 4:
                    x.flat[:4] = [np.nan, np.inf, -np.inf, 0.0]
                c.add(f"{op}.{sname}.{tname(dt)}", op, [("x", x)])
        if op == "IsInf":
            x = np.array([np.inf, -np.inf, 1.0, np.nan], np.float32)
            c.add("IsInf.neg_only.f32", op, [("x", x)], {"detect_positive": 0})
            c.add("IsInf.pos_only.f32", op, [("x", x)], {"detect_negative": 0})
    # Opset-18+ unary ops onnx 1.12 does not know: curated types.
    for dt in INTS:
        c.add(f"BitwiseNot.r3.{tname(dt)}", "BitwiseNot", [("x", rand([2, 3, 4], dt, -100, 100))], opset=18,
              out_types=[dt])
    for dt in FLOATS:
        c.add(f"Mish.r3.{tname(dt)}", "Mish", [("x", rand([2, 3, 4], dt, -3, 3))], opset=18, out_types=[dt])
        for approx in ("none", "tanh"):
            c.add(f"Gelu.{approx}.{tname(dt)}", "Gelu", [("x", rand([2, 3, 4], dt, -3, 3))],
                  {"approximate": approx}, opset=20, out_types=[dt])


ACTIVATIONS = [("Elu", {"alpha": 0.7}), ("Selu", {}), ("Selu", {"alpha": 1.5, "gamma": 2.0}),
               ("LeakyRelu", {"alpha": 0.1}), ("HardSigmoid", {"alpha": 0.3, "beta": 0.4}),
               ("HardSwish", {}), ("ThresholdedRelu", {"alpha": 0.5}), ("Celu", {"alpha": 1.5}),
               ("Shrink", {"lambd": 0.6, "bias": 0.2}), ("Shrink", {})]


def gen_activations(c):
    for op, attrs in ACTIVATIONS:
        types = allowed(op, 17, "T") or [np.float32]
        tag = "attrs" if attrs else "default"
        for dt in types:
            lo, hi = (-3, 3)
            c.add(f"{op}.{tag}.{tname(dt)}", op, [("x", rand([2, 3, 4], dt, lo, hi))], attrs)
    for dt in allowed("Clip", 13):
        x = rand([3, 5], dt, -10, 10)
        lo, hi = np.array(-3, dt) if np.dtype(dt).kind != "u" else np.array(2, dt), np.array(5, dt)
        c.add(f"Clip.minmax.{tname(dt)}", "Clip", [("x", x)], inits=[("lo", lo), ("hi", hi)])
        c.add(f"Clip.max_only.{tname(dt)}", "Clip", [("x", x)], inits=[("hi", hi)], optional_gaps=["x", "", "hi"])
        c.add(f"Clip.none.{tname(dt)}", "Clip", [("x", x)])
        c.add(f"Clip.min_gt_max.{tname(dt)}", "Clip", [("x", x)], inits=[("lo", hi), ("hi", lo)])
    c.add("Clip.attrs_opset6.f32", "Clip", [("x", rand([3, 5], np.float32, -3, 3))], {"min": -1.0, "max": 0.5},
          opset=6)
    for dt in allowed("PRelu", 16):
        c.add(f"PRelu.bcast.{tname(dt)}", "PRelu", [("x", rand([2, 3, 4], dt, -5, 5)),
                                                     ("s", rand([3, 1], dt, 0, 3))])


BINARY_SHAPES = [("same", [2, 3, 4], [2, 3, 4]), ("bcast", [2, 1, 4], [3, 1]), ("r0", [2, 3], []),
                 ("empty", [0, 3], [1, 3]), ("one", [1], [4, 1])]
BINARY = ["Add", "Sub", "Mul", "Div", "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual",
          "And", "Or", "Xor"]


def gen_binary(c):
    for op in BINARY:
        types = allowed(op, 17, "T") or []
        for dt in types:
            for sname, sa, sb in BINARY_SHAPES:
                a = rand(sa, dt, -20, 20)
                b = rand(sb, dt, -20, 20)
                if op == "Div" and np.dtype(dt).kind in "iu":
                    b[b == 0] = 3
                if op == "Div" and np.dtype(dt).kind == "f":
                    b = np.where(np.abs(b) < 0.5, 1.5, b).astype(dt)
                c.add(f"{op}.{sname}.{tname(dt)}", op, [("a", a), ("b", b)])
    # Integer overflow wraps (two's complement) as ONNX Runtime's C++ does.
    for dt in (np.int8, np.uint8, np.int32):
        info = np.iinfo(dt)
        a = np.array([info.max, info.min, info.max - 1], dt)
        b = np.array([1, 1, 3], dt) if dt != np.uint8 else np.array([1, 0, 3], dt)
        c.add(f"Add.wrap.{tname(dt)}", "Add", [("a", a), ("b", b)])
        c.add(f"Mul.wrap.{tname(dt)}", "Mul", [("a", a), ("b", b + 1)])
    # Pow: base and exponent types are separate constraints.
    pow_pairs = [(np.float32, np.float32), (np.float64, np.float64), (np.float16, np.float16),
                 (np.float32, np.int64), (np.float32, np.int32), (np.int32, np.int32), (np.int64, np.int64),
                 (np.int32, np.float32), (np.int64, np.float32), (np.float64, np.int64)]
    for ta, tb in pow_pairs:
        a = rand([3, 4], ta, 0.5 if np.dtype(ta).kind == "f" else -3, 3)
        b = rand([4], tb, 0, 3)
        c.add(f"Pow.{tname(ta)}_{tname(tb)}", "Pow", [("a", a), ("b", b)], opset=15)
    for dt in allowed("Mod", 13):
        kind = np.dtype(dt).kind
        for fmod in (0, 1):
            if kind == "f" and fmod == 0:
                continue
            a = rand([4, 6], dt, -30, 30)
            b = rand([6], dt, -7, 7)
            if kind in "iu":
                b[b == 0] = 5
            else:
                b = np.where(np.abs(b) < 0.5, 2.5, b).astype(dt)
            c.add(f"Mod.fmod{fmod}.{tname(dt)}", "Mod", [("a", a), ("b", b)], {"fmod": fmod})
    for dt in allowed("BitShift", 11):
        bits = np.dtype(dt).itemsize * 8
        a = rand([3, 4], dt, 0, 120)
        b = RNG.integers(0, bits, size=[4]).astype(dt)
        for d in ("LEFT", "RIGHT"):
            c.add(f"BitShift.{d.lower()}.{tname(dt)}", "BitShift", [("a", a), ("b", b)], {"direction": d})
    for op in ("BitwiseAnd", "BitwiseOr", "BitwiseXor"):
        for dt in INTS:
            c.add(f"{op}.bcast.{tname(dt)}", op, [("a", rand([2, 1, 4], dt, -100, 100)),
                                                  ("b", rand([3, 1], dt, -100, 100))], opset=18, out_types=[dt])
    for op in ("Max", "Min", "Sum", "Mean"):
        for dt in allowed(op, 13):
            c.add(f"{op}.one.{tname(dt)}", op, [("a", rand([2, 3], dt, -9, 9))])
            c.add(f"{op}.three_bcast.{tname(dt)}", op, [("a", rand([2, 3], dt, -9, 9)), ("b", rand([3], dt, -9, 9)),
                                                        ("c", rand([1, 1], dt, -9, 9))])
            c.add(f"{op}.r0.{tname(dt)}", op, [("a", rand([], dt, -9, 9)), ("b", rand([], dt, -9, 9))])
    for dt in MOVE + [np.int32, np.uint8]:
        cond = rand([2, 1, 4], np.bool_)
        c.add(f"Where.bcast.{tname(dt)}", "Where", [("c", cond), ("a", rand([3, 1], dt, -9, 9)),
                                                    ("b", rand([], dt, -9, 9))])
        c.add(f"Where.empty.{tname(dt)}", "Where", [("c", rand([0, 4], np.bool_)), ("a", rand([1, 4], dt)),
                                                    ("b", rand([4], dt))])


# ---------------------------------------------------------------- reductions

REDUCE = ["ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMean", "ReduceMin",
          "ReduceProd", "ReduceSum", "ReduceSumSquare"]


def gen_reduce(c):
    for op in REDUCE:
        for dt in allowed(op, 13):
            kind = np.dtype(dt).kind
            lo, hi = (0.1, 2.0) if op in ("ReduceLogSum",) else (-3, 3)
            if op == "ReduceProd":
                lo, hi = (0.6, 1.4) if kind == "f" else (-2, 2)
            variants = [("all", [3, 4, 5], None, 1), ("ax1", [3, 4, 5], [1], 0), ("ax_neg", [3, 4, 5], [-1, 0], 1),
                        ("r0", [], None, 1), ("empty_keep", [0, 4], [1], 1)]
            if kind == "f" and op not in ("ReduceProd",):
                variants.append(("longK", [2, 3000], [1], 0))
            for vname, shape, axes, keep in variants:
                x = rand(shape, dt, lo, hi)
                if op == "ReduceSum":
                    inits = [("axes", np.array(axes, np.int64))] if axes is not None else []
                    c.add(f"{op}.{vname}.{tname(dt)}", op, [("x", x)], {"keepdims": keep}, opset=13, inits=inits)
                else:
                    attrs = {"keepdims": keep}
                    if axes is not None:
                        attrs["axes"] = axes
                    c.add(f"{op}.{vname}.{tname(dt)}", op, [("x", x)], attrs, opset=13)
        # Reducing a zero-length axis: the empty sum is 0, the empty product 1; Max/Min have no identity.
        x = np.zeros([0, 3], np.float32)
        if op == "ReduceSum":
            c.add(f"{op}.empty_axis.f32", op, [("x", x)], {"keepdims": 0}, opset=13,
                  inits=[("axes", np.array([0], np.int64))])
        else:
            c.add(f"{op}.empty_axis.f32", op, [("x", x)], {"keepdims": 0, "axes": [0]}, opset=13)
    # opset 18: axes as an input for every reduction, noop_with_empty_axes.
    for op in REDUCE:
        x = rand([3, 4], np.float32, 0.1, 2.0)
        c.add(f"{op}.o18_axes.f32", op, [("x", x)], {"keepdims": 1}, opset=18,
              inits=[("axes", np.array([1], np.int64))], out_types=[np.float32])
        c.add(f"{op}.o18_noop.f32", op, [("x", x)], {"noop_with_empty_axes": 1}, opset=18, out_types=[np.float32])
    for op in ("ArgMax", "ArgMin"):
        for dt in allowed(op, 13):
            x = rand([3, 4, 5], dt, -2, 2)  # small range: ties
            c.add(f"{op}.ax0.{tname(dt)}", op, [("x", x)], {"axis": 0})
            c.add(f"{op}.ax_neg_nokeep.{tname(dt)}", op, [("x", x)], {"axis": -1, "keepdims": 0})
            c.add(f"{op}.last.{tname(dt)}", op, [("x", x)], {"axis": 1, "select_last_index": 1})
        c.add(f"{op}.longK.f32", op, [("x", rand([2, 3000], np.float32))], {"axis": 1})
    for dt in allowed("CumSum", 14):
        x = rand([3, 5], dt, -5, 5)
        for excl in (0, 1):
            for rev in (0, 1):
                c.add(f"CumSum.e{excl}r{rev}.{tname(dt)}", "CumSum", [("x", x)], {"exclusive": excl, "reverse": rev},
                      opset=14, inits=[("axis", np.array(1, np.int64))])
        c.add(f"CumSum.ax_neg_s32axis.{tname(dt)}", "CumSum", [("x", x)], opset=14,
              inits=[("axis", np.array(-2, np.int32))])


def gen_softmax(c):
    for op in ("Softmax", "LogSoftmax", "Hardmax"):
        for dt in allowed(op, 13):
            for vname, shape, axis in [("ax_last", [2, 3, 4], -1), ("ax0", [2, 3, 4], 0), ("ax1", [2, 3, 4], 1),
                                       ("r1", [5], 0), ("empty", [0, 4], -1), ("longK", [2, 3000], -1)]:
                x = rand(shape, dt, -4, 4)
                if op == "Hardmax":
                    x = np.round(x).astype(dt)  # ties: the first index wins
                c.add(f"{op}.{vname}.{tname(dt)}", op, [("x", x)], {"axis": axis}, opset=13)
        c.add(f"{op}.o11_coerce.f32", op, [("x", rand([2, 3, 4], np.float32))], {"axis": 1}, opset=11)


# ---------------------------------------------------------------- matmul family

def gen_matmul(c):
    shapes = [("2d", [3, 4], [4, 5]), ("batch", [2, 3, 4], [4, 5]), ("bcast4", [2, 1, 3, 4], [3, 4, 2]),
              ("vec_left", [4], [4, 5]), ("vec_right", [3, 4], [4]), ("dot", [4], [4]),
              ("longK", [2, 3000], [3000, 3]), ("K0", [3, 0], [0, 4]), ("M0", [0, 4], [4, 5])]
    for dt in allowed("MatMul", 13):
        kind = np.dtype(dt).kind
        for vname, sa, sb in shapes:
            if kind != "f" and vname == "longK" and dt not in (np.int32, np.int64):
                continue
            if dt == np.float16 and vname == "longK":
                continue  # f16 storage of a 3000-term sum: see the f32 case
            lo, hi = (-1, 1) if kind == "f" else (0 if kind == "u" else -3, 3)
            c.add(f"MatMul.{vname}.{tname(dt)}", "MatMul", [("a", rand(sa, dt, lo, hi)), ("b", rand(sb, dt, lo, hi))])
    for dt in allowed("Gemm", 13):
        kind = np.dtype(dt).kind
        lo, hi = (-1, 1) if kind == "f" else (0, 4)
        M, K, N = 3, 4, 5
        for vname, attrs, cshape in [("plain", {}, [M, N]), ("tA", {"transA": 1}, [N]), ("tB", {"transB": 1}, [1, N]),
                                     ("tAB_ab", {"transA": 1, "transB": 1, "alpha": 0.5, "beta": 2.0}, [M, 1]),
                                     ("c_r0", {}, []), ("no_c", {}, None)]:
            sa = [K, M] if attrs.get("transA") else [M, K]
            sb = [N, K] if attrs.get("transB") else [K, N]
            if kind != "f" and ("alpha" in attrs):
                attrs = {k: v for k, v in attrs.items() if k not in ("alpha", "beta")}
            ins = [("a", rand(sa, dt, lo, hi)), ("b", rand(sb, dt, lo, hi))]
            if cshape is not None:
                ins.append(("c", rand(cshape, dt, lo, hi)))
            c.add(f"Gemm.{vname}.{tname(dt)}", "Gemm", ins, attrs)
        if kind == "f" and dt != np.float16:
            c.add(f"Gemm.longK.{tname(dt)}", "Gemm", [("a", rand([2, 3000], dt, -1, 1)), ("b", rand([3000, 3], dt, -1, 1))])
    c.add("Gemm.o6_broadcast_attr.f32", "Gemm", [("a", rand([3, 4], np.float32)), ("b", rand([4, 5], np.float32)),
                                                 ("c", rand([5], np.float32))], {"broadcast": 1}, opset=6)
    q = [np.uint8, np.int8]
    for ta in q:
        for tb in q:
            tag = f"{tname(ta)}_{tname(tb)}"
            a = rand([3, 6], ta, -128, 255)
            b = rand([6, 4], tb, -128, 255)
            c.add(f"MatMulInteger.nozp.{tag}", "MatMulInteger", [("a", a), ("b", b)], opset=10)
            c.add(f"MatMulInteger.zp.{tag}", "MatMulInteger", [("a", a), ("b", b), ("az", np.array(rand([], ta, -10, 130))),
                                                              ("bz", np.array(rand([], tb, -10, 130)))], opset=10)
            c.add(f"MatMulInteger.zp_rowcol.{tag}", "MatMulInteger",
                  [("a", a), ("b", b), ("az", rand([3], ta, -10, 130)), ("bz", rand([4], tb, -10, 130))], opset=10)
            c.add(f"MatMulInteger.longK_batch.{tag}", "MatMulInteger",
                  [("a", rand([2, 3, 3000], ta, -128, 255)), ("b", rand([3000, 5], tb, -128, 255))], opset=10)
            for ty in q:
                s = lambda v: np.array(v, np.float32)
                ins = [("a", a), ("as", s(0.05)), ("az", np.array(rand([], ta, 0, 100))), ("b", b), ("bs", s(0.03)),
                       ("bz", np.array(rand([], tb, 0, 100))), ("ys", s(0.2)), ("yz", np.array(rand([], ty, 0, 100)))]
                c.add(f"QLinearMatMul.{tag}_{tname(ty)}", "QLinearMatMul", ins, opset=10)
            x = rand([1, 2, 5, 5], ta, -128, 255)
            w = rand([3, 2, 3, 3], tb, -128, 255)
            c.add(f"ConvInteger.nozp.{tag}", "ConvInteger", [("x", x), ("w", w)], opset=10)
            c.add(f"ConvInteger.zp_pad.{tag}", "ConvInteger", [("x", x), ("w", w), ("xz", np.array(rand([], ta, 0, 100))),
                                                              ("wz", np.array(rand([], tb, 0, 100)))],
                  {"pads": [1, 1, 1, 1]}, opset=10)
            for ty in q:
                s = lambda v: np.array(v, np.float32)
                ins = [("x", x), ("xs", s(0.05)), ("xz", np.array(rand([], ta, 0, 100))), ("w", w),
                       ("ws", s(0.02)), ("wz", np.array(rand([], tb, 0, 100))), ("ys", s(0.5)),
                       ("yz", np.array(rand([], ty, 0, 100)))]
                c.add(f"QLinearConv.{tag}_{tname(ty)}", "QLinearConv", ins, opset=10)
    for dt in allowed("Einsum", 12):
        for eq, sa, sb in [("ij,jk->ik", [3, 4], [4, 5]), ("bij,bjk->bik", [2, 3, 4], [2, 4, 5]),
                           ("ij->ji", [3, 4], None), ("ii->i", [4, 4], None), ("i,i->", [5], [5]),
                           ("...ij,...jk", [2, 3, 4], [4, 2])]:
            ins = [("a", rand(sa, dt, -3, 3))] + ([("b", rand(sb, dt, -3, 3))] if sb else [])
            tag = re.sub(r"[^a-z]", "_", eq)
            c.add(f"Einsum.{tag}.{tname(dt)}", "Einsum", ins, {"equation": eq})


def gen_quant(c):
    for dt in (np.int8, np.uint8, np.int32):
        x = rand([2, 3, 4], dt, -128, 255)
        c.add(f"DequantizeLinear.tensor.{tname(dt)}", "DequantizeLinear",
              [("x", x), ("s", np.array(0.1, np.float32)), ("z", np.array(rand([], dt, 0, 20)))], opset=13)
        c.add(f"DequantizeLinear.axis1.{tname(dt)}", "DequantizeLinear",
              [("x", x), ("s", rand([3], np.float32, 0.01, 0.5)), ("z", rand([3], dt, 0, 20))], {"axis": 1}, opset=13)
        c.add(f"DequantizeLinear.noz.{tname(dt)}", "DequantizeLinear", [("x", x), ("s", np.array(0.25, np.float32))],
              opset=13)
    for dt in (np.int8, np.uint8):
        x = rand([2, 3, 4], np.float32, -30, 30)
        x.flat[:4] = [0.25, 0.75, -0.25, 1e6]  # ties to even, saturation
        c.add(f"QuantizeLinear.tensor.{tname(dt)}", "QuantizeLinear",
              [("x", x), ("s", np.array(0.5, np.float32)), ("z", np.array(rand([], dt, 0, 20)))], opset=13)
        c.add(f"QuantizeLinear.axis1.{tname(dt)}", "QuantizeLinear",
              [("x", x), ("s", rand([3], np.float32, 0.1, 0.5)), ("z", rand([3], dt, 0, 20))], {"axis": 1}, opset=13)
    c.add("QuantizeLinear.noz.u8", "QuantizeLinear", [("x", rand([5], np.float32, -5, 300)),
                                                       ("s", np.array(1.0, np.float32))], opset=13)
    c.add("DynamicQuantizeLinear.r2.f32", "DynamicQuantizeLinear", [("x", rand([4, 6], np.float32, -3, 5))], outputs=3)
    c.add("DynamicQuantizeLinear.positive.f32", "DynamicQuantizeLinear", [("x", rand([7], np.float32, 1, 5))], outputs=3)


# ---------------------------------------------------------------- cast

def gen_cast(c):
    for src in ALL:
        for dst in ALL:
            sk, dk = np.dtype(src).kind, np.dtype(dst).kind
            # Values every pair represents or converts by truncation (float -> int out of range is undefined).
            lo, hi = (-100, 100)
            if sk == "u" or dk == "u":
                lo = 0
            if np.dtype(src) == np.int8 or np.dtype(dst) == np.int8:
                hi = min(hi, 100)
            x = rand([3, 4], src, lo, hi)
            if sk == "f":
                x = (x + np.asarray(0.37, src)).astype(src)
                if x.size > 2:
                    x.flat[0] = 0.0
            c.add(f"Cast.{tname(src)}_{tname(dst)}", "Cast", [("x", x)],
                  {"to": tcode(np.dtype(dst))}, opset=13)
    for dst in (np.int32, np.float16, np.bool_):
        c.add(f"CastLike.f32_{tname(dst)}", "CastLike", [("x", rand([3, 4], np.float32, 0, 50)),
                                                          ("t", rand([1], dst))], opset=15)
    # NaN and infinity into float16 and back.
    x = np.array([np.nan, np.inf, -np.inf, 70000.0, 1e-8], np.float32)
    c.add("Cast.special_f32_f16", "Cast", [("x", x)], {"to": TensorProto.FLOAT16}, opset=13)
    c.add("Cast.special_f32_bool", "Cast", [("x", x)], {"to": TensorProto.BOOL}, opset=13)


# ---------------------------------------------------------------- data movement

def gen_movement(c):
    for dt in MOVE:
        t = tname(dt)
        x = rand([2, 3, 4], dt, -9, 9)
        c.add(f"Transpose.default.{t}", "Transpose", [("x", x)])
        c.add(f"Transpose.perm.{t}", "Transpose", [("x", x)], {"perm": [1, 0, 2]})
        c.add(f"Transpose.r0.{t}", "Transpose", [("x", rand([], dt))])
        c.add(f"Transpose.empty.{t}", "Transpose", [("x", rand([0, 3], dt))], {"perm": [1, 0]})
        c.add(f"Concat.ax1.{t}", "Concat", [("a", x), ("b", rand([2, 1, 4], dt)), ("c", rand([2, 0, 4], dt))],
              {"axis": 1})
        c.add(f"Concat.ax_neg.{t}", "Concat", [("a", x), ("b", rand([2, 3, 2], dt))], {"axis": -1})
        c.add(f"Split.eq.{t}", "Split", [("x", x)], {"axis": 2}, outputs=2)
        c.add(f"Split.sizes.{t}", "Split", [("x", x)], {"axis": 1}, outputs=3, opset=13,
              inits=[("split", np.array([1, 0, 2], np.int64))])
        c.add(f"Split.o18_uneven.{t}", "Split", [("x", rand([2, 7], dt))], {"axis": 1, "num_outputs": 3},
              outputs=3, opset=18, out_types=[dt] * 3)
        for vname, st, en, ax, sp in [("basic", [0, 1], [2, 3], [0, 1], None), ("neg_step", [-1], [-100], [2], [-2]),
                                      ("clamp", [1], [1000], [1], None), ("empty", [2], [1], [1], None),
                                      ("noaxes", [0, 0, 1], [1, 3, 4], None, [1, 2, 1])]:
            inits = [("s", np.array(st, np.int64)), ("e", np.array(en, np.int64))]
            gaps = ["x", "s", "e"]
            if ax is not None:
                inits.append(("a", np.array(ax, np.int64)))
                gaps.append("a")
            if sp is not None:
                if ax is None:
                    gaps.append("")
                inits.append(("p", np.array(sp, np.int64)))
                gaps.append("p")
            c.add(f"Slice.{vname}.{t}", "Slice", [("x", x)], inits=inits, optional_gaps=gaps)
        c.add(f"Squeeze.axes.{t}", "Squeeze", [("x", rand([2, 1, 3, 1], dt))], inits=[("a", np.array([1, -1], np.int64))])
        c.add(f"Squeeze.all.{t}", "Squeeze", [("x", rand([1, 3, 1], dt))])
        c.add(f"Squeeze.to_r0.{t}", "Squeeze", [("x", rand([1, 1], dt))])
        c.add(f"Unsqueeze.axes.{t}", "Unsqueeze", [("x", x)], inits=[("a", np.array([0, -1], np.int64))])
        c.add(f"Unsqueeze.r0.{t}", "Unsqueeze", [("x", rand([], dt))], inits=[("a", np.array([0], np.int64))])
        c.add(f"Reshape.minus1_zero.{t}", "Reshape", [("x", x)], inits=[("s", np.array([0, -1], np.int64))])
        c.add(f"Reshape.to_r0.{t}", "Reshape", [("x", rand([1, 1], dt))], inits=[("s", np.array([], np.int64))])
        c.add(f"Reshape.allowzero.{t}", "Reshape", [("x", rand([0, 4], dt))], {"allowzero": 1}, opset=14,
              inits=[("s", np.array([4, 0], np.int64))])
        c.add(f"Flatten.ax0.{t}", "Flatten", [("x", x)], {"axis": 0})
        c.add(f"Flatten.ax_neg.{t}", "Flatten", [("x", x)], {"axis": -1})
        c.add(f"Expand.bcast.{t}", "Expand", [("x", rand([3, 1], dt))], inits=[("s", np.array([2, 1, 4], np.int64))])
        c.add(f"Expand.smaller.{t}", "Expand", [("x", rand([2, 3], dt))], inits=[("s", np.array([1], np.int64))])
        c.add(f"Expand.empty.{t}", "Expand", [("x", rand([1, 3], dt))], inits=[("s", np.array([0, 3], np.int64))])
        c.add(f"Tile.basic.{t}", "Tile", [("x", rand([2, 3], dt))], inits=[("r", np.array([2, 3], np.int64))])
        c.add(f"Tile.zero.{t}", "Tile", [("x", rand([2, 3], dt))], inits=[("r", np.array([0, 1], np.int64))])
        for mode in ("constant", "reflect", "edge"):
            c.add(f"Pad.{mode}.{t}", "Pad", [("x", rand([3, 4], dt))], {"mode": mode}, opset=13,
                  inits=[("p", np.array([1, 2, 2, 0], np.int64))])
        c.add(f"Pad.negative.{t}", "Pad", [("x", rand([3, 4], dt))], opset=13,
              inits=[("p", np.array([-1, 1, 0, -2], np.int64))])
        c.add(f"Pad.o19_wrap_axes.{t}", "Pad", [("x", rand([3, 4], dt))], {"mode": "wrap"}, opset=19,
              inits=[("p", np.array([2, 3], np.int64)), ("ax", np.array([1], np.int64))],
              optional_gaps=["x", "p", "", "ax"], out_types=[dt])
        c.add(f"DepthToSpace.dcr.{t}", "DepthToSpace", [("x", rand([1, 8, 2, 3], dt))], {"blocksize": 2})
        c.add(f"DepthToSpace.crd.{t}", "DepthToSpace", [("x", rand([1, 8, 2, 3], dt))], {"blocksize": 2, "mode": "CRD"})
        c.add(f"SpaceToDepth.b2.{t}", "SpaceToDepth", [("x", rand([1, 2, 4, 6], dt))], {"blocksize": 2})
        c.add(f"Identity.{t}", "Identity", [("x", x)])
        c.add(f"Shape.full.{t}", "Shape", [("x", x)])
        c.add(f"Shape.slice.{t}", "Shape", [("x", x)], {"start": -2, "end": 10}, opset=15)
        c.add(f"Size.{t}", "Size", [("x", x)])
        c.add(f"Size.empty.{t}", "Size", [("x", rand([0, 3], dt))])
    for dt in allowed("Trilu", 14):
        for upper in (0, 1):
            for k in (None, -1, 2):
                inits = [("k", np.array(k, np.int64))] if k is not None else []
                c.add(f"Trilu.u{upper}_k{k}.{tname(dt)}", "Trilu", [("x", rand([2, 3, 5], dt, -9, 9))],
                      {"upper": upper}, opset=14, inits=inits)
    for dt in (np.float32, np.int32, np.int64, np.int16, np.float64):
        c.add(f"Range.pos.{tname(dt)}", "Range", [], inits=[("s", np.array(1, dt)), ("l", np.array(10, dt)),
                                                            ("d", np.array(3, dt))], opset=11)
        c.add(f"Range.neg.{tname(dt)}", "Range", [], inits=[("s", np.array(5, dt)), ("l", np.array(-4, dt)),
                                                            ("d", np.array(-2, dt))], opset=11)
        c.add(f"Range.empty.{tname(dt)}", "Range", [], inits=[("s", np.array(5, dt)), ("l", np.array(1, dt)),
                                                              ("d", np.array(2, dt))], opset=11)
    for dt in (np.float32, np.int64, np.int32, np.uint8, np.bool_, np.float16):
        c.add(f"ConstantOfShape.{tname(dt)}", "ConstantOfShape", [("s", np.array([2, 3], np.int64))],
              {"value": numpy_helper.from_array(np.array([1], dt))}, out_types=[dt])
    c.add("ConstantOfShape.default_empty", "ConstantOfShape", [("s", np.array([0, 3], np.int64))])
    for dt in (np.float32, np.int64, np.int32, np.bool_):
        c.add(f"EyeLike.k1.{tname(dt)}", "EyeLike", [("x", rand([3, 5], np.float32))],
              {"k": 1, "dtype": tcode(np.dtype(dt))}, out_types=[dt])
    c.add("EyeLike.kneg_same.s32", "EyeLike", [("x", rand([4, 3], np.int32))], {"k": -2})


def gen_gather_scatter(c):
    for dt in (np.float32, np.int8, np.int64, np.bool_):
        t = tname(dt)
        x = rand([4, 5], dt, -9, 9)
        for it in (np.int32, np.int64):
            idx = np.array([[0, -1], [3, 2]], it)
            c.add(f"Gather.ax0.{t}_{tname(it)}", "Gather", [("x", x), ("i", idx)])
            c.add(f"Gather.ax1.{t}_{tname(it)}", "Gather", [("x", x), ("i", idx)], {"axis": 1})
        c.add(f"Gather.scalar_idx.{t}", "Gather", [("x", x), ("i", np.array(-2, np.int64))], {"axis": 1})
        c.add(f"Gather.empty_idx.{t}", "Gather", [("x", x), ("i", np.zeros([0], np.int64))])
        ge = RNG.integers(-4, 4, size=[4, 3]).astype(np.int64)
        c.add(f"GatherElements.ax0.{t}", "GatherElements", [("x", x), ("i", ge)], {"axis": 0})
        c.add(f"GatherElements.ax1.{t}", "GatherElements", [("x", x), ("i", RNG.integers(-5, 5, size=[2, 5]))],
              {"axis": 1})
        c.add(f"GatherND.b0.{t}", "GatherND", [("x", x), ("i", np.array([[1, 2], [-1, 0]], np.int64))])
        c.add(f"GatherND.slices.{t}", "GatherND", [("x", x), ("i", np.array([[3], [0]], np.int64))])
        c.add(f"GatherND.b1.{t}", "GatherND", [("x", rand([2, 3, 4], dt)), ("i", np.array([[1], [2]], np.int64))],
              {"batch_dims": 1})
        c.add(f"ScatterElements.none.{t}", "ScatterElements",
              [("x", x), ("i", np.array([[1, 0, 2]], np.int64)), ("u", rand([1, 3], dt))], {"axis": 1})
        c.add(f"ScatterND.none.{t}", "ScatterND",
              [("x", x), ("i", np.array([[1], [3]], np.int64)), ("u", rand([2, 5], dt))])
    for dt in (np.float32, np.int32, np.int64, np.float64, np.uint8):
        x = rand([4, 5], dt, 0, 9)
        for red in ("add", "mul", "max", "min"):
            idx = np.array([[1, 1, 2], [0, 0, 0]], np.int64)  # duplicates: reduced in order
            c.add(f"ScatterElements.{red}.{tname(dt)}", "ScatterElements", [("x", x), ("i", idx),
                  ("u", rand([2, 3], dt, 0, 9))], {"axis": 1, "reduction": red}, opset=18, out_types=[dt])
            c.add(f"ScatterND.{red}.{tname(dt)}", "ScatterND", [("x", x), ("i", np.array([[1, 2], [1, 2], [0, 4]], np.int64)),
                  ("u", rand([3], dt, 0, 9))], {"reduction": red}, opset=18, out_types=[dt])
    for dt in (np.float32, np.int64, np.int32):
        ind = np.array([[0, 2], [-1, 1]], np.int64)
        for ax in (-1, 0):
            c.add(f"OneHot.ax{ax}.{tname(dt)}", "OneHot", [("i", ind)],
                  {"axis": ax}, opset=11, inits=[("d", np.array(4, np.int64)), ("v", np.array([0, 5], dt))])
    for dt in (np.float32, np.int32, np.int64, np.uint8, np.bool_):
        x = rand([3, 4], dt, -2, 2)
        c.add(f"NonZero.r2.{tname(dt)}", "NonZero", [("x", x)])
        c.add(f"NonZero.r0.{tname(dt)}", "NonZero", [("x", np.array(rand([], dt, 1, 2)))])
        c.add(f"Compress.ax1.{tname(dt)}", "Compress", [("x", x), ("c", np.array([1, 0, 1], np.bool_))], {"axis": 1})
        c.add(f"Compress.flat.{tname(dt)}", "Compress", [("x", x), ("c", rand([7], np.bool_))])
    for dt in (np.float32, np.int64, np.int8):
        x = rand([8], dt, -3, 3)
        c.add(f"Unique.flat_sorted.{tname(dt)}", "Unique", [("x", x)], outputs=4)
        c.add(f"Unique.flat_unsorted.{tname(dt)}", "Unique", [("x", x)], {"sorted": 0}, outputs=4)
        c.add(f"Unique.axis0.{tname(dt)}", "Unique", [("x", rand([5, 2], dt, 0, 1))], {"axis": 0}, outputs=4)
    for dt in (np.float32, np.int64):
        c.add(f"ReverseSequence.batch1.{tname(dt)}", "ReverseSequence",
              [("x", rand([4, 3, 2], dt, -9, 9)), ("l", np.array([4, 1, 3], np.int64))], {"batch_axis": 1, "time_axis": 0})


def gen_topk(c):
    for dt in allowed("TopK", 11):
        x = rand([3, 6], dt, -3, 3)  # small ranges: ties (lower index first)
        for vname, attrs, k in [("largest", {}, 3), ("smallest", {"largest": 0}, 2), ("ax0", {"axis": 0}, 2),
                                ("k0", {}, 0), ("all", {}, 6)]:
            c.add(f"TopK.{vname}.{tname(dt)}", "TopK", [("x", x)], attrs, opset=11, outputs=2,
                  inits=[("k", np.array([k], np.int64))])
    c.add("TopK.longK.f32", "TopK", [("x", rand([2, 3000], np.float32))], opset=11, outputs=2,
          inits=[("k", np.array([5], np.int64))])


# ---------------------------------------------------------------- nn

def gen_nn(c):
    for dt in allowed("Conv", 11):
        t = tname(dt)
        x = rand([1, 4, 7, 7], dt, -1, 1)
        w = rand([6, 4, 3, 3], dt, -1, 1)
        b = rand([6], dt, -1, 1)
        c.add(f"Conv.pads.{t}", "Conv", [("x", x), ("w", w), ("b", b)], {"pads": [1, 1, 1, 1]})
        c.add(f"Conv.stride2_dil2.{t}", "Conv", [("x", x), ("w", w)], {"strides": [2, 2], "dilations": [2, 1]})
        c.add(f"Conv.group2.{t}", "Conv", [("x", x), ("w", rand([6, 2, 3, 3], dt, -1, 1))], {"group": 2})
        c.add(f"Conv.depthwise.{t}", "Conv", [("x", x), ("w", rand([4, 1, 3, 3], dt, -1, 1))],
              {"group": 4, "pads": [1, 0, 1, 2]})
        for ap in ("SAME_UPPER", "SAME_LOWER", "VALID"):
            c.add(f"Conv.{ap.lower()}.{t}", "Conv", [("x", x), ("w", rand([2, 4, 2, 2], dt, -1, 1))],
                  {"auto_pad": ap, "strides": [2, 2]})
        c.add(f"Conv.1d.{t}", "Conv", [("x", rand([2, 3, 9], dt, -1, 1)), ("w", rand([2, 3, 3], dt, -1, 1))],
              {"pads": [2, 0]})
        c.add(f"Conv.3d.{t}", "Conv", [("x", rand([1, 2, 4, 4, 4], dt, -1, 1)), ("w", rand([2, 2, 2, 2, 2], dt, -1, 1))])
        c.add(f"Conv.1x1.{t}", "Conv", [("x", x), ("w", rand([5, 4, 1, 1], dt, -1, 1))])
        if dt != np.float16:
            c.add(f"Conv.longK.{t}", "Conv", [("x", rand([1, 300, 5, 5], dt, -1, 1)),
                                              ("w", rand([4, 300, 3, 3], dt, -1, 1))])
        c.add(f"ConvTranspose.s2.{t}", "ConvTranspose", [("x", rand([1, 3, 4, 4], dt, -1, 1)),
                                                         ("w", rand([3, 2, 3, 3], dt, -1, 1)), ("b", rand([2], dt))],
              {"strides": [2, 2]})
        c.add(f"ConvTranspose.pads_outpad.{t}", "ConvTranspose",
              [("x", rand([1, 3, 4, 4], dt, -1, 1)), ("w", rand([3, 2, 3, 3], dt, -1, 1))],
              {"strides": [2, 2], "pads": [1, 1, 1, 1], "output_padding": [1, 0]})
        c.add(f"ConvTranspose.group_dil.{t}", "ConvTranspose",
              [("x", rand([1, 4, 3, 3], dt, -1, 1)), ("w", rand([4, 1, 2, 2], dt, -1, 1))],
              {"group": 2, "dilations": [2, 2]})
        c.add(f"ConvTranspose.output_shape.{t}", "ConvTranspose",
              [("x", rand([1, 1, 3, 3], dt, -1, 1)), ("w", rand([1, 2, 3, 3], dt, -1, 1))],
              {"strides": [3, 2], "output_shape": [10, 8]})
        c.add(f"ConvTranspose.same_upper.{t}", "ConvTranspose",
              [("x", rand([1, 1, 3, 3], dt, -1, 1)), ("w", rand([1, 2, 3, 3], dt, -1, 1))],
              {"strides": [2, 2], "auto_pad": "SAME_UPPER"})
    for dt in allowed("MaxPool", 12):
        t = tname(dt)
        x = rand([1, 2, 7, 7], dt, -9, 9)
        c.add(f"MaxPool.k3s2.{t}", "MaxPool", [("x", x)], {"kernel_shape": [3, 3], "strides": [2, 2]})
        c.add(f"MaxPool.ceil_pad.{t}", "MaxPool", [("x", x)],
              {"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1, "pads": [1, 1, 0, 0]})
        c.add(f"MaxPool.dil.{t}", "MaxPool", [("x", x)], {"kernel_shape": [2, 2], "dilations": [2, 2]})
        c.add(f"MaxPool.same_upper.{t}", "MaxPool", [("x", x)],
              {"kernel_shape": [2, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"})
        if np.dtype(dt).kind == "f":
            c.add(f"MaxPool.indices.{t}", "MaxPool", [("x", x)], {"kernel_shape": [2, 2], "strides": [2, 2]}, outputs=2)
            c.add(f"MaxPool.indices_col.{t}", "MaxPool", [("x", x)],
                  {"kernel_shape": [2, 2], "strides": [2, 2], "storage_order": 1}, outputs=2)
    for dt in allowed("AveragePool", 11):
        t = tname(dt)
        x = rand([1, 2, 7, 7], dt, -9, 9)
        c.add(f"AveragePool.k3.{t}", "AveragePool", [("x", x)], {"kernel_shape": [3, 3]})
        c.add(f"AveragePool.pad_excl.{t}", "AveragePool", [("x", x)], {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]})
        c.add(f"AveragePool.pad_incl.{t}", "AveragePool", [("x", x)],
              {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "count_include_pad": 1})
        c.add(f"AveragePool.ceil.{t}", "AveragePool", [("x", x)], {"kernel_shape": [2, 2], "strides": [2, 2],
                                                                  "ceil_mode": 1})
        c.add(f"AveragePool.1d.{t}", "AveragePool", [("x", rand([2, 3, 9], dt))], {"kernel_shape": [4], "strides": [3]})
        for op in ("GlobalAveragePool", "GlobalMaxPool"):
            c.add(f"{op}.{t}", op, [("x", x)])
            c.add(f"{op}.1d.{t}", op, [("x", rand([2, 3, 9], dt))])
        c.add(f"GlobalAveragePool.longK.{t}", "GlobalAveragePool", [("x", rand([1, 2, 60, 50], dt))])
        for p in (1, 2, 3):
            c.add(f"LpPool.p{p}.{t}", "LpPool", [("x", x)], {"kernel_shape": [2, 2], "p": p, "strides": [2, 1]})
        for p in (1, 2, 3):
            c.add(f"GlobalLpPool.p{p}.{t}", "GlobalLpPool", [("x", x)], {"p": p})
        c.add(f"GlobalLpPool.1d_default.{t}", "GlobalLpPool", [("x", rand([2, 3, 9], dt))])
    for dt in FLOATS:
        t = tname(dt)
        x = rand([2, 3, 4, 5], dt, -2, 2)
        ch = lambda lo=-1, hi=1: rand([3], dt, lo, hi)
        c.add(f"BatchNormalization.{t}", "BatchNormalization",
              [("x", x), ("s", ch()), ("b", ch()), ("m", ch()), ("v", ch(0.5, 2))], {"epsilon": 1e-3}, opset=15)
        c.add(f"InstanceNormalization.{t}", "InstanceNormalization", [("x", x), ("s", ch()), ("b", ch())])
        for ax in (-1, 1):
            c.add(f"LayerNormalization.ax{ax}.{t}", "LayerNormalization",
                  [("x", x), ("s", rand(x.shape[ax:] if ax != -1 else [5], dt)),
                   ("b", rand(x.shape[ax:] if ax != -1 else [5], dt))], {"axis": ax}, opset=17)
        c.add(f"LayerNormalization.longK.{t}", "LayerNormalization",
              [("x", rand([2, 3000], dt)), ("s", rand([3000], dt))], opset=17)
        c.add(f"LRN.{t}", "LRN", [("x", x)], {"size": 3, "alpha": 1e-3, "beta": 0.75, "bias": 1.0})
        for p in (1, 2):
            c.add(f"LpNormalization.p{p}.{t}", "LpNormalization", [("x", x)], {"p": p, "axis": 1})
        c.add(f"MeanVarianceNormalization.{t}", "MeanVarianceNormalization", [("x", x)])
        c.add(f"GroupNormalization.{t}", "GroupNormalization", [("x", rand([2, 4, 3, 3], dt)),
              ("s", rand([2], dt)), ("b", rand([2], dt))], {"num_groups": 2}, opset=18, out_types=[dt])
    c.add("Dropout.inference.f32", "Dropout", [("x", rand([3, 4], np.float32))], opset=13)
    for dt in (np.float32, np.float16):
        x = rand([1, 2, 3, 4], dt, 0, 4)
        for mode, ctm in [("nearest", "asymmetric"), ("linear", "half_pixel"), ("linear", "align_corners"),
                          ("cubic", "half_pixel"), ("linear", "pytorch_half_pixel"), ("nearest", "half_pixel")]:
            c.add(f"Resize.{mode}_{ctm}.{tname(dt)}", "Resize", [("x", x)],
                  {"mode": mode, "coordinate_transformation_mode": ctm}, opset=13,
                  inits=[("scales", np.array([1, 1, 1.7, 0.6], np.float32))], optional_gaps=["x", "", "scales"])
        c.add(f"Resize.sizes_nearest_floor.{tname(dt)}", "Resize", [("x", x)],
              {"mode": "nearest", "nearest_mode": "floor"}, opset=13,
              inits=[("sizes", np.array([1, 2, 5, 7], np.int64))], optional_gaps=["x", "", "", "sizes"])
    for dt in (np.float32,):
        x = rand([1, 2, 5, 6], dt)
        grid = rand([1, 3, 4, 2], dt, -1.1, 1.1)
        for mode in ("bilinear", "nearest", "bicubic"):
            for pm in ("zeros", "border", "reflection"):
                c.add(f"GridSample.{mode}_{pm}.{tname(dt)}", "GridSample", [("x", x), ("g", grid)],
                      {"mode": mode, "padding_mode": pm}, opset=16)
        c.add(f"GridSample.align.{tname(dt)}", "GridSample", [("x", x), ("g", grid)], {"align_corners": 1}, opset=16)
        rois = np.array([[0.5, 0.5, 3.5, 4.0], [0, 0, 5, 4]], np.float32)
        for mode in ("avg", "max"):
            c.add(f"RoiAlign.{mode}.f32", "RoiAlign", [("x", x), ("r", rois), ("bi", np.array([0, 0], np.int64))],
                  {"mode": mode, "output_height": 2, "output_width": 3, "sampling_ratio": 2,
                   "coordinate_transformation_mode": "half_pixel"}, opset=16)
        c.add("MaxRoiPool.f32", "MaxRoiPool", [("x", x), ("r", np.array([[0, 0, 0, 3, 4]], np.float32))],
              {"pooled_shape": [2, 2]})
    boxes = np.array([[[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                       [0, 100, 1, 101]]], np.float32)
    scores = np.array([[[0.9, 0.75, 0.6, 0.95, 0.5, 0.3]]], np.float32)
    for cpb in (0, 1):
        c.add(f"NonMaxSuppression.cpb{cpb}", "NonMaxSuppression", [("b", boxes), ("s", scores)],
              {"center_point_box": cpb}, inits=[("m", np.array([3], np.int64)), ("iou", np.array([0.5], np.float32)),
                                                ("th", np.array([0.0], np.float32))])
    for dt in (np.float32, np.float64):
        c.add(f"Det.batch.{tname(dt)}", "Det", [("x", rand([2, 3, 3], dt))])
    for op in ("RNN", "GRU", "LSTM"):
        gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
        H, I, S, B = 3, 2, 4, 2
        for direction in ("forward", "reverse", "bidirectional"):
            D = 2 if direction == "bidirectional" else 1
            ins = [("x", rand([S, B, I], np.float32, -1, 1)), ("w", rand([D, gates * H, I], np.float32, -1, 1)),
                   ("r", rand([D, gates * H, H], np.float32, -1, 1)), ("b", rand([D, 2 * gates * H], np.float32, -1, 1))]
            c.add(f"{op}.{direction}.f32", op, ins, {"hidden_size": H, "direction": direction}, outputs=2)


def gen_misc(c):
    for dt in (np.float32, np.float64):
        c.add(f"HannWindow.{tname(dt)}", "HannWindow", [("n", np.array(10, np.int64))],
              {"output_datatype": tcode(np.dtype(dt))}, opset=17)
        c.add(f"HammingWindow.periodic0.{tname(dt)}", "HammingWindow", [("n", np.array(7, np.int64))],
              {"periodic": 0, "output_datatype": tcode(np.dtype(dt))}, opset=17)
        c.add(f"BlackmanWindow.{tname(dt)}", "BlackmanWindow", [("n", np.array(9, np.int32))],
              {"output_datatype": tcode(np.dtype(dt))}, opset=17)
    c.add("DFT.real.f32", "DFT", [("x", rand([2, 8, 1], np.float32))], {"axis": 1}, opset=17)
    c.add("DFT.onesided.f32", "DFT", [("x", rand([2, 8, 1], np.float32))], {"axis": 1, "onesided": 1}, opset=17)
    c.add("DFT.inverse.f32", "DFT", [("x", rand([2, 8, 2], np.float32))], {"axis": 1, "inverse": 1}, opset=17)
    c.add("STFT.hann.f32", "STFT", [("x", rand([1, 64, 1], np.float32))], opset=17,
          inits=[("step", np.array(8, np.int64)), ("win", np.hanning(16).astype(np.float32))])
    c.add("MelWeightMatrix.f32", "MelWeightMatrix", [], opset=17,
          inits=[("nb", np.array(8, np.int64)), ("dl", np.array(16, np.int64)), ("sr", np.array(8000, np.int64)),
                 ("lo", np.array(0, np.float32)), ("hi", np.array(4000, np.float32))])
    c.add("SoftmaxCrossEntropyLoss.mean.f32", "SoftmaxCrossEntropyLoss",
          [("x", rand([3, 5], np.float32)), ("l", np.array([0, 4, 2], np.int64))], opset=13)
    c.add("SoftmaxCrossEntropyLoss.none_ignore.f32", "SoftmaxCrossEntropyLoss",
          [("x", rand([3, 5, 2], np.float32)), ("l", np.array([[0, 4], [2, -1], [1, 1]], np.int64))],
          {"reduction": "none", "ignore_index": -1}, opset=13)
    c.add("NegativeLogLikelihoodLoss.weight.f32", "NegativeLogLikelihoodLoss",
          [("x", rand([3, 5], np.float32)), ("l", np.array([0, 4, 2], np.int64)), ("w", rand([5], np.float32, 0, 1))],
          opset=13)
    c.add("Col2Im.basic.f32", "Col2Im", [("x", rand([1, 4, 6], np.float32))], opset=18,
          inits=[("img", np.array([3, 4], np.int64)), ("blk", np.array([2, 2], np.int64))], out_types=[np.float32])
    c.add("CenterCropPad.f32", "CenterCropPad", [("x", rand([5, 3, 2], np.float32))], opset=18,
          inits=[("s", np.array([3, 6], np.int64))], out_types=[np.float32], attrs={"axes": [0, 1]})
    c.add("AffineGrid.2d.f32", "AffineGrid", [("t", rand([2, 2, 3], np.float32))], opset=20,
          inits=[("s", np.array([2, 1, 3, 4], np.int64))], out_types=[np.float32])


def gen_recent(c):
    """Ops past opset 17 or in ai.onnx.ml, which this onnx's schemas may not know: curated types."""
    f = np.float32
    x = rand([1, 1, 2, 2], f, -3, 3)
    c.add("MaxUnpool.k2s2.f32", "MaxUnpool", [("x", x), ("i", np.array([[[[5, 2], [8, 15]]]], np.int64))],
          {"kernel_shape": [2, 2], "strides": [2, 2]}, opset=11)
    c.add("MaxUnpool.output_shape.f32", "MaxUnpool", [("x", x), ("i", np.array([[[[5, 2], [8, 15]]]], np.int64))],
          {"kernel_shape": [2, 2], "strides": [2, 2]}, opset=11, inits=[("s", np.array([1, 1, 5, 5], np.int64))])
    for dt in (np.float32, np.int64):
        c.add(f"Scatter.ax1.{tname(dt)}", "Scatter", [("x", rand([3, 4], dt, -9, 9)),
              ("i", np.array([[1, 3], [0, 2]], np.int64)), ("u", rand([2, 2], dt, -9, 9))], {"axis": 1}, opset=9)
    for mode in ("nearest", "linear"):
        c.add(f"Upsample.{mode}.f32", "Upsample", [("x", rand([1, 1, 2, 3], f))], {"mode": mode}, opset=9,
              inits=[("s", np.array([1, 1, 2, 1.5], np.float32))])
    for dt in (np.float32, np.int32, np.int64, np.float64):
        x = rand([3, 4], dt, -3, 3)
        for excl, rev in ((0, 0), (1, 1)):
            c.add(f"CumProd.e{excl}r{rev}.{tname(dt)}", "CumProd", [("x", x)], {"exclusive": excl, "reverse": rev},
                  opset=26, inits=[("a", np.array(1, np.int64))], out_types=[dt])
    for dt in FLOATS:
        c.add(f"Swish.alpha.{tname(dt)}", "Swish", [("x", rand([2, 5], dt, -4, 4))], {"alpha": 1.5}, opset=24,
              out_types=[dt])
    for src, dst in ((np.float32, np.int32), (np.int32, np.float32), (np.uint8, np.int8), (np.float16, np.int16)):
        c.add(f"BitCast.{tname(src)}_{tname(dst)}", "BitCast", [("x", rand([2, 3], src, -50, 50))],
              {"to": tcode(dst)}, opset=26, out_types=[dst])
    for mode, idx in (("linear", [1, 3]), ("circular", [4, 2])):
        c.add(f"TensorScatter.{mode}.f32", "TensorScatter",
              [("past", rand([2, 3, 5, 4], f)), ("upd", rand([2, 3, 2, 4], f)), ("w", np.array(idx, np.int64))],
              {"mode": mode}, opset=24, out_types=[f])
    for dt in (np.float32, np.float16):
        c.add(f"RMSNormalization.last.{tname(dt)}", "RMSNormalization",
              [("x", rand([2, 3, 8], dt)), ("s", rand([8], dt))], {"epsilon": 1e-5}, opset=23, out_types=[dt])
        c.add(f"RMSNormalization.ax1.{tname(dt)}", "RMSNormalization",
              [("x", rand([2, 3, 4], dt)), ("s", rand([3, 4], dt))], {"axis": 1}, opset=23, out_types=[dt])
    for inter in (0, 1):
        c.add(f"RotaryEmbedding.i{inter}.f32", "RotaryEmbedding",
              [("x", rand([1, 2, 3, 8], f)), ("cos", rand([4, 4], f, -1, 1)), ("sin", rand([4, 4], f, -1, 1)),
               ("p", np.array([[0, 2, 1]], np.int64))], {"interleaved": inter}, opset=23, out_types=[f])
    c.add("RotaryEmbedding.partial_3d.f32", "RotaryEmbedding",
          [("x", rand([1, 3, 16], f)), ("cos", rand([1, 3, 2], f, -1, 1)), ("sin", rand([1, 3, 2], f, -1, 1))],
          {"num_heads": 2, "rotary_embedding_dim": 4}, opset=23, out_types=[f])
    q, k, v = rand([1, 4, 3, 8], f), rand([1, 2, 5, 8], f), rand([1, 2, 5, 6], f)
    c.add("Attention.gqa.f32", "Attention", [("q", q), ("k", k), ("v", v)], opset=23, out_types=[f])
    c.add("Attention.causal.f32", "Attention", [("q", q), ("k", k), ("v", v)], {"is_causal": 1}, opset=23,
          out_types=[f])
    c.add("Attention.float_mask_scale.f32", "Attention", [("q", q), ("k", k), ("v", v), ("m", rand([3, 5], f, -2, 0))],
          {"scale": 0.3}, opset=23, out_types=[f])
    c.add("Attention.bool_mask.f32", "Attention",
          [("q", q), ("k", k), ("v", v), ("m", np.array([[1, 1, 0, 1, 0]] * 3, np.bool_))], opset=23, out_types=[f])
    c.add("DeformConv.mask.f32", "DeformConv",
          [("x", rand([1, 2, 5, 5], f)), ("w", rand([3, 2, 3, 3], f)), ("o", rand([1, 18, 3, 3], f, -1.5, 1.5)),
           ("b", rand([3], f)), ("m", rand([1, 9, 3, 3], f, 0, 1))], opset=19, out_types=[f])
    c.add("DeformConv.pads_nomask.f32", "DeformConv",
          [("x", rand([1, 2, 4, 4], f)), ("w", rand([2, 2, 2, 2], f)), ("o", rand([1, 8, 5, 5], f, -1, 1))],
          {"pads": [1, 1, 1, 1]}, opset=19, out_types=[f])
    c.add("Constant.tensor.s64", "Constant", [], {"value": numpy_helper.from_array(np.array([[1, -2]], np.int64))})
    c.add("Constant.value_floats.f32", "Constant", [], {"value_floats": [1.5, -2.0]}, opset=13)
    c.add("Constant.value_int.s64", "Constant", [], {"value_int": 7}, opset=13)
    tf = {"max_gram_length": 2, "min_gram_length": 1, "max_skip_count": 0, "ngram_counts": [0, 4],
          "ngram_indexes": [0, 1, 2, 3, 4, 5, 6], "pool_int64s": [2, 3, 5, 4, 5, 6, 7, 8, 6, 7]}
    data = np.array([[1, 1, 3, 3, 3, 7], [8, 6, 7, 5, 6, 8]], np.int32)
    for mode in ("TF", "IDF", "TFIDF"):
        attrs = dict(tf, mode=mode)
        if mode != "TF":
            attrs["weights"] = [0.5, 1.0, 2.0, 1.5, 1.0, 3.0, 0.25]
        c.add(f"TfIdfVectorizer.{mode}.s32", "TfIdfVectorizer", [("x", data)], attrs, opset=9, out_types=[f])
    c.add("TfIdfVectorizer.skip1.s64", "TfIdfVectorizer", [("x", data.astype(np.int64))],
          dict(tf, mode="TF", max_skip_count=1), opset=9, out_types=[f])
    ml = "ai.onnx.ml"
    c.add("Binarizer.f32", "Binarizer", [("x", rand([3, 4], f))], {"threshold": 0.3}, opset=1, domain=ml, out_types=[f])
    for dt in (np.float32, np.int64):
        c.add(f"ArrayFeatureExtractor.{tname(dt)}", "ArrayFeatureExtractor",
              [("x", rand([3, 4], dt, -9, 9)), ("i", np.array([3, 0, 3], np.int64))], opset=1, domain=ml,
              out_types=[dt])
    c.add("LabelEncoder.int_int.s64", "LabelEncoder", [("x", np.array([1, 5, 2, 9], np.int64))],
          {"keys_int64s": [1, 2, 3], "values_int64s": [10, 20, 30], "default_int64": -1}, opset=2, domain=ml,
          out_types=[np.int64])
    c.add("LabelEncoder.float_int.f32", "LabelEncoder", [("x", np.array([0.5, 1.5, 7.0], np.float32))],
          {"keys_floats": [0.5, 1.5], "values_int64s": [3, 4]}, opset=2, domain=ml, out_types=[np.int64])
    tree = {"nodes_treeids": [0, 0, 0, 0, 0], "nodes_nodeids": [0, 1, 2, 3, 4], "nodes_featureids": [0, 1, 0, 0, 0],
            "nodes_modes": ["BRANCH_LEQ", "BRANCH_LT", "LEAF", "LEAF", "LEAF"],
            "nodes_values": [0.5, -0.2, 0, 0, 0], "nodes_truenodeids": [1, 2, 0, 0, 0],
            "nodes_falsenodeids": [4, 3, 0, 0, 0], "target_treeids": [0, 0, 0], "target_nodeids": [2, 3, 4],
            "target_ids": [0, 0, 0], "target_weights": [1.0, 2.0, 3.5], "n_targets": 1}
    te = {"aggregate_function": 1, "n_targets": 1, "nodes_featureids": [0, 1], "tree_roots": [0],
          "nodes_modes": numpy_helper.from_array(np.array([0, 2], np.uint8)),
          "nodes_splits": numpy_helper.from_array(np.array([0.5, -0.2], np.float32)),
          "nodes_truenodeids": [1, 0], "nodes_trueleafs": [0, 1], "nodes_falsenodeids": [2, 1],
          "nodes_falseleafs": [1, 1], "leaf_targetids": [0, 0, 0],
          "leaf_weights": numpy_helper.from_array(np.array([1.0, 2.0, 3.5], np.float32))}
    c.add("TreeEnsemble.leq_gt.f32", "TreeEnsemble", [("x", rand([6, 2], f, -1, 1))], te, opset=5, domain=ml,
          out_types=[f])
    for agg in ("SUM", "AVERAGE"):
        c.add(f"TreeEnsembleRegressor.{agg.lower()}.f32", "TreeEnsembleRegressor", [("x", rand([6, 2], f, -1, 1))],
              dict(tree, aggregate_function=agg, base_values=[0.25]), opset=3, domain=ml, out_types=[f])


def random_trees(rng, n_trees, depth, n_features):
    """Complete binary trees of `depth` in the legacy encoding, as skl2onnx writes them (BFS node ids,
    BRANCH_LEQ, thresholds inside the inputs' range): the nodes_* attributes and each tree's leaf ids."""
    a = {k: [] for k in ("nodes_treeids", "nodes_nodeids", "nodes_featureids", "nodes_modes", "nodes_values",
                         "nodes_truenodeids", "nodes_falsenodeids")}
    leaves = []
    for t in range(n_trees):
        count = 2 ** (depth + 1) - 1
        tree_leaves = []
        for i in range(count):
            branch = i < 2 ** depth - 1
            a["nodes_treeids"].append(t)
            a["nodes_nodeids"].append(i)
            a["nodes_featureids"].append(int(rng.integers(0, n_features)) if branch else 0)
            a["nodes_modes"].append("BRANCH_LEQ" if branch else "LEAF")
            a["nodes_values"].append(float(np.float32(rng.uniform(-0.8, 0.8))) if branch else 0.0)
            a["nodes_truenodeids"].append(2 * i + 1 if branch else 0)
            a["nodes_falsenodeids"].append(2 * i + 2 if branch else 0)
            if not branch:
                tree_leaves.append(i)
        leaves.append(tree_leaves)
    return a, leaves


def tree_classifier(rng, n_trees, n_classes, votes, labels, post="NONE", base=None, n_features=4):
    """A TreeEnsembleClassifier's attributes. votes: "proba" (every leaf votes every class with
    probabilities / n_trees, a random forest), "one" (each leaf one class id = tree % classes, mixed-sign
    raw scores, gradient boosting), "class1" / "class0" (binary, one class id, positive or mixed weights)."""
    a, leaves = random_trees(rng, n_trees, 3, n_features)
    ids, nodes, trees, weights = [], [], [], []
    for t, tl in enumerate(leaves):
        for leaf in tl:
            if votes == "proba":
                p = rng.dirichlet(np.ones(n_classes)) / n_trees
                for k in range(n_classes):
                    trees.append(t), nodes.append(leaf), ids.append(k), weights.append(float(np.float32(p[k])))
            else:
                k = t % n_classes if votes == "one" else (1 if votes == "class1" else 0)
                w = rng.uniform(0, 1.0 / n_trees) if votes == "class1" else rng.uniform(-1, 1)
                trees.append(t), nodes.append(leaf), ids.append(k), weights.append(float(np.float32(w)))
    a.update(class_treeids=trees, class_nodeids=nodes, class_ids=ids, class_weights=weights, post_transform=post)
    a["classlabels_int64s"] = labels
    if base is not None:
        a["base_values"] = base
    return a


def gen_ml(c):
    """ai.onnx.ml ops the way skl2onnx writes them, attributes from seeded random estimators; compared at
    rtol 1e-5 / atol 1e-6 (labels exact)."""
    ml = "ai.onnx.ml"
    rng = np.random.default_rng(1515)
    f, i64 = np.float32, np.int64
    tight = (1e-5, 1e-6)
    x = rand([16, 4], f, -1, 1)
    cases = {
        "rf3": tree_classifier(rng, 5, 3, "proba", [10, 20, 30]),
        "rf2": tree_classifier(rng, 4, 2, "proba", [0, 1]),
        "rf2_labels": tree_classifier(rng, 4, 2, "proba", [3, 7]),
        "rf_binary_class1": tree_classifier(rng, 4, 2, "class1", [0, 1]),
        "gb_binary_logistic": tree_classifier(rng, 6, 2, "class0", [-1, 1], "LOGISTIC", [0.3]),
        "gb_binary_none": tree_classifier(rng, 6, 2, "class0", [0, 1]),
        "gb_binary_base2": tree_classifier(rng, 6, 2, "class1", [0, 1], "NONE", [0.2, -0.1]),
        "gb_binary_base2_class0": tree_classifier(rng, 6, 2, "class0", [0, 1], "LOGISTIC", [0.2, -0.1]),
        # (A binary case with one score under PROBIT is left out: ORT fills only Z's first column, the second
        # is whatever its buffer held.)
        "rf2_probit": tree_classifier(rng, 4, 2, "proba", [0, 1], "PROBIT"),
        "gb3_softmax": tree_classifier(rng, 6, 3, "one", [0, 1, 2], "SOFTMAX", [0.1, -0.2, 0.3]),
        "gb3_softmax_zero": tree_classifier(rng, 6, 3, "one", [0, 1, 2], "SOFTMAX_ZERO"),
        "gb3_logistic": tree_classifier(rng, 6, 3, "one", [5, 6, 7], "LOGISTIC", [0.5, 0.5, 0.5]),
        "gb4_probit_sparse": tree_classifier(rng, 2, 4, "one", [0, 1, 2, 3], "PROBIT"),
    }
    for name, attrs in cases.items():
        for dt in (f, np.float64):
            if dt != f and not name.startswith(("rf3", "gb3_softmax")):
                continue
            # ORT's PROBIT runs in float with pi as 3.14159f (ml_common.h ErfInv); gkrun's in double parts
            # from it near 5e-5 relative: those cases keep the sweep's tolerance.
            c.add(f"TreeEnsembleClassifier.{name}.{tname(dt)}", "TreeEnsembleClassifier", [("x", x.astype(dt))],
                  attrs, opset=1, domain=ml, outputs=2, out_types=[i64, f],
                  tol=None if "probit" in name else tight)
    t3 = dict(cases["gb3_softmax"])
    t3["class_weights_as_tensor"] = numpy_helper.from_array(np.array(t3.pop("class_weights"), np.float64))
    t3["nodes_values_as_tensor"] = numpy_helper.from_array(np.array(t3.pop("nodes_values"), np.float64))
    t3["base_values_as_tensor"] = numpy_helper.from_array(np.array(t3.pop("base_values"), np.float64))
    c.add("TreeEnsembleClassifier.as_tensor.f64", "TreeEnsembleClassifier", [("x", x.astype(np.float64))], t3,
          opset=3, domain=ml, outputs=2, out_types=[i64, f], tol=tight)
    c.add("TreeEnsembleClassifier.int64_input.s64", "TreeEnsembleClassifier",
          [("x", rand([8, 4], i64, -2, 2))], cases["rf3"], opset=1, domain=ml, outputs=2, out_types=[i64, f],
          tol=tight)

    fl = lambda a: [float(v) for v in np.asarray(a, np.float32).reshape(-1)]
    xl = rand([12, 5], f, -2, 2)
    coef3, icpt3 = rng.normal(size=[3, 5]), rng.normal(size=[3])
    for name, coef, icpt, labels, post in (
            ("ovr3_logistic", coef3, icpt3, [0, 1, 2], "LOGISTIC"),
            ("multinomial3_softmax", coef3, icpt3, [7, 8, 9], "SOFTMAX"),
            ("raw3_none", coef3, icpt3, [0, 1, 2], "NONE"),
            ("binary2rows_logistic", np.stack([-coef3[0], coef3[0]]), [-icpt3[0], icpt3[0]], [0, 1], "LOGISTIC"),
            ("binary1row_none", coef3[:1], icpt3[:1], [3, 5], "NONE"),
            ("binary1row_logistic", coef3[:1], icpt3[:1], [0, 1], "LOGISTIC"),
            ("binary1row_softmax", coef3[:1], icpt3[:1], [0, 1], "SOFTMAX")):
        attrs = {"coefficients": fl(coef), "intercepts": fl(icpt), "classlabels_ints": labels, "post_transform": post,
                 "multi_class": 1 if "multinomial" in name else 0}
        for dt in (f, np.float64, i64) if name == "ovr3_logistic" else (f,):
            xin = (xl * 2).astype(dt) if dt == i64 else xl.astype(dt)
            c.add(f"LinearClassifier.{name}.{tname(dt)}", "LinearClassifier", [("x", xin)], attrs, opset=1,
                  domain=ml, outputs=2, out_types=[i64, f], tol=tight)
    for targets, post in ((1, "NONE"), (2, "NONE"), (3, "SOFTMAX"), (1, "LOGISTIC")):
        coef = rng.normal(size=[targets, 5])
        c.add(f"LinearRegressor.t{targets}_{post.lower()}.f32", "LinearRegressor", [("x", xl)],
              {"coefficients": fl(coef), "intercepts": fl(rng.normal(size=[targets])), "targets": targets,
               "post_transform": post}, opset=1, domain=ml, out_types=[f], tol=tight)
    c.add("LinearRegressor.no_intercept.f32", "LinearRegressor", [("x", xl)],
          {"coefficients": fl(rng.normal(size=[5]))}, opset=1, domain=ml, out_types=[f], tol=tight)
    for dt in (f, np.float64, i64, np.int32):
        xin = (xl * 3).astype(dt)
        c.add(f"Scaler.per_feature.{tname(dt)}", "Scaler", [("x", xin)],
              {"offset": fl(rng.normal(size=[5])), "scale": fl(rng.uniform(0.5, 2, size=[5]))}, opset=1, domain=ml,
              out_types=[f], tol=tight)
        for norm in ("MAX", "L1", "L2"):
            c.add(f"Normalizer.{norm}.{tname(dt)}", "Normalizer", [("x", xin)], {"norm": norm}, opset=1, domain=ml,
                  out_types=[f], tol=tight)
    c.add("Scaler.one_value.f32", "Scaler", [("x", xl)], {"offset": [0.5], "scale": [2.0]}, opset=1, domain=ml,
          out_types=[f], tol=tight)
    xi = rand([6, 3], f, -2, 2)
    xi[[0, 2, 5], [1, 0, 2]] = np.nan
    c.add("Imputer.nan_per_column.f32", "Imputer", [("x", xi)],
          {"imputed_value_floats": [0.5, -1.0, 2.0], "replaced_value_float": float("nan")}, opset=1, domain=ml,
          out_types=[f])
    c.add("Imputer.value_one.f32", "Imputer", [("x", np.round(xl))], {"imputed_value_floats": [9.0],
          "replaced_value_float": 1.0}, opset=1, domain=ml, out_types=[f])
    c.add("Imputer.int64.s64", "Imputer", [("x", rand([4, 3], i64, -2, 2))],
          {"imputed_value_int64s": [7, 8, 9], "replaced_value_int64": 0}, opset=1, domain=ml, out_types=[i64])
    for dt in (i64, f, np.float64):  # (ORT has no int32 OneHotEncoder)
        c.add(f"OneHotEncoder.cats.{tname(dt)}", "OneHotEncoder", [("x", rand([2, 5], dt, -1, 4).astype(dt))],
              {"cats_int64s": [0, 1, 3, 2], "zeros": 1}, opset=1, domain=ml, out_types=[f])
    c.add("FeatureVectorizer.pad_truncate.f32", "FeatureVectorizer",
          [("a", rand([3, 2], f)), ("b", rand([3, 4], f)), ("c", rand([3, 1], f))],
          {"inputdimensions": [3, 2, 1]}, opset=1, domain=ml, out_types=[f])
    c.add("FeatureVectorizer.two.s64", "FeatureVectorizer", [("a", rand([2, 3], i64, -5, 5)),
          ("b", rand([2, 2], i64, -5, 5))], {"inputdimensions": [3, 2]}, opset=1, domain=ml, out_types=[f])
    sv = rng.normal(size=[7, 5])
    for kern, kp in (("LINEAR", [0.0, 0.0, 0.0]), ("POLY", [0.3, 1.0, 3.0]), ("RBF", [0.2, 0.0, 0.0]),
                     ("SIGMOID", [0.1, 0.5, 0.0])):
        c.add(f"SVMRegressor.{kern.lower()}.f32", "SVMRegressor", [("x", xl)],
              {"support_vectors": fl(sv), "coefficients": fl(rng.normal(size=[7])), "n_supports": 7,
               "kernel_type": kern, "kernel_params": kp, "rho": [0.25]}, opset=1, domain=ml, out_types=[f], tol=tight)
    c.add("SVMRegressor.liblinear.f32", "SVMRegressor", [("x", xl)],
          {"coefficients": fl(rng.normal(size=[5])), "rho": [-0.5], "kernel_type": "LINEAR",
           "kernel_params": [0.0, 0.0, 0.0]}, opset=1, domain=ml, out_types=[f], tol=tight)
    c.add("SVMRegressor.one_class_rbf.f32", "SVMRegressor", [("x", xl)],
          {"support_vectors": fl(sv), "coefficients": fl(rng.uniform(0, 1, size=[7])), "n_supports": 7,
           "kernel_type": "RBF", "kernel_params": [0.5, 0, 0], "rho": [-0.8], "one_class": 1}, opset=1, domain=ml,
          out_types=[f], tol=tight)
    for name, per_class, kern, kp, post in (("ovo3_rbf", [2, 3, 2], "RBF", [0.3, 0, 0], "NONE"),
                                            ("ovo4_poly_softmax", [2, 1, 2, 2], "POLY", [0.2, 1.0, 2.0], "SOFTMAX"),
                                            ("binary_rbf", [3, 4], "RBF", [0.4, 0, 0], "NONE"),
                                            ("binary_linear_logistic", [3, 4], "LINEAR", [0.0, 0.0, 0.0], "LOGISTIC"),
                                            ("binary_sigmoid_softmax", [3, 4], "SIGMOID", [0.1, 0.2, 0], "SOFTMAX")):
        nv, nc = sum(per_class), len(per_class)
        labels = list(range(10, 10 + nc))
        c.add(f"SVMClassifier.{name}.f32", "SVMClassifier", [("x", xl)],
              {"support_vectors": fl(rng.normal(size=[nv, 5])), "coefficients": fl(rng.normal(size=[nc - 1, nv])),
               "vectors_per_class": per_class, "rho": fl(rng.normal(size=[nc * (nc - 1) // 2])),
               "kernel_type": kern, "kernel_params": kp, "classlabels_ints": labels, "post_transform": post},
              opset=1, domain=ml, outputs=2, out_types=[i64, f], tol=tight)
    for name, per_class in (("platt3", [2, 3, 2]), ("platt2", [3, 2]), ("platt5", [1, 2, 1, 2, 1])):
        nv, nc = sum(per_class), len(per_class)
        pairs = nc * (nc - 1) // 2
        c.add(f"SVMClassifier.{name}_rbf.f32", "SVMClassifier", [("x", xl)],
              {"support_vectors": fl(rng.normal(size=[nv, 5])), "coefficients": fl(rng.normal(size=[nc - 1, nv])),
               "vectors_per_class": per_class, "rho": fl(rng.normal(size=[pairs])), "kernel_type": "RBF",
               "kernel_params": [0.3, 0.0, 0.0], "classlabels_ints": list(range(nc)),
               "prob_a": fl(rng.uniform(-3, -0.5, size=[pairs])), "prob_b": fl(rng.normal(scale=0.2, size=[pairs]))},
              opset=1, domain=ml, outputs=2, out_types=[i64, f], tol=tight)
    for nc, post in ((3, "NONE"), (2, "NONE"), (2, "LOGISTIC")):
        c.add(f"SVMClassifier.liblinear{nc}_{post.lower()}.f32", "SVMClassifier", [("x", xl)],
              {"coefficients": fl(rng.normal(size=[nc, 5])), "rho": [0.3], "classlabels_ints": list(range(nc)),
               "kernel_type": "LINEAR", "kernel_params": [0.0, 0.0, 0.0],
               "post_transform": post}, opset=1, domain=ml, outputs=2, out_types=[i64, f], tol=tight)
    c.add("SVMClassifier.ovo3_rbf.s64", "SVMClassifier", [("x", (xl * 2).astype(i64))],
          {"support_vectors": fl(rng.normal(size=[5, 5])), "coefficients": fl(rng.normal(size=[2, 5])),
           "vectors_per_class": [2, 2, 1], "rho": fl(rng.normal(size=[3])), "kernel_type": "RBF",
           "kernel_params": [0.1, 0, 0], "classlabels_ints": [1, 2, 3]}, opset=1, domain=ml, outputs=2,
          out_types=[i64, f], tol=tight)
    c.add("Normalizer.zero_row.f32", "Normalizer", [("x", np.array([[0, 0, 0], [1, -2, 2]], f))], {"norm": "L2"},
          opset=1, domain=ml, out_types=[f], tol=tight)


# Registered ops the sweep leaves to other suites, and why.
_NOT_TENSOR = "not a single-node tensor case (control flow, sequences, optionals): conformance suite and tests/runtime"
_STRINGS = "string tensors, which the ONNX Runtime runner's .npy files do not carry: conformance suite"
NOT_SWEPT = {op: _NOT_TENSOR for op in ("If", "Loop", "Scan", "ConcatFromSequence", "Optional", "OptionalGetElement",
                                        "OptionalHasElement", "SequenceAt", "SequenceConstruct", "SequenceEmpty",
                                        "SequenceErase", "SequenceInsert", "SequenceLength", "SequenceMap",
                                        "SplitToSequence")}
NOT_SWEPT.update({op: _STRINGS for op in ("RegexFullMatch", "StringConcat", "StringNormalizer", "StringSplit")})
NOT_SWEPT["ai.onnx.ml:CategoryMapper"] = ("string tensors, which the ONNX Runtime runner's .npy files do not carry: "
                                          "tests/ops/ml_ops_test.cpp")
NOT_SWEPT.update({f"ai.onnx.ml:{op}": "registered only to refuse it by name (maps are not gkrun values): "
                  "tests/ops/ml_ops_test.cpp" for op in ("ZipMap", "DictVectorizer", "CastMap")})

def gen_integer_extra(c):
    """Integer paths where a rounding or wrap-around choice shows: uint8 images resized, int16 quantization,
    integer sums and products that wrap, constant padding with a value."""
    for dt in (np.uint8, np.int8, np.int32):
        x = rand([1, 1, 3, 4], dt, 0, 120)
        for mode in ("nearest", "linear", "cubic"):
            c.add(f"Resize.{mode}_int.{tname(dt)}", "Resize", [("x", x)], {"mode": mode}, opset=13,
                  inits=[("scales", np.array([1, 1, 1.5, 0.75], np.float32))], optional_gaps=["x", "", "scales"])
        c.add(f"Pad.value.{tname(dt)}", "Pad", [("x", rand([2, 3], dt, 0, 100))], opset=13,
              inits=[("p", np.array([1, 0, 0, 2], np.int64)), ("v", np.array(7, dt))])
    for dt in (np.int32, np.int64, np.uint8, np.int8):
        x = rand([2, 400], dt, 0, 120)
        c.add(f"ReduceSum.wrap.{tname(dt)}", "ReduceSum", [("x", x)], {"keepdims": 0}, opset=13,
              inits=[("axes", np.array([1], np.int64))])
        c.add(f"ReduceProd.wrap.{tname(dt)}", "ReduceProd", [("x", rand([2, 40], dt, 1, 7))], {"axes": [1]}, opset=13)
        c.add(f"MatMul.wrap.{tname(dt)}", "MatMul", [("a", rand([2, 300], dt, 0, 120)), ("b", rand([300, 2], dt, 0, 120))])
        c.add(f"CumSum.wrap.{tname(dt)}", "CumSum", [("x", rand([300], dt, 0, 120))], opset=14,
              inits=[("axis", np.array(0, np.int64))])
    for dt in (np.int16, np.uint16, np.int8, np.uint8):
        x = rand([2, 6], np.float32, -300, 300)
        x.flat[:3] = [0.5, 1.5, -2.5]
        c.add(f"QuantizeLinear.o21.{tname(dt)}", "QuantizeLinear",
              [("x", x), ("s", np.array(2.0, np.float32)), ("z", np.array(rand([], dt, 0, 10)))], opset=21,
              out_types=[dt])
        c.add(f"QuantizeLinear.o21_block.{tname(dt)}", "QuantizeLinear",
              [("x", x), ("s", rand([2, 2], np.float32, 0.5, 3)), ("z", rand([2, 2], dt, 0, 10))],
              {"axis": 1, "block_size": 3}, opset=21, out_types=[dt])
        c.add(f"DequantizeLinear.o21.{tname(dt)}", "DequantizeLinear",
              [("x", rand([2, 6], dt, -300, 300)), ("s", np.array(0.5, np.float32)), ("z", np.array(rand([], dt, 0, 10)))],
              opset=21, out_types=[np.float32])
        c.add(f"DequantizeLinear.o21_block.{tname(dt)}", "DequantizeLinear",
              [("x", rand([2, 6], dt, -300, 300)), ("s", rand([2, 2], np.float32, 0.1, 1)), ("z", rand([2, 2], dt, 0, 10))],
              {"axis": 1, "block_size": 3}, opset=21, out_types=[np.float32])
    x = rand([2, 6], np.float32, -300, 300)
    c.add("QuantizeLinear.o21_f16_scale.s8", "QuantizeLinear",
          [("x", x.astype(np.float16)), ("s", np.array(2.0, np.float16)), ("z", np.array(3, np.int8))], opset=21,
          out_types=[np.int8])
    c.add("QuantizeLinear.o21_sat_noz.s16", "QuantizeLinear",
          [("x", np.array([1e9, -1e9, 3.5, -3.5], np.float32)), ("s", np.array(1.0, np.float32))],
          {"output_dtype": TensorProto.INT16}, opset=21, out_types=[np.int16])


def gen_variants(c):
    """Older opset forms (attributes where later opsets take inputs), NaN propagation, per-channel quantization."""
    f = np.float32
    x = rand([2, 1, 3, 1], f)
    c.add("Squeeze.o11_attr.f32", "Squeeze", [("x", x)], {"axes": [1, -1]}, opset=11)
    c.add("Unsqueeze.o11_attr.f32", "Unsqueeze", [("x", rand([2, 3], f))], {"axes": [0, 3]}, opset=11)
    c.add("Split.o11_attr.s64", "Split", [("x", rand([2, 5], np.int64, -9, 9))], {"axis": 1, "split": [2, 3]},
          outputs=2, opset=11)
    c.add("ReduceSum.o11_attr.f32", "ReduceSum", [("x", rand([3, 4], f))], {"axes": [0], "keepdims": 0}, opset=11)
    c.add("Pad.o2_attr.f32", "Pad", [("x", rand([2, 3], f))], {"pads": [0, 1, 1, 0], "value": 2.5}, opset=2)
    c.add("Slice.o1_attr.f32", "Slice", [("x", rand([3, 4], f))], {"starts": [1, 0], "ends": [3, -1], "axes": [0, 1]},
          opset=1)
    c.add("Slice.s32_indices.s8", "Slice", [("x", rand([4, 5], np.int8, -9, 9))],
          inits=[("s", np.array([3, 1], np.int32)), ("e", np.array([0, 5], np.int32)), ("a", np.array([0, 1], np.int32)),
                 ("p", np.array([-1, 2], np.int32))])
    c.add("TopK.o1_attr.f32", "TopK", [("x", rand([3, 5], f))], {"k": 2}, outputs=2, opset=1)
    c.add("Softmax.o1_coerce.f32", "Softmax", [("x", rand([2, 3, 4], f))], {"axis": 1}, opset=1)
    c.add("BatchNormalization.o9.f32", "BatchNormalization",
          [("x", rand([2, 3, 4], f)), ("s", rand([3], f)), ("b", rand([3], f)), ("m", rand([3], f)),
           ("v", rand([3], f, 0.5, 2))], opset=9)
    c.add("ConvTranspose.1d.f32", "ConvTranspose", [("x", rand([1, 2, 5], f)), ("w", rand([2, 3, 3], f))],
          {"strides": [2], "pads": [1, 0]})
    for dt in (np.float16, np.uint8, np.int32):
        c.add(f"Gather.ax1.{tname(dt)}", "Gather", [("x", rand([3, 4], dt, -9, 9)), ("i", np.array([3, -4, 1], np.int64))],
              {"axis": 1})
    for eq, sa, sb in [("bhqd,bhkd->bhqk", [1, 2, 3, 4], [1, 2, 5, 4]), ("ij,ij->ij", [3, 4], [3, 4]),
                       ("bij->bj", [2, 3, 4], None), ("ij,kj->ikj", [2, 3], [4, 3])]:
        ins = [("a", rand(sa, f))] + ([("b", rand(sb, f))] if sb else [])
        c.add(f"Einsum.{re.sub(r'[^a-z]', '_', eq)}.f32", "Einsum", ins, {"equation": eq})
    c.add("OneHot.s32_indices.f32", "OneHot", [("i", np.array([0, 3, -1], np.int32))], {"axis": -1}, opset=11,
          inits=[("d", np.array(4, np.int32)), ("v", np.array([-1, 1], np.float32))])
    nan = np.array([np.nan, 1.0, -2.0, np.nan], f)
    for op in ("Max", "Min"):
        c.add(f"{op}.nan.f32", op, [("a", nan), ("b", np.array([0.5, np.nan, -3.0, np.nan], f))])
    for op in ("Relu", "Abs", "Sigmoid", "Clip"):
        c.add(f"{op}.nan.f32", op, [("x", nan)])
    c.add("ReduceMax.nan.f32", "ReduceMax", [("x", nan.reshape(2, 2))], {"axes": [1]}, opset=13)
    c.add("ArgMax.nan.f32", "ArgMax", [("x", nan.reshape(2, 2))], {"axis": 1}, opset=13)
    for ta in (np.uint8, np.int8):
        for tb in (np.uint8, np.int8):
            a = rand([3, 6], ta, -128, 255)
            b = rand([6, 4], tb, -128, 255)
            ins = [("a", a), ("as", np.array(0.05, f)), ("az", np.array(rand([], ta, 0, 50))), ("b", b),
                   ("bs", rand([4], f, 0.01, 0.1)), ("bz", rand([4], tb, 0, 50)), ("ys", np.array(0.3, f)),
                   ("yz", np.array(rand([], ta, 0, 50)))]
            c.add(f"QLinearMatMul.per_col_b.{tname(ta)}_{tname(tb)}", "QLinearMatMul", ins, opset=10)
            x = rand([1, 4, 5, 5], ta, -128, 255)
            w = rand([3, 4, 3, 3], tb, -128, 255)
            ins = [("x", x), ("xs", np.array(0.05, f)), ("xz", np.array(rand([], ta, 0, 50))), ("w", w),
                   ("ws", rand([3], f, 0.005, 0.05)), ("wz", np.zeros([3], tb)), ("ys", np.array(0.6, f)),
                   ("yz", np.array(rand([], ta, 0, 50))), ("b", RNG.integers(-500, 500, size=[3]).astype(np.int32))]
            c.add(f"QLinearConv.per_channel_bias_pads.{tname(ta)}_{tname(tb)}", "QLinearConv", ins,
                  {"pads": [1, 1, 1, 1], "strides": [2, 1]}, opset=10)
            c.add(f"ConvInteger.group2.{tname(ta)}_{tname(tb)}", "ConvInteger",
                  [("x", x), ("w", rand([2, 2, 3, 3], tb, -128, 255))], {"group": 2}, opset=10)
    for vname, v in (("zeros", np.zeros([5], f)), ("negative", rand([5], f, -4, -1)), ("tie", np.array([0, 2.55, 0.5, 1.5, 255 * 0.01], f))):
        c.add(f"DynamicQuantizeLinear.{vname}.f32", "DynamicQuantizeLinear", [("x", v)], outputs=3)


GENERATORS = [gen_unary, gen_activations, gen_binary, gen_reduce, gen_softmax, gen_matmul, gen_quant, gen_cast,
              gen_movement, gen_gather_scatter, gen_topk, gen_nn, gen_misc,
              gen_recent, gen_integer_extra, gen_variants, gen_ml]


def main():
    out = Path(sys.argv[1])
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    c = Corpus(out)
    for g in GENERATORS:
        g(c)
    reg = registered_ops()
    covered = sorted({f"{d}:{o}" if d else o for d, o in c.ops if (d, o) in set(reg)})
    stray = sorted({f"{d}:{o}" if d else o for d, o in c.ops if (d, o) not in set(reg)})
    missing = sorted({f"{d}:{o}" if d else o for d, o in reg if (d, o) not in c.ops})
    (out / "manifest.json").write_text(json.dumps(c.cases, indent=0))
    missing = [f"{m}: {NOT_SWEPT.get(m, 'no case yet')}" for m in missing]
    (out / "ops.json").write_text(json.dumps({"registered": len(reg), "covered": covered, "not_covered": missing,
                                              "not_registered": stray}, indent=1))
    print(f"gen_sweep: {len(c.cases)} cases over {len(covered)} of {len(reg)} registered ops "
          f"({len(missing)} not covered); {out}")


if __name__ == "__main__":
    main()

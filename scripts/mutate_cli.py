#!/usr/bin/python3
"""Seeded mutations of the backend test models through the gkrun CLI, as a new user
would meet them: each mutated model goes through `gkrun check DIR` (with its seed's
test_data_set_*) and `gkrun MODEL` (random inputs, symbolic dims bound small), and
every process that dies by a signal, or outlives the timeout, is a finding.

  /usr/bin/python3 scripts/mutate_cli.py GKRUN OUT_DIR [--count 4000] [--first 0] [--seed 0]
      [--timeout 60] [--mem-limit-mb 4096] [--data ../shared/onnx-backend-data]

Mutation i (first <= i < first + count) takes seed folder i % len(seeds) and a
random.Random(i) generator (random.Random((seed << 32) | i) for --seed S > 0, so each
seed is another 4000 mutations of the same models): the outcome is a function of
(seed, i) alone (never the clock). The mutations are those of the issue's first
report and of a hostile model (tests/fuzz/model_mutator.cpp does the same in C++
for libFuzzer): a node input set to "", inputs dropped or added, attributes set to
extreme values or removed, dims and element types changed, initializers truncated,
op types and edges rewired, nodes deleted, opset versions changed. A finding's
model is kept as OUT_DIR/finding-<i>/ (finding-s<S>-<i>/ for --seed S: model.onnx
and the seed's data sets, as links) with the command line in cmd.txt. Exit 1 when
anything was found.
"""
import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import time

import onnx
from onnx import TensorProto

# Values that broke runtimes before: zero, negative, one past int32, near int64.
EXTREME_INTS = [0, -1, 1, 2, 3, -2, 7, 64, 2**31 - 1, 2**31, -2**31, 2**62, -2**62, 2**63 - 1]
ELEM_TYPES = list(range(0, 26)) + [99]


def seed_folders(data):
    out = []
    for group in ("node", "simple", "pytorch-operator", "pytorch-converted"):
        root = os.path.join(data, group)
        if not os.path.isdir(root):
            continue
        for name in sorted(os.listdir(root)):
            folder = os.path.join(root, name)
            model = os.path.join(folder, "model.onnx")
            if os.path.isfile(model) and os.path.getsize(model) < 256 * 1024:
                out.append(folder)
    return out


def all_graphs(g):
    yield g
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield from all_graphs(a.g)
            for sg in a.graphs:
                yield from all_graphs(sg)


def value_names(g):
    names = [i.name for i in g.input] + [i.name for i in g.initializer]
    for n in g.node:
        names.extend(o for o in n.output if o)
    return names


def pick_node(g, rng):
    return rng.choice(g.node) if len(g.node) else None


def m_empty_input(m, g, rng):
    n = pick_node(g, rng)
    if n is None or not n.input:
        return False
    n.input[rng.randrange(len(n.input))] = ""
    return True


def m_drop_input(m, g, rng):
    n = pick_node(g, rng)
    if n is None or not n.input:
        return False
    del n.input[rng.randrange(len(n.input))]
    return True


def m_add_input(m, g, rng):
    n = pick_node(g, rng)
    names = value_names(g)
    if n is None or not names:
        return False
    n.input.append(rng.choice(names + [""]))
    return True


def m_rewire(m, g, rng):
    n = pick_node(g, rng)
    names = value_names(g)
    if n is None or not n.input or not names:
        return False
    n.input[rng.randrange(len(n.input))] = rng.choice(names)
    return True


def m_attr_value(m, g, rng):
    n = pick_node(g, rng)
    if n is None or not n.attribute:
        return False
    a = rng.choice(n.attribute)
    if a.type == onnx.AttributeProto.INT:
        a.i = rng.choice(EXTREME_INTS)
    elif a.type == onnx.AttributeProto.INTS:
        if a.ints and rng.random() < 0.7:
            a.ints[rng.randrange(len(a.ints))] = rng.choice(EXTREME_INTS)
        elif a.ints and rng.random() < 0.5:
            del a.ints[rng.randrange(len(a.ints))]
        else:
            a.ints.append(rng.choice(EXTREME_INTS))
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = rng.choice([0.0, -1.0, 1e30, -1e30, float("nan"), float("inf")])
    elif a.type == onnx.AttributeProto.STRING:
        a.s = rng.choice([b"", b"bogus", b"NOTSET", b"SAME_UPPER", b"constant"])
    elif a.type == onnx.AttributeProto.TENSOR:
        t = a.t
        if t.dims and rng.random() < 0.5:
            t.dims[rng.randrange(len(t.dims))] = rng.choice(EXTREME_INTS)
        else:
            t.data_type = rng.choice(ELEM_TYPES)
    else:
        return False
    return True


def m_attr_drop(m, g, rng):
    n = pick_node(g, rng)
    if n is None or not n.attribute:
        return False
    del n.attribute[rng.randrange(len(n.attribute))]
    return True


def m_attr_type(m, g, rng):
    n = pick_node(g, rng)
    if n is None or not n.attribute:
        return False
    a = rng.choice(n.attribute)
    a.type = rng.choice(list(range(0, 15)))
    return True


def m_dims(m, g, rng):
    vis = list(g.input) + list(g.output) + list(g.value_info)
    if not vis:
        return False
    v = rng.choice(vis)
    if not v.type.HasField("tensor_type"):
        return False
    shape = v.type.tensor_type.shape
    r = rng.random()
    if shape.dim and r < 0.6:
        d = shape.dim[rng.randrange(len(shape.dim))]
        if rng.random() < 0.3:
            d.dim_param = rng.choice(["N", "", "M"])
        else:
            d.dim_value = rng.choice([0, 1, 2, 3, 5, -1])
    elif shape.dim and r < 0.8:
        del shape.dim[rng.randrange(len(shape.dim))]
    else:
        shape.dim.add().dim_value = rng.choice([0, 1, 2])
    return True


def m_elem_type(m, g, rng):
    vis = list(g.input) + list(g.output)
    if not vis:
        return False
    v = rng.choice(vis)
    if not v.type.HasField("tensor_type"):
        return False
    v.type.tensor_type.elem_type = rng.choice(ELEM_TYPES)
    return True


def m_initializer(m, g, rng):
    if not g.initializer:
        return False
    t = rng.choice(g.initializer)
    r = rng.random()
    if t.raw_data and r < 0.3:
        t.raw_data = t.raw_data[: rng.randrange(len(t.raw_data) + 1)]
    elif t.dims and r < 0.6:
        t.dims[rng.randrange(len(t.dims))] = rng.choice(EXTREME_INTS)
    elif r < 0.8:
        t.data_type = rng.choice(ELEM_TYPES)
    else:
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key = "location"
        e.value = rng.choice(["../../etc/passwd", "missing.bin", "/etc/passwd", "model.onnx"])
    return True


def m_op_type(m, g, rng):
    n = pick_node(g, rng)
    if n is None:
        return False
    n.op_type = rng.choice(OP_TYPES)
    return True


def m_delete_node(m, g, rng):
    if not g.node:
        return False
    del g.node[rng.randrange(len(g.node))]
    return True


def m_opset(m, g, rng):
    if not m.opset_import:
        return False
    m.opset_import[rng.randrange(len(m.opset_import))].version = rng.choice([0, 1, 5, 7, 9, 11, 13, 17, 21, 23, 99])
    return True


def m_duplicate_output(m, g, rng):
    n = pick_node(g, rng)
    names = value_names(g)
    if n is None or not n.output or not names:
        return False
    n.output[rng.randrange(len(n.output))] = rng.choice(names + [""])
    return True


MUTATIONS = [m_empty_input, m_empty_input, m_drop_input, m_add_input, m_rewire, m_attr_value, m_attr_value,
             m_attr_drop, m_attr_type, m_dims, m_elem_type, m_initializer, m_op_type, m_delete_node, m_opset,
             m_duplicate_output]
OP_TYPES = ["Shape", "MaxPool", "GRU", "LSTM", "DepthToSpace", "BitCast", "Attention", "Gather", "Reshape",
            "Slice", "Concat", "Conv", "MatMul", "Loop", "If", "Scan", "TopK", "NonZero", "Expand", "Tile",
            "Pad", "Resize", "Einsum", "ScatterND", "GatherND", "OneHot", "Range", "Split", "Unsqueeze",
            "ConstantOfShape", "Cast", "RotaryEmbedding", "LayerNormalization", "Softmax", "ReduceSum"]


def mutate(model, rng):
    graphs = list(all_graphs(model.graph))
    applied = 0
    for _ in range(rng.randint(1, 3)):
        for _attempt in range(8):
            if rng.choice(MUTATIONS)(model, rng.choice(graphs), rng):
                applied += 1
                break
    return applied > 0


def shape_flags(model):
    """--shape NAME=AxB for each graph input with a symbolic or unknown dim (bound to 2)."""
    inits = {t.name for t in model.graph.initializer}
    flags = []
    for v in model.graph.input:
        if v.name in inits or not v.type.HasField("tensor_type"):
            continue
        dims = v.type.tensor_type.shape.dim
        if any(not d.HasField("dim_value") for d in dims):
            dims_s = "x".join(str(d.dim_value) if d.HasField("dim_value") else "2" for d in dims)
            flags += ["--shape", f"{v.name}={dims_s or '1'}"]
    return flags


def run(cmd, timeout, mem_limit_mb):
    def limit():
        # A model may ask for any size: cap the child's address space so that it meets a
        # failed allocation (which gkrun must turn into an error) instead of the machine's
        # OOM killer. Off (0) under ASan, whose shadow memory needs terabytes of it.
        if mem_limit_mb:
            resource.setrlimit(resource.RLIMIT_AS, (mem_limit_mb << 20, mem_limit_mb << 20))
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout,
                           preexec_fn=limit)
        return p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return None, "timeout"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("gkrun")
    ap.add_argument("out_dir")
    ap.add_argument("--count", type=int, default=4000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=0, help="0: random.Random(i), as the first runs; S: (S << 32) | i")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--mem-limit-mb", type=int, default=4096, help="address-space limit per process (0: none)")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared",
                                                   "onnx-backend-data"))
    args = ap.parse_args()
    seeds = seed_folders(args.data)
    if not seeds:
        sys.exit(f"mutate_cli: no seed models under {args.data}")
    work = os.path.join(args.out_dir, "work")
    os.makedirs(work, exist_ok=True)
    counts = {"mutations": 0, "check_ok": 0, "check_error": 0, "run_ok": 0, "run_error": 0, "signals": 0,
              "timeouts": 0}
    findings = []
    start = time.time()
    for i in range(args.first, args.first + args.count):
        folder = seeds[i % len(seeds)]
        model = onnx.load(os.path.join(folder, "model.onnx"))
        rng = random.Random(i if args.seed == 0 else (args.seed << 32) | i)
        if not mutate(model, rng):
            continue
        counts["mutations"] += 1
        case = os.path.join(work, "case")
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        with open(os.path.join(case, "model.onnx"), "wb") as f:
            f.write(model.SerializeToString())
        for d in os.listdir(folder):
            if d.startswith("test_data_set_"):
                os.symlink(os.path.abspath(os.path.join(folder, d)), os.path.join(case, d))
        cmds = {
            "check": [args.gkrun, "check", case, "--backend", "cpu", "--threads", "1"],
            "run": [args.gkrun, os.path.join(case, "model.onnx"), "--backend", "cpu", "--threads", "1",
                    "--seed", str(i), "--memory-limit", "512M"] + shape_flags(model),
        }
        for kind, cmd in cmds.items():
            rc, err = run(cmd, args.timeout, args.mem_limit_mb)
            if rc is None or rc < 0:
                counts["timeouts" if rc is None else "signals"] += 1
                what = "timeout" if rc is None else f"signal {-rc}"
                keep = os.path.join(args.out_dir, f"finding-{i}" if args.seed == 0 else f"finding-s{args.seed}-{i}")
                if not os.path.isdir(keep):
                    shutil.copytree(case, keep, symlinks=True)
                with open(os.path.join(keep, "cmd.txt"), "a") as f:
                    f.write(f"{what}: {' '.join(cmd)}\n{err[-2000:]}\n")
                findings.append((i, kind, what, os.path.relpath(folder, args.data)))
                print(f"mutate_cli: {i} {kind}: {what} (seed {os.path.relpath(folder, args.data)})", flush=True)
            else:
                counts[f"{kind}_{'ok' if rc == 0 else 'error'}"] += 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"mutate_cli: seed {args.seed}, mutations {args.first}..{args.first + args.count - 1} over {len(seeds)} "
          "seed folders: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()) + f"; {time.time() - start:.0f} s")
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()

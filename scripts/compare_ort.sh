#!/usr/bin/env bash
# Benchmarks one model on gkrun and on ONNX Runtime (onnxruntime-node, CPU) with the
# same inputs, in the same run, and prints the latency ratio.
#   scripts/compare_ort.sh MODEL [--shape NAME=1x3x640x640 ...] [--iterations N] [--threads N]
# List mode: the model list of models/export_bench.py (issue #13), interleaved rounds,
# ratios, geometric means, achieved GFLOP/s against the measured FMA peak
# (tools/bench/compare_list.py says more):
#   scripts/compare_ort.sh --list [--threads 1,2] [--rounds R] [--iterations N] [--json FILE] [--only NAME,...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --list ]; then
  exec /usr/bin/python3 tools/bench/compare_list.py "$@"
fi
if [ $# -eq 0 ]; then
  echo "usage: scripts/compare_ort.sh MODEL [--shape NAME=DIMS]... [--iterations N] [--threads N]" >&2
  echo "       scripts/compare_ort.sh --list [--threads 1,2] [--rounds R] [--iterations N] [--json FILE] [--only NAME,...]" >&2
  exit 2
fi
GKRUN=${GKRUN:-build/tools/gkrun}
model=$1; shift
shapes=(); iterations=20; threads=0
while (($#)); do
  case $1 in
    --shape) shapes+=(--shape "$2"); shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) echo "compare_ort: unknown argument $1" >&2; exit 2 ;;
  esac
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$GKRUN" "$model" --backend cpu "${shapes[@]}" --save-inputs "$dir/in" -q >/dev/null
inputs=(); ort_inputs=()
for f in "$dir"/in/*.npy; do
  name=$(basename "$f" .npy)
  inputs+=(--input "$name=$f"); ort_inputs+=(--input "$name=$f")
done
thread_flag=(); ((threads > 0)) && thread_flag=(--threads "$threads")
gk=$("$GKRUN" bench "$model" --backend cpu "${inputs[@]}" "${thread_flag[@]}" --iterations "$iterations" --json)
ort=$(node tools/ort/run_ort.js "$model" "${ort_inputs[@]}" "${thread_flag[@]}" --iterations "$iterations" --json)
node -e '
const gk = JSON.parse(process.argv[1]), ort = JSON.parse(process.argv[2]);
const f = x => x.toFixed(2);
console.log(`model        ${process.argv[3]}`);
console.log(`gkrun (cpu)  median ${f(gk.median_ms)} ms  p90 ${f(gk.p90_ms)} ms  min ${f(gk.min_ms)} ms`);
console.log(`${ort.engine}  median ${f(ort.median_ms)} ms  p90 ${f(ort.p90_ms)} ms  min ${f(ort.min_ms)} ms`);
console.log(`ratio        gkrun/ORT median ${(gk.median_ms / ort.median_ms).toFixed(2)}x`);
' "$gk" "$ort" "$model"

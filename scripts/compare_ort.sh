#!/usr/bin/env bash
# Benchmarks one model on gkrun and on ONNX Runtime (onnxruntime-node, CPU) with the
# same inputs, in the same run, and prints the latency ratio.
#   scripts/compare_ort.sh MODEL [--shape NAME=1x3x640x640 ...] [--iterations N] [--threads N]
set -euo pipefail
cd "$(dirname "$0")/.."
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

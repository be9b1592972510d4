#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build (Release, Ninja) in build-gpu the backend
# and runtime tests and gkrun; run every test labelled cuda (the CUDA backend's
# tests, and every runtime test again on CUDA as "cuda:<name>"), nvrtc or
# backends; then scripts/gpu_oracle.sh (the CPU as the oracle for CUDA on the light
# models and PaddleOCR v4, and the allow-listed ONNX node cases on CUDA); print a
# short table. One command, under 10 minutes on 16 cores: the phases share a
# 570 s deadline (build at most 300 s, tests at most 150 s, the oracle what is
# left; its node loop stops at the deadline). Exits non-zero when the build, a
# test or the oracle fails, when tests skip on a machine with a GPU, or when there
# is no GPU (GK_GPU_CHECK_ALLOW_NO_GPU=1 accepts that).
#   scripts/gpu_check.sh [extra ctest args]
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${GK_GPU_BUILD_DIR:-build-gpu}
case "$BUILD_DIR" in /*) ;; *) BUILD_DIR=$PWD/$BUILD_DIR ;; esac
JOBS=$(nproc)
start=$(date +%s)
deadline=$((start + ${GK_GPU_CHECK_BUDGET:-570}))
# Seconds for a phase: its cap, or what is left before the deadline if less.
phase_s() {
  local left=$((deadline - $(date +%s)))
  [ "$left" -lt "$1" ] && echo $((left > 1 ? left : 1)) || echo "$1"
}

fail() { echo "gpu_check: $*" >&2; exit 1; }

if command -v nvidia-smi >/dev/null 2>&1; then
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
fi
[ -n "${gpu_name:-}" ] || echo "gpu_check: nvidia-smi reports no GPU; CUDA tests will skip" >&2

mkdir -p "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$BUILD_DIR/cmake.log" 2>&1 ||
  { cat "$BUILD_DIR/cmake.log"; fail "cmake configure failed"; }
# These five targets hold every test the labels below select, and the oracle's
# gkrun. GK_GPU_CHECK_ALL=1 also builds the rest, best effort, before the deadline.
timeout "$(phase_s 300)" cmake --build "$BUILD_DIR" -j "$JOBS" \
  --target gk_test_backends gk_test_nvrtc gk_test_cuda gk_test_runtime gkrun >"$BUILD_DIR/build.log" 2>&1 ||
  { tail -40 "$BUILD_DIR/build.log"; fail "building the tests and gkrun failed or ran out of time (log: $BUILD_DIR/build.log)"; }
if [ "${GK_GPU_CHECK_ALL:-0}" = 1 ]; then
  timeout "$(phase_s 120)" cmake --build "$BUILD_DIR" -j "$JOBS" -- -k 0 >>"$BUILD_DIR/build.log" 2>&1 ||
    echo "gpu_check: some other targets did not build (log: $BUILD_DIR/build.log)" >&2
fi

# A fresh kernel cache: the table's counts are this run's own. The oracle shares it.
export GK_KERNEL_CACHE="$BUILD_DIR/gpu_check_kernel_cache"
rm -rf "$GK_KERNEL_CACHE"

# The nvrtc label's family test (every ops kernel for sm_80 and sm_90, ~1400
# entries: about two minutes of two cores) is left out here: it needs no GPU and
# runs with the CPU suite, and the oracle below compiles, for this GPU's own
# architecture, every kernel that 11 models and ~1100 node cases use, then loads
# and runs them, which checks more. GK_GPU_CHECK_NVRTC_FAMILIES=1 puts it back.
exclude=()
[ "${GK_GPU_CHECK_NVRTC_FAMILIES:-0}" = 1 ] || exclude=(-E 'every operator kernel family compiles')
junit="$BUILD_DIR/gpu_check.junit.xml"
(cd "$BUILD_DIR" && timeout "$(phase_s 150)" ctest -L 'cuda|nvrtc|backends' "${exclude[@]}" --output-on-failure \
   -j "$JOBS" --output-junit "$junit" "$@")
ctest_rc=$?

# Every test's output is kept in ctest's log: the device, cache and NVRTC lines
# come from there, so nothing runs twice.
log="$BUILD_DIR/Testing/Temporary/LastTest.log"
out=$(cat "$log" 2>/dev/null)

attr() { tr '\n\t' '  ' <"$junit" | grep -o '<testsuite[^>]*' | grep -oE " $1=\"[0-9]+\"" | head -1 | tr -dc '0-9'; }
total=$(attr tests); failed=$(attr failures); skipped=$(attr skipped); errors=$(attr errors)
failed=$(( ${failed:-0} + ${errors:-0} ))
passed=$(( ${total:-0} - failed - ${skipped:-0} ))
device=$(grep -m1 '^cuda device:' <<<"$out" | sed 's/^cuda device: //')
cache=$(grep -m1 '^cuda compile cache:' <<<"$out" | sed 's/^cuda compile cache: //')
families=$(grep -m1 'kernel families' <<<"$out")
skips=$(grep '^SKIP:' <<<"$out" | sort | uniq -c)

# The oracle gets what is left: its node loop ends 10 s before the deadline (cases
# not reached count as not run), and the whole script is stopped at it.
oracle_log="$BUILD_DIR/gpu_oracle.log"
GK_ORACLE_BACKEND=cuda GK_ORACLE_DEADLINE=$((deadline - 10)) timeout "$(phase_s 600)" \
  scripts/gpu_oracle.sh "$BUILD_DIR" 2>&1 | tee "$oracle_log"
oracle_rc=${PIPESTATUS[0]}
oracle_models=$(grep -m1 '^oracle models:' "$oracle_log" | sed 's/^oracle models: //')
oracle_nodes=$(grep -m1 '^oracle node cases:' "$oracle_log" | sed 's/^oracle node cases: //')
case "$oracle_rc" in
  0) oracle="pass" ;;
  3) oracle="not run: no CUDA device" ;;
  124) oracle="stopped at the deadline" ;;
  *) oracle="FAIL (rc $oracle_rc, log: $oracle_log)" ;;
esac

printf '\n%-22s %s\n' "device" "${device:-${gpu_name:-none}}"
printf '%-22s %s\n' "tests passed" "$passed"
printf '%-22s %s\n' "tests failed" "$failed"
printf '%-22s %s\n' "tests skipped" "${skipped:-0}"
printf '%-22s %s\n' "compile cache" "${cache:-n/a}"
printf '%-22s %s\n' "nvrtc families" "${families:-not run (GK_GPU_CHECK_NVRTC_FAMILIES=1 runs it)}"
printf '%-22s %s\n' "oracle" "$oracle"
printf '%-22s %s\n' "oracle models" "${oracle_models:-n/a}"
printf '%-22s %s\n' "oracle node cases" "${oracle_nodes:-n/a}"
printf '%-22s %ss\n' "wall time" "$(( $(date +%s) - start ))"

[ "$ctest_rc" -eq 0 ] || fail "ctest failed (rc $ctest_rc)"
[ "${total:-0}" -gt 0 ] || fail "no tests ran"
[ -z "$skips" ] || echo "skip reasons:"$'\n'"$skips"
# On a GPU machine nothing may skip: a skip there means the driver, NVRTC or the
# device was not found, which is what this script exists to catch.
[ -z "${gpu_name:-}" ] || [ "${skipped:-0}" -eq 0 ] || fail "a GPU is present but ${skipped} tests skipped"
if [ -z "${gpu_name:-}" ] && [ "${GK_GPU_CHECK_ALLOW_NO_GPU:-0}" != 1 ]; then
  fail "no GPU here: the CUDA tests skipped (GK_GPU_CHECK_ALLOW_NO_GPU=1 accepts that)"
fi
# Without a GPU (accepted above) the oracle's "no CUDA device" is expected.
[ "$oracle_rc" -eq 0 ] || { [ -z "${gpu_name:-}" ] && [ "$oracle_rc" -eq 3 ]; } || fail "the oracle failed: $oracle"
echo "gpu_check: OK"

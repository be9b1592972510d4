#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build (Release, Ninja) in build-gpu, run every
# test labelled cuda, nvrtc or backends, and print a short table. One command,
# under 10 minutes on 16 cores (time caps: build 4 + 2 min, tests 3). Exits
# non-zero when the build or a test fails, when tests skip on a machine with a
# GPU, or when there is no GPU (GK_GPU_CHECK_ALLOW_NO_GPU=1 accepts that).
#   scripts/gpu_check.sh [extra ctest args]
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${GK_GPU_BUILD_DIR:-build-gpu}
JOBS=$(nproc)
start=$(date +%s)

fail() { echo "gpu_check: $*" >&2; exit 1; }

if command -v nvidia-smi >/dev/null 2>&1; then
  gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
fi
[ -n "${gpu_name:-}" ] || echo "gpu_check: nvidia-smi reports no GPU; CUDA tests will skip" >&2

mkdir -p "$BUILD_DIR"
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$BUILD_DIR/cmake.log" 2>&1 ||
  { cat "$BUILD_DIR/cmake.log"; fail "cmake configure failed"; }
# The backend's tests must build; the rest is built best-effort (other layers'
# tests labelled cuda join when their executables build), with GK_GPU_CHECK_ALL=0
# to skip it.
timeout 240 cmake --build "$BUILD_DIR" -j "$JOBS" --target gk_test_backends gk_test_nvrtc gk_test_cuda \
  >"$BUILD_DIR/build.log" 2>&1 ||
  { tail -40 "$BUILD_DIR/build.log"; fail "building the backend tests failed (log: $BUILD_DIR/build.log)"; }
if [ "${GK_GPU_CHECK_ALL:-1}" = 1 ]; then
  timeout 120 cmake --build "$BUILD_DIR" -j "$JOBS" -- -k 0 >>"$BUILD_DIR/build.log" 2>&1 ||
    echo "gpu_check: some other targets did not build; their tests are not run (log: $BUILD_DIR/build.log)" >&2
fi

# A fresh kernel cache: the table's counts are this run's own.
export GK_KERNEL_CACHE="$PWD/$BUILD_DIR/gpu_check_kernel_cache"
rm -rf "$GK_KERNEL_CACHE"

junit="$PWD/$BUILD_DIR/gpu_check.junit.xml"
(cd "$BUILD_DIR" && timeout 180 ctest -L 'cuda|nvrtc|backends' --output-on-failure -j "$JOBS" \
   --output-junit "$junit" "$@")
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

printf '\n%-22s %s\n' "device" "${device:-${gpu_name:-none}}"
printf '%-22s %s\n' "tests passed" "$passed"
printf '%-22s %s\n' "tests failed" "$failed"
printf '%-22s %s\n' "tests skipped" "${skipped:-0}"
printf '%-22s %s\n' "compile cache" "${cache:-n/a}"
printf '%-22s %s\n' "nvrtc families" "${families:-n/a}"
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
echo "gpu_check: OK"

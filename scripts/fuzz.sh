#!/usr/bin/env bash
# libFuzzer runs of the targets in tests/fuzz/ (built in build-asan/ by the asan
# preset: clang, ASan+UBSan, GK_FUZZ=ON).
#   scripts/fuzz.sh TARGET [SECONDS] [LIBFUZZER ARGS...]   one long run (default 3600 s)
#   scripts/fuzz.sh --smoke [SECONDS]                      every target for SECONDS (default 60); CI
# Targets: load (parse + validate), run (load + plan + run on the CPU at small
# shapes), tensor (.pb and .npy decoding), mutate (run, inputs from the
# structure-aware ModelProto mutator). Seeds are the conformance models and .pb
# files of ../shared/onnx-backend-data, read in place through symlinks in
# build-asan/fuzz/seeds/ (never copied), and tests/fuzz/seeds/. The corpus each run
# grows is build-asan/fuzz/corpus/TARGET; a crash, leak or timeout is written to
# build-asan/fuzz/artifacts/TARGET/ and fails the script: minimise it
# (gk_fuzz_TARGET -minimize_crash=1 FILE), commit it under
# tests/fuzz/regressions/TARGET/ with a .expect file, and fix it.
# GK_FUZZ_SEED_EVERY=N takes every N-th seed (smoke default 8; long runs 1);
# GK_FUZZ_RNG_SEED=N is the smoke runs' libFuzzer -seed (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=build-asan
data=$root/../shared/onnx-backend-data
jobs=${GK_JOBS:-$(nproc)}

smoke=0
if [ "${1:-}" = "--smoke" ]; then
  smoke=1
  seconds=${2:-60}
  targets=(load run tensor mutate)
  every=${GK_FUZZ_SEED_EVERY:-8}
  # A fixed libFuzzer seed (not the clock): CI's smoke run mutates the same way
  # each time, so a finding there reproduces with the same command.
  extra=(-seed="${GK_FUZZ_RNG_SEED:-1}")
else
  target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS] [ARGS...] | --smoke [SECONDS]}
  seconds=${2:-3600}
  shift $(($# >= 2 ? 2 : 1))
  targets=("$target")
  every=${GK_FUZZ_SEED_EVERY:-1}
  extra=("$@")
fi

if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake --preset asan "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j "$jobs" --target gk_fuzz_load gk_fuzz_run gk_fuzz_tensor gk_fuzz_mutate

# Seed folders of symlinks into the backend data: models, and tensor files.
seeds=$root/$build/fuzz/seeds
rm -rf "$seeds"
mkdir -p "$seeds/models" "$seeds/tensors"
if [ -d "$data" ]; then
  i=0
  while IFS= read -r f; do
    if ((i++ % every == 0)); then
      rel=${f#"$data"/}
      ln -s "$f" "$seeds/models/${rel//\//_}"
    fi
  done < <(find "$data" -name model.onnx -size -256k | sort)
  i=0
  while IFS= read -r f; do
    if ((i++ % (every * 4) == 0)); then
      rel=${f#"$data"/}
      ln -s "$f" "$seeds/tensors/${rel//\//_}"
    fi
  done < <(find "$data" -name '*.pb' -size -16k | sort)
else
  echo "fuzz.sh: $data absent; seeding from tests/fuzz/seeds only" >&2
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  corpus=$root/$build/fuzz/corpus/$t
  artifacts=$root/$build/fuzz/artifacts/$t/
  log=$root/$build/fuzz/$t.log
  mkdir -p "$corpus" "$artifacts"
  case "$t" in
    tensor) seed_dirs=("$seeds/tensors" "$root/tests/fuzz/seeds/tensor") max_len=65536 ;;
    *) seed_dirs=("$seeds/models") max_len=262144 ;;
  esac
  start=$(date +%s)
  rc=0
  "$build/tests/fuzz/gk_fuzz_$t" "$corpus" "${seed_dirs[@]}" -max_total_time="$seconds" -timeout=25 \
    -rss_limit_mb=4096 -max_len="$max_len" -artifact_prefix="$artifacts" -print_final_stats=1 \
    "${extra[@]}" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "fuzz.sh: $t: ${execs:-?} executions in $(($(date +%s) - start)) s, corpus $(find "$corpus" -type f | wc -l) files, exit $rc (log $log)"
  if [ "$rc" -ne 0 ]; then
    status=1
    grep -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY|Test unit written" "$log" | head -8 >&2 || true
  fi
done
exit "$status"

#!/usr/bin/env bash
# scripts/sanitize.sh PRESET [CTEST ARGS...]: configures, builds and runs the whole
# suite under a checked preset of CMakePresets.json (asan, tsan, glibcxx), then
# runs that preset's deliberate-bug tests (label sanitizer-selftest) and requires
# every one to FAIL with its checker's report, so a suite that passes is known to
# have run with the check on.
#   GK_SANITIZE_EXCLUDE=LABELREGEX  labels left out of the suite run (CI: see .ci/run)
#   GK_JOBS=N                       build and test parallelism (default: nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?usage: scripts/sanitize.sh asan|tsan|glibcxx [ctest args...]}
shift
case "$preset" in
  asan) report='AddressSanitizer|LeakSanitizer|runtime error' ;;
  tsan) report='ThreadSanitizer' ;;
  glibcxx) report='Assertion .* failed' ;;
  *) echo "sanitize.sh: unknown preset '$preset' (asan, tsan, glibcxx)" >&2; exit 2 ;;
esac
jobs=${GK_JOBS:-$(nproc)}
build_dir=build-$preset

# The checkers' run-time options; the same as the test presets in CMakePresets.json.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}

launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
start=$(date +%s)
# Configure once from the preset; after that only refresh the tree: CMake 3.25 reads
# the preset's compiler "clang++" against the cached /usr/bin/clang++ as a change,
# deletes the cache and then fails half-configured.
if [ -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" "${launcher[@]}" >/dev/null
else
  cmake --preset "$preset" "${launcher[@]}" >/dev/null
fi
cmake --build "$build_dir" -j "$jobs"
built=$(date +%s)

exclude='sanitizer-selftest'
# Programs built outside this tree (python3, cc, outside CMake projects) cannot load
# the instrumented library under asan or tsan (tests/CMakeLists.txt, label outside).
[ "$preset" = glibcxx ] || exclude="$exclude|outside"
[ -n "${GK_SANITIZE_EXCLUDE:-}" ] && exclude="$exclude|$GK_SANITIZE_EXCLUDE"
status=0
(cd "$build_dir" && ctest --output-on-failure -j "$jobs" -LE "$exclude" "$@") || status=$?
tested=$(date +%s)

# Each deliberate bug must fail, and with its checker's report.
selftests=0
while read -r name; do
  [ -n "$name" ] || continue
  selftests=$((selftests + 1))
  if out=$(cd "$build_dir" && ctest --output-on-failure -R "^${name}\$" 2>&1); then
    echo "sanitize.sh: $name passed, so its check is NOT on in $build_dir" >&2
    status=1
  elif ! grep -Eq "$report" <<<"$out"; then
    echo "sanitize.sh: $name failed without a report matching /$report/:" >&2
    echo "$out" | tail -20 >&2
    status=1
  else
    echo "sanitize.sh: $name fails as it must (the check is on)"
  fi
done < <(cd "$build_dir" && ctest -N -L sanitizer-selftest | sed -n 's/^ *Test *#[0-9]*: //p')
if [ "$selftests" -eq 0 ]; then
  echo "sanitize.sh: no sanitizer-selftest in $build_dir" >&2
  status=1
fi
echo "sanitize.sh: $preset build $((built - start)) s, suite $((tested - built)) s (excluded labels: $exclude), exit $status"
exit "$status"

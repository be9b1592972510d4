#!/usr/bin/env bash
# Measures which ONNX backend node tests ONNX Runtime (onnxruntime-node, CPU EP,
# graphOptimizationLevel 'all') passes under the ONNX runner's comparison rule.
# A measurement tool, not part of CI; needs no network.
#   scripts/ort_node_suite.sh [OUT.tsv] [--opt all|extended|basic|disabled] [CASE ...]
# ORT refuses models stamped with an unreleased opset (the data has opset 27 cases) unless
# ALLOW_RELEASED_ONNX_OPSET_ONLY=0; that gate is policy, not conformance, so it is lifted
# unless --released-opsets-only is given.
# Writes <case>\tPASS|FAIL|ERROR|HARNESS\t<reason> lines to OUT.tsv (default
# /tmp/ort_node_suite.tsv) and prints the counts.
# Regenerate tests/conformance/ort_node_passes.txt with --passes-file:
#   scripts/ort_node_suite.sh /tmp/ort_node_suite.tsv --passes-file tests/conformance/ort_node_passes.txt
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
DATA=${GK_ONNX_DATA:-../shared/onnx-backend-data/node}
[[ -d $DATA ]] || DATA=/work/shared/onnx-backend-data/node
out=/tmp/ort_node_suite.tsv; opt=all; passes=; cases=(); dev_opsets=1
while (($#)); do
  case $1 in
    --opt) opt=$2; shift 2 ;;
    --passes-file) passes=$2; shift 2 ;;
    --released-opsets-only) dev_opsets=0; shift ;;
    *.tsv) out=$1; shift ;;
    *) cases+=("$1"); shift ;;
  esac
done
[[ -d tools/ort/node_modules/onnxruntime-node ]] || { echo "ort_node_suite: run 'npm ci' in tools/ort first" >&2; exit 2; }

if ((dev_opsets)); then export ALLOW_RELEASED_ONNX_OPSET_ONLY=0; gate="unreleased opsets allowed"
else export ALLOW_RELEASED_ONNX_OPSET_ONLY=1; gate="released opsets only"; fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# ORT's StringNormalizer constructs the en_US.UTF-8 locale; build it privately when the
# machine lacks it, else those cases fail on the machine, not on ORT.
if ! locale -a 2>/dev/null | grep -qi '^en_US\.utf-\?8$' && command -v localedef >/dev/null; then
  mkdir -p "$dir/locale"
  localedef -i en_US -f UTF-8 "$dir/locale/en_US.UTF-8" 2>/dev/null && export LOCPATH="$dir/locale"
fi
nice -n 10 "$PY" tools/ort/node_suite.py "$dir/cases" --data "$DATA" "${cases[@]}"
nice -n 10 node tools/ort/node_suite.js "$dir/cases" --opt "$opt" > "$out"
echo "ort_node_suite: $(wc -l < "$out") cases -> $out (onnxruntime-node $(node -p "require('./tools/ort/node_modules/onnxruntime-node/package.json').version"), opt $opt, $gate)"
for s in PASS FAIL ERROR HARNESS; do printf '%-8s %d\n' "$s" "$(awk -F'\t' -v s="$s" '$2 == s' "$out" | wc -l)"; done
if [[ -n $passes ]]; then
  version=$(node -p "require('./tools/ort/node_modules/onnxruntime-node/package.json').version")
  {
    echo "# ONNX node tests (onnx 1.22 data) that onnxruntime-node $version passes (CPU EP, opt $opt, $gate, rtol 1e-3 atol 1e-7)."
    flag=; ((dev_opsets)) || flag=" --released-opsets-only"
    echo "# Generated $(date -u +%F) by: scripts/ort_node_suite.sh $out --passes-file $passes$flag"
    awk -F'\t' '$2 == "PASS" { print "node/" $1 }' "$out" | LC_ALL=C sort
  } > "$passes"
  echo "ort_node_suite: wrote $(grep -vc '^#' "$passes") passing cases to $passes"
fi

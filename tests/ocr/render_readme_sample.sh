#!/bin/sh
# Renders the README's gkocr sample (scripts/demo.sh shows it; tests/ocr reads it
# through render_testset.sh, which lists its lines): two lines of DejaVu Sans,
# 36 pt, black on white.
#   render_readme_sample.sh OUT.png
set -eu
out=${1:?usage: render_readme_sample.sh OUT.png}
convert -size 800x240 xc:white -fill black -font DejaVu-Sans -pointsize 36 \
  -annotate +40+90 'gkrun reads this line' -annotate +40+170 'Invoice 2026-11-30: 42.50 EUR' "$out"

#!/bin/sh
# Renders the OCR test set with ImageMagick and the DejaVu fonts into OUTDIR:
# PNG images and manifest.tsv ("image<TAB>line" per expected line, in reading
# order). Idempotent: an existing complete set is left alone.
#   render_testset.sh OUTDIR
# Every end-to-end test case is its own ctest process and calls this first, so
# under `ctest -j` several start at once: they take a lock and the first renders
# while the others wait. Without it two renders appended to one manifest.tmp and
# rewrote images under a reader (a CI run read sans.png's two lines four times).
set -eu
out=${1:?usage: render_testset.sh OUTDIR}
fonts=${GK_DEJAVU_DIR:-/usr/share/fonts/truetype/dejavu}
command -v convert >/dev/null 2>&1 || { echo "render_testset: ImageMagick 'convert' not found" >&2; exit 77; }
[ -f "$fonts/DejaVuSans.ttf" ] || { echo "render_testset: DejaVu fonts not found in $fonts" >&2; exit 77; }
mkdir -p "$out"
if [ -z "${GK_RENDER_LOCKED:-}" ] && command -v flock >/dev/null 2>&1; then
  GK_RENDER_LOCKED=1 exec flock "$out/.render.lock" sh "$0" "$out"
fi
[ -f "$out/manifest.tsv" ] && [ "$out/manifest.tsv" -nt "$0" ] && exit 0
rm -f "$out/manifest.tsv"
tmp="$out/manifest.tmp"
: > "$tmp"

sans="$fonts/DejaVuSans.ttf"; bold="$fonts/DejaVuSans-Bold.ttf"
serif="$fonts/DejaVuSerif.ttf"; mono="$fonts/DejaVuSansMono.ttf"

# expect IMAGE LINE...: append the expected lines of IMAGE to the manifest.
expect() {
  img=$1; shift
  for line in "$@"; do printf '%s\t%s\n' "$img" "$line" >> "$tmp"; done
}

# Dark on light, two sizes of DejaVu Sans.
convert -size 640x150 xc:white -fill black \
  -font "$sans" -pointsize 34 -annotate +30+60 'Hello World 2024' \
  -font "$sans" -pointsize 24 -annotate +30+120 'The quick brown fox jumps' "$out/sans.png"
expect sans.png 'Hello World 2024' 'The quick brown fox jumps'

# Serif, dark grey on cream.
convert -size 600x150 'xc:#f4efe0' -fill '#202020' \
  -font "$serif" -pointsize 30 -annotate +30+58 'Invoice No. 4711' \
  -font "$serif" -pointsize 26 -annotate +30+118 'Total: 129.95 EUR' "$out/serif.png"
expect serif.png 'Invoice No. 4711' 'Total: 129.95 EUR'

# Monospace with punctuation.
convert -size 600x150 xc:white -fill black \
  -font "$mono" -pointsize 28 -annotate +30+58 'printf(x, 42);' \
  -font "$mono" -pointsize 26 -annotate +30+118 'a[3] = b + c * 7' "$out/mono.png"
expect mono.png 'printf(x, 42);' 'a[3] = b + c * 7'

# Light on dark, bold.
convert -size 600x150 'xc:#101830' -fill white \
  -font "$bold" -pointsize 36 -annotate +30+62 'WARNING 99%' \
  -font "$bold" -pointsize 28 -annotate +30+122 'Keep out!' "$out/inverse.png"
expect inverse.png 'WARNING 99%' 'Keep out!'

# A line turned by 180 degrees under an upright one: the classifier turns it back.
convert -size 560x60 xc:white -fill black -font "$sans" -pointsize 30 -annotate +20+42 'Upside down text' \
  -rotate 180 "$out/flipped_line.tmp.png"
convert -size 600x170 xc:white -fill black -font "$sans" -pointsize 30 -annotate +30+50 'Normal line here' \
  "$out/flipped_line.tmp.png" -geometry +20+90 -composite "$out/rotated.png"
rm -f "$out/flipped_line.tmp.png"
expect rotated.png 'Normal line here' 'Upside down text'

# Two columns: reading order goes row by row, left before right.
convert -size 760x150 xc:white -fill black -font "$sans" -pointsize 26 \
  -annotate +30+55 'Left column one' -annotate +420+55 'Right side A' \
  -annotate +30+115 'Left column two' -annotate +420+115 'Right side B' "$out/columns.png"
expect columns.png 'Left column one' 'Right side A' 'Left column two' 'Right side B'

# Digits and punctuation.
convert -size 700x150 xc:white -fill black \
  -font "$sans" -pointsize 30 -annotate +30+58 '3.14159 + 2.71828 = 5.85987' \
  -font "$serif" -pointsize 28 -annotate +30+118 '(555) 123-4567, #42 @ $9.99' "$out/digits.png"
expect digits.png '3.14159 + 2.71828 = 5.85987' '(555) 123-4567, #42 @ $9.99'

# Word spacing (tools/gkocr/word_gaps.h): the recogniser drops most spaces between
# Latin words; these lines put the rule's thresholds at their measured edges.
convert -size 760x150 xc:white -fill black \
  -font "$sans" -pointsize 28 -annotate +30+58 'gkrun reads this line' \
  -font "$serif" -pointsize 26 -annotate +30+118 'Invoice 2026-11-30: 42.50 EUR' "$out/words.png"
expect words.png 'gkrun reads this line' 'Invoice 2026-11-30: 42.50 EUR'

# Condensed faces: narrow word spaces, found against the line's own letter spacing.
convert -size 760x150 xc:white -fill black \
  -font "$fonts/DejaVuSerifCondensed.ttf" -pointsize 24 -annotate +30+58 'Call me at 555-0199 or 555-0142' \
  -font "$fonts/DejaVuSansCondensed.ttf" -pointsize 28 -annotate +30+118 'Condensed type sets words close' \
  "$out/condensed.png"
expect condensed.png 'Call me at 555-0199 or 555-0142' 'Condensed type sets words close'

# Monospace: wide in-word gaps around narrow punctuation (") ;"), one digit a word.
convert -size 760x150 xc:white -fill black \
  -font "$mono" -pointsize 30 -annotate +30+58 'x = y.at(i);' \
  -font "$sans" -pointsize 26 -annotate +30+118 '1 2 3 4 5 6 7 8 9 10' "$out/spacing.png"
expect spacing.png 'x = y.at(i);' '1 2 3 4 5 6 7 8 9 10'

# Faces beyond DejaVu (fonts-liberation2, fonts-urw-base35, fonts-noto-mono): the
# Arial, Times, Courier, Helvetica, Bookman, Palatino and Century metrics.
liberation=${GK_LIBERATION_DIR:-/usr/share/fonts/truetype/liberation2}
urw=${GK_URW_DIR:-/usr/share/fonts/opentype/urw-base35}
noto=${GK_NOTO_DIR:-/usr/share/fonts/truetype/noto}
for f in "$liberation/LiberationSans-Regular.ttf" "$urw/NimbusSans-Bold.otf" "$noto/NotoMono-Regular.ttf"; do
  [ -f "$f" ] || { echo "render_testset: $f not found (scripts/setup.sh installs the fonts)" >&2; exit 77; }
done
convert -size 700x150 'xc:#fffbe6' -fill '#222222' \
  -font "$liberation/LiberationSans-Regular.ttf" -pointsize 30 -annotate +30+58 'Quarterly sales rose 8%' \
  -font "$liberation/LiberationSerif-Regular.ttf" -pointsize 28 -annotate +30+118 'Signed in Berlin, 3 May 2026' \
  "$out/liberation.png"
expect liberation.png 'Quarterly sales rose 8%' 'Signed in Berlin, 3 May 2026'
convert -size 700x150 'xc:#1565c0' -fill white \
  -font "$urw/NimbusSans-Bold.otf" -pointsize 32 -annotate +30+60 'OPEN 24 HOURS' \
  -font "$urw/URWBookman-Light.otf" -pointsize 26 -annotate +30+120 'Fresh bread every morning' "$out/urw.png"
expect urw.png 'OPEN 24 HOURS' 'Fresh bread every morning'
convert -size 700x150 'xc:#f5f5f5' -fill black \
  -font "$urw/P052-Roman.otf" -pointsize 30 -annotate +30+58 'Dear Ms. Novak,' \
  -font "$urw/C059-Roman.otf" -pointsize 26 -annotate +30+118 'your order ships on Monday.' "$out/book.png"
expect book.png 'Dear Ms. Novak,' 'your order ships on Monday.'
convert -size 700x150 xc:white -fill black \
  -font "$liberation/LiberationMono-Regular.ttf" -pointsize 26 -annotate +30+58 'let total = sum(items);' \
  -font "$noto/NotoMono-Regular.ttf" -pointsize 24 -annotate +30+118 'exit code 137 (killed)' "$out/code.png"
expect code.png 'let total = sum(items);' 'exit code 137 (killed)'

# Wide word spacing: the detector splits these lines at the spaces; gkocr joins
# the boxes of each line (tools/gkocr/line_join.h).
convert -size 760x150 xc:white -fill black -interword-spacing 40 \
  -font "$sans" -pointsize 26 -annotate +30+58 'Name: Jane Doe' \
  -font "$liberation/LiberationSerif-Regular.ttf" -pointsize 28 -annotate +30+118 'Due on 24 December' "$out/split.png"
expect split.png 'Name: Jane Doe' 'Due on 24 December'

# The README's sample (scripts/demo.sh), exactly as the demo renders it.
sh "$(dirname "$0")/render_readme_sample.sh" "$out/readme_sample.png"
expect readme_sample.png 'gkrun reads this line' 'Invoice 2026-11-30: 42.50 EUR'

mv "$tmp" "$out/manifest.tsv"

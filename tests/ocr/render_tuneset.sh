#!/usr/bin/env bash
# Renders gkocr's tuning set with ImageMagick into OUTDIR: PNG images and
# manifest.tsv ("image<TAB>line" per expected line, in reading order), the format
# render_testset.sh writes. The tuning set is what gkocr's detector and crop
# parameters are chosen on (tools/gkocr/sweep_params.py); the tests read a
# different set, with other text (render_testset.sh). Here: DejaVu (all weights
# and widths), Liberation, the URW base35 faces and Noto Mono, 16-52 pt, dark on
# light, light on dark, coloured and low-contrast backgrounds, wide word spacing
# (the detector splits such lines) and a two-column table (which must stay split).
# Every image renders one face; a face whose file is missing is an error (the
# fonts come from scripts/setup.sh's APT list), so the set is the same everywhere.
#   render_tuneset.sh OUTDIR
set -euo pipefail
out=${1:?usage: render_tuneset.sh OUTDIR}
command -v convert >/dev/null 2>&1 || { echo "render_tuneset: ImageMagick 'convert' not found" >&2; exit 77; }
mkdir -p "$out"
[ -f "$out/manifest.tsv" ] && [ "$out/manifest.tsv" -nt "$0" ] && exit 0
tmp="$out/manifest.tmp"
: > "$tmp"

dejavu=/usr/share/fonts/truetype/dejavu
liberation=/usr/share/fonts/truetype/liberation2
urw=/usr/share/fonts/opentype/urw-base35
noto=/usr/share/fonts/truetype/noto

# Text the test set does not use: words, digits, dates, prices, codes, punctuation.
texts=(
  'Shipping address: 221B Baker Street'
  'Order 58213 shipped on 2025-03-14'
  'Meeting moved to Friday at 10:30'
  'Battery level 87% (charging)'
  'Please keep this receipt'
  'Subtotal 64.20 Tax 5.14'
  'Room 12B, second floor'
  'Temperature: -4.5 C at noon'
  'Version 3.2.1 released today'
  'Call +49 30 1234 5678'
  'Serial number KX-7732-QP'
  'Thank you for your purchase!'
  'Open daily from 9 to 17'
  'Page 14 of 230'
  'Net weight 500 g'
  'Best before 12/08/2027'
  'Exit only, no entry'
  'Flight LH 2041 to Oslo'
  'Gate B17 closes at 06:45'
  'Discount code SPRING24'
  'Quantity: 3 x 19.99'
  'Questions? Ask at the desk.'
  'Data rate 115200 baud'
  'Error 503 on line 88'
  'Mix 2 cups of flour with one egg'
  'Zone 4: authorised staff'
  'Jazz night every Thursday'
  'Quiet hours after 22:00'
  'Voltage 230 V, 50 Hz'
  'Parcel weight 2.75 kg'
  'Invoice date: 2026-01-09'
  'Amount due 1,284.00 USD'
  'Platform 7 for Zurich'
  'Wi-Fi password: garden42'
  'Return within 30 days'
  'Customer service hours'
  'Train departs at 18:05'
  'Bring your own bag'
  'Account 4471-0092'
  'Check-in starts at noon'
  'Fragile: handle with care'
  'Speed limit 80 km/h'
  'Total savings 12.5%'
  'Newsletter: sign up now'
  'Hot drinks from 2.40'
  'Membership expires May 31'
  'Lot 667, batch 12'
  'Keep refrigerated below 5 C'
  'Ticket valid for one journey'
  'Scan the code to pay'
  'Delivery window 8-12 am'
  'Reference: INV-2026-0415'
  'Tap water is safe to drink'
  'Mind the gap between train'
  'Chapter 9: The long winter'
  'Price per unit 0.89'
  'Do not leave bags unattended'
  'Seat 23A, window'
  'Sold out until Monday'
  'Last update 14:52:07'
  'Recycle this packaging'
  'Weekly report, week 36'
  'Balance after payment 310.75'
  'Closed on public holidays'
  'Guest WLAN: visitors only'
  'Estimated arrival 3 days'
  'Printed in Norway, 2019'
  'Fire exit on the left'
  'Press the green button twice'
  'Humidity 64% and rising'
  'Licence plate B-QR 482'
  'Queue number 117'
)
next_text=0

# Each spec is "FONTFILE|POINTSIZE|TEXT"; the image holds the lines top to bottom,
# left aligned, one label each, on BG in FG; extra convert options (before the
# labels) follow "--".
# render IMAGE BG FG [OPTION...] -- SPEC...
render() {
  local img=$1 bg=$2 fg=$3
  shift 3
  local opts=()
  while [ "$1" != "--" ]; do opts+=("$1"); shift; done
  shift
  local args=() spec font size text
  for spec in "$@"; do
    font=${spec%%|*}; spec=${spec#*|}; size=${spec%%|*}; text=${spec#*|}
    [ -f "$font" ] || { echo "render_tuneset: $font not found (scripts/setup.sh installs the fonts)" >&2; exit 1; }
    # label: reads % as an escape.
    args+=(\( -font "$font" -pointsize "$size" "label:${text//%/%%}" -bordercolor "$bg" -border "0x$((size / 4))" \))
    printf '%s\t%s\n' "$img" "$text" >> "$tmp"
  done
  convert -background "$bg" -fill "$fg" "${opts[@]}" "${args[@]}" -gravity West -append \
    -bordercolor "$bg" -border 32x18 +repage "$out/$img"
}

# three FONT BG FG SIZE1 SIZE2 SIZE3 [OPTION...]: one image of three lines in FONT,
# the next three texts of the pool.
three() {
  local font=$1 bg=$2 fg=$3 s1=$4 s2=$5 s3=$6
  shift 6
  local name
  name=$(basename "${font%.*}" | tr 'A-Z' 'a-z').png
  local n=${#texts[@]}
  local a=${texts[$((next_text % n))]} b=${texts[$(((next_text + 1) % n))]} c=${texts[$(((next_text + 2) % n))]}
  next_text=$((next_text + 3))
  render "$name" "$bg" "$fg" "$@" -- "$font|$s1|$a" "$font|$s2|$b" "$font|$s3|$c"
}

# DejaVu: every face the two Debian packages ship, except the math one.
three "$dejavu/DejaVuSans.ttf"                    white     black     18 30 44
three "$dejavu/DejaVuSans-Bold.ttf"               '#0b1d3a' white     22 34 48
three "$dejavu/DejaVuSans-Oblique.ttf"            '#fff8e1' '#3e2723' 20 28 40
three "$dejavu/DejaVuSans-BoldOblique.ttf"        '#e3f2fd' '#0d47a1' 24 32 52
three "$dejavu/DejaVuSans-ExtraLight.ttf"         white     black     26 36 48
three "$dejavu/DejaVuSansCondensed.ttf"           '#f1f8e9' '#1b5e20' 18 26 38
three "$dejavu/DejaVuSansCondensed-Bold.ttf"      '#b71c1c' white     22 30 42
three "$dejavu/DejaVuSansCondensed-Oblique.ttf"   white     '#333333' 20 28 36
three "$dejavu/DejaVuSerif.ttf"                   '#fafafa' '#212121' 16 24 36
three "$dejavu/DejaVuSerif-Bold.ttf"              '#263238' '#ffeb3b' 20 30 44
three "$dejavu/DejaVuSerif-Italic.ttf"            '#fdf6e3' '#586e75' 22 30 40
three "$dejavu/DejaVuSerifCondensed.ttf"          white     black     18 28 40
three "$dejavu/DejaVuSerifCondensed-Bold.ttf"     '#ede7f6' '#311b92' 20 26 34
three "$dejavu/DejaVuSansMono.ttf"                black     '#33ff33' 18 24 32
three "$dejavu/DejaVuSansMono-Bold.ttf"           white     black     20 28 38
three "$dejavu/DejaVuSansMono-Oblique.ttf"        '#eeeeee' '#444444' 22 30 36
# Liberation (metric-compatible with Arial, Times, Courier).
three "$liberation/LiberationSans-Regular.ttf"    white     black     16 26 40
three "$liberation/LiberationSans-Bold.ttf"       '#ffcc00' black     20 30 46
three "$liberation/LiberationSans-Italic.ttf"     white     '#1a237e' 22 32 42
three "$liberation/LiberationSerif-Regular.ttf"   '#f5f0e6' '#2b2b2b' 18 28 44
three "$liberation/LiberationSerif-Bold.ttf"      '#102030' '#e0e0e0' 22 32 48
three "$liberation/LiberationSerif-Italic.ttf"    white     black     20 30 40
three "$liberation/LiberationMono-Regular.ttf"    white     black     18 26 34
three "$liberation/LiberationMono-Bold.ttf"       '#004d40' white     20 28 36
# URW base35 (Helvetica, Times, Courier, Bookman, Avant Garde, Century, Palatino
# clones) and Noto Mono.
three "$urw/NimbusSans-Regular.otf"               white     black     18 28 42
three "$urw/NimbusSans-Bold.otf"                  '#e8f5e9' '#1b5e20' 22 32 46
three "$urw/NimbusSansNarrow-Regular.otf"         white     black     20 30 44
three "$urw/NimbusRoman-Regular.otf"              '#fffdf5' black     18 28 40
three "$urw/NimbusRoman-Italic.otf"               white     '#222222' 22 30 42
three "$urw/NimbusMonoPS-Regular.otf"             white     black     20 28 38
three "$urw/NimbusMonoPS-Bold.otf"                '#1c1c1c' '#f0f0f0' 22 30 40
three "$urw/URWBookman-Light.otf"                 '#fff3e0' '#4e342e' 18 26 38
three "$urw/URWBookman-Demi.otf"                  white     black     20 30 42
three "$urw/URWGothic-Book.otf"                   '#e1f5fe' '#01579b' 20 30 44
three "$urw/URWGothic-Demi.otf"                   '#880e4f' white     22 32 46
three "$urw/C059-Roman.otf"                       white     black     18 28 40
three "$urw/C059-Bold.otf"                        '#f3e5f5' '#4a148c' 22 30 42
three "$urw/P052-Roman.otf"                       '#fafafa' '#202020' 20 30 44
three "$urw/P052-Italic.otf"                      white     black     22 32 42
three "$noto/NotoMono-Regular.ttf"                white     '#263238' 18 26 36
# Low contrast: mid grey on light grey, and dark grey on black.
render lowcontrast_light.png '#d8d8d8' '#7a7a7a' -- \
  "$dejavu/DejaVuSans.ttf|28|${texts[0]}" "$liberation/LiberationSerif-Regular.ttf|30|${texts[7]}"
render lowcontrast_dark.png '#141414' '#6a6a6a' -- \
  "$urw/NimbusSans-Regular.otf|28|${texts[13]}" "$dejavu/DejaVuSerif.ttf|26|${texts[21]}"
# Wide word spacing: the detector tends to split these lines into word boxes.
render wide_sans.png white black -interword-spacing 40 -- \
  "$dejavu/DejaVuSans.ttf|26|${texts[30]}" "$liberation/LiberationSans-Regular.ttf|30|${texts[31]}"
render wide_serif.png '#fff8e1' black -interword-spacing 36 -- \
  "$dejavu/DejaVuSerif.ttf|24|${texts[36]}" "$urw/NimbusRoman-Regular.otf|32|${texts[41]}"
render wide_mono.png white black -interword-spacing 30 -- \
  "$dejavu/DejaVuSansMono.ttf|24|${texts[57]}" "$liberation/LiberationMono-Regular.ttf|28|${texts[61]}"
# A two-column table: cells far apart on one row stay separate lines, left first.
convert -size 820x170 xc:white -fill black -font "$liberation/LiberationSans-Regular.ttf" -pointsize 26 \
  -annotate +30+60 'Description' -annotate +520+60 'Amount' \
  -annotate +30+125 'Coffee beans 1 kg' -annotate +520+125 '18.90' "$out/table.png"
printf '%s\t%s\n' table.png 'Description' table.png 'Amount' table.png 'Coffee beans 1 kg' table.png '18.90' >> "$tmp"

mv "$tmp" "$out/manifest.tsv"

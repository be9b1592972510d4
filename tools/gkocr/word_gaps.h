// Word-gap spacing. The Chinese PP-OCRv4 recogniser was trained mostly on text
// without spaces: between Latin words its space class peaks at 0.0-0.5 and loses
// to the CTC blank, so "gkrun reads this line" decodes as "gkrunreadsthisline"
// (ONNX Runtime gives the same probabilities). Where the decoded characters'
// time steps and the crop the recogniser saw show a word-sized run of background
// columns between two characters, a space is put back.
#pragma once

#include "tools/gkocr/ctc_decode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gk::ocr {

// The rule works on the widest ink-free run of columns between two consecutive
// characters (from the centre of the first one's last time step to the centre of
// the next one's first), as a fraction of the line's height: LineEvidence::height,
// the rows of the recogniser's 48 that the detector box would fill at unclip 1.5
// without vertical padding (about the line's ink height: that box hugs ascenders
// and descenders), where the thresholds below were measured. A gap is a word
// space when
//   gap >= sure_gap, or
//   gap >= min_gap and the space class reached min_space_prob in the gap's steps
//     (the recogniser saw a space but the blank won), or
//   gap >= relative_gap and gap >= relative_factor x the median gap
//     of the line (condensed and italic faces, whose spaces are narrow but still
//     stand out against their own letter spacing).
// Measured on the rendered set (tests/ocr/render_testset.sh, 22 lines) and 20
// single-line renders in DejaVu Sans/Serif/Mono, Bold, Oblique, Italic, Condensed
// and ExtraLight at 18-48 pt: 628 character pairs without a model-emitted space
// between them, 76 of them word gaps. Each range is where that threshold alone can
// move with every pair but one (below) still right:
//   sure_gap 0.45 (0.42-0.47): widest in-word gap 0.42, ") ;" in DejaVu Sans Mono,
//     whose narrow punctuation sits in 0.6 em cells; narrowest word gap with no
//     other evidence 0.46 (", #", "e a" in Serif Condensed).
//   min_space_prob 0.10 (0.06-0.34): in-word gaps of 0.25 H or more have the space
//     class at <= 0.04; word gaps narrowed by a descender ("fox jumps": j hooks
//     under the x, 0.33) have it at >= 0.19.
//   relative_gap 0.38 (0.34-0.41), relative_factor 2.0 (1.66-2.22): "1 1" in Serif's
//     tabular digits is 0.33 and 2.3x its line's median; Serif Condensed's
//     "Call me" is 0.42 and 2.2x; Mono's ") ;" is 0.42 but 1.5x.
//   min_gap 0.25 (0.01-0.33): kept high because CJK characters stand only
//     0.05-0.15 em apart and nothing narrower was a word gap.
// The pair no threshold gets right: italic "of text" (0.25, space class 0.05), where
// the slanted f overhangs the gap in a column projection.
struct WordGapOptions {
  bool enabled = true;
  float sure_gap = 0.45f;
  float min_gap = 0.25f;
  float min_space_prob = 0.10f;
  float relative_gap = 0.38f;
  float relative_factor = 2.0f;
};

// Which of the first `used` columns of a recogniser input slot (3 x height x
// width floats, (x/255 - 0.5) / 0.5) hold ink: a pixel is ink when it lies more
// than half way from the background (the median of the crop's frame: first and
// last row and column) towards the crop's far extreme (1st or 99th percentile),
// so dark-on-light and light-on-dark both work. A crop without contrast (extremes
// within 0.2 of the background, 10% of the range) counts as ink throughout: no
// evidence of a gap.
std::vector<uint8_t> ink_columns(const float* chw, int height, int width, int used);

// The evidence for one line: the CTC probabilities (steps x classes, the last class
// the space), the crop's ink columns and the input's geometry.
struct LineEvidence {
  const float* probs = nullptr;
  int64_t steps = 0, classes = 0;
  std::vector<uint8_t> ink;  // per input column of the crop, 1 where it holds ink
  double px_per_step = 8;    // input width / steps
  double height = 48;         // the line height the gap fractions refer to, in input rows
};

// d.text with one ' ' inserted between consecutive characters whose gap passes
// WordGapOptions' rule. A space the model emitted (' ' or U+3000) is kept and
// never doubled; nothing is added before the first or after the last character.
std::string space_words(const Decoded& d, const Charset& charset, const LineEvidence& line,
                        const WordGapOptions& options);

}  // namespace gk::ocr

// Joining the boxes the detector splits on one line. At a wide word space (or a
// wide punctuation gap) the DB probability map can fall below its threshold and
// one printed line comes out as two or more boxes; read apart, the line loses its
// word spaces and each piece is read without its neighbours' context. Two boxes
// are one line when, measured in the first box's own frame (along its top edge
// and across it), they
//   - run the same way (their directions within max_angle_deg),
//   - overlap across the line by at least min_overlap of the shorter box's height,
//   - differ in height by at most max_height_ratio, and
//   - stand apart along the line by at most max_gap x the taller box's height
//     (a gap that far is a column or a table cell, not a word space).
// A box 1.5 times taller than wide (vertical text, or one narrow character) joins
// only a box 1.5 times wider than tall.
#pragma once

#include "tools/gkocr/db_postprocess.h"

#include <vector>

namespace gk::ocr {

struct JoinOptions {
  bool enabled = true;
  // Recognise the joined box as one crop (true), or each part alone and join
  // their texts with a space (false).
  bool before_recognition = true;
  float max_gap = 2.0f;
  float min_overlap = 0.6f;
  float max_height_ratio = 1.6f;
  float max_angle_deg = 10.0f;
};

// Whether `right` continues `left`'s line on the right (JoinOptions' rule).
bool same_line(const Quad& left, const Quad& right, const JoinOptions& options);

// The rectangle holding both boxes, along the line (the more elongated box's top
// edge, or the image's x axis), corners clockwise from top-left.
Quad join_quads(const Quad& a, const Quad& b);

// One printed line: the joined box and the detector boxes it was made of, left
// to right (indices into the boxes given).
struct LineGroup {
  DetBox box;
  std::vector<size_t> parts;
};

// Groups every chain of same-line boxes into one line (its box the rectangle
// holding them, its score the area-weighted mean of theirs), in reading order.
// With options.enabled false each box is its own line.
std::vector<LineGroup> group_line_boxes(const std::vector<DetBox>& boxes, const JoinOptions& options);

}  // namespace gk::ocr

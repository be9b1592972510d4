// Joining the boxes the detector splits on one line (tools/gkocr/line_join.h) and
// padding a crop's box (pad_box), against hand-computed boxes.
#include "tools/gkocr/crop.h"
#include "tools/gkocr/line_join.h"
#include "tests/ocr/point_check.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace gk::ocr {
namespace {

Quad rect(float x, float y, float w, float h) { return {Point{x, y}, Point{x + w, y}, Point{x + w, y + h}, Point{x, y + h}}; }

DetBox box(float x, float y, float w, float h, float score = 0.9f) { return {rect(x, y, w, h), score}; }

TEST_CASE("same_line: overlap across the line, gap along it, height and direction", "[ocr]") {
  const JoinOptions o;  // max_gap 2, min_overlap 0.6, max_height_ratio 1.6, 10 degrees
  const Quad word = rect(10, 100, 120, 30);
  CHECK(same_line(word, rect(180, 102, 90, 30), o));   // 50 px apart: 1.67 heights
  CHECK_FALSE(same_line(word, rect(200, 100, 90, 30), o));  // 70 px: 2.33 heights
  CHECK(same_line(word, rect(135, 110, 60, 30), o));   // 20 of 30 px overlap across: 0.67
  CHECK_FALSE(same_line(word, rect(135, 115, 60, 30), o));  // 15 of 30: 0.5
  CHECK_FALSE(same_line(word, rect(140, 90, 100, 50), o));  // 50 / 30 = 1.67 times as tall
  CHECK(same_line(word, rect(140, 95, 100, 45), o));   // 1.5 times
  CHECK(same_line(rect(180, 102, 90, 30), word, o));   // either order
  // A box turned by 20 degrees runs another way, though it overlaps.
  const float c = std::cos(20 * 3.14159265f / 180), s = std::sin(20 * 3.14159265f / 180);
  const Quad turned = {Point{140, 100}, Point{140 + 100 * c, 100 + 100 * s},
                       Point{140 + 100 * c - 30 * s, 100 + 100 * s + 30 * c}, Point{140 - 30 * s, 130}};
  CHECK_FALSE(same_line(word, turned, o));
  // A near-square box (one character) has no direction of its own: the word's counts.
  CHECK(same_line(word, rect(150, 98, 28, 32), o));
  // A narrow character joins a line; two tall boxes (vertical text) never join.
  CHECK(same_line(word, rect(150, 100, 12, 30), o));
  CHECK_FALSE(same_line(rect(10, 100, 30, 120), rect(50, 100, 30, 120), o));
}

TEST_CASE("join_quads: the rectangle holding both boxes", "[ocr]") {
  const Quad j = join_quads(rect(10, 100, 120, 30), rect(180, 104, 90, 30));
  check_point(j[0], 10, 100);
  check_point(j[1], 270, 100);
  check_point(j[2], 270, 134);
  check_point(j[3], 10, 134);
}

TEST_CASE("group_line_boxes: a split line joins, columns and rows stay apart", "[ocr]") {
  // Row 1: "Invoice" "date:" "2026-01-09" split at wide spaces, then a column
  // 300 px (10 heights) to the right. Row 2 below, one box.
  const std::vector<DetBox> boxes = {box(400, 40, 100, 30, 0.8f), box(10, 40, 100, 30, 0.9f),
                                     box(10, 90, 250, 30), box(150, 42, 60, 28, 0.7f), box(250, 40, 80, 30, 0.9f)};
  const JoinOptions o;
  const std::vector<LineGroup> lines = group_line_boxes(boxes, o);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].parts == std::vector<size_t>{1, 3, 4});
  check_point(lines[0].box.box[0], 10, 40);
  check_point(lines[0].box.box[2], 330, 70);
  // Area-weighted: (3000 * 0.9 + 1680 * 0.7 + 2400 * 0.9) / 7080.
  CHECK(lines[0].box.score == Approx((3000 * 0.9 + 1680 * 0.7 + 2400 * 0.9) / 7080));
  CHECK(lines[1].parts == std::vector<size_t>{0});
  CHECK(lines[2].parts == std::vector<size_t>{2});
  JoinOptions off;
  off.enabled = false;
  const std::vector<LineGroup> apart = group_line_boxes(boxes, off);
  REQUIRE(apart.size() == 5);
  // Reading order: row 1 left to right (top-left y within 10 px), then row 2.
  CHECK(apart[0].parts == std::vector<size_t>{1});
  CHECK(apart[1].parts == std::vector<size_t>{3});
  CHECK(apart[2].parts == std::vector<size_t>{4});
  CHECK(apart[3].parts == std::vector<size_t>{0});
  CHECK(apart[4].parts == std::vector<size_t>{2});
}

TEST_CASE("pad_box: ends by pad_x, top and bottom by pad_y, in box heights, along the box", "[ocr]") {
  const Quad p = pad_box(rect(10, 20, 100, 30), 0.5f, 0.1f);
  check_point(p[0], -5, 17);
  check_point(p[1], 125, 17);
  check_point(p[2], 125, 53);
  check_point(p[3], -5, 53);
  // A box turned by 90 degrees (its top edge runs down the image) pads along it.
  const Quad down = {Point{50, 10}, Point{50, 110}, Point{20, 110}, Point{20, 10}};
  const Quad q = pad_box(down, 0.5f, 0);
  check_point(q[0], 50, -5);
  check_point(q[1], 50, 125);
  check_point(q[2], 20, 125);
  check_point(q[3], 20, -5);
  // A tall box (20 x 60) is a vertical line: its ends grow by pad_x x its width.
  const Quad tall = pad_box(rect(10, 20, 20, 60), 0.5f, 0.1f);
  check_point(tall[0], 8, 10);
  check_point(tall[1], 32, 10);
  check_point(tall[2], 32, 90);
  check_point(tall[3], 8, 90);
}

}  // namespace
}  // namespace gk::ocr

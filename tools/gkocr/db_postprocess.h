// DB (Differentiable Binarization) post-processing, after PaddleOCR's
// DBPostProcess: threshold the probability map, one box per connected region (its
// minimum-area rotated rectangle), score it, grow it by the unclip ratio, and map
// it back to image coordinates.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gk::ocr {

struct Point {
  float x = 0, y = 0;
};
// Corners clockwise in image coordinates (y down): top-left, top-right,
// bottom-right, bottom-left.
using Quad = std::array<Point, 4>;

struct DbOptions {
  float thresh = 0.3f;        // binarisation of the probability map
  float box_thresh = 0.6f;    // minimum mean probability inside a box
  float unclip_ratio = 1.5f;  // offset distance = area * ratio / perimeter
  // The ratio the word-gap thresholds (word_gaps.h) were measured at: each box
  // says how much taller it is than it would be there (DetBox::height_scale).
  float reference_unclip_ratio = 1.5f;
  float min_size = 3;         // shorter side of a box, in map pixels
  int max_candidates = 1000;
};

struct DetBox {
  Quad box;
  float score = 0;
  // The box's height at reference_unclip_ratio over its height at unclip_ratio
  // (1 when the two are equal): word gaps are measured against the former.
  float height_scale = 1;
};

// 8-connected regions of mask != 0; each region as its pixels' (x, y).
std::vector<std::vector<Point>> connected_regions(const uint8_t* mask, int width, int height);

// Andrew's monotone chain; counter-clockwise in y-up terms, no collinear points.
std::vector<Point> convex_hull(std::vector<Point> points);

// Minimum-area enclosing rectangle of a convex polygon (rotating calipers): its
// corners ordered like PaddleOCR's get_mini_boxes (see order_mini_box).
Quad min_area_box(const std::vector<Point>& hull, float* short_side);

// get_mini_boxes' order: by x, then the upper of the two left points first, the
// upper of the two right points second.
Quad order_mini_box(Quad corners);

// PaddleOCR's order_points_clockwise: the two leftmost points top then bottom, the
// two rightmost likewise; returns tl, tr, br, bl.
Quad order_clockwise(Quad corners);

// Mean of prob over the pixels whose centres lie inside the box.
float box_score(const float* prob, int width, int height, const Quad& box);

// Offsets the polygon outward by area * ratio / perimeter (each side moves out;
// corners are mitred, so a rectangle grows by that distance on every side).
std::vector<Point> unclip(const Quad& box, float ratio);

float polygon_area(const std::vector<Point>& poly);

// The whole post-processing of one probability map (map_w x map_h) for an image of
// image_w x image_h: boxes in image coordinates, clockwise from top-left, with
// boxes thinner than 3 image pixels dropped (PaddleOCR's filter_tag_det_res).
std::vector<DetBox> db_boxes(const float* prob, int map_w, int map_h, int image_w, int image_h,
                             const DbOptions& options = {});

// Reading order: by top-left y, then left to right within `tolerance` pixels of y
// (PaddleOCR's sorted_boxes). The indices of boxes in that order.
std::vector<std::size_t> reading_order(const std::vector<Quad>& boxes, float tolerance = 10);
void sort_reading_order(std::vector<DetBox>& boxes, float tolerance = 10);

}  // namespace gk::ocr

#include "tools/gkocr/line_join.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace gk::ocr {
namespace {

constexpr float kDegree = std::numbers::pi_v<float> / 180;

float length(const Point& a, const Point& b) { return std::hypot(b.x - a.x, b.y - a.y); }

float box_width(const Quad& q) { return std::max(length(q[0], q[1]), length(q[3], q[2])); }
float box_height(const Quad& q) { return std::max(length(q[0], q[3]), length(q[1], q[2])); }

// The unit vector along the box's top edge.
Point direction(const Quad& q) {
  const float len = std::max(length(q[0], q[1]), 1e-6f);
  return {(q[1].x - q[0].x) / len, (q[1].y - q[0].y) / len};
}

float aspect(const Quad& q) { return box_width(q) / std::max(box_height(q), 1e-6f); }

// A box this much wider than tall has a trustworthy direction; a near-square one
// (a single character after unclip) may come out of the minimum-area rectangle
// turned by 90 degrees.
constexpr float kDirectedAspect = 1.5f;

// The box's extent along d (u) and across it (v).
struct BoxSpan {
  float u0 = 0, u1 = 0, v0 = 0, v1 = 0;
};

BoxSpan span_along(const Quad& box, const Point& d) {
  const Point n{-d.y, d.x};  // across the line: down the page for d = (1, 0)
  BoxSpan s{box[0].x * d.x + box[0].y * d.y, 0, box[0].x * n.x + box[0].y * n.y, 0};
  s.u1 = s.u0, s.v1 = s.v0;
  for (const Point& p : box) {
    const float u = p.x * d.x + p.y * d.y, v = p.x * n.x + p.y * n.y;
    s.u0 = std::min(s.u0, u), s.u1 = std::max(s.u1, u);
    s.v0 = std::min(s.v0, v), s.v1 = std::max(s.v1, v);
  }
  return s;
}

// The line direction a pair is measured along: the more elongated box's top edge
// when it is clearly elongated, else the image's x axis.
Point pair_direction(const Quad& a, const Quad& b) {
  const Quad& ref = aspect(a) >= aspect(b) ? a : b;
  return aspect(ref) >= kDirectedAspect ? direction(ref) : Point{1, 0};
}

// The gap between the pair along d, in pixels (negative when they overlap), or
// NaN when they are not on one line.
float line_gap(const Quad& a, const Quad& b, const JoinOptions& o) {
  // A box clearly taller than wide is a vertical line (crop_text turns it
  // upright) or one narrow character ("1", "I"): it joins only a box that is
  // clearly a horizontal line, never another tall one (columns of vertical text).
  const float wider = std::max(aspect(a), aspect(b)), narrower = std::min(aspect(a), aspect(b));
  if (narrower < 1 / kDirectedAspect && wider < kDirectedAspect) return std::nanf("");
  const Point d = pair_direction(a, b);
  for (const Quad* q : {&a, &b}) {
    if (aspect(*q) < kDirectedAspect) continue;
    const Point e = direction(*q);
    if (std::abs(d.x * e.y - d.y * e.x) > std::sin(o.max_angle_deg * kDegree) || d.x * e.x + d.y * e.y < 0)
      return std::nanf("");
  }
  const BoxSpan sa = span_along(a, d), sb = span_along(b, d);
  const float ha = sa.v1 - sa.v0, hb = sb.v1 - sb.v0;
  const float lower = std::min(ha, hb), taller = std::max(ha, hb);
  if (lower <= 0 || taller > o.max_height_ratio * lower) return std::nanf("");
  const float overlap = std::min(sa.v1, sb.v1) - std::max(sa.v0, sb.v0);
  if (overlap < o.min_overlap * lower) return std::nanf("");
  const float gap = std::max(sb.u0 - sa.u1, sa.u0 - sb.u1);
  return gap <= o.max_gap * taller ? gap : std::nanf("");
}

}  // namespace

bool same_line(const Quad& left, const Quad& right, const JoinOptions& options) {
  return !std::isnan(line_gap(left, right, options));
}

Quad join_quads(const Quad& a, const Quad& b) {
  // The rectangle along the pair's line direction, not the minimum-area one: two
  // word boxes a few pixels apart in height would tilt that one.
  const Point d = pair_direction(a, b), n{-d.y, d.x};
  const BoxSpan sa = span_along(a, d), sb = span_along(b, d);
  const float u0 = std::min(sa.u0, sb.u0), u1 = std::max(sa.u1, sb.u1);
  const float v0 = std::min(sa.v0, sb.v0), v1 = std::max(sa.v1, sb.v1);
  auto corner = [&](float u, float v) { return Point{u * d.x + v * n.x, u * d.y + v * n.y}; };
  return {corner(u0, v0), corner(u1, v0), corner(u1, v1), corner(u0, v1)};
}

std::vector<LineGroup> group_line_boxes(const std::vector<DetBox>& boxes, const JoinOptions& options) {
  std::vector<size_t> order(boxes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // Left to right, so each line grows at its right end; a box joins the line it
  // is nearest to.
  auto left = [&](size_t i) {
    const Quad& q = boxes[i].box;
    return std::min({q[0].x, q[1].x, q[2].x, q[3].x});
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return left(a) < left(b); });
  std::vector<LineGroup> lines;
  std::vector<float> areas;
  for (size_t k : order) {
    const DetBox& b = boxes[k];
    size_t best = lines.size();
    float best_gap = 0;
    for (size_t i = 0; options.enabled && i < lines.size(); ++i) {
      const float gap = line_gap(lines[i].box.box, b.box, options);
      if (!std::isnan(gap) && (best == lines.size() || gap < best_gap)) best = i, best_gap = gap;
    }
    const float area = box_width(b.box) * box_height(b.box);
    if (best == lines.size()) {
      lines.push_back({b, {k}});
      areas.push_back(area);
      continue;
    }
    DetBox& line = lines[best].box;
    line.score = (line.score * areas[best] + b.score * area) / std::max(areas[best] + area, 1e-6f);
    line.height_scale = (line.height_scale * areas[best] + b.height_scale * area) / std::max(areas[best] + area, 1e-6f);
    line.box = join_quads(line.box, b.box);
    lines[best].parts.push_back(k);
    areas[best] += area;
  }
  std::vector<Quad> quads;
  for (const LineGroup& l : lines) quads.push_back(l.box.box);
  std::vector<LineGroup> sorted;
  sorted.reserve(lines.size());
  for (size_t i : reading_order(quads)) sorted.push_back(std::move(lines[i]));
  return sorted;
}

}  // namespace gk::ocr

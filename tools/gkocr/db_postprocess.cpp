#include "tools/gkocr/db_postprocess.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gk::ocr {
namespace {

float cross(const Point& o, const Point& a, const Point& b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

float distance(const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); }

}  // namespace

Quad order_clockwise(Quad q) {
  std::stable_sort(q.begin(), q.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  Point l0 = q[0], l1 = q[1], r0 = q[2], r1 = q[3];
  if (l1.y < l0.y) std::swap(l0, l1);
  if (r1.y < r0.y) std::swap(r0, r1);
  return {l0, r0, r1, l1};
}

std::vector<std::vector<Point>> connected_regions(const uint8_t* mask, int width, int height) {
  std::vector<std::vector<Point>> regions;
  std::vector<uint8_t> seen(static_cast<size_t>(width) * height, 0);
  std::vector<int64_t> stack;
  for (int64_t start = 0; start < static_cast<int64_t>(width) * height; ++start) {
    if (!mask[start] || seen[start]) continue;
    std::vector<Point> pixels;
    seen[start] = 1;
    stack.push_back(start);
    while (!stack.empty()) {
      const int64_t i = stack.back();
      stack.pop_back();
      const int x = static_cast<int>(i % width), y = static_cast<int>(i / width);
      pixels.push_back({static_cast<float>(x), static_cast<float>(y)});
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const int64_t j = static_cast<int64_t>(ny) * width + nx;
          if (mask[j] && !seen[j]) {
            seen[j] = 1;
            stack.push_back(j);
          }
        }
      }
    }
    regions.push_back(std::move(pixels));
  }
  return regions;
}

std::vector<Point> convex_hull(std::vector<Point> pts) {
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x == b.x && a.y == b.y; }),
            pts.end());
  if (pts.size() < 3) return pts;
  std::vector<Point> hull(2 * pts.size());
  size_t k = 0;
  for (size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

Quad order_mini_box(Quad q) {
  std::stable_sort(q.begin(), q.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
  const int i1 = q[1].y > q[0].y ? 0 : 1, i4 = 1 - i1;
  const int i2 = q[3].y > q[2].y ? 2 : 3, i3 = 5 - i2;
  return {q[i1], q[i2], q[i3], q[i4]};
}

Quad min_area_box(const std::vector<Point>& hull, float* short_side) {
  Quad best{};
  float best_area = std::numeric_limits<float>::infinity();
  *short_side = 0;
  if (hull.size() < 3) {
    for (size_t i = 0; i < 4; ++i) best[i] = hull.empty() ? Point{} : hull[std::min(i, hull.size() - 1)];
    return order_mini_box(best);
  }
  // Rotating calipers: the optimal rectangle has a side on a hull edge.
  for (size_t i = 0; i < hull.size(); ++i) {
    const Point& a = hull[i];
    const Point& b = hull[(i + 1) % hull.size()];
    const float len = distance(a, b);
    if (len == 0) continue;
    const float ux = (b.x - a.x) / len, uy = (b.y - a.y) / len;  // along the edge
    const float vx = -uy, vy = ux;                                // its normal
    float umin = 0, umax = 0, vmin = 0, vmax = 0;
    for (const Point& p : hull) {
      const float u = (p.x - a.x) * ux + (p.y - a.y) * uy;
      const float v = (p.x - a.x) * vx + (p.y - a.y) * vy;
      umin = std::min(umin, u), umax = std::max(umax, u);
      vmin = std::min(vmin, v), vmax = std::max(vmax, v);
    }
    const float area = (umax - umin) * (vmax - vmin);
    if (area < best_area) {
      best_area = area;
      auto corner = [&](float u, float v) { return Point{a.x + u * ux + v * vx, a.y + u * uy + v * vy}; };
      best = {corner(umin, vmin), corner(umax, vmin), corner(umax, vmax), corner(umin, vmax)};
      *short_side = std::min(umax - umin, vmax - vmin);
    }
  }
  return order_mini_box(best);
}

float box_score(const float* prob, int width, int height, const Quad& box) {
  float fx0 = box[0].x, fx1 = box[0].x, fy0 = box[0].y, fy1 = box[0].y;
  for (const Point& p : box) {
    fx0 = std::min(fx0, p.x), fx1 = std::max(fx1, p.x);
    fy0 = std::min(fy0, p.y), fy1 = std::max(fy1, p.y);
  }
  const int x0 = std::clamp(static_cast<int>(std::floor(fx0)), 0, width - 1);
  const int x1 = std::clamp(static_cast<int>(std::ceil(fx1)), 0, width - 1);
  const int y0 = std::clamp(static_cast<int>(std::floor(fy0)), 0, height - 1);
  const int y1 = std::clamp(static_cast<int>(std::ceil(fy1)), 0, height - 1);
  // Inside a convex polygon: on one side of every edge (either winding), with a
  // small tolerance so pixels on the outline count, as cv2.fillPoly fills them.
  auto inside = [&](float x, float y) {
    bool pos = false, neg = false;
    for (int i = 0; i < 4; ++i) {
      const Point& a = box[i];
      const Point& b = box[(i + 1) % 4];
      const float len = std::max(distance(a, b), 1e-6f);
      const float c = cross(a, b, Point{x, y}) / len;
      if (c > 0.5f) pos = true;
      if (c < -0.5f) neg = true;
    }
    return !(pos && neg);
  };
  double sum = 0;
  int64_t count = 0;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (inside(static_cast<float>(x), static_cast<float>(y))) {
        sum += prob[static_cast<int64_t>(y) * width + x];
        ++count;
      }
  return count ? static_cast<float>(sum / count) : 0.0f;
}

float polygon_area(const std::vector<Point>& poly) {
  double a = 0;
  for (size_t i = 0; i < poly.size(); ++i) {
    const Point& p = poly[i];
    const Point& q = poly[(i + 1) % poly.size()];
    a += static_cast<double>(p.x) * q.y - static_cast<double>(q.x) * p.y;
  }
  return static_cast<float>(std::abs(a) / 2);
}

std::vector<Point> unclip(const Quad& box, float ratio) {
  std::vector<Point> poly(box.begin(), box.end());
  const float area = polygon_area(poly);
  float perimeter = 0;
  for (size_t i = 0; i < 4; ++i) perimeter += distance(poly[i], poly[(i + 1) % 4]);
  if (perimeter <= 0) return poly;
  const float d = area * ratio / perimeter;
  // Signed area > 0 means counter-clockwise in y-up terms (clockwise on screen).
  double signed_area = 0;
  for (size_t i = 0; i < 4; ++i) signed_area += poly[i].x * poly[(i + 1) % 4].y - poly[(i + 1) % 4].x * poly[i].y;
  const float orient = signed_area >= 0 ? 1.0f : -1.0f;
  auto outward = [&](const Point& a, const Point& b) {
    const float len = std::max(distance(a, b), 1e-6f);
    return Point{orient * (b.y - a.y) / len, -orient * (b.x - a.x) / len};
  };
  std::vector<Point> out(4);
  for (size_t i = 0; i < 4; ++i) {
    const Point n1 = outward(poly[(i + 3) % 4], poly[i]);
    const Point n2 = outward(poly[i], poly[(i + 1) % 4]);
    // The mitred corner: moving both adjacent sides out by d moves the vertex by
    // d * (n1 + n2) / (1 + n1.n2).
    const float denom = std::max(1.0f + n1.x * n2.x + n1.y * n2.y, 1e-3f);
    out[i] = {poly[i].x + d * (n1.x + n2.x) / denom, poly[i].y + d * (n1.y + n2.y) / denom};
  }
  return out;
}

std::vector<DetBox> db_boxes(const float* prob, int map_w, int map_h, int image_w, int image_h,
                             const DbOptions& options) {
  std::vector<uint8_t> mask(static_cast<size_t>(map_w) * map_h);
  for (size_t i = 0; i < mask.size(); ++i) mask[i] = prob[i] > options.thresh;
  std::vector<std::vector<Point>> regions = connected_regions(mask.data(), map_w, map_h);
  if (static_cast<int>(regions.size()) > options.max_candidates) regions.resize(options.max_candidates);

  std::vector<DetBox> boxes;
  for (const std::vector<Point>& region : regions) {
    float side = 0;
    const Quad box = min_area_box(convex_hull(region), &side);
    if (side < options.min_size) continue;
    const float score = box_score(prob, map_w, map_h, box);
    if (score < options.box_thresh) continue;
    const float kernel_side = side;
    const Quad grown = min_area_box(convex_hull(unclip(box, options.unclip_ratio)), &side);
    if (side < options.min_size + 2) continue;
    // The offset distance is linear in the ratio, so the reference box's short
    // side follows from the kernel's and the grown one's.
    const float reference_side =
        kernel_side + (side - kernel_side) * options.reference_unclip_ratio / std::max(options.unclip_ratio, 1e-6f);
    Quad scaled;
    for (int i = 0; i < 4; ++i) {
      const float x = std::round(grown[i].x / map_w * image_w), y = std::round(grown[i].y / map_h * image_h);
      scaled[i] = {std::clamp(x, 0.0f, static_cast<float>(image_w)), std::clamp(y, 0.0f, static_cast<float>(image_h))};
    }
    Quad q = order_clockwise(scaled);
    for (Point& p : q) {
      p.x = std::clamp(p.x, 0.0f, static_cast<float>(image_w - 1));
      p.y = std::clamp(p.y, 0.0f, static_cast<float>(image_h - 1));
    }
    if (static_cast<int>(distance(q[0], q[1])) <= 3 || static_cast<int>(distance(q[0], q[3])) <= 3) continue;
    boxes.push_back({q, score, side > 0 ? reference_side / side : 1.0f});
  }
  sort_reading_order(boxes);
  return boxes;
}

std::vector<size_t> reading_order(const std::vector<Quad>& boxes, float tolerance) {
  std::vector<size_t> order(boxes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto top_left = [&](size_t i) { return boxes[i][0]; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Point pa = top_left(a), pb = top_left(b);
    return pa.y < pb.y || (pa.y == pb.y && pa.x < pb.x);
  });
  for (size_t i = 0; i + 1 < order.size(); ++i) {
    for (size_t j = i + 1; j-- > 0;) {
      const Point next = top_left(order[j + 1]), here = top_left(order[j]);
      if (std::abs(next.y - here.y) < tolerance && next.x < here.x)
        std::swap(order[j], order[j + 1]);
      else
        break;
    }
  }
  return order;
}

void sort_reading_order(std::vector<DetBox>& boxes, float tolerance) {
  std::vector<Quad> quads;
  quads.reserve(boxes.size());
  for (const DetBox& b : boxes) quads.push_back(b.box);
  std::vector<DetBox> sorted;
  sorted.reserve(boxes.size());
  for (size_t i : reading_order(quads, tolerance)) sorted.push_back(boxes[i]);
  boxes = std::move(sorted);
}

}  // namespace gk::ocr

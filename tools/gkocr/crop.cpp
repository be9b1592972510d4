#include "tools/gkocr/crop.h"

#include <algorithm>
#include <cmath>

namespace gk::ocr {

bool perspective_transform(const Quad& from, const Quad& to, std::array<double, 9>* h) {
  // Unknowns h0..h7 (h8 = 1): for each corner,
  //   h0 x + h1 y + h2 - h6 x X - h7 y X = X
  //   h3 x + h4 y + h5 - h6 x Y - h7 y Y = Y
  double a[8][9] = {};
  for (int i = 0; i < 4; ++i) {
    const double x = from[i].x, y = from[i].y, X = to[i].x, Y = to[i].y;
    double* r0 = a[2 * i];
    double* r1 = a[2 * i + 1];
    r0[0] = x, r0[1] = y, r0[2] = 1, r0[6] = -x * X, r0[7] = -y * X, r0[8] = X;
    r1[3] = x, r1[4] = y, r1[5] = 1, r1[6] = -x * Y, r1[7] = -y * Y, r1[8] = Y;
  }
  for (int col = 0; col < 8; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 8; ++r)
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    if (std::abs(a[pivot][col]) < 1e-12) return false;
    std::swap(a[col], a[pivot]);
    for (int r = 0; r < 8; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (int c = col; c < 9; ++c) a[r][c] -= f * a[col][c];
    }
  }
  for (int i = 0; i < 8; ++i) (*h)[i] = a[i][8] / a[i][i];
  (*h)[8] = 1;
  return true;
}

Image warp_perspective(const Image& image, const Quad& box, int width, int height) {
  Image out = Image::blank(width, height);
  const float w = static_cast<float>(width), hgt = static_cast<float>(height);
  const Quad rect = {Point{0, 0}, Point{w, 0}, Point{w, hgt}, Point{0, hgt}};
  std::array<double, 9> m;
  if (!perspective_transform(rect, box, &m)) {
    // A degenerate box (a line or a point): the crop is its first corner's colour.
    float px[3];
    sample_bilinear(image, box[0].x, box[0].y, px);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        for (int c = 0; c < 3; ++c) out.at(x, y)[c] = static_cast<uint8_t>(std::lround(px[c]));
    return out;
  }
  float px[3];
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const double d = m[6] * x + m[7] * y + m[8];
      const double sx = (m[0] * x + m[1] * y + m[2]) / d;
      const double sy = (m[3] * x + m[4] * y + m[5]) / d;
      sample_bilinear(image, static_cast<float>(sx), static_cast<float>(sy), px);
      uint8_t* o = out.at(x, y);
      for (int c = 0; c < 3; ++c) o[c] = static_cast<uint8_t>(std::clamp(std::lround(px[c]), 0L, 255L));
    }
  }
  return out;
}

Image crop_text(const Image& image, const Quad& box) {
  auto dist = [](const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const int w = std::max(1, static_cast<int>(std::max(dist(box[0], box[1]), dist(box[2], box[3]))));
  const int h = std::max(1, static_cast<int>(std::max(dist(box[0], box[3]), dist(box[1], box[2]))));
  Image crop = warp_perspective(image, box, w, h);
  if (static_cast<float>(h) / w >= 1.5f) crop = rotate90_ccw(crop);
  return crop;
}

Quad pad_box(const Quad& box, float pad_x, float pad_y) {
  auto dist = [](const Point& a, const Point& b) { return std::hypot(a.x - b.x, a.y - b.y); };
  const float w = std::max(dist(box[0], box[1]), 1e-6f), h = std::max(dist(box[0], box[3]), 1e-6f);
  const float height = std::max(h, dist(box[1], box[2]));
  const Point u{(box[1].x - box[0].x) / w, (box[1].y - box[0].y) / w};  // along the line
  const Point v{(box[3].x - box[0].x) / h, (box[3].y - box[0].y) / h};  // down across it
  const float width = std::max(w, dist(box[3], box[2]));
  // A box crop_text turns upright (1.5 times taller than wide) holds a vertical
  // line: its ends are the top and bottom, its height the box's width.
  const bool vertical = height >= 1.5f * width;
  const float du = vertical ? pad_y * width : pad_x * height, dv = vertical ? pad_x * width : pad_y * height;
  const float su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
  Quad out = box;
  for (int i = 0; i < 4; ++i) {
    out[i].x += su[i] * du * u.x + sv[i] * dv * v.x;
    out[i].y += su[i] * du * u.y + sv[i] * dv * v.y;
  }
  return out;
}

}  // namespace gk::ocr

#include "tools/gkocr/draw.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace gk::ocr {
namespace {

// Rows of each digit, 3 bits per row, most significant bit on the left.
constexpr uint8_t kDigits[10][5] = {
    {7, 5, 5, 5, 7}, {2, 6, 2, 2, 7}, {7, 1, 7, 4, 7}, {7, 1, 7, 1, 7}, {5, 5, 7, 1, 1},
    {7, 4, 7, 1, 7}, {7, 4, 7, 5, 7}, {7, 1, 1, 1, 1}, {7, 5, 7, 5, 7}, {7, 5, 7, 1, 7},
};

void fill_rect(Image& image, int x0, int y0, int w, int h, Rgb color) {
  for (int y = std::max(0, y0); y < std::min(image.height, y0 + h); ++y)
    for (int x = std::max(0, x0); x < std::min(image.width, x0 + w); ++x) std::copy(color.begin(), color.end(), image.at(x, y));
}

}  // namespace

void draw_line(Image& image, Point a, Point b, Rgb color, int thickness) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  const int steps = std::max(1, static_cast<int>(std::ceil(len)));
  const int r0 = -(thickness - 1) / 2;
  for (int i = 0; i <= steps; ++i) {
    const float t = static_cast<float>(i) / steps;
    const int x = static_cast<int>(std::lround(a.x + (b.x - a.x) * t));
    const int y = static_cast<int>(std::lround(a.y + (b.y - a.y) * t));
    fill_rect(image, x + r0, y + r0, thickness, thickness, color);
  }
}

void draw_quad(Image& image, const Quad& q, Rgb color, int thickness) {
  for (int i = 0; i < 4; ++i) draw_line(image, q[i], q[(i + 1) % 4], color, thickness);
}

void draw_number(Image& image, int x, int y, int number, Rgb color, int scale) {
  const std::string digits = std::to_string(std::max(0, number));
  const int glyph_w = 4 * scale;  // 3 cells and a gap
  fill_rect(image, x, y, static_cast<int>(digits.size()) * glyph_w + scale, 7 * scale, Rgb{255, 255, 255});
  for (size_t i = 0; i < digits.size(); ++i) {
    const uint8_t* rows = kDigits[digits[i] - '0'];
    for (int r = 0; r < 5; ++r)
      for (int c = 0; c < 3; ++c)
        if (rows[r] & (4 >> c))
          fill_rect(image, x + scale + static_cast<int>(i) * glyph_w + c * scale, y + scale + r * scale, scale, scale, color);
  }
}

}  // namespace gk::ocr

#include "image_io.h"

#include "stb_rgb.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace detect {

std::string load_image(const std::string& path, Image& out) {
  stb_rgb::Decoded image = stb_rgb::read(path);
  if (!image.error.empty()) return path + ": cannot read image (" + image.error + ")";
  out.width = image.width;
  out.height = image.height;
  out.rgb = std::move(image.rgb);
  return {};
}

std::string save_png(const std::string& path, const Image& image) {
  if (!stb_rgb::write_png(path, image.width, image.height, image.rgb.data())) return path + ": cannot write PNG";
  return {};
}

void draw_box(Image& image, float x0, float y0, float x1, float y1, const uint8_t color[3], int thickness) {
  const int left = static_cast<int>(std::lround(x0)), top = static_cast<int>(std::lround(y0));
  const int right = static_cast<int>(std::lround(x1)), bottom = static_cast<int>(std::lround(y1));
  auto put = [&](int x, int y) {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return;
    uint8_t* p = &image.rgb[(static_cast<size_t>(y) * image.width + x) * 3];
    p[0] = color[0];
    p[1] = color[1];
    p[2] = color[2];
  };
  for (int t = 0; t < thickness; ++t) {
    for (int x = left; x <= right; ++x) {
      put(x, top + t);
      put(x, bottom - t);
    }
    for (int y = top; y <= bottom; ++y) {
      put(left + t, y);
      put(right - t, y);
    }
  }
}

void label_color(int64_t label, uint8_t out[3]) {
  // Hues 0.618 of a turn apart (the golden angle): neighbouring labels differ.
  const double hue = std::fmod(static_cast<double>(label < 0 ? -label : label) * 0.618033988749895, 1.0) * 6.0;
  const double f = hue - std::floor(hue);
  const double rgb[6][3] = {{1, f, 0}, {1 - f, 1, 0}, {0, 1, f}, {0, 1 - f, 1}, {f, 0, 1}, {1, 0, 1 - f}};
  const int sector = static_cast<int>(hue) % 6;
  for (int c = 0; c < 3; ++c) out[c] = static_cast<uint8_t>(std::lround(40 + 215 * rgb[sector][c]));
}

}  // namespace detect

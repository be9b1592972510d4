#include "letterbox.h"

#include <algorithm>
#include <cmath>

namespace detect {

Letterbox letterbox_geometry(int image_width, int image_height, int input_width, int input_height) {
  Letterbox g;
  g.scale = std::min(static_cast<float>(input_width) / image_width, static_cast<float>(input_height) / image_height);
  g.width = std::max(1, static_cast<int>(std::lround(image_width * g.scale)));
  g.height = std::max(1, static_cast<int>(std::lround(image_height * g.scale)));
  // Whole pixels, so the scaled image sits on the input's pixel grid.
  g.pad_x = static_cast<float>((input_width - g.width) / 2);
  g.pad_y = static_cast<float>((input_height - g.height) / 2);
  return g;
}

std::vector<float> letterbox_nchw(const Image& image, const Letterbox& g, int input_width, int input_height) {
  const size_t plane = static_cast<size_t>(input_width) * input_height;
  std::vector<float> out(3 * plane, 114.0f / 255.0f);
  const int px = static_cast<int>(g.pad_x), py = static_cast<int>(g.pad_y);
  const float sx = static_cast<float>(image.width) / g.width, sy = static_cast<float>(image.height) / g.height;
  for (int y = 0; y < g.height; ++y) {
    const float fy = std::clamp((y + 0.5f) * sy - 0.5f, 0.0f, static_cast<float>(image.height - 1));
    const int y0 = static_cast<int>(fy), y1 = std::min(y0 + 1, image.height - 1);
    const float wy = fy - y0;
    for (int x = 0; x < g.width; ++x) {
      const float fx = std::clamp((x + 0.5f) * sx - 0.5f, 0.0f, static_cast<float>(image.width - 1));
      const int x0 = static_cast<int>(fx), x1 = std::min(x0 + 1, image.width - 1);
      const float wx = fx - x0;
      for (int c = 0; c < 3; ++c) {
        auto at = [&](int xx, int yy) {
          return static_cast<float>(image.rgb[(static_cast<size_t>(yy) * image.width + xx) * 3 + c]);
        };
        const float top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * wx;
        const float bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * wx;
        out[c * plane + static_cast<size_t>(y + py) * input_width + (x + px)] = (top + (bottom - top) * wy) / 255.0f;
      }
    }
  }
  return out;
}

Box to_image(const Box& b, const Letterbox& g, int image_width, int image_height) {
  auto x = [&](float v) { return std::clamp((v - g.pad_x) / g.scale, 0.0f, static_cast<float>(image_width)); };
  auto y = [&](float v) { return std::clamp((v - g.pad_y) / g.scale, 0.0f, static_cast<float>(image_height)); };
  return {x(b.x0), y(b.y0), x(b.x1), y(b.y1)};
}

}  // namespace detect

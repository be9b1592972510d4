#include "image_io.h"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
#include <stb/stb_image.h>
#include <stb/stb_image_write.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>

namespace detect {

std::string load_image(const std::string& path, Image& out) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (!data) return path + ": cannot read image (" + (stbi_failure_reason() ? stbi_failure_reason() : "unknown") + ")";
  out.width = w;
  out.height = h;
  out.rgb.assign(data, data + static_cast<size_t>(w) * h * 3);
  stbi_image_free(data);
  return {};
}

std::string save_png(const std::string& path, const Image& image) {
  if (!stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(), image.width * 3))
    return path + ": cannot write PNG";
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

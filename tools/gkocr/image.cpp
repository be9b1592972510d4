#include "tools/gkocr/image.h"

#include "tools/examples/detect/stb_rgb.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace gk::ocr {

Image Image::blank(int width, int height, uint8_t value) {
  Image img;
  img.width = width;
  img.height = height;
  img.rgb.assign(static_cast<size_t>(width) * height * 3, value);
  return img;
}

Result<Image> load_image(const std::string& path) {
  stb_rgb::Decoded decoded = stb_rgb::read(path);
  if (!decoded.error.empty())
    return invalid_argument("{}: cannot read image ({}; PNG and JPEG are supported)", path, decoded.error);
  Image img;
  img.width = decoded.width;
  img.height = decoded.height;
  img.rgb = std::move(decoded.rgb);
  if (img.empty()) return invalid_argument("{}: empty image ({}x{})", path, decoded.width, decoded.height);
  return img;
}

Status write_png(const std::string& path, const Image& image) {
  if (image.empty()) return invalid_argument("{}: cannot write an empty image", path);
  if (!stb_rgb::write_png(path, image.width, image.height, image.rgb.data()))
    return unavailable("{}: cannot write PNG", path);
  return ok_status();
}

void sample_bilinear(const Image& image, float x, float y, float out[3]) {
  const int w = image.width, h = image.height;
  x = std::clamp(x, 0.0f, static_cast<float>(w - 1));
  y = std::clamp(y, 0.0f, static_cast<float>(h - 1));
  const int x0 = static_cast<int>(x), y0 = static_cast<int>(y);
  const int x1 = std::min(x0 + 1, w - 1), y1 = std::min(y0 + 1, h - 1);
  const float fx = x - x0, fy = y - y0;
  const uint8_t* p00 = image.at(x0, y0);
  const uint8_t* p01 = image.at(x1, y0);
  const uint8_t* p10 = image.at(x0, y1);
  const uint8_t* p11 = image.at(x1, y1);
  for (int c = 0; c < 3; ++c) {
    const float top = p00[c] + (p01[c] - p00[c]) * fx;
    const float bottom = p10[c] + (p11[c] - p10[c]) * fx;
    out[c] = top + (bottom - top) * fy;
  }
}

Image resize_bilinear(const Image& image, int width, int height) {
  Image out = Image::blank(width, height);
  const float sx = static_cast<float>(image.width) / width;
  const float sy = static_cast<float>(image.height) / height;
  float px[3];
  for (int y = 0; y < height; ++y) {
    const float srcy = (y + 0.5f) * sy - 0.5f;
    for (int x = 0; x < width; ++x) {
      sample_bilinear(image, (x + 0.5f) * sx - 0.5f, srcy, px);
      uint8_t* d = out.at(x, y);
      for (int c = 0; c < 3; ++c) d[c] = static_cast<uint8_t>(std::clamp(std::lround(px[c]), 0L, 255L));
    }
  }
  return out;
}

Image rotate90_ccw(const Image& image) {
  Image out = Image::blank(image.height, image.width);
  // np.rot90: out[y][x] = in[x][W-1-y]
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) std::copy_n(image.at(image.width - 1 - y, x), 3, out.at(x, y));
  return out;
}

Image rotate180(const Image& image) {
  Image out = Image::blank(image.width, image.height);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      std::copy_n(image.at(image.width - 1 - x, image.height - 1 - y), 3, out.at(x, y));
  return out;
}

}  // namespace gk::ocr

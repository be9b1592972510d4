// An 8-bit RGB image in host memory: loading (PNG/JPEG via stb), writing PNG, the
// bilinear sampler every resize and warp of the OCR pipeline goes through.
#pragma once

#include "backends/status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gk::ocr {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgb;  // row-major, 3 bytes per pixel

  static Image blank(int width, int height, uint8_t value = 0);
  bool empty() const { return width <= 0 || height <= 0; }
  uint8_t* at(int x, int y) { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
  const uint8_t* at(int x, int y) const { return &rgb[(static_cast<size_t>(y) * width + x) * 3]; }
};

Result<Image> load_image(const std::string& path);
Status write_png(const std::string& path, const Image& image);

// Samples at (x, y) in pixel-centre coordinates (pixel i covers [i-0.5, i+0.5]);
// outside the image the border pixel repeats (OpenCV's BORDER_REPLICATE).
void sample_bilinear(const Image& image, float x, float y, float out[3]);

// OpenCV's INTER_LINEAR convention: src = (dst + 0.5) * (src_size / dst_size) - 0.5.
Image resize_bilinear(const Image& image, int width, int height);

// np.rot90 (counter-clockwise) and cv2.rotate(ROTATE_180).
Image rotate90_ccw(const Image& image);
Image rotate180(const Image& image);

}  // namespace gk::ocr

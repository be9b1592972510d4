// Images for the detection example: 8-bit RGB, read from PNG/JPEG and written as
// PNG with stb (Debian's libstb-dev), and boxes drawn on them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace detect {

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgb;  // row-major, 3 bytes a pixel
};

// Empty message on success; otherwise why it failed, naming the file.
std::string load_image(const std::string& path, Image& out);
std::string save_png(const std::string& path, const Image& image);

// A `thickness`-pixel rectangle outline, clipped to the image; corners in pixels.
void draw_box(Image& image, float x0, float y0, float x1, float y1, const uint8_t color[3], int thickness = 2);

// A colour per class label, distinct for neighbouring labels.
void label_color(int64_t label, uint8_t out[3]);

}  // namespace detect

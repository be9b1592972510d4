// Letterbox preprocessing, as YOLO detectors are trained: the image scaled to fit
// the model's input keeping its aspect ratio, centred on grey (114) padding,
// RGB in [0, 1], NCHW; and the mapping of a box in input pixels back to the image.
#pragma once

#include "image_io.h"

#include <vector>

namespace detect {

struct Letterbox {
  float scale = 1;         // input pixels per image pixel
  float pad_x = 0, pad_y = 0;  // padding left of and above the scaled image, input pixels
  int width = 0, height = 0;   // the scaled image, input pixels
};

Letterbox letterbox_geometry(int image_width, int image_height, int input_width, int input_height);

// [1, 3, input_height, input_width] floats; bilinear, sampled at pixel centres.
std::vector<float> letterbox_nchw(const Image& image, const Letterbox& geometry, int input_width, int input_height);

struct Box {
  float x0, y0, x1, y1;
};
// A box in input pixels, in image pixels, clipped to the image.
Box to_image(const Box& box, const Letterbox& geometry, int image_width, int image_height);

}  // namespace detect

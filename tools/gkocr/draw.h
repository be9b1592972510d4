// Annotation for --out: box outlines and their numbers in a built-in 3x5 digit font.
#pragma once

#include "tools/gkocr/db_postprocess.h"
#include "tools/gkocr/image.h"

#include <array>

namespace gk::ocr {

using Rgb = std::array<uint8_t, 3>;

void draw_line(Image& image, Point a, Point b, Rgb color, int thickness = 2);
void draw_quad(Image& image, const Quad& q, Rgb color, int thickness = 2);
// Decimal digits with their top-left corner at (x, y), each glyph 3x5 cells of
// `scale` pixels on a filled background so it reads on any image.
void draw_number(Image& image, int x, int y, int number, Rgb color, int scale = 2);

}  // namespace gk::ocr

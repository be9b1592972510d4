// Rectifying a detected text box: a perspective warp of the quadrilateral onto an
// upright rectangle (PaddleOCR's get_rotate_crop_image), sampled bilinearly.
#pragma once

#include "tools/gkocr/db_postprocess.h"
#include "tools/gkocr/image.h"

#include <array>

namespace gk::ocr {

// Row-major 3x3 homography H with H * (from_i, 1) ~ (to_i, 1) for the four corners.
// False when the corners are degenerate (three collinear).
bool perspective_transform(const Quad& from, const Quad& to, std::array<double, 9>* h);

// out(x, y) = image(H(x, y)) for x < width, y < height, where H maps the output's
// corners (0,0) (w,0) (w,h) (0,h) onto box's corners (OpenCV's warpPerspective
// with WARP_INVERSE_MAP semantics, border replicated).
Image warp_perspective(const Image& image, const Quad& box, int width, int height);

// The crop the recogniser sees: width and height from the box's longer opposite
// sides, warped upright, and turned 90 degrees counter-clockwise when it is at
// least 1.5 times taller than wide (vertical text).
Image crop_text(const Image& image, const Quad& box);

// The box grown along its own axes (its top and left edges): each end of the line
// by pad_x and its two sides by pad_y, both in units of the line's height. A box
// crop_text turns upright (1.5 times taller than wide) is a vertical line: its
// ends are the top and bottom and its height is the box's width. Corners may
// leave the image; the warp replicates its border there.
Quad pad_box(const Quad& box, float pad_x, float pad_y);

}  // namespace gk::ocr

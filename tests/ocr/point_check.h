// The OCR tests' point comparison: each coordinate within eps of the expected one,
// naming both points where it is not.
#pragma once

#include "tools/gkocr/db_postprocess.h"

#include <catch2/catch.hpp>

#include <cmath>

namespace gk::ocr {

inline void check_point(const Point& p, float x, float y, float eps = 1e-3f) {
  INFO("point (" << p.x << ", " << p.y << ") expected (" << x << ", " << y << ")");
  CHECK(std::abs(p.x - x) <= eps);
  CHECK(std::abs(p.y - y) <= eps);
}

}  // namespace gk::ocr

// int64 arithmetic over model data (pads, strides, dilations, dims) that
// remembers whether any step overflowed, so a shape formula reads as written and
// the caller checks `overflow` once after it. Every step is itself checked, so one
// that takes an earlier step's wrapped result is still defined (and unused).
#pragma once

#include <cstdint>

namespace gk {

struct CheckedI64 {
  bool overflow = false;
  int64_t mul(int64_t x, int64_t y) { int64_t r; overflow |= __builtin_mul_overflow(x, y, &r); return r; }
  int64_t add(int64_t x, int64_t y) { int64_t r; overflow |= __builtin_add_overflow(x, y, &r); return r; }
  int64_t sub(int64_t x, int64_t y) { int64_t r; overflow |= __builtin_sub_overflow(x, y, &r); return r; }
};

}  // namespace gk

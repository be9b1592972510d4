#include "runtime/kit/shape.h"

#include <cassert>

namespace gk {

Result<int64_t> checked_numel(std::span<const int64_t> dims) {
  int64_t n = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0)
      return invalid_argument("shape {}: dimension {} is {}, dimensions must be >= 0",
                              shape_str(dims), i, dims[i]);
    if (__builtin_mul_overflow(n, dims[i], &n))
      return invalid_argument("shape {}: element count overflows int64 (max {})", shape_str(dims),
                              INT64_MAX);
  }
  // A zero dim anywhere makes the product 0; an overflow before it was still a
  // shape no tensor can have, and was reported above.
  return n;
}

int64_t numel(std::span<const int64_t> dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    [[maybe_unused]] bool overflow = __builtin_mul_overflow(n, d, &n);
    assert(!overflow && d >= 0 && "numel of an unvalidated shape");
  }
  return n;
}

std::string shape_str(std::span<const int64_t> dims) {
  if (dims.empty()) return "scalar";
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i]);
  }
  return s;
}

std::vector<int64_t> contiguous_strides(std::span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    // The outermost dim's product is never a stride; past int64 (dims no tensor can
    // have, the run fuzzer's finding) the strides saturate instead of overflowing.
    if (i > 0 && __builtin_mul_overflow(s, dims[i], &s)) s = INT64_MAX;
  }
  return strides;
}

}  // namespace gk

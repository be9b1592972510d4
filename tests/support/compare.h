// The tests' one close-compare. An element matches when
//   |got - want| <= atol + rtol * |want|   (numpy.allclose's rule)
// or both are NaN, or both are the same infinity. Tol{} (both 0) is exact equality.
#pragma once

#include "runtime/kit/host_tensor.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace gk::test {

struct Tol {
  double rtol = 0;
  double atol = 0;
};

inline bool close(double got, double want, Tol tol) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(want) || std::isinf(got)) return got == want;
  return std::fabs(got - want) <= tol.atol + tol.rtol * std::fabs(want);
}

// One CHECK per element, naming the element, its values and the tolerance on a miss.
inline void check_close(const std::vector<double>& got, const std::vector<double>& want, Tol tol) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i] << " (rtol " << tol.rtol << ", atol "
                    << tol.atol << ")");
    CHECK(close(got[i], want[i], tol));
  }
}
inline void check_close(const HostTensor& got, const std::vector<double>& want, Tol tol) {
  check_close(got.to_f64_vector(), want, tol);
}
inline void check_close(const HostTensor& got, const Shape& shape, const std::vector<double>& want, Tol tol) {
  REQUIRE(got.shape() == shape);
  check_close(got.to_f64_vector(), want, tol);
}

// "" when `got` matches `want` (same dtype and shape, each element close; strings
// equal), else what differs first.
inline std::string mismatch(const HostTensor& got, const HostTensor& want, Tol tol) {
  if (got.dtype() != want.dtype())
    return fmt::format("dtype {} != {}", dtype_name(got.dtype()), dtype_name(want.dtype()));
  if (got.shape() != want.shape()) return fmt::format("shape {} != {}", shape_str(got.shape()), shape_str(want.shape()));
  if (want.dtype() == DType::kString) {  // as_f64 reads strings as NaN: compare them as strings
    for (size_t i = 0; i < want.string_values().size(); ++i)
      if (got.string_values().at(i) != want.string_values()[i])
        return fmt::format("element {}: got '{}', want '{}'", i, got.string_values()[i], want.string_values()[i]);
    return "";
  }
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double a = got.as_f64(i), b = want.as_f64(i);
    if (!close(a, b, tol)) return fmt::format("element {}: got {}, want {}", i, a, b);
  }
  return "";
}

// "" when `got` and `want` have the same dtype, shape and bytes (0 ulp), else the
// first differing element.
inline std::string exact_mismatch(const HostTensor& got, const HostTensor& want) {
  if (got.dtype() != want.dtype() || got.shape() != want.shape() || want.dtype() == DType::kString)
    return mismatch(got, want, Tol{});
  if (got.bytes() != want.bytes()) return fmt::format("{} bytes != {} bytes", got.bytes(), want.bytes());
  if (want.bytes() == 0 || std::memcmp(got.raw(), want.raw(), want.bytes()) == 0) return "";
  const size_t elem = want.bytes() / static_cast<size_t>(want.numel() > 0 ? want.numel() : 1);
  const auto* a = static_cast<const unsigned char*>(got.raw());
  const auto* b = static_cast<const unsigned char*>(want.raw());
  for (int64_t i = 0; i < want.numel(); ++i)
    if (std::memcmp(a + i * elem, b + i * elem, elem) != 0)
      return fmt::format("element {}: got {}, want {} (bitwise)", i, got.as_f64(i), want.as_f64(i));
  return "bytes differ";
}

}  // namespace gk::test

// The CPU's inline f32 exp, tanh and erf (ops/common/math.cuh) against the double
// functions over the whole float range: within 2 ulp (erf: 8) of the correctly rounded value,
// with inf, NaN, signed zeros and the subnormal tail as the C functions give them.
#include "backends/cpu/cuda_compat.h"
#include "ops/common/math.cuh"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {

int64_t ordered(float f) {  // floats in order as integers: ulp distance is a difference
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : i;
}

int64_t worst_ulp(float (*fn)(float), double (*ref)(double), float lo, float hi) {
  int64_t worst = 0;
  // Every 97th float in [lo, hi] (about 10 million), in float order.
  for (int64_t i = ordered(lo); i <= ordered(hi); i += 97) {
    const int32_t bits = i < 0 ? static_cast<int32_t>(0x80000000u | static_cast<uint32_t>(-i)) : static_cast<int32_t>(i);
    float x;
    std::memcpy(&x, &bits, 4);
    const float want = static_cast<float>(ref(static_cast<double>(x)));
    const float got = fn(x);
    const int64_t d = std::llabs(ordered(got) - ordered(want));
    if (d > worst) worst = d;
  }
  return worst;
}

float exp_f(float x) { return gk_exp(x); }
float erf_f(float x) { return gk_erf(x); }
double erf_d(double x) { return std::erf(x); }
float tanh_f(float x) { return gk_tanh(x); }
double exp_d(double x) { return std::exp(x); }
float sigmoid_f(float x) { return gk_sigmoid(x); }
double sigmoid_d(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double tanh_d(double x) { return std::tanh(x); }

}  // namespace

TEST_CASE("math: CPU expf within 2 ulp over its whole range", "[ops][math]") {
  CHECK(worst_ulp(&exp_f, &exp_d, -110.0f, 89.0f) <= 2);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(gk_exp(inf) == inf);
  CHECK(gk_exp(-inf) == 0.0f);
  CHECK(gk_exp(100.0f) == inf);
  CHECK(gk_exp(-200.0f) == 0.0f);
  CHECK(gk_exp(0.0f) == 1.0f);
  CHECK(std::isnan(gk_exp(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("math: CPU tanhf within 2 ulp, odd, saturating", "[ops][math]") {
  CHECK(worst_ulp(&tanh_f, &tanh_d, -20.0f, 20.0f) <= 2);
  CHECK(gk_tanh(50.0f) == 1.0f);
  CHECK(gk_tanh(-50.0f) == -1.0f);
  CHECK(std::signbit(gk_tanh(-0.0f)));
  CHECK(gk_tanh(1e-30f) == 1e-30f);
  CHECK(std::isnan(gk_tanh(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("math: CPU erff within 8 ulp, odd, saturating", "[ops][math]") {
  const int64_t worst = worst_ulp(&erf_f, &erf_d, -6.0f, 6.0f);
  INFO("worst " << worst << " ulp");
  CHECK(worst <= 8);
  CHECK(worst_ulp(&erf_f, &erf_d, 1e-40f, 1e-3f) <= 3);  // tiny and subnormal x
  CHECK(gk_erf(10.0f) == 1.0f);
  CHECK(gk_erf(-10.0f) == -1.0f);
  CHECK(std::signbit(gk_erf(-0.0f)));
  CHECK(std::isnan(gk_erf(std::numeric_limits<float>::quiet_NaN())));
}

TEST_CASE("math: CPU sigmoid is 1 / (1 + expf(-x)) bit for bit above -88", "[ops][math]") {
  // Every 97th float in [-88, 88]: the clamped single-scaling form must give the
  // bits of the plain formula (Sigmoid, SiLU and the epilogues kept their values).
  int64_t differ = 0;
  for (int64_t i = ordered(-87.99f); i <= ordered(88.0f); i += 97) {
    const int32_t bits = i < 0 ? static_cast<int32_t>(0x80000000u | static_cast<uint32_t>(-i)) : static_cast<int32_t>(i);
    float x;
    std::memcpy(&x, &bits, 4);
    const float want = 1.0f / (1.0f + gk_exp(-x)), got = gk_sigmoid(x);
    differ += std::memcmp(&want, &got, 4) != 0;
  }
  CHECK(differ == 0);
  CHECK(worst_ulp(&sigmoid_f, &sigmoid_d, -80.0f, 80.0f) <= 3);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(gk_sigmoid(inf) == 1.0f);
  CHECK(gk_sigmoid(100.0f) == 1.0f);
  CHECK(gk_sigmoid(-inf) >= 0.0f);
  CHECK(gk_sigmoid(-inf) < 1e-38f);  // sigmoid(-88), the clamp's floor
  CHECK(gk_sigmoid(0.0f) == 0.5f);
  CHECK(std::isnan(gk_sigmoid(std::numeric_limits<float>::quiet_NaN())));
}

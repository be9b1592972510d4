// BatchNormalization, InstanceNormalization, LayerNormalization,
// GroupNormalization (18 and 21), LpNormalization, LRN and
// MeanVarianceNormalization: references computed here in double, and the ONNX
// node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>
#include <functional>

namespace gk::test {
namespace {

std::vector<double> wave(int64_t n) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(std::sin(0.61 * i) * 2.0 + (i % 5) * 0.5);
  return v;
}

void set_int(OpCall& c, const std::string& k, int64_t v) { c.attrs.set(k, int_attr(v)); }
void set_float(OpCall& c, const std::string& k, float v) { c.attrs.set(k, float_attr(v)); }

constexpr Tol kTol{.rtol = 1e-4, .atol = 1e-5};

// Normalises x over groups: element i belongs to group key(i); returns y and the
// per-group mean and 1/sqrt(var + eps).
struct Moments {
  std::vector<double> mean, inv;
};
Moments moments(const std::vector<double>& x, int64_t groups, const std::function<int64_t(int64_t)>& key, double eps) {
  Moments m{std::vector<double>(groups, 0), std::vector<double>(groups, 0)};
  std::vector<double> count(groups, 0), sq(groups, 0);
  for (size_t i = 0; i < x.size(); ++i) m.mean[key(i)] += x[i], count[key(i)] += 1;
  for (int64_t g = 0; g < groups; ++g) m.mean[g] /= count[g];
  for (size_t i = 0; i < x.size(); ++i) sq[key(i)] += (x[i] - m.mean[key(i)]) * (x[i] - m.mean[key(i)]);
  for (int64_t g = 0; g < groups; ++g) m.inv[g] = 1.0 / std::sqrt(sq[g] / count[g] + eps);
  return m;
}

TEST_CASE("BatchNormalization inference, per channel and pre-9 non-spatial", "[normalization]") {
  // x [2, 2, 2]: channel c of element i is (i / 2) % 2.
  const std::vector<double> x = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<double> scale = {2, 0.5}, bias = {1, -1}, mean = {3, 5}, var = {4, 0.25};
  auto c = call("BatchNormalization", 15,
                {make_tensor(DType::kF32, {2, 2, 2}, x), make_tensor(DType::kF32, {2}, scale),
                 make_tensor(DType::kF32, {2}, bias), make_tensor(DType::kF32, {2}, mean),
                 make_tensor(DType::kF32, {2}, var)});
  set_float(c, "epsilon", 0);
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) {
    int ch = (i / 2) % 2;
    want.push_back((x[i] - mean[ch]) / std::sqrt(var[ch]) * scale[ch] + bias[ch]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);

  // f16 data with f32 statistics (opset 15's T1/T2).
  c.inputs[0] = make_tensor(DType::kF16, {2, 2, 2}, x);
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == DType::kF16);
  check_close(doubles_of(r->outputs[0]), want, Tol{.rtol = 2e-3, .atol = 1e-5});

  // Opset 7, spatial = 0: statistics per element of [C, D] = [2, 2].
  const std::vector<double> s4 = {1, 2, 3, 4}, b4 = {0, 0, 1, 1}, m4 = {1, 1, 2, 2}, v4 = {1, 4, 1, 4};
  auto c7 = call("BatchNormalization", 7,
                 {make_tensor(DType::kF32, {2, 2, 2}, x), make_tensor(DType::kF32, {2, 2}, s4),
                  make_tensor(DType::kF32, {2, 2}, b4), make_tensor(DType::kF32, {2, 2}, m4),
                  make_tensor(DType::kF32, {2, 2}, v4)});
  set_int(c7, "spatial", 0);
  set_float(c7, "epsilon", 0);
  r = run_op_all_backends(c7);
  REQUIRE(r.ok());
  want.clear();
  for (size_t i = 0; i < x.size(); ++i) want.push_back((x[i] - m4[i % 4]) / std::sqrt(v4[i % 4]) * s4[i % 4] + b4[i % 4]);
  check_close(doubles_of(r->outputs[0]), want, kTol);

  // Opset 14+ training mode: batch statistics (channel 0 holds 1,2,5,6 and channel
  // 1 holds 3,4,7,8: means 3.5 and 5.5, population variances 4.25 each) and the
  // running statistics blended with momentum 0.8.
  set_int(c, "training_mode", 1);
  set_float(c, "momentum", 0.8f);
  c.inputs[0] = make_tensor(DType::kF32, {2, 2, 2}, x);
  c.num_outputs = 3;
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  const double batch_mean[] = {3.5, 5.5}, batch_var = 4.25;
  want.clear();
  for (size_t i = 0; i < x.size(); ++i) {
    int ch = (i / 2) % 2;
    want.push_back((x[i] - batch_mean[ch]) / std::sqrt(batch_var) * scale[ch] + bias[ch]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);
  check_close(doubles_of(r->outputs[1]), {3 * 0.8 + 3.5 * 0.2, 5 * 0.8 + 5.5 * 0.2}, kTol);
  check_close(doubles_of(r->outputs[2]), {4 * 0.8 + 4.25 * 0.2, 0.25 * 0.8 + 4.25 * 0.2}, kTol);

  // Before opset 14 the extra outputs were another training form: refused by name.
  auto c9 = call("BatchNormalization", 9, c.inputs, 5);
  r = run_op_all_backends(c9);
  require_error(r, StatusCode::kUnimplemented, "saved_mean");
}

// Long channel runs split across the CPU workers at arbitrary points: the per-run
// channel constants must follow the channel boundaries. Inner size 1001 is odd so no
// split lands on one.
TEST_CASE("BatchNormalization inference, long channel runs", "[normalization]") {
  const int64_t n = 2, ch = 3, inner = 1001;
  std::vector<double> x(n * ch * inner);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(static_cast<int64_t>(i % 37) - 18) * 0.25;
  const std::vector<double> scale = {2, 0.5, -1}, bias = {1, -1, 0.5}, mean = {3, -2, 0.25}, var = {4, 0.25, 1};
  auto c = call("BatchNormalization", 15,
                {make_tensor(DType::kF32, {n, ch, inner}, x), make_tensor(DType::kF32, {ch}, scale),
                 make_tensor(DType::kF32, {ch}, bias), make_tensor(DType::kF32, {ch}, mean),
                 make_tensor(DType::kF32, {ch}, var)});
  set_float(c, "epsilon", 0);
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t k = (i / inner) % ch;
    want.push_back((x[i] - mean[k]) / std::sqrt(var[k]) * scale[k] + bias[k]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);
}

TEST_CASE("InstanceNormalization and GroupNormalization 18/21", "[normalization]") {
  const Shape shape{2, 4, 3};
  const auto x = wave(numel(shape));
  const std::vector<double> scale4 = {1, 2, 0.5, -1}, bias4 = {0, 1, 2, 3};
  auto c = call("InstanceNormalization", 6,
                {make_tensor(DType::kF32, shape, x), make_tensor(DType::kF32, {4}, scale4),
                 make_tensor(DType::kF32, {4}, bias4)});
  set_float(c, "epsilon", 1e-3f);
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  auto m = moments(x, 8, [](int64_t i) { return i / 3; }, 1e-3);
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t row = i / 3, ch = row % 4;
    want.push_back((x[i] - m.mean[row]) * m.inv[row] * scale4[ch] + bias4[ch]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);

  // Two groups of two channels: group of element i is (i / 6).
  m = moments(x, 4, [](int64_t i) { return i / 6; }, 1e-3);
  const std::vector<double> scale2 = {2, -0.5}, bias2 = {1, 0};
  auto g18 = call("GroupNormalization", 18,
                  {make_tensor(DType::kF32, shape, x), make_tensor(DType::kF32, {2}, scale2),
                   make_tensor(DType::kF32, {2}, bias2)});
  set_int(g18, "num_groups", 2);
  set_float(g18, "epsilon", 1e-3f);
  r = run_op_all_backends(g18);
  REQUIRE(r.ok());
  want.clear();
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t row = i / 6, grp = row % 2;
    want.push_back((x[i] - m.mean[row]) * m.inv[row] * scale2[grp] + bias2[grp]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);

  auto g21 = call("GroupNormalization", 21,
                  {make_tensor(DType::kF32, shape, x), make_tensor(DType::kF32, {4}, scale4),
                   make_tensor(DType::kF32, {4}, bias4)});
  set_int(g21, "num_groups", 2);
  set_float(g21, "epsilon", 1e-3f);
  r = run_op_all_backends(g21);
  REQUIRE(r.ok());
  want.clear();
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t row = i / 6, ch = (i / 3) % 4;
    want.push_back((x[i] - m.mean[row]) * m.inv[row] * scale4[ch] + bias4[ch]);
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);
  // Opset 21 wants per-channel scale: the per-group one is a named error.
  g21.inputs[1] = make_tensor(DType::kF32, {2}, scale2);
  r = run_op_all_backends(g21);
  require_error(r, StatusCode::kInvalidModel, "scale");
}

TEST_CASE("LayerNormalization with Mean and InvStdDev outputs", "[normalization]") {
  const Shape shape{3, 2, 5};
  const auto x = wave(numel(shape));
  const auto scale = wave(10), bias = wave(13);
  auto c = call("LayerNormalization", 17,
                {make_tensor(DType::kF32, shape, x), make_tensor(DType::kF32, {2, 5}, scale),
                 make_tensor(DType::kF32, {2, 5}, std::vector<double>(bias.begin() + 3, bias.end()))},
                3);
  set_int(c, "axis", 1);
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  auto m = moments(x, 3, [](int64_t i) { return i / 10; }, 1e-5);
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i)
    want.push_back((x[i] - m.mean[i / 10]) * m.inv[i / 10] * scale[i % 10] + bias[3 + i % 10]);
  check_close(doubles_of(r->outputs[0]), want, kTol);
  CHECK(r->outputs[1].shape() == Shape{3, 1, 1});
  CHECK(r->outputs[1].dtype() == DType::kF32);
  check_close(doubles_of(r->outputs[1]), m.mean, kTol);
  check_close(doubles_of(r->outputs[2]), m.inv, kTol);

  // Without bias, default axis -1, bf16 data: stats stay f32.
  auto c2 = call("LayerNormalization", 17,
                 {make_tensor(DType::kBF16, shape, x), make_tensor(DType::kBF16, {5}, std::vector<double>(5, 1.0)),
                  std::nullopt},
                 2);
  r = run_op_all_backends(c2);
  REQUIRE(r.ok());
  const auto xb = doubles_of(make_tensor(DType::kBF16, shape, x));
  m = moments(xb, 6, [](int64_t i) { return i / 5; }, 1e-5);
  want.clear();
  for (size_t i = 0; i < xb.size(); ++i) want.push_back((xb[i] - m.mean[i / 5]) * m.inv[i / 5]);
  check_close(doubles_of(r->outputs[0]), want, Tol{.rtol = 1e-2, .atol = 1e-5});
  CHECK(r->outputs[1].dtype() == DType::kF32);
  check_close(doubles_of(r->outputs[1]), m.mean, kTol);
}

TEST_CASE("MeanVarianceNormalization over split axes", "[normalization]") {
  const Shape shape{2, 3, 2, 2};
  const auto x = wave(numel(shape));
  auto r = run_op_all_backends(call("MeanVarianceNormalization", 13, {make_tensor(DType::kF32, shape, x)}));
  REQUIRE(r.ok());
  // Default axes {0, 2, 3}: one group per channel.
  auto key = [](int64_t i) { return (i / 4) % 3; };
  auto m = moments(x, 3, key, 0);
  std::vector<double> want;
  for (size_t i = 0; i < x.size(); ++i) want.push_back((x[i] - m.mean[key(i)]) / (1.0 / m.inv[key(i)] + 1e-9));
  check_close(doubles_of(r->outputs[0]), want, kTol);
}

TEST_CASE("LpNormalization p = 1, 2 and a zero row, LRN", "[normalization]") {
  auto c = call("LpNormalization", 1, {f32({3, 2}, {3, 4, 0, 0, -1, 1})});
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(doubles_of(r->outputs[0]), {0.6, 0.8, 0, 0, -std::sqrt(0.5), std::sqrt(0.5)}, kTol);
  set_int(c, "p", 1);
  set_int(c, "axis", 0);
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(doubles_of(r->outputs[0]), {0.75, 0.8, 0, 0, -0.25, 0.2}, kTol);

  const Shape shape{1, 5, 2};
  const auto x = wave(10);
  auto l = call("LRN", 13, {make_tensor(DType::kF32, shape, x)});
  set_int(l, "size", 4);
  set_float(l, "alpha", 0.5f);
  set_float(l, "beta", 0.6f);
  set_float(l, "bias", 2.0f);
  r = run_op_all_backends(l);
  REQUIRE(r.ok());
  std::vector<double> want;
  for (int64_t i = 0; i < 10; ++i) {
    int64_t ch = i / 2, j = i % 2;
    double sum = 0;  // window [c - 1, c + 2] for size 4
    for (int64_t k = std::max<int64_t>(0, ch - 1); k <= std::min<int64_t>(4, ch + 2); ++k) sum += x[k * 2 + j] * x[k * 2 + j];
    want.push_back(x[i] / std::pow(2.0 + 0.5 / 4 * sum, 0.6));
  }
  check_close(doubles_of(r->outputs[0]), want, kTol);
}

TEST_CASE("normalization ONNX node tests", "[normalization][onnx]") {
  run_node_cases({"test_batchnorm", "test_instancenorm", "test_layer_normalization", "test_group_normalization",
                  "test_lpnormalization", "test_lrn", "test_mvn"},
                 {});
}

}  // namespace
}  // namespace gk::test

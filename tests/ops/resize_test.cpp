// Resize and Upsample: hand-computed cases for every coordinate transform family,
// nearest rounding, tf_crop_and_resize extrapolation, the legacy (Upsample /
// Resize-10) rules, N-D separable passes on an affine field (which linear
// interpolation reproduces exactly), dtypes, errors; then the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

using namespace gk;
using namespace gk::test;

namespace {

HostTensor scales_of(std::vector<float> v) {
  return HostTensor::from_vector(DType::kF32, {static_cast<int64_t>(v.size())}, v);
}

// Resize-19 with (X, roi, scales, sizes); nullopt = absent.
OpCall resize(HostTensor x, std::optional<HostTensor> roi, std::optional<HostTensor> scales,
              std::optional<HostTensor> sizes, int opset = 19) {
  OpCall c{"Resize", "", opset, {}, {std::move(x), std::move(roi), std::move(scales), std::move(sizes)}};
  return c;
}

std::vector<double> run_values(const OpCall& c, Shape want_shape) {
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == want_shape);
  return doubles_of(r->outputs[0]);
}

constexpr Tol kTol{.rtol = 0, .atol = 1e-5};

}  // namespace

TEST_CASE("Resize nearest: rounding modes and coordinate transforms", "[ops][resize]") {
  auto x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  // half_pixel, round_prefer_floor: x_orig = (x + 0.5) / 2 - 0.5 = -0.25, 0.25, 0.75, 1.25.
  check_close(run_values(resize(x, std::nullopt, scales_of({1, 1, 2, 2}), std::nullopt), {1, 1, 4, 4}),
              {1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}, kTol);

  // 1-D [0..4] to 10 with asymmetric: x_orig = x / 2 = 0, 0.5, 1, ... ties at .5.
  auto line = f32({5}, {0, 10, 20, 30, 40});
  auto sizes = i64({1}, {10});
  OpCall c = resize(line, std::nullopt, std::nullopt, sizes);
  c.attrs.set("coordinate_transformation_mode", string_attr("asymmetric"));
  check_close(run_values(c, {10}), {0, 0, 10, 10, 20, 20, 30, 30, 40, 40}, kTol);  // round_prefer_floor
  c.attrs.set("nearest_mode", string_attr("round_prefer_ceil"));
  check_close(run_values(c, {10}), {0, 10, 10, 20, 20, 30, 30, 40, 40, 40}, kTol);  // 4.5 → 5, clamped to 4
  c.attrs.set("nearest_mode", string_attr("ceil"));
  check_close(run_values(c, {10}), {0, 10, 10, 20, 20, 30, 30, 40, 40, 40}, kTol);
  c.attrs.set("nearest_mode", string_attr("floor"));
  check_close(run_values(c, {10}), {0, 0, 10, 10, 20, 20, 30, 30, 40, 40}, kTol);

  // align_corners 5 → 3: x_orig = x * 4 / 2 = 0, 2, 4.
  OpCall ac = resize(line, std::nullopt, std::nullopt, i64({1}, {3}));
  ac.attrs.set("coordinate_transformation_mode", string_attr("align_corners"));
  check_close(run_values(ac, {3}), {0, 20, 40}, kTol);

  // Integer and bool types gather exactly.
  auto xi = HostTensor::from_vector(DType::kI64, {2, 2}, std::vector<int64_t>{-5, 7, 1LL << 40, 3});
  auto ri = run_op_all_backends(resize(xi, std::nullopt, scales_of({1, 2}), std::nullopt));
  REQUIRE(ri.ok());
  CHECK(values_of<int64_t>(ri->outputs[0]) == std::vector<int64_t>{-5, -5, 7, 7, 1LL << 40, 1LL << 40, 3, 3});
  auto xb = HostTensor::from_vector(DType::kBool, {2}, std::vector<uint8_t>{1, 0});
  auto rb = run_op_all_backends(resize(xb, std::nullopt, scales_of({2}), std::nullopt));
  REQUIRE(rb.ok());
  CHECK(values_of<uint8_t>(rb->outputs[0]) == std::vector<uint8_t>{1, 1, 0, 0});
}

// The detector's upsamples (asymmetric, floor, integer factors): out[n, c, h, w] =
// in[n, c, h / fh, w / fw]. Also factors on outer axes only, where the CPU gather
// copies whole rows (and repeats the previous one), and a 3-D (rows of rows) case.
TEST_CASE("Resize nearest: integer upsampling factors", "[ops][resize]") {
  const std::vector<std::vector<int64_t>> factor_sets = {{1, 1, 2, 2}, {1, 1, 4, 4}, {1, 1, 8, 8},
                                                         {1, 2, 3, 1}, {2, 1, 1, 1}, {1, 1, 1, 3}};
  const Shape in{2, 3, 5, 7};
  std::vector<float> xs(numel(in));
  for (size_t i = 0; i < xs.size(); ++i) xs[i] = static_cast<float>(i) * 0.5f - 7.0f;
  for (const auto& f : factor_sets) {
    OpCall c = resize(f32(in, xs), std::nullopt,
                      scales_of({static_cast<float>(f[0]), static_cast<float>(f[1]), static_cast<float>(f[2]),
                                 static_cast<float>(f[3])}),
                      std::nullopt);
    c.attrs.set("coordinate_transformation_mode", string_attr("asymmetric"));
    c.attrs.set("nearest_mode", string_attr("floor"));
    const Shape out{in[0] * f[0], in[1] * f[1], in[2] * f[2], in[3] * f[3]};
    std::vector<double> want;
    for (int64_t n = 0; n < out[0]; ++n)
      for (int64_t ch = 0; ch < out[1]; ++ch)
        for (int64_t h = 0; h < out[2]; ++h)
          for (int64_t w = 0; w < out[3]; ++w)
            want.push_back(xs[((n / f[0] * in[1] + ch / f[1]) * in[2] + h / f[2]) * in[3] + w / f[3]]);
    INFO("factors " << f[0] << "x" << f[1] << "x" << f[2] << "x" << f[3]);
    check_close(run_values(c, out), want, Tol{.rtol = 0, .atol = 0});
  }
}

TEST_CASE("Resize linear and cubic: 1-D values", "[ops][resize]") {
  auto line = f32({1, 4}, {1, 2, 3, 4});
  // half_pixel at scale 0.5: x_orig = 0.5, 2.5.
  OpCall c = resize(line, std::nullopt, scales_of({1, 0.5f}), std::nullopt);
  c.attrs.set("mode", string_attr("linear"));
  check_close(run_values(c, {1, 2}), {1.5, 3.5}, kTol);
  // align_corners to 7: x_orig = x * 3 / 6 = 0, .5, 1, ...
  OpCall ac = resize(line, std::nullopt, std::nullopt, i64({2}, {1, 7}));
  ac.attrs.set("mode", string_attr("linear"));
  ac.attrs.set("coordinate_transformation_mode", string_attr("align_corners"));
  check_close(run_values(ac, {1, 7}), {1, 1.5, 2, 2.5, 3, 3.5, 4}, kTol);

  // Cubic, a = -0.75, half_pixel, scale 2. The first value by hand: x_orig = -0.25,
  // taps -2..1 read [1, 1, 1, 4] (edge clamp) with weights (-0.03515625, 0.26171875,
  // 0.87890625, -0.10546875) → 0.68359375.
  OpCall cu = resize(f32({4}, {1, 4, 2, 8}), std::nullopt, scales_of({2}), std::nullopt);
  cu.attrs.set("mode", string_attr("cubic"));
  check_close(run_values(cu, {8}),
              {0.68359375, 1.75, 3.53125, 3.65234375, 1.92578125, 3.1484375, 6.5703125, 8.6328125}, kTol);
  // a = -0.5 with exclude_outside: weights of taps outside [0, 4) drop out and the
  // rest are renormalised (values from the reference formula).
  cu.attrs.set("cubic_coeff_a", float_attr(-0.5f));
  cu.attrs.set("exclude_outside", int_attr(1));
  check_close(run_values(cu, {8}), {0.7352941176470587, 1.6131386861313868, 3.4732824427480913, 3.6640625, 2.0546875,
                                    3.1908396946564883, 6.817518248175182, 8.529411764705882}, kTol);
}

TEST_CASE("Resize tf_crop_and_resize: roi and extrapolation", "[ops][resize]") {
  // x_orig = x * (1.5 - 0.5) * 3 / 2 + 0.5 * 3 = 1.5, 3, 4.5 (outside → extrapolation).
  OpCall c = resize(f32({4}, {0, 10, 20, 30}), f32({2}, {0.5f, 1.5f}), std::nullopt, i64({1}, {3}));
  c.attrs.set("mode", string_attr("linear"));
  c.attrs.set("coordinate_transformation_mode", string_attr("tf_crop_and_resize"));
  c.attrs.set("extrapolation_value", float_attr(-1));
  check_close(run_values(c, {3}), {15, 30, -1}, kTol);
  c.attrs.set("mode", string_attr("nearest"));
  check_close(run_values(c, {3}), {10, 30, -1}, kTol);  // 1.5 rounds down (round_prefer_floor)
  // With axes, roi covers only the listed axes; the row axis out of range marks the
  // whole row.
  OpCall a = resize(f32({2, 2}, {1, 2, 3, 4}), f32({2}, {0.0f, 2.0f}), std::nullopt, i64({1}, {2}));
  a.attrs.set("mode", string_attr("linear"));
  a.attrs.set("coordinate_transformation_mode", string_attr("tf_crop_and_resize"));
  a.attrs.set("axes", ints_attr({0}));
  a.attrs.set("extrapolation_value", float_attr(9));
  check_close(run_values(a, {2, 2}), {1, 2, 9, 9}, kTol);
}

TEST_CASE("Resize linear N-D: separable passes reproduce an affine field", "[ops][resize]") {
  // f(a, b, c, d) = 1000a + 100b + 10c + d on [2, 3, 4, 5]; resize b, c, d with
  // align_corners (x_orig = x * (in - 1) / (out - 1)), a untouched.
  const Shape in{2, 3, 4, 5}, out{2, 5, 3, 9};
  std::vector<double> xv;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 5; ++d) xv.push_back(1000 * a + 100 * b + 10 * c + d);
  std::vector<double> want;
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 9; ++d) want.push_back(1000 * a + 100 * (b * 2.0 / 4) + 10 * (c * 3.0 / 2) + d * 4.0 / 8);
  for (DType t : {DType::kF32, DType::kF64, DType::kF16}) {
    INFO(dtype_name(t));
    OpCall c = resize(make_tensor(t, in, xv), std::nullopt, std::nullopt, i64({4}, out));
    c.attrs.set("mode", string_attr("linear"));
    c.attrs.set("coordinate_transformation_mode", string_attr("align_corners"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == t);
    CHECK(r->outputs[0].shape() == out);
    // f16 holds 11 bits: values up to 1234 round within 0.5.
    check_close(doubles_of(r->outputs[0]), want, Tol{.rtol = 0, .atol = t == DType::kF16 ? 0.6 : 1e-3});
  }
  // uint8 truncates as the ONNX reference (astype) and ONNX Runtime do: [0, 255] at
  // x_orig 0.5 → 127.5 → 127 (the differential sweep's Resize.linear_int cases).
  auto u8 = HostTensor::from_vector(DType::kU8, {2}, std::vector<uint8_t>{0, 255});
  OpCall cu = resize(u8, std::nullopt, std::nullopt, i64({1}, {3}));
  cu.attrs.set("mode", string_attr("linear"));
  cu.attrs.set("coordinate_transformation_mode", string_attr("align_corners"));
  auto ru = run_op_all_backends(cu);
  REQUIRE(ru.ok());
  CHECK(values_of<uint8_t>(ru->outputs[0]) == std::vector<uint8_t>{0, 127, 255});
}

TEST_CASE("Resize sizes with keep_aspect_ratio_policy and axes", "[ops][resize]") {
  auto x = f32({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  OpCall c = resize(x, std::nullopt, std::nullopt, i64({2}, {1, 3}));
  c.attrs.set("axes", ints_attr({2, 3}));
  c.attrs.set("keep_aspect_ratio_policy", string_attr("not_larger"));
  // scale = min(1/2, 3/4) = 0.5 → out [1, 2].
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{1, 1, 1, 2});
  c.attrs.set("keep_aspect_ratio_policy", string_attr("not_smaller"));
  // scale = 0.75 → out [round(1.5), 3] = [2, 3].
  auto r2 = run_op_all_backends(c);
  REQUIRE(r2.ok());
  CHECK(r2->outputs[0].shape() == Shape{1, 1, 2, 3});
}

TEST_CASE("Upsample and Resize-10: asymmetric, floor up / ceil down", "[ops][resize]") {
  auto x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  OpCall up7{"Upsample", "", 7, {}, {x}};
  up7.attrs.set("scales", floats_attr({1, 1, 2, 2}));
  up7.attrs.set("mode", string_attr("linear"));
  check_close(run_values(up7, {1, 1, 4, 4}), {1, 1.5, 2, 2, 2, 2.5, 3, 3, 3, 3.5, 4, 4, 3, 3.5, 4, 4}, kTol);

  OpCall up9{"Upsample", "", 9, {}, {x, scales_of({1, 1, 2, 3})}};
  check_close(run_values(up9, {1, 1, 4, 6}),
              {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 3, 3, 3, 4, 4, 4}, kTol);

  // Resize-10 downsampling 4 → 2 at scale 0.6: x_orig = 1 / 0.6 = 1.67 → ceil 2.
  OpCall r10{"Resize", "", 10, {}, {f32({1, 1, 2, 4}, {1, 2, 3, 4, 5, 6, 7, 8}), scales_of({1, 1, 0.6f, 0.6f})}};
  check_close(run_values(r10, {1, 1, 1, 2}), {1, 3}, kTol);
  // Upsampling 3 → 7 at 2.5: x_orig = x / 2.5 → floor: 0,0,0,1,1,2,2.
  OpCall r10u{"Resize", "", 10, {}, {f32({3}, {5, 6, 7}), scales_of({2.5f})}};
  check_close(run_values(r10u, {7}), {5, 5, 5, 6, 6, 7, 7}, kTol);
}

TEST_CASE("Resize: identity copy, empty output, errors", "[ops][resize]") {
  auto x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  check_close(run_values(resize(x, std::nullopt, scales_of({1, 1}), std::nullopt), {2, 3}), {1, 2, 3, 4, 5, 6}, kTol);
  auto e = run_op_all_backends(resize(x, std::nullopt, scales_of({1, 0.1f}), std::nullopt));
  REQUIRE(e.ok());
  CHECK(e->outputs[0].shape() == Shape{2, 0});

  auto both = run_op_all_backends(resize(x, std::nullopt, scales_of({1, 2}), i64({2}, {2, 6})));
  require_error(both, StatusCode::kInvalidModel, "only one of scales and sizes may be given");
  auto count = run_op_all_backends(resize(x, std::nullopt, scales_of({2}), std::nullopt));
  require_error(count, StatusCode::kInvalidModel, "scales has 1 values");
  auto neither = run_op_all_backends(resize(x, std::nullopt, std::nullopt, std::nullopt));
  require_error(neither, StatusCode::kInvalidModel, "one of scales and sizes is required");
  auto negative = run_op_all_backends(resize(x, std::nullopt, scales_of({1, -2}), std::nullopt));
  require_error(negative, StatusCode::kInvalidModel, "scale -2 for axis 1 must be positive");
  OpCall bad = resize(x, std::nullopt, scales_of({1, 2}), std::nullopt);
  bad.attrs.set("mode", string_attr("bicubic"));
  auto rb = run_op_all_backends(bad);
  require_error(rb, StatusCode::kInvalidModel, "bicubic");
  OpCall crop = resize(x, std::nullopt, scales_of({1, 2}), std::nullopt);
  crop.attrs.set("coordinate_transformation_mode", string_attr("tf_crop_and_resize"));
  require_error(run_op_all_backends(crop), StatusCode::kInvalidModel,
                "tf_crop_and_resize needs roi with 4 values, got 0");  // tf_crop_and_resize without roi
  // Sizes past 2^53, and a not_smaller ratio from one axis that pushes another past
  // int64 (2^63 as a double has no int64 value; the cast was undefined).
  auto huge = run_op_all_backends(resize(x, std::nullopt, std::nullopt, i64({2}, {2, INT64_MAX})));
  require_error(huge, StatusCode::kInvalidModel, "size 9.223372036854776e+18 for axis 1 is above");
  OpCall keep = resize(x, std::nullopt, std::nullopt, i64({2}, {int64_t{1} << 53, 3}));
  keep.attrs.set("keep_aspect_ratio_policy", string_attr("not_smaller"));
  require_error(run_op_all_backends(keep), StatusCode::kInvalidModel, "makes axis 1 of 2x3 too large");
  auto big_scale = run_op_all_backends(resize(x, std::nullopt, scales_of({1, 1e30f}), std::nullopt));
  require_error(big_scale, StatusCode::kInvalidModel, "makes axis 1 of 2x3 too large");
  // int64 has no linear kernel: a named Unimplemented error.
  OpCall lin = resize(HostTensor::from_vector(DType::kI64, {2}, std::vector<int64_t>{1, 2}), std::nullopt,
                      scales_of({2}), std::nullopt);
  lin.attrs.set("mode", string_attr("linear"));
  CHECK(run_op_all_backends(lin).status().code() == StatusCode::kUnimplemented);
}

TEST_CASE("Resize / Upsample: ONNX node tests", "[ops][resize][onnx]") {
  run_node_cases({"test_resize", "test_upsample"}, {}, 1e-3, 1e-5);
}

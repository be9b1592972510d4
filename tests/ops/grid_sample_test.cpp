// GridSample, AffineGrid, Col2Im, CenterCropPad and DeformConv: hand-computed cases for each
// padding mode at the image edges with and without align_corners, nearest's ties
// to even, the Keys cubic weights, the volumetric coordinate order, mixed dtypes and
// errors; then the ONNX node tests of the family.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

namespace gk::test {
namespace {

std::vector<double> run_values(const OpCall& c, const Shape& want_shape) {
  auto r = run_op_all_backends(c);
  INFO((r.ok() ? std::string("ok") : r.status().to_string()));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == want_shape);
  return doubles_of(r->outputs[0]);
}

constexpr Tol kTol{.rtol = 0, .atol = 1e-5};

// A 1 x 1 x 1 x W image sampled at grid x values (y = 0; with H = 1 both y
// conventions land on row 0 with weight 1).
OpCall sample_row(std::vector<float> row, std::vector<float> xs, const std::string& padding, int align,
                  const std::string& mode = "linear", int opset = 22) {
  const int64_t w = static_cast<int64_t>(row.size()), p = static_cast<int64_t>(xs.size());
  std::vector<float> grid;
  for (float x : xs) {
    grid.push_back(x);
    grid.push_back(0.0f);
  }
  OpCall c = call("GridSample", opset, {f32({1, 1, 1, w}, row), f32({1, 1, p, 2}, grid)});
  c.attrs.set("padding_mode", string_attr(padding));
  c.attrs.set("align_corners", int_attr(align));
  c.attrs.set("mode", string_attr(mode));
  return c;
}

}  // namespace

TEST_CASE("GridSample linear: padding modes at the edges, align_corners 0", "[ops][grid_sample]") {
  // W = 3: x = ((g + 1) * 3 - 1) / 2 → g -1: -0.5, 1: 2.5, -2: -2, 0.5: 1.75. Bounds [-0.5, 2.5].
  const std::vector<float> row = {10, 20, 30}, xs = {-1, 1, -2, 0.5f};
  // zeros: half of the edge pixel at +-0.5 outside; -2 reads two outside taps.
  check_close(run_values(sample_row(row, xs, "zeros", 0), {1, 1, 1, 4}), {5, 15, 0, 27.5}, kTol);
  // border: -2 clamps to 0; taps past the edge repeat it.
  check_close(run_values(sample_row(row, xs, "border", 0), {1, 1, 1, 4}), {10, 30, 10, 27.5}, kTol);
  // reflection about -0.5: -2 → 1.0 → pixel 1; tap -1 → 0, tap 3 → 2.
  check_close(run_values(sample_row(row, xs, "reflection", 0), {1, 1, 1, 4}), {10, 30, 20, 27.5}, kTol);
}

TEST_CASE("GridSample linear: padding modes at the edges, align_corners 1", "[ops][grid_sample]") {
  // x = g + 1 → g -1: 0, 1.5: 2.5, -1.25: -0.25. Bounds [0, 2].
  const std::vector<float> row = {10, 20, 30}, xs = {-1, 1.5f, -1.25f};
  check_close(run_values(sample_row(row, xs, "zeros", 1), {1, 1, 1, 3}), {10, 15, 7.5}, kTol);
  check_close(run_values(sample_row(row, xs, "border", 1), {1, 1, 1, 3}), {10, 30, 10}, kTol);
  // reflection about 0 and 2: 2.5 → 1.5 (20/30 halves), -0.25 → 0.25.
  check_close(run_values(sample_row(row, xs, "reflection", 1), {1, 1, 1, 3}), {10, 25, 12.5}, kTol);
  // Far outside: -3.5 about [0, 2] → 3.5 → 0.5 (reflected twice).
  check_close(run_values(sample_row(row, {-4.5f}, "reflection", 1), {1, 1, 1, 1}), {15}, kTol);
}

TEST_CASE("GridSample nearest rounds ties to even", "[ops][grid_sample]") {
  // W = 4, align 0: x = 2g + 1.5 → g -0.5: 0.5, 0: 1.5, 0.5: 2.5, -0.25: 1.0, 1.2: 3.9.
  check_close(run_values(sample_row({0, 1, 2, 3}, {-0.5f, 0, 0.5f, -0.25f, 1.2f}, "zeros", 0, "nearest"),
                         {1, 1, 1, 5}),
              {0, 2, 2, 1, 0}, kTol);
  // Opset 16 spelling; border keeps 3.9 → 4 → clamped to 3.
  check_close(run_values(sample_row({0, 1, 2, 3}, {1.2f, -3}, "border", 0, "nearest", 16), {1, 1, 1, 2}), {3, 0}, kTol);
}

TEST_CASE("GridSample cubic uses Keys weights with a = -0.75", "[ops][grid_sample]") {
  // align 1, W = 4: g = 0 → x = 1.5, t = 0.5: weights (-0.09375, 0.59375, 0.59375,
  // -0.09375) on pixels 0..3 = 0*w0 + 10*w1 + 20*w2 + 40*w3 = 14.0625. g = -1 → x = 0:
  // weights (0, 1, 0, 0). Row y = 0 has weights (0, 1, 0, 0) too.
  check_close(run_values(sample_row({0, 10, 20, 40}, {0, -1}, "zeros", 1, "cubic"), {1, 1, 1, 2}), {14.0625, 0}, kTol);
  check_close(run_values(sample_row({0, 10, 20, 40}, {0}, "zeros", 1, "bicubic", 16), {1, 1, 1, 1}), {14.0625}, kTol);
}

TEST_CASE("GridSample volumetric: grid lists x (innermost) first", "[ops][grid_sample]") {
  std::vector<float> x(8);
  for (int i = 0; i < 8; ++i) x[i] = static_cast<float>(i);  // X[z][y][x] = 4z + 2y + x
  // align 1 maps -1/1 to 0/1: (x=1, y=-1, z=1) → X[1][0][1] = 5; the centre averages to 3.5.
  OpCall c = call("GridSample", 20, {f32({1, 1, 2, 2, 2}, x), f32({1, 1, 1, 2, 3}, {1, -1, 1, 0, 0, 0})});
  c.attrs.set("align_corners", int_attr(1));
  check_close(run_values(c, {1, 1, 1, 1, 2}), {5, 3.5}, kTol);
  c.opset = 16;  // 5-D came with opset 20
  auto r = run_op_all_backends(c);
  require_error(r, StatusCode::kInvalidModel, "4-D");
}

TEST_CASE("GridSample dtypes: f16/f64 images, mixed grid types, channels", "[ops][grid_sample]") {
  // Two channels share the grid: the point (0, 0) of a 2x2 image (align 0) is the mean.
  const std::vector<double> img = {1, 2, 3, 4, 10, 20, 30, 40};
  for (DType xt : {DType::kF16, DType::kF64, DType::kBF16, DType::kF32}) {
    for (DType gt : {DType::kF32, DType::kF64, DType::kF16}) {
      INFO(dtype_name(xt) << " / " << dtype_name(gt));
      OpCall c = call("GridSample", 22, {make_tensor(xt, {1, 2, 2, 2}, img), make_tensor(gt, {1, 1, 2, 2}, {0, 0, -1, -1})});
      auto r = run_op_all_backends(c);
      REQUIRE(r.ok());
      CHECK(r->outputs[0].dtype() == xt);
      // (-1, -1) align 0 → (-0.5, -0.5): a quarter of pixel (0, 0).
      check_close(doubles_of(r->outputs[0]), {2.5, 0.25, 25, 2.5}, Tol{.rtol = 0, .atol = 1e-2});
    }
  }
  OpCall bad = call("GridSample", 22, {f32({1, 1, 2, 2}, {1, 2, 3, 4}), f32({1, 1, 1, 2}, {0, 0})});
  bad.attrs.set("padding_mode", string_attr("wrap"));
  auto r = run_op_all_backends(bad);
  require_error(r, StatusCode::kInvalidModel, "padding_mode");
  OpCall wrong = call("GridSample", 22, {f32({1, 1, 2, 2}, {1, 2, 3, 4}), f32({1, 1, 1, 3}, {0, 0, 0})});
  require_error(run_op_all_backends(wrong), StatusCode::kInvalidModel,
                "grid 1x1x1x3 must be (N=1, out spatial..., 2) for X 1x1x2x2");
}

TEST_CASE("AffineGrid 2-D and 3-D, both corner conventions", "[ops][affine_grid]") {
  // Base grid W = 3, H = 2. align 0: x = -2/3, 0, 2/3; y = -0.5, 0.5. theta maps
  // (x, y) → (2x + 0.5, y - 1).
  OpCall c = call("AffineGrid", 20, {f32({1, 2, 3}, {2, 0, 0.5f, 0, 1, -1}), i64({4}, {1, 1, 2, 3})});
  check_close(run_values(c, {1, 2, 3, 2}),
              {-5.0 / 6, -1.5, 0.5, -1.5, 11.0 / 6, -1.5, -5.0 / 6, -0.5, 0.5, -0.5, 11.0 / 6, -0.5}, kTol);
  c.attrs.set("align_corners", int_attr(1));  // x = -1, 0, 1; y = -1, 1
  check_close(run_values(c, {1, 2, 3, 2}), {-1.5, -2, 0.5, -2, 2.5, -2, -1.5, 0, 0.5, 0, 2.5, 0}, kTol);
  // 3-D, D = 2, H = W = 1, align 1: z = -1, 1, y = x = -1. Rows: out0 = z, out1 = x,
  // out2 = y + 0.5.
  OpCall c3 = call("AffineGrid", 20,
                   {f32({1, 3, 4}, {0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0.5f}), i64({5}, {1, 1, 2, 1, 1})});
  c3.attrs.set("align_corners", int_attr(1));
  check_close(run_values(c3, {1, 2, 1, 1, 3}), {-1, -1, -0.5, 1, -1, -0.5}, kTol);
  OpCall bad = call("AffineGrid", 20, {f32({1, 2, 3}, {1, 0, 0, 0, 1, 0}), i64({5}, {1, 1, 2, 2, 2})});
  require_error(run_op_all_backends(bad), StatusCode::kInvalidModel,
                "theta 1x2x3 must be (1, 3, 4) for size N=1");  // a 2-D theta with a 3-D size
}

TEST_CASE("Col2Im folds overlapping blocks", "[ops][col2im]") {
  // Block 1x2 over a 1x4 image, 3 blocks: pixel w sums block l's tap k where l + k = w.
  OpCall c = call("Col2Im", 18, {f32({1, 2, 3}, {1, 2, 3, 10, 20, 30}), i64({2}, {1, 4}), i64({2}, {1, 2})});
  check_close(run_values(c, {1, 1, 1, 4}), {1, 12, 23, 30}, kTol);
  // Dilation 2, pad 1 each side, stride 2 on a 1x5 image: block l's tap k lands on
  // 2l - 1 + 2k: (-1 dropped, 1), (1, 3), (3, 5 dropped).
  OpCall d = call("Col2Im", 18, {f32({1, 2, 3}, {1, 2, 3, 10, 20, 30}), i64({2}, {1, 5}), i64({2}, {1, 2})});
  d.attrs.set("dilations", ints_attr({1, 2}));
  d.attrs.set("pads", ints_attr({0, 1, 0, 1}));
  d.attrs.set("strides", ints_attr({1, 2}));
  check_close(run_values(d, {1, 1, 1, 5}), {0, 12, 0, 23, 0}, kTol);
  // Integer data folds exactly; two channels keep apart.
  OpCall ci = call("Col2Im", 18, {HostTensor::from_vector(DType::kI64, {1, 4, 1}, std::vector<int64_t>{1, 2, 3, 4}),
                                  i64({2}, {1, 2}), i64({2}, {1, 2})});
  auto ri = run_op_all_backends(ci);
  REQUIRE(ri.ok());
  CHECK(values_of<int64_t>(ri->outputs[0]) == std::vector<int64_t>{1, 2, 3, 4});
  CHECK(ri->outputs[0].shape() == Shape{1, 2, 1, 2});
  OpCall bad = call("Col2Im", 18, {f32({1, 2, 4}, std::vector<float>(8, 1)), i64({2}, {1, 4}), i64({2}, {1, 2})});
  auto r = run_op_all_backends(bad);
  require_error(r, StatusCode::kInvalidModel, "number of blocks");
  // A dilated block past int64 is refused by name, not wrapped (fuzz smoke: 5 * 9.0e15).
  OpCall huge = call("Col2Im", 18, {f32({1, 3, 1}, {1, 2, 3}), i64({1}, {4}), i64({1}, {3})});
  huge.attrs.set("dilations", ints_attr({int64_t{1} << 62}));
  require_error(run_op_all_backends(huge), StatusCode::kInvalidModel, "exceeds int64");
  OpCall pads = call("Col2Im", 18, {f32({1, 2, 1}, {1, 2}), i64({1}, {4}), i64({1}, {2})});
  pads.attrs.set("pads", ints_attr({INT64_MAX, 1}));
  require_error(run_op_all_backends(pads), StatusCode::kInvalidModel, "exceeds int64");
}

TEST_CASE("CenterCropPad crops left-biased and pads right-biased", "[ops][center_crop_pad]") {
  auto x = f32({5}, {1, 2, 3, 4, 5});
  check_close(run_values(call("CenterCropPad", 18, {x, i64({1}, {2})}), {2}), {2, 3}, kTol);  // excess 3: start 1
  check_close(run_values(call("CenterCropPad", 18, {x, i64({1}, {4})}), {4}), {1, 2, 3, 4}, kTol);  // excess 1: start 0
  check_close(run_values(call("CenterCropPad", 18, {x, i64({1}, {8})}), {8}), {0, 1, 2, 3, 4, 5, 0, 0}, kTol);
  // axes [-1] on a 2x3 int64 tensor: pad 1 goes right; shape as int32.
  OpCall c = call("CenterCropPad", 18,
                  {HostTensor::from_vector(DType::kI64, {2, 3}, std::vector<int64_t>{1, 2, 3, 4, 5, 6}),
                   HostTensor::from_vector(DType::kI32, {1}, std::vector<int32_t>{4})});
  c.attrs.set("axes", ints_attr({-1}));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 4});
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{1, 2, 3, 0, 4, 5, 6, 0});
  require_error(run_op_all_backends(call("CenterCropPad", 18, {x, i64({2}, {2, 2})})), StatusCode::kInvalidModel,
                "shape has 2 values but there are 1 axes");  // one axis, two sizes
}

TEST_CASE("DeformConv 1-D: offsets, padding, mask and bias", "[ops][deform_conv]") {
  // X = [1, 2, 3, 4], W = [1, 10], pads 1/1 → 5 outputs; output o reads positions
  // o - 1 and o: y[o] = X[o-1] + 10 X[o], with 0 outside. Tap 1 of output 4 moves by
  // -0.25 to 3.75: a quarter of X[3] = 4 plus three quarters of nothing → 1.
  std::vector<float> offset(10, 0.0f);
  offset[1 * 5 + 4] = -0.25f;  // (n 0, tap 1, dim 0, out 4)
  OpCall c = call("DeformConv", 19, {f32({1, 1, 4}, {1, 2, 3, 4}), f32({1, 1, 2}, {1, 10}), f32({1, 2, 5}, offset)});
  c.attrs.set("pads", ints_attr({1, 1}));
  check_close(run_values(c, {1, 1, 5}), {10, 21, 32, 43, 14}, kTol);
  // Mask halves tap 1 at output 1; bias adds 100 everywhere.
  std::vector<float> mask(10, 1.0f);
  mask[1 * 5 + 1] = 0.5f;
  c.opset = 22;
  c.inputs.push_back(f32({1}, {100}));
  c.inputs.push_back(f32({1, 2, 5}, mask));
  check_close(run_values(c, {1, 1, 5}), {110, 111, 132, 143, 114}, kTol);
  c.inputs[2] = f32({1, 2, 4}, std::vector<float>(8, 0.0f));  // offset must match the 5 outputs
  require_error(run_op_all_backends(c), StatusCode::kInvalidModel, "offset 1x2x4 must be 1x2x5 for this window");
}

TEST_CASE("Spatial sampling ONNX node tests", "[ops][grid_sample][onnx]") {
  run_node_cases({"test_gridsample", "test_affine_grid", "test_center_crop_pad", "test_col2im", "test_deform_conv",
                  "test_basic_deform_conv"}, {}, 1e-3, 1e-4);
}

}  // namespace gk::test

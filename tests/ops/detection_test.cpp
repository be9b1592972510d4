// RoiAlign, MaxRoiPool and NonMaxSuppression: hand-computed cases (RoiAlign on an
// affine image, which bilinear sampling reproduces exactly, so a bin's average is
// the image at the bin centre; MaxRoiPool's bins worked out by hand from Caffe's
// rounding), out-of-range batch indices, NMS ordering / thresholds / limits, then
// the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

using namespace gk;
using namespace gk::test;

namespace {

// f(y, x) = 10y + x on a 4x4 image.
std::vector<double> affine_image() {
  std::vector<double> v;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) v.push_back(10 * y + x);
  return v;
}

OpCall roi_align(DType t, std::vector<double> rois, std::vector<int64_t> batch, int opset = 16) {
  const int64_t r = static_cast<int64_t>(batch.size());
  OpCall c{"RoiAlign", "", opset, {}, {make_tensor(t, {1, 1, 4, 4}, affine_image()), make_tensor(t, {r, 4}, rois),
                                        i64({r}, std::move(batch))}};
  c.attrs.set("output_height", int_attr(2));
  c.attrs.set("output_width", int_attr(2));
  c.attrs.set("sampling_ratio", int_attr(2));
  return c;
}

HostTensor scalar_f(float v) { return HostTensor::from_vector(DType::kF32, {1}, std::vector<float>{v}); }

std::vector<int64_t> nms(const OpCall& c) {
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  REQUIRE(r->outputs[0].shape().size() == 2);
  CHECK(r->outputs[0].shape()[1] == 3);
  return values_of<int64_t>(r->outputs[0]);
}

}  // namespace

TEST_CASE("RoiAlign avg: bins average the affine image at their centres", "[ops][detection]") {
  for (DType t : {DType::kF32, DType::kF64, DType::kF16, DType::kBF16}) {
    INFO(dtype_name(t));
    // half_pixel: roi (0.5, 0.5)-(2.5, 2.5) shifts to (0, 0)-(2, 2); bins of 1 pixel,
    // centres at 0.5 and 1.5.
    auto r = run_op_all_backends(roi_align(t, {0.5, 0.5, 2.5, 2.5}, {0}));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == t);
    CHECK(r->outputs[0].shape() == Shape{1, 1, 2, 2});
    const double tol = t == DType::kBF16 ? 0.1 : (t == DType::kF16 ? 0.02 : 1e-5);
    const std::vector<double> want{5.5, 6.5, 15.5, 16.5};
    const auto got = doubles_of(r->outputs[0]);
    for (size_t i = 0; i < 4; ++i) CHECK(got[i] == Approx(want[i]).margin(tol));
  }
  // output_half_pixel (opset 10's only behaviour): no shift, spatial_scale 0.5 maps
  // (1, 1)-(5, 5) to (0.5, 0.5)-(2.5, 2.5): centres at 1 and 2.
  for (int opset : {10, 16}) {
    OpCall c = roi_align(DType::kF32, {1, 1, 5, 5}, {0}, opset);
    c.attrs.set("spatial_scale", float_attr(0.5f));
    if (opset == 16) c.attrs.set("coordinate_transformation_mode", string_attr("output_half_pixel"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{11, 12, 21, 22});
  }
}

TEST_CASE("RoiAlign max: largest weighted corner term per sample", "[ops][detection]") {
  // One sample at (1.5, 1.5): corner terms 0.25 * {11, 12, 21, 22}; max 5.5.
  OpCall c = roi_align(DType::kF32, {1, 1, 2, 2}, {0}, 16);
  c.attrs.set("output_height", int_attr(1));
  c.attrs.set("output_width", int_attr(1));
  c.attrs.set("sampling_ratio", int_attr(1));
  c.attrs.set("mode", string_attr("max"));
  c.attrs.set("coordinate_transformation_mode", string_attr("output_half_pixel"));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{5.5f});
  c.attrs.set("mode", string_attr("avg"));
  auto avg = run_op_all_backends(c);
  REQUIRE(avg.ok());
  CHECK(values_of<float>(avg->outputs[0]) == std::vector<float>{16.5f});
}

namespace {

// RoiAlign as ONNX Runtime's reference computes it, in float64, walking every
// sample of every bin's grid: the check for the kernel, which walks only the
// samples inside the image once a grid is longer than 16.
std::vector<double> roi_align_reference(const std::vector<double>& img, int64_t h, int64_t w,
                                        const std::vector<double>& rois, int64_t out_h, int64_t out_w, bool mode_max) {
  std::vector<double> y;
  for (size_t r = 0; r < rois.size() / 4; ++r) {
    const double x0 = rois[4 * r] - 0.5, y0 = rois[4 * r + 1] - 0.5;  // half_pixel
    const double bin_h = (rois[4 * r + 3] - 0.5 - y0) / out_h, bin_w = (rois[4 * r + 2] - 0.5 - x0) / out_w;
    const int64_t gh = bin_h > 0 ? static_cast<int64_t>(std::ceil(bin_h)) : 0;
    const int64_t gw = bin_w > 0 ? static_cast<int64_t>(std::ceil(bin_w)) : 0;
    for (int64_t ph = 0; ph < out_h; ++ph)
      for (int64_t pw = 0; pw < out_w; ++pw) {
        double sum = 0, best = 0;
        bool any = false;
        for (int64_t iy = 0; iy < gh; ++iy)
          for (int64_t ix = 0; ix < gw; ++ix) {
            double yy = y0 + ph * bin_h + (iy + 0.5) * bin_h / gh, xx = x0 + pw * bin_w + (ix + 0.5) * bin_w / gw;
            double v[4] = {0, 0, 0, 0};
            if (yy >= -1 && yy <= h && xx >= -1 && xx <= w) {
              yy = std::max(yy, 0.0);
              xx = std::max(xx, 0.0);
              int64_t ylo = static_cast<int64_t>(yy), xlo = static_cast<int64_t>(xx), yhi = ylo + 1, xhi = xlo + 1;
              if (ylo >= h - 1) yhi = ylo = h - 1, yy = static_cast<double>(ylo);
              if (xlo >= w - 1) xhi = xlo = w - 1, xx = static_cast<double>(xlo);
              const double ly = yy - ylo, lx = xx - xlo;
              v[0] = (1 - ly) * (1 - lx) * img[ylo * w + xlo];
              v[1] = (1 - ly) * lx * img[ylo * w + xhi];
              v[2] = ly * (1 - lx) * img[yhi * w + xlo];
              v[3] = ly * lx * img[yhi * w + xhi];
            }
            const double m = std::max({v[0], v[1], v[2], v[3]});
            best = any ? std::max(best, m) : m;
            any = true;
            sum += v[0] + v[1] + v[2] + v[3];
          }
        y.push_back(mode_max ? best : sum / std::max<int64_t>(gh * gw, 1));
      }
  }
  return y;
}

}  // namespace

TEST_CASE("RoiAlign: adaptive grids over rois far larger than the image", "[ops][detection]") {
  // A 6x7 image with negative values (so max mode's zeros from samples outside the
  // image matter). Rois reaching far past it give adaptive grids of 30 to 160
  // samples per axis, most of them outside; one lies wholly outside; one is
  // reversed (no samples: 0); one spans 1e30 pixels (a 2^20 x 2^20 grid per bin:
  // 2^40 samples each if the kernel walked them).
  const int64_t h = 6, w = 7;
  std::vector<double> img;
  for (int64_t i = 0; i < h * w; ++i) img.push_back(std::sin(0.7 * static_cast<double>(i)) - 0.3);
  const std::vector<double> rois{-50, -40, 60, 45,   2, 1, 90, 70,   -300, -20, -100, 30,
                                 5, 5, 1, 1,         -1e30, -1e30, 1e30, 1e30};
  const int64_t nr = static_cast<int64_t>(rois.size() / 4);
  const double top = *std::max_element(img.begin(), img.end());
  for (DType t : {DType::kF64, DType::kF32})
    for (const char* mode : {"avg", "max"}) {
      INFO(dtype_name(t) << " " << mode);
      OpCall c{"RoiAlign", "", 16, {},
               {make_tensor(t, {1, 1, h, w}, img), make_tensor(t, {nr, 4}, rois),
                i64({nr}, std::vector<int64_t>(static_cast<size_t>(nr), 0))}};
      c.attrs.set("output_height", int_attr(2));
      c.attrs.set("output_width", int_attr(3));
      c.attrs.set("mode", string_attr(mode));
      auto r = run_op_all_backends(c);
      REQUIRE(r.ok());
      const bool mode_max = std::string(mode) == "max";
      const auto got = doubles_of(r->outputs[0]);
      const auto want = roi_align_reference(img, h, w, {rois.begin(), rois.end() - 4}, 2, 3, mode_max);
      REQUIRE(got.size() == static_cast<size_t>(nr * 6));
      const double tol = t == DType::kF64 ? 1e-12 : 1e-5;
      for (size_t i = 0; i < want.size(); ++i) {
        INFO("output " << i);
        CHECK(got[i] == Approx(want[i]).margin(tol));
      }
      // The 1e30 roi (too large a grid for the reference): avg divides at most a
      // few samples by 2^40; max is 0 or the one sample that lands inside.
      for (size_t i = want.size(); i < got.size(); ++i) {
        if (mode_max) {
          CHECK(got[i] >= 0);
          CHECK(got[i] <= top);
        } else {
          CHECK(std::abs(got[i]) < 1e-9);
        }
      }
    }
}

TEST_CASE("RoiAlign: out-of-range batch index, bad shapes", "[ops][detection]") {
  auto oob = run_op_all_backends(roi_align(DType::kF32, {0.5, 0.5, 2.5, 2.5}, {1}));
  require_error(oob, StatusCode::kOutOfRange, "an index was out of range");
  CHECK(run_op_all_backends(roi_align(DType::kF32, {0.5, 0.5, 2.5, 2.5}, {-1})).status().code() ==
        StatusCode::kOutOfRange);
  OpCall bad{"RoiAlign", "", 16, {}, {f32({1, 1, 4, 4}, std::vector<float>(16)), f32({1, 3}, {0, 0, 1}), i64({1}, {0})}};
  auto r = run_op_all_backends(bad);
  require_error(r, StatusCode::kInvalidModel, "rois must be [num_rois, 4]");
  OpCall mode = roi_align(DType::kF32, {0, 0, 1, 1}, {0});
  mode.attrs.set("mode", string_attr("median"));
  CHECK(run_op_all_backends(mode).status().code() == StatusCode::kInvalidModel);
  // A fixed sampling_ratio samples its whole grid whatever the rois: 2^16 per axis
  // over 4 outputs is 2^34 samples (minutes), refused before launch.
  OpCall ratio = roi_align(DType::kF32, {0.5, 0.5, 0.6, 0.6}, {0});
  ratio.attrs.set("sampling_ratio", int_attr(1 << 16));
  require_error(run_op_all_backends(ratio), StatusCode::kResourceExhausted,
                "sampling_ratio 65536 over 4 output elements is 1.72e+10 bilinear samples, more than the 2^32");
}

namespace {

// Two 4x4 images f(y, x) = 10y + x and 100 + 10y + x, pooled 2x2.
OpCall max_roi_pool(DType t, std::vector<double> rois, float spatial_scale = 1.0f) {
  std::vector<double> x = affine_image();
  for (double v : affine_image()) x.push_back(100 + v);
  const int64_t r = static_cast<int64_t>(rois.size() / 5);
  OpCall c{"MaxRoiPool", "", 22, {}, {make_tensor(t, {2, 1, 4, 4}, x), make_tensor(t, {r, 5}, std::move(rois))}};
  c.attrs.set("pooled_shape", ints_attr({2, 2}));
  if (spatial_scale != 1.0f) c.attrs.set("spatial_scale", float_attr(spatial_scale));
  return c;
}

}  // namespace

TEST_CASE("MaxRoiPool: bins from rounded roi corners, clamped to the image, empty bins 0", "[ops][detection]") {
  for (DType t : {DType::kF32, DType::kF16, DType::kF64}) {
    INFO(dtype_name(t));
    // The whole image: 2x2 bins of 2x2 pixels, each bin's bottom-right pixel.
    auto whole = run_op_all_backends(max_roi_pool(t, {0, 0, 0, 3, 3, 1, 0, 0, 3, 3}));
    REQUIRE(whole.ok());
    CHECK(whole->outputs[0].shape() == Shape{2, 1, 2, 2});
    CHECK(whole->outputs[0].to_f64_vector() == std::vector<double>{11, 13, 31, 33, 111, 113, 131, 133});
    // Scale 0.5: corners (1, 1, 4.6, 2.9) -> (0.5, 0.5, 2.3, 1.45) round half away
    // from zero to (1, 1, 2, 1): one row (1), two columns (1, 2), each bin row the same.
    auto scaled = run_op_all_backends(max_roi_pool(t, {0, 1, 1, 4.6, 2.9}, 0.5f));
    REQUIRE(scaled.ok());
    CHECK(scaled->outputs[0].to_f64_vector() == std::vector<double>{11, 12, 11, 12});
    // Past the image: a 5x5 roi from (2, 2); bins of 2.5 clamp to rows/cols [2, 4),
    // the others start at 4 and are empty.
    auto outside = run_op_all_backends(max_roi_pool(t, {0, 2, 2, 6, 6}));
    REQUIRE(outside.ok());
    CHECK(outside->outputs[0].to_f64_vector() == std::vector<double>{33, 0, 0, 0});
  }
}

TEST_CASE("MaxRoiPool: out-of-range batch id, bad shapes and attributes", "[ops][detection]") {
  require_error(run_op_all_backends(max_roi_pool(DType::kF32, {2, 0, 0, 1, 1})), StatusCode::kOutOfRange,
                "an index was out of range");
  require_error(run_op_all_backends(max_roi_pool(DType::kF32, {-1, 0, 0, 1, 1})), StatusCode::kOutOfRange,
                "an index was out of range");
  OpCall four = max_roi_pool(DType::kF32, {0, 0, 0, 1, 1});
  four.inputs[1] = f32({1, 4}, {0, 0, 1, 1});
  require_error(run_op_all_backends(four), StatusCode::kInvalidModel, "rois must be [num_rois, 5]");
  OpCall pooled = max_roi_pool(DType::kF32, {0, 0, 0, 1, 1});
  pooled.attrs.set("pooled_shape", ints_attr({2, 0}));
  require_error(run_op_all_backends(pooled), StatusCode::kInvalidModel, "pooled_shape must be two sizes");
}

TEST_CASE("NonMaxSuppression: order, thresholds, limits", "[ops][detection]") {
  // Boxes as [y1, x1, y2, x2]: A and B overlap with IoU 0.9 / 1.1 = 0.818; C apart.
  auto boxes = f32({1, 3, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, 1, 3});
  auto scores = f32({1, 2, 3}, {0.9f, 0.8f, 0.7f,    // class 0
                                0.1f, 0.6f, 0.6f});  // class 1: tie between B and C
  OpCall c{"NonMaxSuppression", "", 11, {}, {boxes, scores, i64({1}, {3}), scalar_f(0.5f), std::nullopt}};
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 2, 0, 1, 1, 0, 1, 2});
  // The IoU is kept when not above the threshold.
  c.inputs[3] = scalar_f(0.85f);
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1, 1, 0, 1, 2, 0, 1, 0});
  c.inputs[3] = scalar_f(0.5f);
  c.inputs[2] = i64({1}, {1});
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 1, 1});
  c.inputs[2] = i64({1}, {3});
  c.inputs[4] = scalar_f(0.6f);  // strictly greater passes
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 2});
  // Values fetched from the device (not host-known) give the same result.
  c.inputs_host_known = false;
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 2});
  // No max_output_boxes_per_class: nothing is selected.
  OpCall none{"NonMaxSuppression", "", 10, {}, {boxes, scores}};
  auto r = run_op_all_backends(none);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{0, 3});
}

TEST_CASE("NonMaxSuppression: center_point_box, batches, errors", "[ops][detection]") {
  // [x_c, y_c, w, h]: box 1 is box 0 shifted by 0.5 (IoU 1/3); box 2 far away.
  auto boxes = f32({2, 3, 4}, {0.5f, 0.5f, 1, 1, 1, 0.5f, 1, 1, 5, 5, 1, 1,  //
                               0.5f, 0.5f, 1, 1, 1, 0.5f, 1, 1, 5, 5, 1, 1});
  auto scores = f32({2, 1, 3}, {0.9f, 0.8f, 0.7f, 0.5f, 0.8f, 0.9f});
  OpCall c{"NonMaxSuppression", "", 11, {}, {boxes, scores, i64({1}, {10}), scalar_f(0.3f)}};
  c.attrs.set("center_point_box", int_attr(1));
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 2, 1, 0, 2, 1, 0, 1});
  c.inputs[3] = scalar_f(0.4f);  // 1/3 is not above 0.4: all kept
  CHECK(nms(c) == std::vector<int64_t>{0, 0, 0, 0, 0, 1, 0, 0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0});
  c.inputs[3] = scalar_f(1.5f);
  auto bad = run_op_all_backends(c);
  require_error(bad, StatusCode::kInvalidArgument, "iou_threshold");
  OpCall shape{"NonMaxSuppression", "", 11, {}, {boxes, f32({2, 1, 2}, {0, 0, 0, 0}), i64({1}, {1})}};
  CHECK(run_op_all_backends(shape).status().code() == StatusCode::kInvalidModel);
}

TEST_CASE("RoiAlign / NonMaxSuppression: ONNX node tests", "[ops][detection][onnx]") {
  run_node_cases({"test_roialign", "test_nonmaxsuppression"}, {}, 1e-3, 1e-5);
}

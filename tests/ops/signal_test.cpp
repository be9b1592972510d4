// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix: hand-computed
// windows (periodic and symmetric, integer output), a one-point symmetric window,
// argument checks, and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"

namespace gk::test {
namespace {

HostTensor scalar_i32(int32_t v) { return make_tensor(DType::kI32, {}, {static_cast<double>(v)}); }

Result<OpResult> window(const std::string& op, int32_t size, int64_t periodic, DType out = DType::kF32) {
  OpCall c;
  c.op_type = op;
  c.opset = 17;
  c.inputs = {scalar_i32(size)};
  c.attrs.set("periodic", attr_int(periodic));
  c.attrs.set("output_datatype", attr_int(static_cast<int64_t>(out)));
  return run_op(c);
}

void check_window(const Result<OpResult>& r, const std::vector<double>& want) {
  REQUIRE(r.ok());
  const auto got = doubles_of(r->outputs[0]);
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == Approx(want[i]).margin(1e-7));
  }
}

TEST_CASE("windows: periodic and symmetric values", "[signal]") {
  // Hann periodic N=4: 0.5 - 0.5 cos(pi k / 2).
  check_window(window("HannWindow", 4, 1), {0, 0.5, 1, 0.5});
  // Hann symmetric N=3: 0.5 - 0.5 cos(pi k).
  check_window(window("HannWindow", 3, 0), {0, 1, 0});
  // Hamming periodic N=4: 25/46 - 21/46 cos(pi k / 2).
  check_window(window("HammingWindow", 4, 1), {4.0 / 46, 25.0 / 46, 1, 25.0 / 46});
  // Blackman symmetric N=3: 0.42 - 0.5 cos(pi k) + 0.08 cos(2 pi k).
  check_window(window("BlackmanWindow", 3, 0), {0, 1, 0});
  // Blackman periodic N=4, k=1: 0.42 - 0 + 0.08 cos(pi) = 0.34.
  check_window(window("BlackmanWindow", 4, 1), {0, 0.34, 1, 0.34});
}

TEST_CASE("windows: output types, one point, empty, bad size", "[signal]") {
  auto as_int = window("HannWindow", 4, 1, DType::kI32);
  REQUIRE(as_int.ok());
  CHECK(as_int->outputs[0].dtype() == DType::kI32);
  CHECK(values_of<int32_t>(as_int->outputs[0]) == std::vector<int32_t>{0, 0, 1, 0});
  auto as_f64 = window("HammingWindow", 2, 0, DType::kF64);
  REQUIRE(as_f64.ok());
  CHECK(as_f64->outputs[0].dtype() == DType::kF64);
  // Symmetric N=2: k=1 lands on cos(2 pi) = 1, the same end value as k=0.
  check_window(as_f64, {4.0 / 46, 4.0 / 46});
  check_window(window("HannWindow", 1, 0), {1});
  check_window(window("HannWindow", 0, 1), {});
  CHECK(!window("HannWindow", -1, 1).ok());
  CHECK(!window("HannWindow", 4, 1, DType::kBool).ok());
}

Result<OpResult> mel(int32_t bins, int32_t dft, int32_t rate, float lo, float hi) {
  OpCall c;
  c.op_type = "MelWeightMatrix";
  c.opset = 17;
  c.inputs = {scalar_i32(bins), scalar_i32(dft), scalar_i32(rate), f32({}, {lo}), f32({}, {hi})};
  return run_op(c);
}

TEST_CASE("MelWeightMatrix: triangles and checks", "[signal]") {
  // 2 bands, dft 8, rate 8: mel(4 Hz) = 2595 log10(1 + 4/700), step = that / 4.
  // Edges floor(9 * hz(t * step) / 8) for t = 0..3: hz(t*step) ~ t (mel is
  // ~linear this low): 0, 1.12, 2.25, 3.37 → 0, 1, 2, 3.
  auto r = mel(2, 8, 8, 0, 4);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{5, 2});
  // Band 0 rises 0→1 over bins 0..1 and falls at 2 (hi exclusive); band 1: 1..3.
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 0, 0});
  CHECK(!mel(2, 0, 8, 0, 4).ok());
  CHECK(!mel(2, 8, 0, 0, 4).ok());
  CHECK(!mel(2, 8, 8, 5, 4).ok());
}

TEST_CASE("signal ops pass the ONNX node tests", "[signal][onnx]") {
  run_node_cases({"test_hannwindow", "test_hammingwindow", "test_blackmanwindow", "test_melweightmatrix"});
}

}  // namespace
}  // namespace gk::test

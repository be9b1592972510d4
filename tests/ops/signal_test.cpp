// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix: hand-computed
// windows (periodic and symmetric, integer output), a one-point symmetric window,
// argument checks, and the ONNX node tests; DFT and STFT against hand-computed
// transforms and numpy constants.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

namespace gk::test {
namespace {

HostTensor scalar_i32(int32_t v) { return make_tensor(DType::kI32, {}, {static_cast<double>(v)}); }

Result<OpResult> window(const std::string& op, int32_t size, int64_t periodic, DType out = DType::kF32) {
  OpCall c;
  c.op_type = op;
  c.opset = 17;
  c.inputs = {scalar_i32(size)};
  c.attrs.set("periodic", int_attr(periodic));
  c.attrs.set("output_datatype", int_attr(static_cast<int64_t>(out)));
  return run_op_all_backends(c);
}

void check_window(const Result<OpResult>& r, const std::vector<double>& want) {
  REQUIRE(r.ok());
  check_close(r->outputs[0], want, Tol{.rtol = 0, .atol = 1e-7});
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
  require_error(window("HannWindow", -1, 1), StatusCode::kInvalidModel, "size -1 is negative");
  require_error(window("HannWindow", 4, 1, DType::kBool), StatusCode::kUnimplemented,
                "output_datatype bool is not supported");
}

Result<OpResult> mel(int32_t bins, int32_t dft, int32_t rate, float lo, float hi) {
  OpCall c;
  c.op_type = "MelWeightMatrix";
  c.opset = 17;
  c.inputs = {scalar_i32(bins), scalar_i32(dft), scalar_i32(rate), f32({}, {lo}), f32({}, {hi})};
  return run_op_all_backends(c);
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
  require_error(mel(2, 0, 8, 0, 4), StatusCode::kInvalidModel, "dft_length 0 must be positive");
  require_error(mel(2, 8, 0, 0, 4), StatusCode::kInvalidModel, "sample_rate 0 must be positive");
  require_error(mel(2, 8, 8, 5, 4), StatusCode::kInvalidModel, "edges [5, 4] Hz must satisfy 0 <= lower <= upper");
}

TEST_CASE("signal ops pass the ONNX node tests", "[signal][onnx]") {
  run_node_cases({"test_hannwindow", "test_hammingwindow", "test_blackmanwindow", "test_melweightmatrix"});
}

// ---- DFT and STFT -------------------------------------------------------------

// DFT-17 (axis attribute) when opset < 20, else DFT-20 (axis input, default -2).
Result<OpResult> dft(HostTensor x, std::optional<int64_t> dft_length, int64_t axis, int64_t inverse = 0,
                     int64_t onesided = 0, int opset = 17) {
  OpCall c;
  c.op_type = "DFT";
  c.opset = opset;
  c.inputs = {std::move(x)};
  c.inputs.push_back(dft_length ? std::optional<HostTensor>(i64({}, {*dft_length})) : std::nullopt);
  if (opset >= 20)
    c.inputs.push_back(i64({}, {axis}));
  else
    c.attrs.set("axis", int_attr(axis));
  c.attrs.set("inverse", int_attr(inverse));
  c.attrs.set("onesided", int_attr(onesided));
  return run_op_all_backends(c);
}

void check_values(const Result<OpResult>& r, const Shape& shape, const std::vector<double>& want,
                  double margin = 1e-5) {
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == shape);
  check_close(r->outputs[0], want, Tol{.rtol = 0, .atol = margin});
}

TEST_CASE("DFT: impulse, cosine, padding and truncation", "[signal][dft]") {
  // The DFT of a unit impulse is 1 at every bin.
  check_values(dft(f32({1, 4, 1}, {1, 0, 0, 0}), std::nullopt, 1), {1, 4, 2}, {1, 0, 1, 0, 1, 0, 1, 0});
  for (DType t : {DType::kF16, DType::kBF16, DType::kF64}) {
    INFO(dtype_name(t));
    auto r = dft(make_tensor(t, {1, 4, 1}, {1, 0, 0, 0}), std::nullopt, 1);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == t);
    check_values(r, {1, 4, 2}, {1, 0, 1, 0, 1, 0, 1, 0});
  }
  // cos(2 pi 2 t / 8): n/2 = 4 at bins 2 and 6, 0 elsewhere; onesided keeps bins 0..4.
  std::vector<float> cosine(8);
  for (int t = 0; t < 8; ++t) cosine[t] = static_cast<float>(std::cos(2 * M_PI * 2 * t / 8));
  check_values(dft(f32({1, 8, 1}, cosine), std::nullopt, 1), {1, 8, 2},
               {0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0});
  check_values(dft(f32({1, 8, 1}, cosine), std::nullopt, 1, 0, 1), {1, 5, 2}, {0, 0, 0, 0, 4, 0, 0, 0, 0, 0});
  // [1, 1] zero-padded to 4: 1 + e^{-j pi k / 2} = 2, 1 - j, 0, 1 + j.
  check_values(dft(f32({1, 2, 1}, {1, 1}), 4, 1), {1, 4, 2}, {2, 0, 1, -1, 0, 0, 1, 1});
  // [1, 2, 3, 4] cut to 2: [1 + 2, 1 - 2].
  check_values(dft(f32({1, 4, 1}, {1, 2, 3, 4}), 2, 1), {1, 2, 2}, {3, 0, -1, 0});
}

TEST_CASE("DFT: axes, opset 20's axis input and its default", "[signal][dft]") {
  // [[1, 2, 3], [4, 5, 6]] along axis 0: sums [5, 7, 9] and differences [-3, -3, -3].
  const HostTensor x = f32({2, 3, 1}, {1, 2, 3, 4, 5, 6});
  const std::vector<double> along0 = {5, 0, 7, 0, 9, 0, -3, 0, -3, 0, -3, 0};
  check_values(dft(x, std::nullopt, 0), {2, 3, 2}, along0);
  check_values(dft(x, std::nullopt, 0, 0, 0, 20), {2, 3, 2}, along0);
  check_values(dft(x, std::nullopt, -3, 0, 0, 20), {2, 3, 2}, along0);
  // Along axis 1 (= -2, opset 20's default): [1, 2, 3] → 6, -1.5 ± 0.866j.
  const double h = std::sqrt(3.0) / 2;
  const std::vector<double> along1 = {6, 0, -1.5, h, -1.5, -h, 15, 0, -1.5, h, -1.5, -h};
  check_values(dft(x, std::nullopt, 1), {2, 3, 2}, along1);
  OpCall c;
  c.op_type = "DFT";
  c.opset = 20;
  c.inputs = {x};
  check_values(run_op_all_backends(c), {2, 3, 2}, along1);
  // The complex dim is not an axis; nor is anything past it.
  require_error(dft(x, std::nullopt, 2), StatusCode::kInvalidModel,
                "axis 2 is out of range [-3, -2] U [0, 1] for rank 3");
  require_error(dft(x, std::nullopt, -1, 0, 0, 20), StatusCode::kInvalidModel,
                "axis -1 is out of range [-3, -2] U [0, 1] for rank 3");
  require_error(dft(x, std::nullopt, -4, 0, 0, 20), StatusCode::kInvalidModel,
                "axis -4 is out of range [-3, -2] U [0, 1] for rank 3");
  require_error(dft(f32({1, 3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}), std::nullopt, 1), StatusCode::kInvalidModel,
                "input shape 1x3x3 must be [..., n, 1] (real) or [..., n, 2] (complex)");
  require_error(dft(x, 0, 1), StatusCode::kInvalidModel,
                "dft_length 0 must be positive (signal length 3 along axis 1)");
  require_error(dft(make_tensor(DType::kI32, {2, 3, 1}, {1, 2, 3, 4, 5, 6}), std::nullopt, 1),
                StatusCode::kUnimplemented, "input type int32 is not supported");
}

TEST_CASE("DFT: inverse round trip and IRFFT", "[signal][dft]") {
  const std::vector<double> v = {0.5, -1, 2, 0.25, -3, 1.5, 4, -0.75, 1, 1, -2, 0.5, 0, 3};
  const HostTensor x = make_tensor(DType::kF64, {1, 7, 2}, v);
  auto fwd = dft(x, std::nullopt, 1);
  REQUIRE(fwd.ok());
  check_values(dft(fwd->outputs[0], std::nullopt, 1, 1), {1, 7, 2}, v, 1e-12);
  // numpy.fft.irfft([10, -2 + 2j, -2]) = [1, 2, 3, 4]; the imaginary parts of the DC
  // and Nyquist bins do not count.
  const HostTensor half = f32({1, 3, 2}, {10, 3, -2, 2, -2, 5});
  check_values(dft(half, std::nullopt, 1, 1, 1), {1, 4, 1}, {1, 2, 3, 4});
  check_values(dft(half, std::nullopt, 1, 1, 1, 20), {1, 4, 1}, {1, 2, 3, 4});
  // numpy.fft.irfft([10, -2 + 2j, -2, 7], n=5): bins past n/2 are dropped.
  check_values(dft(f32({1, 4, 2}, {10, 0, -2, 2, -2, 0, 7, 0}), 5, 1, 1, 1), {1, 5, 1},
               {0.4, 1.63915479, 1.9297718, 2.8702282, 3.16084521});
  require_error(dft(f32({1, 3, 1}, {1, 2, 3}), std::nullopt, 1, 1, 1), StatusCode::kInvalidModel,
                "an inverse one-sided DFT (IRFFT) takes a complex input ([..., 2])");  // IRFFT needs complex input
}

TEST_CASE("DFT: a long transform stays accurate", "[signal][dft]") {
  // cos(2 pi 1000 t / 4096) in f32: n/2 = 2048 at bins 1000 and 3096. The table index
  // (k t) mod n is exact, so the error is the f32 sum's, not a drifting angle's.
  constexpr int n = 4096;
  std::vector<float> x(n);
  for (int t = 0; t < n; ++t) x[t] = static_cast<float>(std::cos(2 * M_PI * ((1000LL * t) % n) / n));
  auto r = dft(f32({1, n, 1}, x), std::nullopt, 1);
  REQUIRE(r.ok());
  const auto got = doubles_of(r->outputs[0]);
  double worst = 0;
  for (int k = 0; k < n; ++k) {
    const double want = (k == 1000 || k == n - 1000) ? n / 2.0 : 0.0;
    worst = std::max({worst, std::fabs(got[2 * k] - want), std::fabs(got[2 * k + 1])});
  }
  CHECK(worst < 2e-2);
}

Result<OpResult> stft(HostTensor signal, int64_t step, std::optional<HostTensor> window,
                      std::optional<int64_t> frame_length, int64_t onesided = 1) {
  OpCall c;
  c.op_type = "STFT";
  c.opset = 17;
  c.inputs = {std::move(signal), i64({}, {step}), std::move(window)};
  c.inputs.push_back(frame_length ? std::optional<HostTensor>(i64({}, {*frame_length})) : std::nullopt);
  c.attrs.set("onesided", int_attr(onesided));
  return run_op_all_backends(c);
}

TEST_CASE("STFT: frames, window, onesided, checks", "[signal][stft]") {
  const HostTensor x = f32({1, 6, 1}, {1, 2, 3, 4, 5, 6});
  // Frames [1, 2, 3, 4] and [3, 4, 5, 6]: bins 10 | 18, -2 + 2j, -2.
  check_values(stft(x, 2, std::nullopt, 4), {1, 2, 3, 2}, {10, 0, -2, 2, -2, 0, 18, 0, -2, 2, -2, 0});
  check_values(stft(x, 2, std::nullopt, 4, 0), {1, 2, 4, 2},
               {10, 0, -2, 2, -2, 0, -2, -2, 18, 0, -2, 2, -2, 0, -2, -2});
  // Window [0, 1, 1, 0] (frame_length from it): [0, 2, 3, 0] → 5, -3 - 2j, 1 and
  // [0, 4, 5, 0] → 9, -5 - 4j, 1.
  check_values(stft(x, 2, f32({4}, {0, 1, 1, 0}), std::nullopt), {1, 2, 3, 2},
               {5, 0, -3, -2, 1, 0, 9, 0, -5, -4, 1, 0});
  // A window [1, 1] shorter than frame_length 4 zero-pads each frame: [1, 2, 0, 0] →
  // 3, 1 - 2j, -1 and [3, 4, 0, 0] → 7, 3 - 4j, -1.
  check_values(stft(x, 2, f32({2}, {1, 1}), 4), {1, 2, 3, 2}, {3, 0, 1, -2, -1, 0, 7, 0, 3, -4, -1, 0});
  // Complex signal, one frame of the whole signal: the DFT of (1 + j) at t = 0 only.
  check_values(stft(f32({1, 2, 2}, {1, 1, 0, 0}), 1, std::nullopt, std::nullopt, 0), {1, 1, 2, 2},
               {1, 1, 1, 1});
  require_error(stft(x, 0, std::nullopt, 4), StatusCode::kInvalidModel, "frame_step must be a positive integer, got 0");
  require_error(stft(x, 2, std::nullopt, 7), StatusCode::kInvalidModel,
                "frame_length 7 must be in [1, 6] (the signal length)");
  require_error(stft(x, 2, f32({2, 2}, {1, 1, 1, 1}), std::nullopt), StatusCode::kInvalidModel,
                "window must be a 1-D float32 tensor, got float32 2x2");
}

TEST_CASE("DFT and STFT pass the ONNX node tests", "[signal][onnx]") { run_node_cases({"test_dft", "test_stft"}); }

}  // namespace
}  // namespace gk::test

// Softmax, LogSoftmax, Hardmax: hand-computed cases, a reference over both axis
// semantics (pre-13 coerce-to-2-D, 13+ single axis), and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>

namespace gk::test {
namespace {

OpCall sm_call(const std::string& op, int opset, HostTensor x, std::optional<int64_t> axis) {
  OpCall c;
  c.op_type = op;
  c.opset = opset;
  c.inputs.emplace_back(std::move(x));
  if (axis) c.attrs.set("axis", int_attr(*axis));
  return c;
}

// Reference on rows given as (row start, element stride, count) triples.
std::vector<double> reference(const std::string& op, const std::vector<double>& x, int64_t outer, int64_t len,
                              int64_t inner) {
  std::vector<double> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < inner; ++j) {
      auto at = [&](int64_t r) { return o * len * inner + r * inner + j; };
      double m = -INFINITY;
      int64_t arg = 0;
      for (int64_t r = 0; r < len; ++r)
        if (x[at(r)] > m) m = x[at(r)], arg = r;
      double s = 0;
      for (int64_t r = 0; r < len; ++r) s += std::exp(x[at(r)] - m);
      for (int64_t r = 0; r < len; ++r) {
        if (op == "Softmax") y[at(r)] = std::exp(x[at(r)] - m) / s;
        else if (op == "LogSoftmax") y[at(r)] = x[at(r)] - m - std::log(s);
        else y[at(r)] = r == arg ? 1 : 0;
      }
    }
  return y;
}

std::vector<double> wave(int64_t n) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<float>(std::sin(0.37 * i) * 3.0 + (i % 7) * 0.25);
  return v;
}

constexpr Tol kTol{.rtol = 1e-5, .atol = 1e-6};

TEST_CASE("softmax family matches a reference for both axis semantics", "[softmax]") {
  const Shape shape{2, 3, 4};
  const auto x = wave(numel(shape));
  HostTensor t = make_tensor(DType::kF32, shape, x);
  for (const char* op : {"Softmax", "LogSoftmax", "Hardmax"}) {
    INFO(op);
    // Opset 13, axis 1: rows of 3 strided by 4.
    auto r = run_op_all_backends(sm_call(op, 13, t, 1));
    REQUIRE(r.ok());
    check_close(doubles_of(r->outputs[0]), reference(op, x, 2, 3, 4), kTol);
    // Default axis -1.
    r = run_op_all_backends(sm_call(op, 13, t, std::nullopt));
    REQUIRE(r.ok());
    check_close(doubles_of(r->outputs[0]), reference(op, x, 6, 4, 1), kTol);
    // Opset 11, axis 1: coerced to [2, 12].
    r = run_op_all_backends(sm_call(op, 11, t, 1));
    REQUIRE(r.ok());
    check_close(doubles_of(r->outputs[0]), reference(op, x, 2, 12, 1), kTol);
    // Opset 11 default axis is 1, not -1.
    r = run_op_all_backends(sm_call(op, 11, t, std::nullopt));
    REQUIRE(r.ok());
    check_close(doubles_of(r->outputs[0]), reference(op, x, 2, 12, 1), kTol);
    // Long rows (the block kernel on CUDA).
    const auto long_x = wave(3 * 1000);
    r = run_op_all_backends(sm_call(op, 13, make_tensor(DType::kF32, {3, 1000}, long_x), -1));
    REQUIRE(r.ok());
    check_close(doubles_of(r->outputs[0]), reference(op, long_x, 3, 1000, 1), kTol);
  }
}

TEST_CASE("softmax hand-computed values and stability", "[softmax]") {
  auto r = run_op_all_backends(sm_call("Softmax", 13, f32({3}, {1, 2, 3}), std::nullopt));
  REQUIRE(r.ok());
  const double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  check_close(doubles_of(r->outputs[0]), {std::exp(1.0) / s, std::exp(2.0) / s, std::exp(3.0) / s}, kTol);
  // LogSoftmax is finite where softmax underflows: exp(-1000) is 0 in float.
  r = run_op_all_backends(sm_call("LogSoftmax", 13, f32({2}, {1000, 0}), std::nullopt));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0])[0] == Approx(0.0).margin(1e-6));
  CHECK(values_of<float>(r->outputs[0])[1] == Approx(-1000.0));
  // Hardmax: the first of tied maxima.
  r = run_op_all_backends(sm_call("Hardmax", 13, f32({2, 3}, {1, 3, 3, 2, 2, 2}), std::nullopt));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{0, 1, 0, 1, 0, 0});
}

// The CPU's contiguous-row fast path (inner == 1) against the strided path on the
// transposed tensor: same rows, so the same values bit for bit; and NaN / all -inf rows.
TEST_CASE("softmax contiguous rows match strided rows", "[softmax]") {
  // Strided rows are the columns of [len, rows]: the CPU takes up to 16 at once
  // (37 columns: 16 + 16 + 5), each with the contiguous row's blocked-sum tree
  // (len 16 and 37: one partial block; 64: two whole blocks, no tail; 70: a carry
  // and a tail), so every element must be the same bits. One column holds a NaN.
  for (const auto& [rows, len] : {std::pair<int64_t, int64_t>{5, 37}, {37, 16}, {21, 64}, {19, 70}}) {
    auto x = wave(rows * len);
    if (rows > 3) x[3 * len + len / 2] = NAN;  // row 3 of [rows, len]: column 3 of its transpose
    std::vector<double> xt(x.size());
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t j = 0; j < len; ++j) xt[j * rows + r] = x[r * len + j];
    for (const char* op : {"Softmax", "LogSoftmax"}) {
      INFO(op << " rows " << rows << " len " << len);
      auto a = run_op_all_backends(sm_call(op, 13, make_tensor(DType::kF32, {rows, len}, x), -1));
      auto b = run_op_all_backends(sm_call(op, 13, make_tensor(DType::kF32, {len, rows}, xt), 0));
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      const auto ya = values_of<float>(a->outputs[0]), yb = values_of<float>(b->outputs[0]);
      int64_t mismatches = 0;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < len; ++j) {
          const float u = ya[r * len + j], v = yb[j * rows + r];
          mismatches += !(u == v || (std::isnan(u) && std::isnan(v)));
        }
      CHECK(mismatches == 0);
      if (rows > 3) CHECK(std::isnan(ya[3 * len]));
    }
  }
  auto r = run_op_all_backends(sm_call("Softmax", 13, f32({2, 3}, {1, NAN, 2, -INFINITY, -INFINITY, -INFINITY}), -1));
  REQUIRE(r.ok());
  for (float v : values_of<float>(r->outputs[0])) CHECK(std::isnan(v));
}

TEST_CASE("softmax f16/bf16 compute in f32", "[softmax]") {
  const auto x = wave(2 * 50);
  for (DType t : {DType::kF16, DType::kBF16, DType::kF64}) {
    HostTensor in = make_tensor(t, {2, 50}, x);
    auto r = run_op_all_backends(sm_call("Softmax", 13, in, -1));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == t);
    const auto want = reference("Softmax", doubles_of(in), 2, 50, 1);
    const auto got = doubles_of(r->outputs[0]);
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(want[i]).epsilon(1e-2).margin(1e-4));
  }
  auto r = run_op_all_backends(sm_call("Softmax", 13, make_tensor(DType::kI32, {2}, {1, 2}), -1));
  require_error(r, StatusCode::kUnimplemented, "element type int32 is not supported (float types only)");
}

TEST_CASE("softmax family ONNX node tests", "[softmax][onnx]") {
  run_node_cases({"test_softmax", "test_logsoftmax", "test_hardmax"});
}

}  // namespace
}  // namespace gk::test

// Long sums (ops/common/blocked_sum.cuh): reductions, pools, softmax denominators
// and normalisation statistics over 100000 float32 terms of mixed magnitude,
// against a float64 reference computed here. Each case asserts that the op's
// error is within the blocked pairwise tree's bound, and that the single running
// float accumulator the test computes itself (what these kernels did before) is
// measurably worse on the same data, so the data set can tell the two apart.
#include "tests/ops/onnx_node_cases.h"

#include <algorithm>
#include <cmath>

namespace gk::test {
namespace {

constexpr int64_t kN = 100000;
constexpr double kU = 0x1p-24;  // float32 unit roundoff

// First-order worst case for a blocked pairwise float sum of n non-negative
// terms, relative to the sum: 31 roundings inside a block, then the carry
// stack's depth (at most twice log2 of the block count, the subtree and the
// final chain), each at most kU.
double blocked_bound(int64_t n) {
  const double blocks = std::ceil(double(n) / 32);
  return (31 + 2 * std::ceil(std::log2(blocks + 1))) * kU;
}

// Positive terms, magnitudes log-uniform in [1e-3, 1e3], rounded to float.
std::vector<float> mixed(int64_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (auto& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = static_cast<float>(std::pow(10.0, -3.0 + 6.0 * (seed >> 8) / double(1 << 24)));
  }
  return v;
}

double rel(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

HostTensor floats(Shape shape, const std::vector<float>& v) { return f32(std::move(shape), v); }

float only(const OpResult& r) {
  REQUIRE(r.outputs[0].numel() == 1);
  return values_of<float>(r.outputs[0])[0];
}

void require_blocked(double ours, double naive, double bound) {
  INFO("error: ours " << ours << ", one float accumulator " << naive << ", bound " << bound);
  CHECK(ours <= bound);
  CHECK(naive >= 10 * ours);
}

OpCall reduce(const std::string& op, HostTensor x, std::vector<int64_t> axes) {
  OpCall c = call(op, 18, {std::move(x), i64({static_cast<int64_t>(axes.size())}, axes)});
  c.attrs.set("keepdims", int_attr(0));
  return c;
}

TEST_CASE("blocked sums: ReduceSum/Mean/L1 over 100000 mixed terms, row and column layouts", "[reduce][accuracy]") {
  const auto x = mixed(kN, 1);
  double ref = 0;
  float naive = 0;
  for (float v : x) ref += v, naive += v;
  const double bound = blocked_bound(kN);
  for (const char* op : {"ReduceSum", "ReduceMean", "ReduceL1"}) {
    INFO(op);
    auto r = run_op_all_backends(reduce(op, floats({kN}, x), {0}));
    REQUIRE(r.ok());
    const double scale = std::string(op) == "ReduceMean" ? double(kN) : 1.0;
    require_blocked(rel(only(*r) * scale, ref), rel(naive, ref), bound + kU);
  }
  // [kN, 2] over axis 0: the CPU's column path (each column its own carry stack).
  std::vector<float> cols(2 * kN);
  const auto y = mixed(kN, 2);
  double ref_y = 0;
  float naive_y = 0;
  for (int64_t i = 0; i < kN; ++i) cols[2 * i] = x[i], cols[2 * i + 1] = y[i], ref_y += y[i], naive_y += y[i];
  auto r = run_op_all_backends(reduce("ReduceSum", floats({kN, 2}, cols), {0}));
  REQUIRE(r.ok());
  const auto got = values_of<float>(r->outputs[0]);
  require_blocked(rel(got[0], ref), rel(naive, ref), bound);
  require_blocked(rel(got[1], ref_y), rel(naive_y, ref_y), bound);
  // The column path and the row path fold the same tree: the same bits.
  CHECK(got[0] == values_of<float>(run_op(reduce("ReduceSum", floats({kN}, x), {0}))->outputs[0])[0]);
}

TEST_CASE("blocked sums: ReduceSumSquare/L2 fold squares by FMA", "[reduce][accuracy]") {
  const auto x = mixed(kN, 3);
  double ref = 0;
  float naive = 0;
  for (float v : x) ref += double(v) * v, naive += v * v;
  auto r = run_op_all_backends(reduce("ReduceSumSquare", floats({kN}, x), {0}));
  REQUIRE(r.ok());
  require_blocked(rel(only(*r), ref), rel(naive, ref), blocked_bound(kN));
  r = run_op_all_backends(reduce("ReduceL2", floats({kN}, x), {0}));
  REQUIRE(r.ok());
  require_blocked(rel(only(*r), std::sqrt(ref)), rel(std::sqrt(naive), std::sqrt(ref)), blocked_bound(kN) / 2 + kU);
}

// exp(x - max) spans e^-10 .. 1: the denominators of LogSumExp and Softmax.
std::vector<float> logits(int64_t n) {
  auto v = mixed(n, 4);
  for (auto& x : v) x = static_cast<float>(std::log10(x) * 10.0 / 6.0);  // [-5, 5]
  return v;
}

TEST_CASE("blocked sums: ReduceLogSumExp and Softmax denominators", "[reduce][softmax][accuracy]") {
  const auto x = logits(kN);
  const float m = *std::max_element(x.begin(), x.end());
  double ref = 0;
  float naive = 0;
  for (float v : x) ref += std::exp(double(v) - m), naive += std::exp(v - m);
  // expf is within 1 ulp (glibc, libdevice): one more kU per term and in the log.
  const double bound = blocked_bound(kN) + 2 * kU;
  auto r = run_op_all_backends(reduce("ReduceLogSumExp", floats({kN}, x), {0}));
  REQUIRE(r.ok());
  const double lse = m + std::log(ref);
  require_blocked(std::fabs(only(*r) - lse), std::fabs(m + std::log(naive) - lse), bound * std::fabs(lse) + bound);

  OpCall sm = call("Softmax", 13, {floats({1, kN}, x)});
  r = run_op_all_backends(sm);
  REQUIRE(r.ok());
  const auto y = values_of<float>(r->outputs[0]);
  double ours = 0, naive_err = 0;
  for (int64_t i = 0; i < kN; ++i) {
    const double want = std::exp(double(x[i]) - m) / ref;
    ours = std::max(ours, rel(y[i], want));
    naive_err = std::max(naive_err, rel(std::exp(x[i] - m) / naive, want));
  }
  require_blocked(ours, naive_err, bound + 2 * kU);
}

TEST_CASE("blocked sums: GlobalAveragePool and a 100000-tap AveragePool window", "[pool][accuracy]") {
  const auto x = mixed(kN, 5);
  double ref = 0;
  float naive = 0;
  for (float v : x) ref += v, naive += v;
  ref /= kN;
  naive /= kN;
  auto r = run_op_all_backends(call("GlobalAveragePool", 1, {floats({1, 1, 250, 400}, x)}));
  REQUIRE(r.ok());
  require_blocked(rel(only(*r), ref), rel(naive, ref), blocked_bound(kN) + kU);
  OpCall avg = call("AveragePool", 19, {floats({1, 1, 250, 400}, x)});
  avg.attrs.set("kernel_shape", ints_attr({250, 400}));
  r = run_op_all_backends(avg);
  REQUIRE(r.ok());
  require_blocked(rel(only(*r), ref), rel(naive, ref), blocked_bound(kN) + kU);
}

TEST_CASE("blocked sums: LayerNormalization mean and variance over 100000 terms", "[normalization][accuracy]") {
  // Values 10 + [-1, 1]: the mean is large against the spread, so an error in the
  // mean shows in every output.
  auto x = mixed(kN, 6);
  for (auto& v : x) v = static_cast<float>(10.0 + (std::log10(v) / 3.0));
  double mean = 0;
  float naive_mean = 0;
  for (float v : x) mean += v, naive_mean += v;
  mean /= kN;
  naive_mean /= kN;
  double var = 0;
  float naive_var = 0;
  for (float v : x) {
    var += (v - mean) * (v - mean);
    const float d = v - naive_mean;
    naive_var += d * d;
  }
  var /= kN;
  naive_var /= kN;
  const double eps = 1e-5;
  const double inv = 1 / std::sqrt(var + eps);
  const float naive_inv = 1 / std::sqrt(naive_var + static_cast<float>(eps));
  OpCall ln = call("LayerNormalization", 17, {floats({1, kN}, x), floats({kN}, std::vector<float>(kN, 1.0f))});
  auto r = run_op_all_backends(ln);
  REQUIRE(r.ok());
  const auto y = values_of<float>(r->outputs[0]);
  double ours = 0, naive = 0;
  for (int64_t i = 0; i < kN; ++i) {
    const double want = (x[i] - mean) * inv;
    ours = std::max(ours, std::fabs(y[i] - want));
    naive = std::max(naive, std::fabs((x[i] - naive_mean) * naive_inv - want));
  }
  // The mean's error (bound * 10) over the deviation's scale (inv ~ 1.7), plus the
  // variance's relative error and a few roundings of an output of at most ~2.
  const double bound = blocked_bound(kN) * (10 * inv + 2) + 8 * kU;
  require_blocked(ours, naive, bound);
}

TEST_CASE("blocked sums: RMSNormalization and LpNormalization norms", "[normalization][accuracy]") {
  const auto x = mixed(kN, 7);
  double sq = 0, l1 = 0;
  float naive_sq = 0, naive_l1 = 0;
  for (float v : x) sq += double(v) * v, naive_sq += v * v, l1 += v, naive_l1 += v;
  struct Case {
    const char* op;
    int opset;
    int p;
  };
  for (Case c : {Case{"RMSNormalization", 23, 2}, Case{"LpNormalization", 22, 2}, Case{"LpNormalization", 22, 1}}) {
    INFO(c.op << " p " << c.p);
    OpCall op = c.p == 2 && c.opset == 23
                    ? call(c.op, c.opset, {floats({1, kN}, x), floats({kN}, std::vector<float>(kN, 1.0f))})
                    : call(c.op, c.opset, {floats({1, kN}, x)});
    if (std::string(c.op) == "LpNormalization") op.attrs.set("p", int_attr(c.p));
    auto r = run_op_all_backends(op);
    REQUIRE(r.ok());
    const auto y = values_of<float>(r->outputs[0]);
    // The norm each output divides by, in float64 and from one float accumulator.
    const bool rms = c.opset == 23;
    const double norm = rms ? std::sqrt(sq / kN) : c.p == 2 ? std::sqrt(sq) : l1;
    const double naive_norm = rms ? std::sqrt(naive_sq / kN) : c.p == 2 ? std::sqrt(naive_sq) : naive_l1;
    double ours = 0, naive = 0;
    for (int64_t i = 0; i < kN; ++i) {
      const double want = x[i] / norm;
      ours = std::max(ours, rel(y[i], want));
      naive = std::max(naive, rel(x[i] / naive_norm, want));
    }
    require_blocked(ours, naive, blocked_bound(kN) + 4 * kU);
  }
}

}  // namespace
}  // namespace gk::test

// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: the spec's worked examples,
// ignore_index with mean, class weights, the log_prob output, out-of-range labels,
// element types per opset, and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>

namespace gk::test {
namespace {

OpCall loss_call(const std::string& op, int opset, std::vector<std::optional<HostTensor>> inputs,
                 const std::string& reduction, std::optional<int64_t> ignore_index = std::nullopt, int outputs = 1) {
  OpCall c;
  c.op_type = op;
  c.opset = opset;
  c.inputs = std::move(inputs);
  c.num_outputs = outputs;
  c.attrs.set("reduction", string_attr(reduction));
  if (ignore_index) c.attrs.set("ignore_index", int_attr(*ignore_index));
  return c;
}

constexpr Tol kTol{.rtol = 1e-5, .atol = 1e-6};

// The spec's NLL examples: input [N, C, d1] = [2, 3, 2], target [[2, 1], [0, 2]].
const std::vector<double> kInput = {1, 2, 2, 2, 3, 2, 0, 1, 2, 2, 1, 2};
const std::vector<double> kWeight = {0.2, 0.3, 0.1};

HostTensor nll_input(DType t = DType::kF32) { return make_tensor(t, {2, 3, 2}, kInput); }
HostTensor nll_target(std::vector<int64_t> v = {2, 1, 0, 2}) { return i64({2, 2}, std::move(v)); }

TEST_CASE("NegativeLogLikelihoodLoss: the spec's examples", "[loss]") {
  auto none = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, "none"));
  REQUIRE(none.ok());
  CHECK(none->outputs[0].shape() == Shape{2, 2});
  check_close(doubles_of(none->outputs[0]), {-3, -2, 0, -2}, kTol);

  // Weighted: losses -0.3, -0.6, 0, -0.2; applied weights 0.1, 0.3, 0.2, 0.1.
  const HostTensor w = make_tensor(DType::kF32, {3}, kWeight);
  auto sum = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target(), w}, "sum"));
  REQUIRE(sum.ok());
  CHECK(sum->outputs[0].shape() == Shape{});
  check_close(doubles_of(sum->outputs[0]), {-1.1}, kTol);
  auto mean = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target(), w}, "mean"));
  REQUIRE(mean.ok());
  check_close(doubles_of(mean->outputs[0]), {-1.1 / 0.7}, kTol);

  // Unweighted mean over all four elements; int32 targets.
  auto c = loss_call("NegativeLogLikelihoodLoss", 12, {nll_input(), make_tensor(DType::kI32, {2, 2}, {2, 1, 0, 2})},
                     "mean");
  auto plain = run_op_all_backends(c);
  REQUIRE(plain.ok());
  check_close(doubles_of(plain->outputs[0]), {-7.0 / 4}, kTol);
}

TEST_CASE("NegativeLogLikelihoodLoss: ignore_index drops the element and its weight", "[loss]") {
  const HostTensor w = make_tensor(DType::kF32, {3}, kWeight);
  // ignore_index 2 leaves (n0, d1): -2 (weight 0.3) and (n1, d0): -0 (weight 0.2).
  auto mean = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, "mean", 2));
  REQUIRE(mean.ok());
  check_close(doubles_of(mean->outputs[0]), {-2.0 / 2}, kTol);
  auto wmean =
      run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target(), w}, "mean", 2));
  REQUIRE(wmean.ok());
  check_close(doubles_of(wmean->outputs[0]), {-0.6 / 0.5}, kTol);
  auto none = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, "none", 2));
  REQUIRE(none.ok());
  check_close(doubles_of(none->outputs[0]), {0, -2, 0, 0}, kTol);

  // A negative ignore_index outside [0, C) is not an error.
  auto neg = run_op_all_backends(
      loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target({-5, 1, 0, -5}), w}, "mean", -5));
  REQUIRE(neg.ok());
  check_close(doubles_of(neg->outputs[0]), {-0.6 / 0.5}, kTol);
}

TEST_CASE("NegativeLogLikelihoodLoss: a target outside 0..C-1 is OutOfRange", "[loss]") {
  for (const char* red : {"none", "sum", "mean"}) {
    INFO(red);
    auto high =
        run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target({2, 3, 0, 2})}, red));
    require_error(high, StatusCode::kOutOfRange, "an index was out of range");
    // -1 is out of range when ignore_index is another value.
    auto low = run_op_all_backends(
        loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target({-1, 1, 0, 2})}, red, 7));
    require_error(low, StatusCode::kOutOfRange, "an index was out of range");
  }
}

TEST_CASE("NegativeLogLikelihoodLoss: element types by opset, shape checks", "[loss]") {
  const HostTensor w = make_tensor(DType::kF32, {3}, kWeight);
  for (DType t : {DType::kF16, DType::kF64, DType::kBF16}) {
    INFO(dtype_name(t));
    auto r = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 22,
                              {nll_input(t), nll_target(), make_tensor(t, {3}, kWeight)}, "mean"));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == t);
    check_close(doubles_of(r->outputs[0]), {-1.1 / 0.7}, Tol{.rtol = t == DType::kF64 ? 1e-12 : 1e-2, .atol = 1e-6});
  }
  // bfloat16 arrives with opset 22.
  auto bf =
      run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(DType::kBF16), nll_target()}, "sum"));
  CHECK(bf.status().code() == StatusCode::kUnimplemented);
  // Weight of another type, target of the wrong shape.
  auto wt = run_op_all_backends(
      loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(DType::kF64), nll_target(), w}, "sum"));
  require_error(wt, StatusCode::kInvalidModel, "the weight has type float32, the input float64");
  auto shape = run_op_all_backends(
      loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), i64({2, 3}, {0, 0, 0, 0, 0, 0})}, "sum"));
  require_error(shape, StatusCode::kInvalidModel,
                "the target has shape 2x3, expected 2x2 (the input's 2x3x2 without C)");
  auto red = run_op_all_backends(loss_call("NegativeLogLikelihoodLoss", 13, {nll_input(), nll_target()}, "max"));
  require_error(red, StatusCode::kInvalidModel, "reduction 'max' is not one of none, sum, mean");
}

TEST_CASE("SoftmaxCrossEntropyLoss: loss and log_prob", "[loss]") {
  // Row 0: log(1 + e^-1 + e^-2) past its max 3; row 1 uniform: -log 3.
  const double l0 = std::log(1 + std::exp(-1.0) + std::exp(-2.0)), l3 = std::log(3.0);
  const std::vector<double> log_prob = {-2 - l0, -1 - l0, -l0, -l3, -l3, -l3};
  const HostTensor scores = f32({2, 3}, {1, 2, 3, 1, 1, 1});
  const HostTensor labels = i64({2}, {2, 0});
  for (int opset : {12, 13}) {
    INFO("opset " << opset);
    auto none =
        run_op_all_backends(loss_call("SoftmaxCrossEntropyLoss", opset, {scores, labels}, "none", std::nullopt, 2));
    REQUIRE(none.ok());
    REQUIRE(none->outputs.size() == 2);
    check_close(doubles_of(none->outputs[0]), {l0, l3}, kTol);
    CHECK(none->outputs[1].shape() == Shape{2, 3});
    check_close(doubles_of(none->outputs[1]), log_prob, kTol);
  }
  // Weighted mean, one output: (w2 * l0 + w0 * l3) / (w2 + w0).
  auto mean =
      run_op_all_backends(loss_call("SoftmaxCrossEntropyLoss", 13, {scores, labels, f32({3}, {0.5, 2, 4})}, "mean"));
  REQUIRE(mean.ok());
  check_close(doubles_of(mean->outputs[0]), {(4 * l0 + 0.5 * l3) / 4.5}, kTol);
  // ignore_index: only row 0 counts.
  auto ii = run_op_all_backends(loss_call("SoftmaxCrossEntropyLoss", 13, {scores, labels}, "mean", 0));
  REQUIRE(ii.ok());
  check_close(doubles_of(ii->outputs[0]), {l0}, kTol);
}

TEST_CASE("SoftmaxCrossEntropyLoss: log_prob stays finite where softmax underflows", "[loss]") {
  // [N, C, d1] = [1, 2, 2]: softmax(0 vs 1000) is 0 in float, its log -inf; the
  // log-softmax is -1000.
  auto r = run_op_all_backends(loss_call(
      "SoftmaxCrossEntropyLoss", 13, {f32({1, 2, 2}, {1000, 0, 0, 0}), i64({1, 2}, {1, 1})}, "sum", std::nullopt, 2));
  REQUIRE(r.ok());
  check_close(doubles_of(r->outputs[1]), {0, -std::log(2.0), -1000, -std::log(2.0)}, kTol);
  check_close(doubles_of(r->outputs[0]), {1000 + std::log(2.0)}, kTol);
}

TEST_CASE("SoftmaxCrossEntropyLoss: a label outside 0..C-1 is OutOfRange", "[loss]") {
  auto r = run_op_all_backends(
      loss_call("SoftmaxCrossEntropyLoss", 13, {f32({2, 3}, {1, 2, 3, 1, 1, 1}), i64({2}, {0, 3})}, "mean"));
  require_error(r, StatusCode::kOutOfRange, "an index was out of range");
  auto bf = run_op_all_backends(loss_call("SoftmaxCrossEntropyLoss", 12,
                             {make_tensor(DType::kBF16, {2, 3}, {1, 2, 3, 1, 1, 1}), i64({2}, {0, 1})}, "mean"));
  CHECK(bf.status().code() == StatusCode::kUnimplemented);
}

TEST_CASE("loss ops on an empty batch", "[loss]") {
  // N = 0: nothing to launch for none, an empty sum is 0.
  const HostTensor x = make_tensor(DType::kF32, {0, 3}, {});
  const HostTensor t = i64({0}, {});
  for (const char* op : {"NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"}) {
    INFO(op);
    auto none = run_op_all_backends(loss_call(op, 13, {x, t}, "none"));
    REQUIRE(none.ok());
    CHECK(none->outputs[0].shape() == Shape{0});
    auto sum = run_op_all_backends(loss_call(op, 13, {x, t}, "sum"));
    REQUIRE(sum.ok());
    check_close(doubles_of(sum->outputs[0]), {0}, kTol);
  }
}

TEST_CASE("loss ops pass the ONNX node tests", "[loss][onnx]") { run_node_cases({"test_nllloss", "test_sce"}); }

}  // namespace
}  // namespace gk::test

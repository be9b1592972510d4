// RNN, GRU and LSTM: hand-computed cases (constants derived once with numpy from
// the ONNX equations) and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

namespace gk::test {
namespace {

constexpr Tol kTol{.rtol = 0, .atol = 1e-5};

// A linear RNN (Affine alpha=1, beta=0): h_t = w x_t + r h_prev, easy to follow by hand.
OpCall linear_rnn(std::vector<std::optional<HostTensor>> inputs, int outputs) {
  OpCall c;
  c.op_type = "RNN";
  c.opset = 14;
  c.inputs = std::move(inputs);
  c.num_outputs = outputs;
  c.attrs.set("hidden_size", int_attr(1));
  c.attrs.set("activations", strings_attr({"Affine"}));
  c.attrs.set("activation_alpha", floats_attr({1.0f}));
  c.attrs.set("activation_beta", floats_attr({0.0f}));
  return c;
}

TEST_CASE("rnn: one LSTM step with peepholes matches the hand-computed cell", "[ops][rnn]") {
  OpCall c;
  c.op_type = "LSTM";
  c.opset = 22;
  c.num_outputs = 3;
  c.attrs.set("hidden_size", int_attr(1));
  c.inputs = {f32({1, 1, 2}, {1, 2}),
              f32({1, 4, 1 * 2}, {0.1f, 0.2f, 0.3f, -0.1f, -0.2f, 0.4f, 0.5f, 0.5f}),  // i, o, f, c
              f32({1, 4, 1}, {0.5f, -0.5f, 0.25f, 1.0f}),
              f32({1, 8}, {0.1f, 0, 0, 0, 0, 0.2f, 0, 0}),
              std::nullopt,
              f32({1, 1, 1}, {0.5f}),
              f32({1, 1, 1}, {-1.0f}),
              f32({1, 3}, {0.3f, -0.2f, 0.1f})};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {-0.02058468186163412}, kTol);
  check_close(r->outputs[1], {-0.02058468186163412}, kTol);
  check_close(r->outputs[2], {-0.04003066542396394}, kTol);
}

TEST_CASE("rnn: one GRU step, with and without linear_before_reset", "[ops][rnn]") {
  std::vector<double> b(12);
  for (int i = 0; i < 12; ++i) b[i] = 0.05 * i;
  for (int lbr = 0; lbr < 2; ++lbr) {
    OpCall c;
    c.op_type = "GRU";
    c.opset = 7;
    c.num_outputs = 2;
    c.attrs.set("hidden_size", int_attr(2));
    c.attrs.set("linear_before_reset", int_attr(lbr));
    c.inputs = {f32({1, 1, 1}, {0.5f}),
                f32({1, 6, 1}, {0.1f, 0.2f, 0.3f, -0.4f, 0.5f, 0.6f}),
                f32({1, 6, 2}, {0.1f, 0.2f, 0.3f, 0.4f, -0.5f, 0.6f, 0.7f, -0.8f, 0.9f, 0.1f, 0.2f, -0.3f}),
                make_tensor(DType::kF32, {1, 12}, b),
                std::nullopt,
                f32({1, 1, 2}, {0.2f, -0.4f})};
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    const std::vector<double> want =
        lbr ? std::vector<double>{0.40314681, 0.07409999} : std::vector<double>{0.44490009, 0.09598043};
    INFO("linear_before_reset " << lbr);
    check_close(r->outputs[0], want, kTol);
    check_close(r->outputs[1], want, kTol);
  }
}

TEST_CASE("rnn: reverse direction runs from the last step", "[ops][rnn]") {
  OpCall c = linear_rnn({f32({3, 1, 1}, {1, 2, 3}), f32({1, 1, 1}, {1}), f32({1, 1, 1}, {0.5f})}, 2);
  c.attrs.set("direction", string_attr("reverse"));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  // h2 = 3, h1 = 2 + 1.5, h0 = 1 + 1.75.
  check_close(r->outputs[0], {2.75, 3.5, 3}, kTol);
  check_close(r->outputs[1], {2.75}, kTol);
}

TEST_CASE("rnn: sequence_lens zero-fills Y and freezes the state, both directions", "[ops][rnn]") {
  // batch 0: x = 1, 2, 3 (length 3); batch 1: x = 4, 5, 6 (length 2). Layout 1.
  OpCall c = linear_rnn({f32({2, 3, 1}, {1, 2, 3, 4, 5, 6}), f32({2, 1, 1}, {1, 1}), f32({2, 1, 1}, {0.5f, 0.5f}),
                         std::nullopt, make_tensor(DType::kI32, {2}, {3, 2})},
                        2);
  c.attrs.set("direction", string_attr("bidirectional"));
  c.attrs.set("layout", int_attr(1));
  c.attrs.set("activations", strings_attr({"Affine", "Affine"}));
  c.attrs.set("activation_alpha", floats_attr({1.0f, 1.0f}));
  c.attrs.set("activation_beta", floats_attr({0.0f, 0.0f}));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  // Y [batch, seq, dirs, hidden]. Forward b0: 1, 2.5, 4.25; reverse b0: 2.75, 3.5, 3.
  // Forward b1: 4, 7, (0); reverse b1 over its 2 steps: t1 = 5, t0 = 4 + 2.5, t2 = 0.
  check_close(r->outputs[0], {1, 2.75, 2.5, 3.5, 4.25, 3, 4, 6.5, 7, 5, 0, 0}, kTol);
  // Y_h [batch, dirs, hidden]: forward at the last valid step, reverse at t = 0.
  check_close(r->outputs[1], {4.25, 2.75, 7, 6.5}, kTol);
}

TEST_CASE("rnn: clip bounds the activation input", "[ops][rnn]") {
  OpCall c = linear_rnn({f32({3, 1, 1}, {1, 2, 3}), f32({1, 1, 1}, {1}), f32({1, 1, 1}, {1})}, 1);
  c.attrs.set("clip", float_attr(2.0f));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {1, 2, 2}, kTol);
}

TEST_CASE("rnn: a wrong W shape and an unknown activation are errors", "[ops][rnn]") {
  OpCall c = linear_rnn({f32({3, 1, 1}, {1, 2, 3}), f32({1, 2, 1}, {1, 1}), f32({1, 1, 1}, {1})}, 1);
  require_error(run_op_all_backends(c), StatusCode::kInvalidModel, "W has shape 1x2x1, expected 1x1x1");
  OpCall d = linear_rnn({f32({3, 1, 1}, {1, 2, 3}), f32({1, 1, 1}, {1}), f32({1, 1, 1}, {1})}, 1);
  d.attrs.set("activations", strings_attr({"Swish"}));
  require_error(run_op_all_backends(d), StatusCode::kUnimplemented, "activation 'Swish' is not supported");
}

TEST_CASE("rnn: ONNX node tests", "[ops][rnn][onnx]") {
  run_node_cases({"test_rnn", "test_simple_rnn", "test_gru", "test_lstm"});
}

}  // namespace
}  // namespace gk::test

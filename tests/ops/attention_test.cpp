// Attention, RMSNormalization and RotaryEmbedding: small cases computed by hand
// (scores chosen as 0, ln 3, ln 4 so the softmax weights are quarters and eighths),
// and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

const double kLn3 = std::log(3.0), kLn4 = std::log(4.0);

HostTensor f(Shape s, std::vector<double> v) { return make_tensor(DType::kF32, std::move(s), v); }

constexpr Tol kTol{.rtol = 1e-5, .atol = 1e-5};

TEST_CASE("Attention: causal rows see a growing prefix", "[attention]") {
  // One head, head size 1, scale 1: row 0 sees key 0 only; row 1 sees scores
  // [0, ln 3] -> weights [1/4, 3/4] of V = [4, 8] -> 7. Without is_causal row 0 is 7 too.
  auto c = call("Attention", 23, {f({1, 1, 2, 1}, {1, 1}), f({1, 1, 2, 1}, {0, kLn3}), f({1, 1, 2, 1}, {4, 8})});
  c.attrs.set("is_causal", int_attr(1));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {4, 7}, kTol);
  c.attrs.set("is_causal", int_attr(0));
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {7, 7}, kTol);
}

TEST_CASE("Attention: causal with a past cache aligns queries after the past", "[attention]") {
  // past 1 + 2 new keys = 3; query i sees keys j <= i + 1. Keys [0, ln 3, ln 4]:
  // row 0 -> [1/4, 3/4] of [4, 8] = 7; row 1 -> [1, 3, 4] / 8 of [4, 8, 100] = 53.5.
  auto c = call("Attention", 23,
                {f({1, 1, 2, 1}, {1, 1}), f({1, 1, 2, 1}, {kLn3, kLn4}), f({1, 1, 2, 1}, {8, 100}), std::nullopt,
                 f({1, 1, 1, 1}, {0}), f({1, 1, 1, 1}, {4})},
                3);
  c.attrs.set("is_causal", int_attr(1));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {7, 53.5}, kTol);
  CHECK(r->outputs[1].shape() == Shape{1, 1, 3, 1});
  check_close(r->outputs[1], {0, kLn3, kLn4}, kTol);
  check_close(r->outputs[2], {4, 8, 100}, kTol);
}

TEST_CASE("Attention: grouped kv heads repeat per run of query heads (3-D layout)", "[attention]") {
  // 4 query heads, 2 kv heads: q heads 0,1 read kv head 0 (keys [0, ln 3] -> 7),
  // q heads 2,3 read kv head 1 (keys [ln 3, 0] -> 3/4*4 + 1/4*8 = 5). A tiled
  // mapping would give [7, 5, 7, 5].
  auto c = call("Attention", 23,
                {f({1, 1, 4}, {1, 1, 1, 1}), f({1, 2, 2}, {0, kLn3, kLn3, 0}), f({1, 2, 2}, {4, 4, 8, 8})});
  c.attrs.set("q_num_heads", int_attr(4));
  c.attrs.set("kv_num_heads", int_attr(2));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{1, 1, 4});
  check_close(r->outputs[0], {7, 7, 5, 5}, kTol);
}

TEST_CASE("Attention: 3-D output interleaves heads per position", "[attention]") {
  // 2 heads of size 1, 2 positions, one key each: Y[b, s, h] = V[b, 0, h].
  auto c = call("Attention", 23, {f({1, 2, 2}, {1, 2, 3, 4}), f({1, 1, 2}, {1, 1}), f({1, 1, 2}, {10, 20})});
  c.attrs.set("q_num_heads", int_attr(2));
  c.attrs.set("kv_num_heads", int_attr(2));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {10, 20, 10, 20}, kTol);
}

TEST_CASE("Attention: boolean mask after softcap, and the qk_matmul_output stages", "[attention]") {
  // Keys chosen so that 2 tanh(k / 2) is [0, -, ln 3]; key 1 is masked out.
  const double k2 = 2 * std::atanh(kLn3 / 2);
  HostTensor mask = make_tensor(DType::kBool, {1, 3}, {1, 0, 1});
  auto c = call("Attention", 23,
                {f({1, 1, 1, 1}, {1}), f({1, 1, 3, 1}, {0, 5, k2}), f({1, 1, 3, 1}, {4, 1000, 8}), mask}, 4);
  c.attrs.set("softcap", float_attr(2.f));
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::vector<double>> stages = {
      {0, 5, k2}, {0, 2 * std::tanh(2.5), kLn3}, {0, -inf, kLn3}, {0.25, 0, 0.75}};
  for (int mode = 0; mode < 4; ++mode) {
    c.attrs.set("qk_matmul_output_mode", int_attr(mode));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    INFO("mode " << mode);
    check_close(r->outputs[0], {7}, kTol);
    check_close(r->outputs[3], stages[mode], kTol);
  }
}

TEST_CASE("Attention: a short float mask pads with -inf, and a fully masked row is NaN", "[attention]") {
  // Mask [0, ln 3] over 3 keys of score 0: weights [1/4, 3/4, 0].
  auto c = call("Attention", 23,
                {f({1, 1, 1, 1}, {1}), f({1, 1, 3, 1}, {0, 0, 0}), f({1, 1, 3, 1}, {4, 8, 1000}), f({1, 2}, {0, kLn3})});
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {7}, kTol);
  c.inputs[3] = make_tensor(DType::kBool, {1, 3}, {0, 0, 0});
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(std::isnan(doubles_of(r->outputs[0])[0]));
}

TEST_CASE("Attention: nonpad_kv_seqlen masks each batch's padding (opset 24)", "[attention]") {
  // Batch 0 keeps 2 keys ([0, ln 3] -> 7), batch 1 keeps 1 (-> 4).
  auto c = call("Attention", 24,
                {f({2, 1, 1, 1}, {1, 1}), f({2, 1, 3, 1}, {0, kLn3, 9, 0, kLn3, 9}),
                 f({2, 1, 3, 1}, {4, 8, 1000, 4, 8, 1000}), std::nullopt, std::nullopt, std::nullopt,
                 i64({2}, {2, 1})});
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {7, 4}, kTol);
  c.opset = 23;
  CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
}

TEST_CASE("Attention: f16 accumulates in f32", "[attention]") {
  auto c = call("Attention", 23,
                {make_tensor(DType::kF16, {1, 1, 2, 1}, {1, 1}), make_tensor(DType::kF16, {1, 1, 2, 1}, {0, kLn3}),
                 make_tensor(DType::kF16, {1, 1, 2, 1}, {4, 8})});
  c.attrs.set("is_causal", int_attr(1));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == DType::kF16);
  check_close(r->outputs[0], {4, 7}, Tol{.rtol = 2e-3, .atol = 2e-3});
}

TEST_CASE("Attention: bad shapes are named errors", "[attention]") {
  // 3 query heads do not group over 2 kv heads.
  auto c = call("Attention", 23, {f({1, 3, 1, 2}, {1, 1, 1, 1, 1, 1}), f({1, 2, 1, 2}, {1, 1, 1, 1}),
                                  f({1, 2, 1, 2}, {1, 1, 1, 1})});
  auto r = run_op_all_backends(c);
  require_error(r, StatusCode::kInvalidModel, "kv heads");
}

TEST_CASE("RMSNormalization: rows over the trailing axes, scale broadcast", "[attention]") {
  // Row [3, 4]: rms sqrt(12.5); row [1, 1]: rms 1.
  const double rms = std::sqrt(12.5);
  auto c = call("RMSNormalization", 23, {f({2, 2}, {3, 4, 1, 1}), f({2}, {1, 2})});
  c.attrs.set("epsilon", float_attr(0.f));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {3 / rms, 8 / rms, 1, 2}, kTol);
  // A scale that varies along the outer axis ([2, 1]) goes through the broadcast map.
  c.inputs[1] = f({2, 1}, {2, 3});
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {6 / rms, 8 / rms, 3, 3}, kTol);
  // axis 0: one row of four, rms sqrt(27 / 4).
  c.inputs[1] = f({2, 2}, {1, 1, 1, 1});
  c.attrs.set("axis", int_attr(0));
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  const double all = std::sqrt(27.0 / 4);
  check_close(r->outputs[0], {3 / all, 4 / all, 1 / all, 1 / all}, kTol);
}

TEST_CASE("RMSNormalization: f16 and bf16 with a float scale", "[attention]") {
  const double rms = std::sqrt(12.5);
  for (DType t : {DType::kF16, DType::kBF16}) {
    auto c = call("RMSNormalization", 23, {make_tensor(t, {2, 2}, {3, 4, 1, 1}), f({2}, {1, 2})});
    c.attrs.set("epsilon", float_attr(0.f));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == DType::kF32);
    check_close(r->outputs[0], {3 / rms, 8 / rms, 1, 2}, Tol{.rtol = 1e-2, .atol = 1e-2});
  }
}

TEST_CASE("RotaryEmbedding: halves, interleaved pairs, partial rotation, position ids", "[attention]") {
  // cos [0, 1], sin [1, 0]: pair 0 rotates by 90 degrees, pair 1 stays.
  auto c = call("RotaryEmbedding", 23,
                {f({1, 1, 1, 4}, {1, 2, 3, 4}), f({1, 1, 2}, {0, 1}), f({1, 1, 2}, {1, 0})});
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {-3, 2, 1, 4}, kTol);  // pairs (1, 3) and (2, 4)
  c.attrs.set("interleaved", int_attr(1));
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {-2, 1, 3, 4}, kTol);  // pairs (1, 2) and (3, 4)

  // 3-D [1, 1, 2 heads * 4], rotating the first 2 of each head by cache row 1.
  auto p = call("RotaryEmbedding", 23,
                {f({1, 1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}), f({3, 1}, {1, 0, 1}), f({3, 1}, {0, 1, 0}),
                 i64({1, 1}, {1})});
  p.attrs.set("num_heads", int_attr(2));
  p.attrs.set("rotary_embedding_dim", int_attr(2));
  r = run_op_all_backends(p);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {-2, 1, 3, 4, -6, 5, 7, 8}, kTol);
  p.inputs[3] = i64({1, 1}, {3});
  CHECK(run_op_all_backends(p).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("Attention, RMSNormalization, RotaryEmbedding: ONNX node tests", "[attention][onnx]") {
  run_node_cases({"test_attention", "test_rms_normalization", "test_rotary_embedding"});
}

}  // namespace
}  // namespace gk::test

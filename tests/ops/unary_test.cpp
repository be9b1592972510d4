// Unary math ops, activations and Clip: hand-computed edge cases (rounding, NaN,
// integer wrap, Clip's bound forms), then every ONNX node test of these ops.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

AttrMap float_attrs(std::vector<std::pair<std::string, float>> values) {
  AttrMap m;
  for (auto& [name, v] : values) {
    Attribute a;
    a.kind = Attribute::Kind::kFloat;
    a.f = v;
    m.set(name, a);
  }
  return m;
}

}  // namespace

TEST_CASE("Round is half to even, Sign and Relu keep NaN", "[unary]") {
  auto r = first_output("Round", {f32({6}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 2.6f})});
  CHECK(values_of<float>(r) == std::vector<float>{0, 2, 2, -0.0f, -2, 3});
  const float nan = std::nanf("");
  auto s = values_of<float>(first_output("Sign", {f32({4}, {-3, 0, 2, nan})}));
  CHECK(s[0] == -1);
  CHECK(s[1] == 0);
  CHECK(s[2] == 1);
  CHECK(std::isnan(s[3]));
  auto relu = values_of<float>(first_output("Relu", {f32({3}, {-1, 2, nan})}));
  CHECK(relu[0] == 0);
  CHECK(relu[1] == 2);
  CHECK(std::isnan(relu[2]));
}

TEST_CASE("integer Abs/Neg wrap, Relu-14 takes ints, BitwiseNot and Not", "[unary]") {
  auto x = make_tensor(DType::kI8, {3}, {-128, -5, 7});
  CHECK(values_of<int8_t>(first_output("Abs", {x})) == std::vector<int8_t>{-128, 5, 7});
  CHECK(values_of<int8_t>(first_output("Neg", {x})) == std::vector<int8_t>{-128, 5, -7});
  CHECK(values_of<int8_t>(first_output("Relu", {x}, {}, 14)) == std::vector<int8_t>{0, 0, 7});
  CHECK(values_of<uint8_t>(first_output("BitwiseNot", {make_tensor(DType::kU8, {2}, {0, 0x0f})}, {}, 18)) ==
        std::vector<uint8_t>{0xff, 0xf0});
  CHECK(values_of<bool>(first_output("Not", {make_tensor(DType::kBool, {2}, {0, 1})})) ==
      std::vector<bool>{true, false});
  auto u = run_op_all_backends(op_call("Neg", {make_tensor(DType::kU8, {1}, {1})}, {}, 13));
  require_error(u, StatusCode::kUnimplemented, "input 0 has element type uint8; supported: float32, int8, int16,");
}

TEST_CASE("IsInf honours detect_negative/detect_positive", "[unary]") {
  const float inf = std::numeric_limits<float>::infinity();
  auto x = f32({4}, {inf, -inf, 1, std::nanf("")});
  CHECK(values_of<bool>(first_output("IsInf", {x})) == std::vector<bool>{true, true, false, false});
  CHECK(values_of<bool>(first_output("IsInf", {x}, attr_map("detect_positive", int_attr(0)), 10)) ==
        std::vector<bool>{false, true, false, false});
  CHECK(values_of<bool>(first_output("IsNaN", {x})) == std::vector<bool>{false, false, false, true});
}

TEST_CASE("activation formulas", "[unary]") {
  // Reference values: the spec formulas in double (Python math), offline.
  auto x = f32({3}, {-1.0f, 0.5f, 3.0f});
  auto approx = [](std::vector<float> got, std::vector<double> want) {
    check_close(std::vector<double>(got.begin(), got.end()), want, Tol{.rtol = 1e-6, .atol = 1e-7});
  };
  approx(values_of<float>(first_output("Sigmoid", {x})), {0.2689414213699951, 0.6224593312018546, 0.9525741268224334});
  approx(values_of<float>(first_output("Gelu", {x}, {}, 20)),
         {-0.15865525393145707, 0.34573123063700656, 2.99595030590511});
  AttrMap tanh;
  Attribute a;
  a.kind = Attribute::Kind::kString;
  a.s = "tanh";
  tanh.set("approximate", a);
  approx(values_of<float>(first_output("Gelu", {x}, tanh, 20)),
         {-0.15880800939172324, 0.34571400982514394, 2.996362607918227});
  approx(values_of<float>(first_output("Mish", {x}, {}, 18)),
         {-0.30340146137410895, 0.3752452113048951, 2.9865350049679575});
  approx(values_of<float>(first_output("Elu", {x}, float_attrs({{"alpha", 2.0f}}))), {-1.2642411176571153, 0.5, 3.0});
  approx(values_of<float>(first_output("HardSwish", {x}, {}, 14)), {-0.33333333333333337, 0.2916666666666667, 3.0});
  approx(values_of<float>(first_output("Swish", {x}, float_attrs({{"alpha", 2.0f}}), 24)),
         {-0.11920292202211755, 0.36552928931500245, 2.992582130530096});
  approx(values_of<float>(first_output("Celu", {x}, float_attrs({{"alpha", 2.0f}}), 12)),
         {-0.7869386805747332, 0.5, 3.0});
  approx(values_of<float>(first_output("Softplus", {f32({2}, {-100.0f, 100.0f})})), {3.720075976020836e-44, 100.0});
  approx(values_of<float>(first_output("Shrink", {x}, float_attrs({{"lambd", 0.6f}, {"bias", 0.5f}}), 9)),
         {-0.5, 0, 2.5});
}

TEST_CASE("Shrink on integers and f16 activations", "[unary]") {
  auto s = first_output("Shrink", {make_tensor(DType::kI32, {3}, {-5, 1, 5})},
      float_attrs({{"lambd", 1.5f}, {"bias", 2.0f}}), 9);
  CHECK(values_of<int32_t>(s) == std::vector<int32_t>{-3, 0, 3});
  auto h = first_output("LeakyRelu", {make_tensor(DType::kF16, {2}, {-2, 4})}, float_attrs({{"alpha", 0.5f}}), 16);
  CHECK(doubles_of(h) == std::vector<double>{-1, 4});
}

TEST_CASE("Clip bounds: attributes, host-known inputs, device inputs, absent", "[unary]") {
  auto x = f32({4}, {-5, -1, 1, 5});
  // Clip-6: attributes.
  CHECK(values_of<float>(first_output("Clip", {x}, float_attrs({{"min", -2.0f}, {"max", 2.0f}}), 6)) ==
        std::vector<float>{-2, -1, 1, 2});
  // Clip-11+: inputs, known before the run or only on the device.
  for (bool host_known : {true, false}) {
    INFO("host_known=" << host_known);
    CHECK(values_of<float>(first_output("Clip", {x, f32({}, {-2}), f32({}, {3})}, {}, 13, host_known)) ==
          std::vector<float>{-2, -1, 1, 3});
    CHECK(values_of<float>(first_output("Clip", {x, std::nullopt, f32({}, {0})}, {}, 13, host_known)) ==
          std::vector<float>{-5, -1, 0, 0});
    // min > max gives max everywhere.
    CHECK(values_of<float>(first_output("Clip", {x, f32({}, {2}), f32({}, {1})}, {}, 13, host_known)) ==
          std::vector<float>{1, 1, 1, 1});
    auto big = make_tensor(DType::kI64, {3}, {-9007199254740993.0, 0, 9007199254740993.0});
    HostTensor lo = HostTensor::from_vector(DType::kI64, {}, std::vector<int64_t>{-9007199254740991});
    auto r = first_output("Clip", {big, lo}, {}, 13, host_known);
    CHECK(values_of<int64_t>(r)[0] == -9007199254740991);
  }
  CHECK(values_of<float>(first_output("Clip", {x}, {}, 13)) == std::vector<float>{-5, -1, 1, 5});
  auto i = first_output("Clip", {make_tensor(DType::kU8, {3}, {0, 100, 255}), make_tensor(DType::kU8, {}, {10})},
      {}, 13);
  CHECK(values_of<uint8_t>(i) == std::vector<uint8_t>{10, 100, 255});
  auto bad = run_op_all_backends(op_call("Clip", {x, f32({2}, {0, 1})}, {}, 13));
  require_error(bad, StatusCode::kInvalidModel, "scalar");
}

TEST_CASE("unary ops pass the ONNX node tests", "[unary][onnx]") {
  run_node_cases({"test_abs", "test_neg", "test_sign", "test_ceil", "test_floor", "test_round",
                  "test_reciprocal", "test_sqrt", "test_erf", "test_sin", "test_cos", "test_tan", "test_asin",
                  "test_acos", "test_atan", "test_isnan", "test_isinf", "test_relu", "test_leakyrelu",
                  "test_elu", "test_selu", "test_celu", "test_sigmoid", "test_hardsigmoid", "test_hardswish",
                  "test_swish", "test_mish", "test_softplus", "test_softsign", "test_gelu", "test_thresholdedrelu",
                  "test_shrink", "test_clip", "test_bitwise_not", "test_not_"},
                 {});
  // Names that prefix other ops' tests (Expand, LogSoftmax): listed whole.
  for (const char* name : {"test_exp", "test_exp_example", "test_log", "test_log_example"}) {
    bool skipped = false;
    std::string err = run_node_case(node_cases_detail::data_dir() / name, 1e-3, 1e-5, &skipped);
    INFO(name << ": " << err);
    CHECK(err.empty());
    CHECK(!skipped);
  }
}

}  // namespace gk::test

// Binary, variadic and ternary elementwise ops: hand-computed cases for the
// defined edge behaviour (integer division, modulo signs, shifts, NaN in Max,
// broadcasting layouts), then every ONNX node test of these ops.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

namespace gk::test {

TEST_CASE("opsets 1-6: B broadcasts only with broadcast=1, aligned at axis, and PRelu slopes per channel",
          "[elementwise]") {
  auto a = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // axis=1: B [3] runs along dim 1 (numpy would align it with the last dim and fail).
  AttrMap at = attr_map("broadcast", int_attr(1));
  at.set("axis", int_attr(1));
  CHECK(values_of<float>(first_output("Add", {a, f32({3}, {100, 200, 300})}, at, 6)) ==
        std::vector<float>{100, 101, 202, 203, 304, 305, 106, 107, 208, 209, 310, 311});
  // No axis: suffix matching, as numpy.
  CHECK(values_of<float>(first_output("Mul", {a, f32({2}, {1, -1})}, attr_map("broadcast", int_attr(1)), 6)) ==
        std::vector<float>{0, -1, 2, -3, 4, -5, 6, -7, 8, -9, 10, -11});
  // A one-element B is a scalar whatever its rank.
  CHECK(values_of<float>(first_output("Sub", {a, f32({1, 1}, {1})}, attr_map("broadcast", int_attr(1)), 1))[0] == -1);
  // Without broadcast=1 the shapes must be equal: a named error, not numpy's rule.
  OpCall call;
  call.op_type = "Add";
  call.opset = 6;
  call.inputs = {a, f32({2}, {1, 1})};
  auto r = run_op_all_backends(call);
  require_error(r, StatusCode::kInvalidModel, "broadcast=0");
  // B that fits nowhere at the axis.
  call.attrs = at;
  call.inputs = {a, f32({2}, {1, 1})};
  r = run_op_all_backends(call);
  require_error(r, StatusCode::kInvalidModel, "does not match");
  // PRelu-6: slope [C] per channel of [N, C, W].
  auto x = f32({1, 2, 2}, {-1, 2, -3, 4});
  CHECK(values_of<float>(first_output("PRelu", {x, f32({2}, {0.5f, 0.25f})}, {}, 6)) ==
        std::vector<float>{-0.5f, 2, -0.75f, 4});
}

TEST_CASE("Add broadcasts every layout", "[elementwise]") {
  // Same shape, scalar on either side, and a middle-axis broadcast ([2,3,2] + [3,1]).
  auto a = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto b = f32({2, 3}, {10, 20, 30, 40, 50, 60});
  CHECK(values_of<float>(first_output("Add", {a, b})) == std::vector<float>{11, 22, 33, 44, 55, 66});
  CHECK(values_of<float>(first_output("Add", {f32({}, {100}), a})) == std::vector<float>{101, 102, 103, 104, 105, 106});
  CHECK(values_of<float>(first_output("Sub", {a, f32({1}, {1})})) == std::vector<float>{0, 1, 2, 3, 4, 5});
  auto x = f32({2, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  auto c = f32({3, 1}, {100, 200, 300});
  auto y = first_output("Add", {x, c});
  CHECK(y.shape() == Shape{2, 3, 2});
  CHECK(values_of<float>(y) == std::vector<float>{100, 101, 202, 203, 304, 305, 106, 107, 208, 209, 310, 311});
  // Both operands broadcast: [3,1] * [1,2] -> [3,2].
  auto z = first_output("Mul", {f32({3, 1}, {1, 2, 3}), f32({1, 2}, {10, 100})});
  CHECK(z.shape() == Shape{3, 2});
  CHECK(values_of<float>(z) == std::vector<float>{10, 100, 20, 200, 30, 300});
}

TEST_CASE("Add rejects shapes that do not broadcast", "[elementwise]") {
  OpCall call;
  call.op_type = "Add";
  call.inputs = {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({2}, {1, 2})};
  auto r = run_op_all_backends(call);
  require_error(r, StatusCode::kInvalidModel, "do not broadcast");
}

TEST_CASE("integer Div truncates and defines division by zero", "[elementwise]") {
  auto a = make_tensor(DType::kI32, {5}, {7, -7, 7, 5, -2147483648.0});
  auto b = make_tensor(DType::kI32, {5}, {2, 2, -2, 0, -1});
  // C truncation; x / 0 = 0; INT_MIN / -1 wraps to INT_MIN.
  CHECK(values_of<int32_t>(first_output("Div", {a, b})) == std::vector<int32_t>{3, -3, -3, 0, INT32_MIN});
}

TEST_CASE("integer Add Sub and Mul wrap in two's complement", "[elementwise]") {
  // As ONNX Runtime's C++ does; the sanitizer build checks the arithmetic stays defined.
  auto a = make_tensor(DType::kI32, {3}, {2147483647.0, -2147483648.0, 65536});
  auto b = make_tensor(DType::kI32, {3}, {1, -1, 65536});
  CHECK(values_of<int32_t>(first_output("Add", {a, b})) == std::vector<int32_t>{INT32_MIN, INT32_MAX, 131072});
  CHECK(values_of<int32_t>(first_output("Sub", {a, b})) == std::vector<int32_t>{2147483646, INT32_MIN + 1, 0});
  CHECK(values_of<int32_t>(first_output("Mul", {a, b})) == std::vector<int32_t>{INT32_MAX, INT32_MIN, 0});
  auto big = i64({2}, {INT64_MAX, int64_t{1} << 32});
  auto one = i64({2}, {1, int64_t{1} << 32});
  CHECK(values_of<int64_t>(first_output("Add", {big, one})) == std::vector<int64_t>{INT64_MIN, int64_t{1} << 33});
  CHECK(values_of<int64_t>(first_output("Mul", {big, one})) == std::vector<int64_t>{INT64_MAX, 0});
  // 65535 * 65535 = 4294836225 = 1 (mod 2^16); promoted to int it would overflow.
  auto u = make_tensor(DType::kU16, {1}, {65535});
  CHECK(values_of<uint16_t>(first_output("Mul", {u, u})) == std::vector<uint16_t>{1});
}

TEST_CASE("Pow of an integer base by a float exponent past the integer range gives its lowest value", "[elementwise]") {
  // x86's conversion result, which ONNX Runtime shares; out of range or NaN, never undefined.
  auto base = make_tensor(DType::kI32, {3}, {10, -1, 2});
  auto e = f32({3}, {20.0f, 0.5f, 3.0f});
  CHECK(values_of<int32_t>(first_output("Pow", {base, e})) == std::vector<int32_t>{INT32_MIN, INT32_MIN, 8});
  auto base64 = i64({2}, {10, 3});
  auto e64 = f32({2}, {40.0f, 2.0f});
  CHECK(values_of<int64_t>(first_output("Pow", {base64, e64})) == std::vector<int64_t>{INT64_MIN, 9});
}

TEST_CASE("Mod follows the divisor's sign, fmod the dividend's", "[elementwise]") {
  auto a = make_tensor(DType::kI64, {4}, {7, -7, 7, -7});
  auto b = make_tensor(DType::kI64, {4}, {3, 3, -3, -3});
  CHECK(values_of<int64_t>(first_output("Mod", {a, b})) == std::vector<int64_t>{1, 2, -2, -1});
  CHECK(values_of<int64_t>(first_output("Mod", {a, b}, attr_map("fmod", int_attr(1)))) ==
      std::vector<int64_t>{1, -1, 1, -1});
  auto fa = f32({2}, {-4.5f, 4.5f});
  auto fb = f32({2}, {2.0f, -2.0f});
  CHECK(values_of<float>(first_output("Mod", {fa, fb}, attr_map("fmod", int_attr(1)))) ==
      std::vector<float>{-0.5f, 0.5f});
  CHECK(values_of<float>(first_output("Mod", {fa, fb})) == std::vector<float>{1.5f, -1.5f});
  // Divisor 0 gives 0 for integers rather than a trap.
  auto z = first_output("Mod", {make_tensor(DType::kI8, {1}, {5}), make_tensor(DType::kI8, {1}, {0})});
  CHECK(values_of<int8_t>(z) == std::vector<int8_t>{0});
}

TEST_CASE("Pow with mixed base and exponent types", "[elementwise]") {
  auto ib = make_tensor(DType::kI64, {4}, {2, 3, -2, 2});
  auto ie = make_tensor(DType::kI64, {4}, {10, 3, 3, -1});
  CHECK(values_of<int64_t>(first_output("Pow", {ib, ie})) == std::vector<int64_t>{1024, 27, -8, 0});
  auto fe = f32({2}, {0.5f, 2.0f});
  auto r = first_output("Pow", {make_tensor(DType::kI32, {2}, {16, 3}), fe});
  CHECK(r.dtype() == DType::kI32);
  CHECK(values_of<int32_t>(r) == std::vector<int32_t>{4, 9});
  auto fr = first_output("Pow", {f32({3}, {2, 4, 9}), make_tensor(DType::kU32, {1}, {3})});
  CHECK(values_of<float>(fr) == std::vector<float>{8, 64, 729});
}

TEST_CASE("BitShift and bitwise ops", "[elementwise]") {
  auto x = make_tensor(DType::kU8, {3}, {1, 128, 255});
  auto s = make_tensor(DType::kU8, {3}, {7, 1, 8});
  // Shift by the full width gives 0.
  CHECK(values_of<uint8_t>(first_output("BitShift", {x, s}, attr_map("direction", string_attr("LEFT")), 11)) ==
        std::vector<uint8_t>{128, 0, 0});
  CHECK(values_of<uint8_t>(first_output("BitShift", {x, s}, attr_map("direction", string_attr("RIGHT")), 11)) ==
        std::vector<uint8_t>{0, 64, 0});
  auto a = make_tensor(DType::kI16, {2}, {0x0f0f, -1});
  auto b = make_tensor(DType::kI16, {2}, {0x00ff, 0x1234});
  CHECK(values_of<int16_t>(first_output("BitwiseAnd", {a, b}, {}, 18)) == std::vector<int16_t>{0x000f, 0x1234});
  CHECK(values_of<int16_t>(first_output("BitwiseXor", {a, b}, {}, 18)) == std::vector<int16_t>{0x0ff0, ~0x1234});
  OpCall bad;
  bad.op_type = "BitShift";
  bad.opset = 11;
  bad.attrs = attr_map("direction", string_attr("UP"));
  bad.inputs = {x, s};
  auto r = run_op_all_backends(bad);
  require_error(r, StatusCode::kInvalidModel, "LEFT or RIGHT");
}

TEST_CASE("comparisons and logic give bool", "[elementwise]") {
  auto a = f32({3}, {1, 2, std::nanf("")});
  auto b = f32({3}, {2, 2, 2});
  auto lt = first_output("Less", {a, b});
  CHECK(lt.dtype() == DType::kBool);
  CHECK(values_of<bool>(lt) == std::vector<bool>{true, false, false});
  CHECK(values_of<bool>(first_output("GreaterOrEqual", {a, b})) == std::vector<bool>{false, true, false});
  CHECK(values_of<bool>(first_output("Equal", {a, b})) == std::vector<bool>{false, true, false});
  auto p = make_tensor(DType::kBool, {2, 2}, {0, 0, 1, 1});
  auto q = make_tensor(DType::kBool, {2}, {0, 1});
  CHECK(values_of<bool>(first_output("Xor", {p, q})) == std::vector<bool>{false, true, true, false});
  CHECK(values_of<bool>(first_output("Or", {p, q})) == std::vector<bool>{false, true, true, true});
}

TEST_CASE("Max/Min propagate NaN, Sum/Mean fold many inputs", "[elementwise]") {
  const float nan = std::nanf("");
  auto a = f32({3}, {1, nan, 3});
  auto b = f32({3}, {nan, 2, 1});
  auto mx = values_of<float>(first_output("Max", {a, b}));
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(mx[2] == 3);
  auto x = f32({2, 1}, {1, 2});
  auto y = f32({3}, {10, 20, 30});
  auto z = f32({}, {100});
  auto s = first_output("Sum", {x, y, z});
  CHECK(s.shape() == Shape{2, 3});
  CHECK(values_of<float>(s) == std::vector<float>{111, 121, 131, 112, 122, 132});
  auto m = first_output("Mean", {x, y, z});
  CHECK(values_of<float>(m) == std::vector<float>{37, 121.0f / 3, 131.0f / 3, 112.0f / 3, 122.0f / 3, 44});
  CHECK(values_of<float>(first_output("Min", {y})) == std::vector<float>{10, 20, 30});
  auto i = first_output("Min", {make_tensor(DType::kU16, {2}, {5, 60000}), make_tensor(DType::kU16, {1}, {7})});
  CHECK(values_of<uint16_t>(i) == std::vector<uint16_t>{5, 7});
}

TEST_CASE("f16 and bf16 compute through float", "[elementwise]") {
  auto a = make_tensor(DType::kF16, {2}, {1.5, 1000});
  auto b = make_tensor(DType::kF16, {2}, {0.25, 0.5});
  CHECK(doubles_of(first_output("Add", {a, b})) == std::vector<double>{1.75, 1000.5});
  auto c = make_tensor(DType::kBF16, {2}, {3, -8});
  auto d = make_tensor(DType::kBF16, {1}, {2});
  CHECK(doubles_of(first_output("Div", {c, d})) == std::vector<double>{1.5, -4});
}

TEST_CASE("Where broadcasts condition, X and Y", "[elementwise]") {
  auto c = make_tensor(DType::kBool, {2, 1}, {1, 0});
  auto x = make_tensor(DType::kI64, {3}, {1, 2, 3});
  auto y = make_tensor(DType::kI64, {}, {-1});
  auto w = first_output("Where", {c, x, y}, {}, 16);
  CHECK(w.shape() == Shape{2, 3});
  CHECK(values_of<int64_t>(w) == std::vector<int64_t>{1, 2, 3, -1, -1, -1});
  auto h = first_output("Where", {make_tensor(DType::kBool, {2}, {0, 1}), make_tensor(DType::kF16, {2}, {1, 2}),
                          make_tensor(DType::kF16, {2}, {3, 4})}, {}, 16);
  CHECK(doubles_of(h) == std::vector<double>{3, 2});
}

TEST_CASE("PRelu broadcasts slope to X only", "[elementwise]") {
  auto x = f32({2, 2, 1}, {-1, 2, -3, -4});
  auto slope = f32({2, 1}, {0.5f, 0.25f});
  CHECK(values_of<float>(first_output("PRelu", {x, slope}, {}, 16)) == std::vector<float>{-0.5f, 2, -1.5f, -1});
  OpCall bad;
  bad.op_type = "PRelu";
  bad.opset = 16;
  bad.inputs = {f32({2}, {1, 2}), f32({2, 2}, {1, 2, 3, 4})};
  require_error(run_op_all_backends(bad), StatusCode::kInvalidModel, "slope shape 2x2 does not broadcast to X shape 2");
}

TEST_CASE("unsupported element types are named", "[elementwise]") {
  OpCall call;
  call.op_type = "And";
  call.inputs = {f32({1}, {1}), f32({1}, {1})};
  auto r = run_op_all_backends(call);
  require_error(r, StatusCode::kUnimplemented, "float32");
}

// Every ONNX node test of these ops (Not's are in unary_test.cpp).
TEST_CASE("elementwise ops pass the ONNX node tests", "[elementwise][onnx]") {
  run_node_cases({"test_add", "test_sub", "test_mul", "test_div", "test_pow", "test_mod_", "test_max_",
                  "test_min_", "test_sum_", "test_mean_", "test_equal", "test_less", "test_greater",
                  "test_and", "test_or", "test_xor", "test_where_", "test_bitshift_", "test_bitwise_and",
                  "test_bitwise_or", "test_bitwise_xor", "test_prelu"});
}

}  // namespace gk::test

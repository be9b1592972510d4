// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear, MatMulInteger,
// QLinearMatMul, ConvInteger and QLinearConv: hand-computed cases (rounding ties,
// saturation, per-axis and blocked layouts, negative zero points, packed and float8
// types, precision) and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"

namespace gk::test {
namespace {

// A tensor of a storage-only type from its raw bytes (packed types: first element
// in the low bits).
HostTensor raw(DType t, Shape shape, std::vector<uint8_t> bytes) {
  return HostTensor::from_bytes(t, std::move(shape), bytes.data(), bytes.size()).value();
}

std::vector<double> run1(const OpCall& c, DType want_type) {
  auto r = run_op_all_backends(c);
  INFO(c.op_type << ": " << (r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == want_type);
  return doubles_of(r->outputs[0]);
}

StatusCode error_of(const OpCall& c) {
  auto r = run_op_all_backends(c);
  return r.ok() ? StatusCode::kOk : r.status().code();
}

TEST_CASE("QuantizeLinear rounds half to even, then adds the zero point and saturates", "[quantize]") {
  const std::vector<double> x = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 300, -300};
  auto c = call("QuantizeLinear", 13,
                {make_tensor(DType::kF32, {9}, x), make_tensor(DType::kF32, {}, {1}),
                 make_tensor(DType::kI8, {}, {-3})});
  // rint: 0 2 2 -0 -2 -2 4 300 -300; + (-3); saturated to [-128, 127].
  CHECK(run1(c, DType::kI8) == std::vector<double>{-3, -1, -1, -3, -5, -5, 1, 127, -128});

  // uint8 with zero point 10 and scale 2: rint(x / 2) + 10 in [0, 255].
  c.inputs = {make_tensor(DType::kF32, {5}, {5, 7, -30, 1000, -1}), make_tensor(DType::kF32, {}, {2}),
              make_tensor(DType::kU8, {}, {10})};
  CHECK(run1(c, DType::kU8) == std::vector<double>{12, 14, 0, 255, 10});

  // No zero point: uint8, zero point 0.
  c.inputs = {make_tensor(DType::kF32, {3}, {-4, 2.5, 3.5}), make_tensor(DType::kF32, {}, {1}), std::nullopt};
  CHECK(run1(c, DType::kU8) == std::vector<double>{0, 2, 4});

  // int32 input (divided in double, as numpy promotes int32 / float32).
  c.inputs = {make_tensor(DType::kI32, {3}, {5, -5, 1000}), make_tensor(DType::kF32, {}, {2}),
              make_tensor(DType::kI8, {}, {0})};
  CHECK(run1(c, DType::kI8) == std::vector<double>{2, -2, 127});
}

TEST_CASE("QuantizeLinear per-axis and blocked layouts", "[quantize]") {
  // x [2, 3], axis 1: scales [1, 2, 4], zero points [0, 1, 2].
  auto c = call("QuantizeLinear", 13,
                {make_tensor(DType::kF32, {2, 3}, {1, 2, 4, 3, 6, 12}), make_tensor(DType::kF32, {3}, {1, 2, 4}),
                 make_tensor(DType::kU8, {3}, {0, 1, 2})});
  CHECK(run1(c, DType::kU8) == std::vector<double>{1, 2, 3, 3, 4, 5});
  // axis 0 (and -2): scales per row.
  c.inputs[1] = make_tensor(DType::kF32, {2}, {1, 3});
  c.inputs[2] = make_tensor(DType::kU8, {2}, {0, 100});
  c.attrs.set("axis", int_attr(-2));
  CHECK(run1(c, DType::kU8) == std::vector<double>{1, 2, 4, 101, 102, 104});

  // Blocked (21): x [2, 4], axis 1, block 2, scale [2, 2], int8 zero points.
  auto b = call("QuantizeLinear", 21,
                {make_tensor(DType::kF32, {2, 4}, {1, 2, 3, 4, 8, 12, 16, -8}),
                 make_tensor(DType::kF32, {2, 2}, {1, 2, 4, 8}), make_tensor(DType::kI8, {2, 2}, {0, -1, 1, 2})});
  b.attrs.set("axis", int_attr(1));
  b.attrs.set("block_size", int_attr(2));
  // row 0: 1 2 1.5->2 2 + (0 0 -1 -1); row 1: 2 3 2 -1 + (1 1 2 2).
  CHECK(run1(b, DType::kI8) == std::vector<double>{1, 2, 1, 1, 3, 4, 4, 1});

  // A block size that does not divide the axis: x [1, 5], block 2, scale [1, 3].
  b.inputs = {make_tensor(DType::kF32, {1, 5}, {1, 2, 3, 4, 5}), make_tensor(DType::kF32, {1, 3}, {1, 2, 4}),
              std::nullopt};
  CHECK(run1(b, DType::kU8) == std::vector<double>{1, 2, 2, 2, 1});
  // ... and a scale whose axis dim is not ceil(5 / 2) is refused.
  b.inputs[1] = make_tensor(DType::kF32, {1, 2}, {1, 2});
  CHECK(error_of(b) == StatusCode::kInvalidModel);

  // Opset 10 is per-tensor only; opset 13-20 has no blocked form.
  c.opset = 10;
  CHECK(error_of(c) == StatusCode::kInvalidModel);
}

TEST_CASE("QuantizeLinear to 16-bit, packed 4-/2-bit, float8 and float4", "[quantize]") {
  auto c = call("QuantizeLinear", 25,
                {make_tensor(DType::kF32, {3}, {70000.4, -1.5, -40000}), make_tensor(DType::kF32, {}, {1}),
                 make_tensor(DType::kI16, {}, {0})});
  CHECK(run1(c, DType::kI16) == std::vector<double>{32767, -2, -32768});

  // int4 via output_dtype (no zero point): rint then [-8, 7].
  auto i4 = call("QuantizeLinear", 21,
                 {make_tensor(DType::kF32, {5}, {-9, -8, 7.5, 8, 2.5}), make_tensor(DType::kF32, {}, {1})});
  i4.attrs.set("output_dtype", int_attr(static_cast<int64_t>(DType::kI4)));
  CHECK(run1(i4, DType::kI4) == std::vector<double>{-8, -8, 7, 7, 2});
  // uint4 with a packed zero point of 3 (low nibble).
  i4.attrs = {};
  i4.inputs.push_back(raw(DType::kU4, {}, {0x03}));
  CHECK(run1(i4, DType::kU4) == std::vector<double>{0, 0, 11, 11, 5});

  // int2 [-2, 1] and uint2 [0, 3] (zero point 1), per axis 0 of [2, 2].
  auto i2 = call("QuantizeLinear", 25,
                 {make_tensor(DType::kF32, {2, 2}, {-3, -1.5, 0.5, 1.5}), make_tensor(DType::kF32, {2}, {1, 1}),
                  raw(DType::kI2, {2}, {0x00})});
  i2.attrs.set("axis", int_attr(0));
  CHECK(run1(i2, DType::kI2) == std::vector<double>{-2, -2, 0, 1});
  i2.inputs[0] = make_tensor(DType::kF32, {2, 2}, {-2, 0.5, 1.5, 5});
  i2.inputs[2] = raw(DType::kU2, {2}, {0x05});  // [1, 1]
  CHECK(run1(i2, DType::kU2) == std::vector<double>{0, 1, 3, 3});
  i2.opset = 24;  // 2-bit types arrived in 25
  CHECK(error_of(i2) == StatusCode::kInvalidModel);

  // float8 e4m3fn: round to nearest even, saturate to 448 by default, NaN without.
  auto f8 = call("QuantizeLinear", 19,
                 {make_tensor(DType::kF32, {5}, {0, 1.5, 1000, -1000, 0.3}), make_tensor(DType::kF32, {}, {1}),
                  raw(DType::kF8E4M3FN, {}, {0x00})});
  CHECK(run1(f8, DType::kF8E4M3FN) == std::vector<double>{0, 1.5, 448, -448, 0.3125});
  f8.attrs.set("saturate", int_attr(0));
  auto unsat = run1(f8, DType::kF8E4M3FN);
  CHECK(std::isnan(unsat[2]));
  CHECK(std::isnan(unsat[3]));

  // float4 e2m1: ties to even (2.5 -> 2, 5 -> 4, -1.25 -> -1), saturating to 6.
  auto f4 = call("QuantizeLinear", 23,
                 {make_tensor(DType::kF32, {5}, {0.7, 2.5, 5, 100, -1.25}), make_tensor(DType::kF32, {}, {1}),
                  raw(DType::kF4E2M1, {}, {0x00})});
  CHECK(run1(f4, DType::kF4E2M1) == std::vector<double>{0.5, 2, 4, 6, -1});
}

TEST_CASE("QuantizeLinear divides in the precision type", "[quantize]") {
  // f16 x and scale (19+): 0.5 / f16(0.2) = 2.5006 is 2.5 in f16, then ties to 2;
  // in float it would round to 3.
  auto c = call("QuantizeLinear", 21,
                {make_tensor(DType::kF16, {1}, {0.5}), make_tensor(DType::kF16, {}, {0.2}),
                 make_tensor(DType::kU8, {}, {0})});
  CHECK(run1(c, DType::kU8) == std::vector<double>{2});
  c.opset = 23;
  c.attrs.set("precision", int_attr(static_cast<int64_t>(DType::kF32)));
  CHECK(run1(c, DType::kU8) == std::vector<double>{3});
  // precision f16 on float32 data: 2049 is 2048 in f16.
  auto p = call("QuantizeLinear", 23,
                {make_tensor(DType::kF32, {1}, {2049}), make_tensor(DType::kF32, {}, {1}),
                 make_tensor(DType::kU16, {}, {0})});
  CHECK(run1(p, DType::kU16) == std::vector<double>{2049});
  p.attrs.set("precision", int_attr(static_cast<int64_t>(DType::kF16)));
  CHECK(run1(p, DType::kU16) == std::vector<double>{2048});
  // float8e8m0 scale (24+): code 128 is 2.
  auto e = call("QuantizeLinear", 24,
                {make_tensor(DType::kF32, {2}, {5, 7}), raw(DType::kF8E8M0, {}, {128}),
                 make_tensor(DType::kU8, {}, {0})});
  CHECK(run1(e, DType::kU8) == std::vector<double>{2, 4});
  e.opset = 23;
  CHECK(error_of(e) == StatusCode::kInvalidModel);
}

TEST_CASE("DequantizeLinear layouts and types", "[quantize]") {
  // Negative zero point: (x - (-1)) * 0.5.
  auto c = call("DequantizeLinear", 10,
                {make_tensor(DType::kI8, {3}, {-128, 0, 127}), make_tensor(DType::kF32, {}, {0.5}),
                 make_tensor(DType::kI8, {}, {-1})});
  CHECK(run1(c, DType::kF32) == std::vector<double>{-63.5, 0.5, 64});

  // Per axis 1 of [2, 2, 2] with f16 scales: f16 output.
  auto a = call("DequantizeLinear", 19,
                {make_tensor(DType::kU8, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                 make_tensor(DType::kF16, {2}, {2, 0.5}), make_tensor(DType::kU8, {2}, {1, 4})});
  CHECK(run1(a, DType::kF16) == std::vector<double>{0, 2, -0.5, 0, 8, 10, 1.5, 2});
  a.opset = 10;  // opset 10: scalars only
  CHECK(error_of(a) == StatusCode::kInvalidModel);

  // Blocked: x [4, 1] along axis 0, block 3, scale [2, 1].
  auto b = call("DequantizeLinear", 21,
                {make_tensor(DType::kI16, {4, 1}, {1, 2, 3, 4}), make_tensor(DType::kF32, {2, 1}, {10, 100}),
                 make_tensor(DType::kI16, {2, 1}, {1, -2})});
  b.attrs.set("axis", int_attr(0));
  b.attrs.set("block_size", int_attr(3));
  CHECK(run1(b, DType::kF32) == std::vector<double>{0, 10, 20, 600});

  // int4 [0, 1, 7, -8, -1] packed, zero point 1, scale 2.
  auto i4 = call("DequantizeLinear", 21,
                 {raw(DType::kI4, {5}, {0x10, 0x87, 0x0f}), make_tensor(DType::kF32, {}, {2}),
                  raw(DType::kI4, {}, {0x01})});
  CHECK(run1(i4, DType::kF32) == std::vector<double>{-2, 0, 12, -18, -4});
  // uint2 [0, 1, 2, 3] in one byte, no zero point.
  auto u2 = call("DequantizeLinear", 25, {raw(DType::kU2, {4}, {0xe4}), make_tensor(DType::kF32, {}, {3})});
  CHECK(run1(u2, DType::kF32) == std::vector<double>{0, 3, 6, 9});

  // float8 e5m2 (0x3c = 1.0, 0xc0 = -2.0) and int32 (no zero point).
  auto f8 = call("DequantizeLinear", 19, {raw(DType::kF8E5M2, {2}, {0x3c, 0xc0}), make_tensor(DType::kF32, {}, {4})});
  CHECK(run1(f8, DType::kF32) == std::vector<double>{4, -8});
  auto i32 = call("DequantizeLinear", 13,
                  {make_tensor(DType::kI32, {2}, {-100000, 7}), make_tensor(DType::kF32, {}, {0.25})});
  CHECK(run1(i32, DType::kF32) == std::vector<double>{-25000, 1.75});

  // e8m0 scale (24+) with output_dtype bfloat16: code 126 is 0.5.
  auto e = call("DequantizeLinear", 24, {make_tensor(DType::kI8, {2}, {3, -5}), raw(DType::kF8E8M0, {}, {126})});
  e.attrs.set("output_dtype", int_attr(static_cast<int64_t>(DType::kBF16)));
  CHECK(run1(e, DType::kBF16) == std::vector<double>{1.5, -2.5});
  // Zero point of another type than x.
  c.inputs[2] = make_tensor(DType::kU8, {}, {1});
  CHECK(error_of(c) == StatusCode::kInvalidModel);
}

TEST_CASE("DynamicQuantizeLinear scale, zero point and data", "[quantize]") {
  struct Case {
    std::vector<double> x, y;
    double scale, zp;
  };
  // Constants from the spec's formula in float32 (numpy, offline).
  const Case cases[] = {
      {{0, 2, -3, -2.5, 1.34, 0.5}, {153, 255, 0, 26, 221, 179}, 0.019607844, 153},
      {{-1.0, -2.1, -1.3, -2.5, -3.34, -4.0}, {191, 121, 172, 96, 42, 0}, 0.015686275, 255},
      {{0, 0, 0}, {0, 0, 0}, 1.0, 0},
  };
  for (const Case& k : cases) {
    auto c = call("DynamicQuantizeLinear", 11,
                  {make_tensor(DType::kF32, {static_cast<int64_t>(k.x.size())}, k.x)}, 3);
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(doubles_of(r->outputs[0]) == k.y);
    CHECK(r->outputs[1].as_f64(0) == Approx(k.scale).epsilon(1e-7));
    CHECK(r->outputs[2].as_f64(0) == k.zp);
  }
  // A large input spreads over several partial min/max blocks.
  std::vector<double> big(100000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<double>(i % 1000) - 200.0;
  big[77777] = 1075;  // the max, in a late block
  auto c = call("DynamicQuantizeLinear", 11, {make_tensor(DType::kF32, {100000}, big)}, 3);
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[1].as_f64(0) == Approx(1275.0 / 255.0).epsilon(1e-6));
  CHECK(r->outputs[2].as_f64(0) == 40);  // 200 / 5
  CHECK(r->outputs[0].as_f64(77777) == 255);
  CHECK(r->outputs[0].as_f64(0) == 0);
}

TEST_CASE("MatMulInteger zero points per tensor, row and column", "[quantize]") {
  // The spec's example: A - 12 times B.
  auto c = call("MatMulInteger", 10,
                {make_tensor(DType::kU8, {4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0}),
                 make_tensor(DType::kU8, {3, 2}, {1, 4, 2, 5, 3, 6}), make_tensor(DType::kU8, {}, {12}),
                 make_tensor(DType::kU8, {}, {0})});
  CHECK(run1(c, DType::kI32) == std::vector<double>{-38, -83, -44, -98, -50, -113, -56, -128});

  // int8 A with per-row zero points [1, 2], uint8 B with per-column [5, 6]:
  // A' = [[0, 1], [1, 2]], B' = [[0, 0], [2, 2]].
  auto r = call("MatMulInteger", 10,
                {make_tensor(DType::kI8, {2, 2}, {1, 2, 3, 4}), make_tensor(DType::kU8, {2, 2}, {5, 6, 7, 8}),
                 make_tensor(DType::kI8, {2}, {1, 2}), make_tensor(DType::kU8, {2}, {5, 6})});
  CHECK(run1(r, DType::kI32) == std::vector<double>{2, 2, 4, 4});

  // Batched A [2, 1, 2] times a shared B [2, 1], per-row zero points [2, 1, 1].
  auto b = call("MatMulInteger", 10,
                {make_tensor(DType::kI8, {2, 1, 2}, {1, 2, -3, 4}), make_tensor(DType::kI8, {2, 1}, {3, -1}),
                 make_tensor(DType::kI8, {2, 1, 1}, {1, -1}), std::nullopt});
  // [0, 1]·[3, -1] = -1; [-2, 5]·[3, -1] = -11.
  CHECK(run1(b, DType::kI32) == std::vector<double>{-1, -11});
  // A zero point that fits neither rows nor columns.
  r.inputs[2] = make_tensor(DType::kI8, {3}, {1, 2, 3});
  CHECK(error_of(r) == StatusCode::kInvalidModel);
}

TEST_CASE("QLinearMatMul requantizes with ties to even after the zero point", "[quantize]") {
  // a [1, 2] = [2, 4] (scale 0.5), b [2, 2] with per-column zero points [1, 0]:
  // b' = [[0, 1], [2, 3]]; acc = [8, 14]; multipliers 0.5 * [1, 0.5] / 2.
  auto c = call("QLinearMatMul", 21,
                {make_tensor(DType::kI8, {1, 2}, {2, 4}), make_tensor(DType::kF32, {}, {0.5}),
                 make_tensor(DType::kI8, {}, {0}), make_tensor(DType::kI8, {2, 2}, {1, 1, 3, 3}),
                 make_tensor(DType::kF32, {2}, {1, 0.5}), make_tensor(DType::kI8, {2}, {1, 0}),
                 make_tensor(DType::kF32, {}, {2}), make_tensor(DType::kI8, {}, {1})});
  // 8 * 0.25 + 1 = 3; 14 * 0.125 + 1 = 2.75 -> 3.
  CHECK(run1(c, DType::kI8) == std::vector<double>{3, 3});
  // b = [[1], [3]] - 1, so acc = 2 * 0 + 4 * 2 = 8; multiplier 0.5 * 1.25 / y_scale.
  c.inputs[3] = make_tensor(DType::kI8, {2, 1}, {1, 3});
  c.inputs[4] = make_tensor(DType::kF32, {}, {1.25});
  c.inputs[5] = make_tensor(DType::kI8, {}, {1});
  c.inputs[6] = make_tensor(DType::kF32, {}, {4});  // 8 * 0.15625 = 1.25 -> 1
  c.inputs[7] = make_tensor(DType::kI8, {}, {0});
  CHECK(run1(c, DType::kI8) == std::vector<double>{1});
  c.inputs[6] = make_tensor(DType::kF32, {}, {0.5});  // 8 * 1.25 = 10
  CHECK(run1(c, DType::kI8) == std::vector<double>{10});
  // 8 * 0.3125 = 2.5 ties: + 0 -> 2, + 1 -> 3.5 -> 4 (rounded after adding).
  c.inputs[6] = make_tensor(DType::kF32, {}, {2});
  CHECK(run1(c, DType::kI8) == std::vector<double>{2});
  c.inputs[7] = make_tensor(DType::kI8, {}, {1});
  CHECK(run1(c, DType::kI8) == std::vector<double>{4});
  c.inputs[7] = make_tensor(DType::kI8, {}, {127});  // saturates
  CHECK(run1(c, DType::kI8) == std::vector<double>{127});

  // f16 scales only from opset 21; float8 operands are refused by name.
  c.inputs[1] = make_tensor(DType::kF16, {}, {0.5});
  c.inputs[4] = make_tensor(DType::kF16, {}, {1.25});
  c.inputs[6] = make_tensor(DType::kF16, {}, {2});
  CHECK(run1(c, DType::kI8) == std::vector<double>{127});
  c.opset = 10;
  CHECK(error_of(c) == StatusCode::kInvalidModel);
  c.opset = 21;
  c.inputs[0] = raw(DType::kF8E4M3FN, {1, 2}, {0x38, 0x40});
  c.inputs[2] = raw(DType::kF8E4M3FN, {}, {0});
  CHECK(error_of(c) == StatusCode::kUnimplemented);
}

TEST_CASE("ConvInteger and QLinearConv", "[quantize]") {
  // The spec's example without padding: (x - 1) convolved with a 2x2 of ones.
  auto c = call("ConvInteger", 10,
                {make_tensor(DType::kU8, {1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10}),
                 make_tensor(DType::kU8, {1, 1, 2, 2}, {1, 1, 1, 1}), make_tensor(DType::kU8, {}, {1})});
  CHECK(run1(c, DType::kI32) == std::vector<double>{12, 16, 24, 28});
  // Padding: the padded input is the zero point (0 after subtracting it).
  c.attrs.set("pads", ints_attr({1, 1, 1, 1}));
  auto padded = run1(c, DType::kI32);
  REQUIRE(padded.size() == 16);
  CHECK(padded[0] == 1);   // only x'[0, 0]
  CHECK(padded[5] == 12);  // the unpadded [0, 0] window
  CHECK(padded[15] == 9);  // only x'[2, 2]

  // Groups, per-channel weight zero points, stride 2 and dilation 2 in 1-D:
  // x [1, 2, 5] int8, w [2, 1, 2], zw [1, 0].
  auto g = call("ConvInteger", 10,
                {make_tensor(DType::kI8, {1, 2, 5}, {1, 2, 3, 4, 5, -1, -2, -3, -4, -5}),
                 make_tensor(DType::kI8, {2, 1, 2}, {2, 3, 1, -1}), std::nullopt,
                 make_tensor(DType::kI8, {2}, {1, 0})});
  g.attrs.set("group", int_attr(2));
  g.attrs.set("strides", ints_attr({2}));
  g.attrs.set("dilations", ints_attr({2}));
  // taps at t and t + 2, t = 0, 2. ch0: w' = [1, 2]: 1 + 6 = 7, 3 + 10 = 13.
  // ch1: w' = [1, -1]: -1 + 3 = 2, -3 + 5 = 2.
  CHECK(run1(g, DType::kI32) == std::vector<double>{7, 13, 2, 2});

  // QLinearConv: per-channel w scale and zero point, bias, uint8 output.
  auto q = call("QLinearConv", 10,
                {make_tensor(DType::kU8, {1, 1, 2, 2}, {10, 20, 30, 40}), make_tensor(DType::kF32, {}, {0.5}),
                 make_tensor(DType::kU8, {}, {10}), make_tensor(DType::kI8, {2, 1, 1, 1}, {2, -1}),
                 make_tensor(DType::kF32, {2}, {1, 2}), make_tensor(DType::kI8, {2}, {0, 1}),
                 make_tensor(DType::kF32, {}, {2}), make_tensor(DType::kU8, {}, {100}),
                 make_tensor(DType::kI32, {2}, {1, -4})});
  // x' = [0, 10, 20, 30]; ch0: (2x' + 1) * 0.25 + 100; ch1: (-2x' - 4) * 0.5 + 100.
  CHECK(run1(q, DType::kU8) == std::vector<double>{100, 105, 110, 115, 98, 88, 78, 68});
  q.inputs[8] = make_tensor(DType::kI32, {3}, {1, 2, 3});
  CHECK(error_of(q) == StatusCode::kInvalidModel);
}

TEST_CASE("quantization ONNX node tests", "[quantize][onnx]") {
  run_node_cases({"test_quantizelinear", "test_dequantizelinear", "test_dynamicquantizelinear", "test_qlinearmatmul",
                  "test_matmulinteger", "test_qlinearconv", "test_convinteger"});
}

}  // namespace
}  // namespace gk::test

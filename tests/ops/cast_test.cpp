// Cast and CastLike: the defined conversions (saturation, wrap, bool, single
// rounding from double to f16), strings from and to host-known inputs, refusals; the
// storage-only types (float8 with and without saturate, e8m0 round modes,
// float4, packed int4/int2) against hand-computed bit patterns; then the ONNX
// node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

Result<OpResult> cast(const HostTensor& x, DType to, bool host_known = true, int opset = 21,
                      int64_t saturate = 1, const char* round_mode = nullptr) {
  OpCall call;
  call.op_type = "Cast";
  call.opset = opset;
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = static_cast<int64_t>(to);
  call.attrs.set("to", a);
  if (saturate != 1) call.attrs.set("saturate", int_attr(saturate));
  if (round_mode) {
    Attribute r;
    r.kind = Attribute::Kind::kString;
    r.s = round_mode;
    call.attrs.set("round_mode", r);
  }
  call.inputs = {x};
  call.inputs_host_known = host_known;
  return run_op_all_backends(call);
}

HostTensor cast_ok(const HostTensor& x, DType to, int64_t saturate = 1, const char* round_mode = nullptr) {
  auto r = cast(x, to, true, 25, saturate, round_mode);
  INFO((r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  REQUIRE(r->outputs[0].dtype() == to);
  return r->outputs[0];
}

// The stored bytes of a tensor (packed types: the packed bytes), as ints so that
// Catch prints numbers.
std::vector<int> bytes_of(const HostTensor& t) {
  const auto* p = static_cast<const uint8_t*>(t.raw());
  return std::vector<int>(p, p + t.bytes());
}

HostTensor from_bytes(DType t, Shape shape, std::vector<uint8_t> bytes) {
  auto r = HostTensor::from_bytes(t, std::move(shape), bytes.data(), bytes.size());
  REQUIRE(r.ok());
  return std::move(r).value();
}

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

TEST_CASE("Cast float to integer truncates and saturates", "[cast]") {
  const float inf = std::numeric_limits<float>::infinity();
  auto x = f32({6}, {2.9f, -2.9f, 1e10f, -1e10f, std::nanf(""), -inf});
  CHECK(values_of<int32_t>(cast_ok(x, DType::kI32)) ==
        std::vector<int32_t>{2, -2, INT32_MAX, INT32_MIN, 0, INT32_MIN});
  CHECK(values_of<uint8_t>(cast_ok(x, DType::kU8)) == std::vector<uint8_t>{2, 0, 255, 0, 0, 0});
}

TEST_CASE("Cast integer to integer keeps the low bits", "[cast]") {
  auto x = make_tensor(DType::kI16, {3}, {200, -1, 300});
  CHECK(values_of<int8_t>(cast_ok(x, DType::kI8)) == std::vector<int8_t>{-56, -1, 44});
  CHECK(values_of<uint16_t>(cast_ok(x, DType::kU16)) == std::vector<uint16_t>{200, 65535, 300});
  auto big = HostTensor::from_vector(DType::kI64, {1}, std::vector<int64_t>{(int64_t{1} << 40) + 7});
  CHECK(values_of<int32_t>(cast_ok(big, DType::kI32)) == std::vector<int32_t>{7});
}

TEST_CASE("Cast to and from bool", "[cast]") {
  auto x = f32({4}, {0.0f, -0.0f, 0.1f, std::nanf("")});
  CHECK(values_of<bool>(cast_ok(x, DType::kBool)) == std::vector<bool>{false, false, true, true});
  auto b = make_tensor(DType::kBool, {2}, {1, 0});
  CHECK(doubles_of(cast_ok(b, DType::kF16)) == std::vector<double>{1, 0});
  CHECK(values_of<int64_t>(cast_ok(b, DType::kI64)) == std::vector<int64_t>{1, 0});
}

TEST_CASE("Cast double to f16 rounds once", "[cast]") {
  // 1 + 2^-11 + 2^-40 lies just above the midpoint between the f16 values 1 and
  // 1 + 2^-10: the nearest is 1 + 2^-10. Through float it would first round to
  // the midpoint exactly and then tie to even (1).
  const double d = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  auto x = HostTensor::from_vector(DType::kF64, {2}, std::vector<double>{d, 65520.0});
  auto h = cast_ok(x, DType::kF16);
  CHECK(h.as_f64(0) == 1.0 + std::ldexp(1.0, -10));
  CHECK(std::isinf(h.as_f64(1)));  // 65520 rounds up past the largest f16
  auto bf = cast_ok(x, DType::kBF16);
  CHECK(bf.as_f64(0) == 1.0);  // bf16 has 7 mantissa bits
}

TEST_CASE("Cast from a host-known string tensor", "[cast]") {
  auto s = HostTensor::strings({4}, {"3.5", "-1e2", "INF", "nan"});
  auto f = cast_ok(s, DType::kF32);
  auto v = values_of<float>(f);
  CHECK(v[0] == 3.5f);
  CHECK(v[1] == -100.0f);
  CHECK(std::isinf(v[2]));
  CHECK(std::isnan(v[3]));
  auto i = cast_ok(HostTensor::strings({2}, {"9007199254740993", "-7"}), DType::kI64);
  CHECK(values_of<int64_t>(i) == std::vector<int64_t>{9007199254740993, -7});
  auto bad = cast(HostTensor::strings({1}, {"hello"}), DType::kF32);
  require_error(bad, StatusCode::kInvalidArgument, "hello");
  auto dev = cast(s, DType::kF32, /*host_known=*/false);
  require_error(dev, StatusCode::kUnimplemented,
                "Cast from string needs the input's value before the run (a constant);");
}

// Expected texts: what onnxruntime-node 1.30 printed for the same Casts (probed by
// hand; its cast_op.cc formats floats with "%.8g", integers in decimal).
TEST_CASE("Cast to string writes numbers as ONNX Runtime does", "[cast][string]") {
  auto texts = [](const HostTensor& x) { return cast_ok(x, DType::kString).string_values(); };
  using V = std::vector<std::string>;
  CHECK(texts(f32({6}, {0.1f, 1.0f / 3, -kInf, kNaN, 1e10f, -0.0f})) ==
        V{"0.1", "0.33333334", "-INF", "NaN", "1e+10", "-0"});
  CHECK(texts(HostTensor::from_vector(DType::kF64, {4}, std::vector<double>{0.1 + 0.2, 1e300, 1e-310, 123456789012.0})) ==
        V{"0.3", "1e+300", "1e-310", "1.2345679e+11"});
  CHECK(texts(from_bytes(DType::kF16, {3}, {0x55, 0x35, 0x01, 0x00, 0x00, 0x7c})) == V{"0.33325195", "5.9604645e-08", "INF"});
  CHECK(texts(HostTensor::from_vector(DType::kI64, {2}, std::vector<int64_t>{INT64_MIN, INT64_MAX})) ==
        V{"-9223372036854775808", "9223372036854775807"});
  CHECK(texts(HostTensor::from_vector(DType::kU64, {1}, std::vector<uint64_t>{UINT64_MAX})) == V{"18446744073709551615"});
  CHECK(texts(HostTensor::from_vector(DType::kI8, {2}, std::vector<int8_t>{-128, 127})) == V{"-128", "127"});
  CHECK(texts(HostTensor::from_vector(DType::kBool, {2}, std::vector<uint8_t>{1, 0})) == V{"1", "0"});
  // A string to string Cast keeps the strings.
  CHECK(texts(HostTensor::strings({2}, {"a", " b"})) == V{"a", " b"});
}

TEST_CASE("CastLike takes the second input's type", "[cast]") {
  OpCall call;
  call.op_type = "CastLike";
  call.opset = 15;
  call.inputs = {f32({2}, {1.5f, -2.5f}), make_tensor(DType::kI64, {0}, {})};
  auto r = run_op_all_backends(call);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{1, -2});
}

TEST_CASE("Cast to float8 rounds to nearest even and saturates", "[cast][float8]") {
  // E4M3FN: largest 448 (0x7e); 464 is the tie between 448 and 480 (the NaN
  // pattern) and goes to even 448; 1.0625 and 1.1875 are ties around 1.125.
  // Smallest subnormal 2^-9 (0x01); 2^-10 ties to 0; 0.75 * 2^-9 rounds up to it.
  const float s9 = std::ldexp(1.0f, -9);
  auto x = f32({13}, {448, 464, 465, 1.0625f, 1.1875f, s9, s9 / 2, 0.75f * s9, -0.0f, kNaN, kInf, -kInf, -1e6f});
  CHECK(bytes_of(cast_ok(x, DType::kF8E4M3FN)) ==
        std::vector<int>{0x7e, 0x7e, 0x7e, 0x38, 0x3a, 0x01, 0x00, 0x01, 0x80, 0x7f, 0x7e, 0xfe, 0xfe});
  CHECK(bytes_of(cast_ok(x, DType::kF8E4M3FN, 0)) ==
        std::vector<int>{0x7e, 0x7e, 0x7f, 0x38, 0x3a, 0x01, 0x00, 0x01, 0x80, 0x7f, 0x7f, 0xff, 0xff});

  // E4M3FNUZ: largest 240 (0x7f), smallest subnormal 2^-10, no -0 (-tiny is +0),
  // the one NaN is 0x80.
  const float s10 = std::ldexp(1.0f, -10);
  auto u = f32({8}, {240, 250, s10, -s10 / 4, -0.0f, kNaN, kInf, -kInf});
  CHECK(bytes_of(cast_ok(u, DType::kF8E4M3FNUZ)) ==
        std::vector<int>{0x7f, 0x7f, 0x01, 0x00, 0x00, 0x80, 0x7f, 0xff});
  CHECK(bytes_of(cast_ok(u, DType::kF8E4M3FNUZ, 0)) ==
        std::vector<int>{0x7f, 0x80, 0x01, 0x00, 0x00, 0x80, 0x80, 0x80});

  // E5M2: largest 57344 (0x7b); 61440 is the tie between 57344 (odd mantissa) and
  // 65536 (overflow), so it overflows: to 57344 saturated, else to inf (0x7c).
  const float s16 = std::ldexp(1.0f, -16);
  auto e = f32({7}, {57344, 61440, 61439, s16, kNaN, kInf, -kInf});
  CHECK(bytes_of(cast_ok(e, DType::kF8E5M2)) == std::vector<int>{0x7b, 0x7b, 0x7b, 0x01, 0x7e, 0x7b, 0xfb});
  CHECK(bytes_of(cast_ok(e, DType::kF8E5M2, 0)) == std::vector<int>{0x7b, 0x7c, 0x7b, 0x01, 0x7e, 0x7c, 0xfc});

  // E5M2FNUZ: largest 57344 (0x7f), smallest subnormal 2^-17, NaN 0x80.
  auto z = f32({6}, {57344, std::ldexp(1.0f, -17), -0.0f, kNaN, kInf, -1e6f});
  CHECK(bytes_of(cast_ok(z, DType::kF8E5M2FNUZ)) == std::vector<int>{0x7f, 0x01, 0x00, 0x80, 0x7f, 0xff});
  CHECK(bytes_of(cast_ok(z, DType::kF8E5M2FNUZ, 0)) == std::vector<int>{0x7f, 0x01, 0x00, 0x80, 0x80, 0x80});
}

TEST_CASE("Cast from float8 decodes every format exactly", "[cast][float8]") {
  auto fn = from_bytes(DType::kF8E4M3FN, {5}, {0x7e, 0x01, 0x80, 0x7f, 0xb8});
  auto v = doubles_of(cast_ok(fn, DType::kF32));
  CHECK(v[0] == 448);
  CHECK(v[1] == std::ldexp(1.0, -9));
  CHECK((v[2] == 0 && std::signbit(v[2])));
  CHECK(std::isnan(v[3]));
  CHECK(v[4] == -1.0);
  auto uz = doubles_of(cast_ok(from_bytes(DType::kF8E4M3FNUZ, {3}, {0x7f, 0x80, 0x01}), DType::kF64));
  CHECK(uz[0] == 240);
  CHECK(std::isnan(uz[1]));
  CHECK(uz[2] == std::ldexp(1.0, -10));
  auto e5 = doubles_of(cast_ok(from_bytes(DType::kF8E5M2, {4}, {0x7b, 0x7c, 0xfc, 0x7d}), DType::kF16));
  CHECK(e5[0] == 57344);
  CHECK(e5[1] == std::numeric_limits<double>::infinity());
  CHECK(e5[2] == -std::numeric_limits<double>::infinity());
  CHECK(std::isnan(e5[3]));
  auto e5uz = doubles_of(cast_ok(from_bytes(DType::kF8E5M2FNUZ, {3}, {0x7f, 0x80, 0x01}), DType::kF32));
  CHECK(e5uz[0] == 57344);
  CHECK(std::isnan(e5uz[1]));
  CHECK(e5uz[2] == std::ldexp(1.0, -17));
  // To integers: truncation and saturation as for any float; NaN gives 0.
  CHECK(values_of<int8_t>(cast_ok(fn, DType::kI8)) == std::vector<int8_t>{127, 0, 0, 0, -1});
}

TEST_CASE("Cast to float8 from double and int64 rounds once", "[cast][float8]") {
  // 1.0625 + 2^-40 lies just above the tie between 1.0 and 1.125: through float it
  // would become the tie itself and go to even (1.0, 0x38).
  auto d = HostTensor::from_vector(DType::kF64, {1}, std::vector<double>{1.0625 + std::ldexp(1.0, -40)});
  CHECK(bytes_of(cast_ok(d, DType::kF8E4M3FN)) == std::vector<int>{0x39});
  // e8m0 rounding up 2^62 + 1 gives 2^63 (code 190); through double it would be
  // 2^62 exactly (189).
  auto big = HostTensor::from_vector(DType::kI64, {2}, std::vector<int64_t>{(int64_t{1} << 62) + 1, -6});
  CHECK(bytes_of(cast_ok(big, DType::kF8E8M0)) == std::vector<int>{190, 130});
  // Integers to float8: 300 rounds to 288 (E4M3FN 0x79 = 1.125 * 2^8).
  CHECK(bytes_of(cast_ok(make_tensor(DType::kI32, {1}, {300}), DType::kF8E4M3FN)) == std::vector<int>{0x79});
}

TEST_CASE("Cast to float8e8m0 follows round_mode and saturate", "[cast][e8m0]") {
  // 3 = 1.5 * 2: up and nearest give 4 (code 129), down 2 (128); 2.9 rounds up to
  // 4 but is below the midpoint 3 for nearest. 2^-127 is the smallest code (0); just above it rounds up to 2^-126.
  // Zero and inf are out of range: the end codes with saturate, else NaN (0xff).
  const float tiny = std::ldexp(1.0f, -127), tiny_up = std::nextafter(tiny, 1.0f);
  auto x = f32({8}, {3.0f, 2.9f, 1.0f, tiny, tiny_up, 0.0f, kInf, kNaN});
  CHECK(bytes_of(cast_ok(x, DType::kF8E8M0)) == std::vector<int>{129, 129, 127, 0, 1, 0, 254, 255});
  CHECK(bytes_of(cast_ok(x, DType::kF8E8M0, 1, "down")) == std::vector<int>{128, 128, 127, 0, 0, 0, 254, 255});
  CHECK(bytes_of(cast_ok(x, DType::kF8E8M0, 1, "nearest")) == std::vector<int>{129, 128, 127, 0, 0, 0, 254, 255});
  CHECK(bytes_of(cast_ok(x, DType::kF8E8M0, 0, "nearest")) ==
        std::vector<int>{129, 128, 127, 0, 0, 255, 255, 255});
  auto back = doubles_of(cast_ok(from_bytes(DType::kF8E8M0, {4}, {0, 127, 254, 255}), DType::kF64));
  CHECK(back[0] == std::ldexp(1.0, -127));
  CHECK(back[1] == 1.0);
  CHECK(back[2] == std::ldexp(1.0, 127));
  CHECK(std::isnan(back[3]));
  auto bad = cast(x, DType::kF8E8M0, true, 25, 1, "sideways");
  require_error(bad, StatusCode::kInvalidModel, "sideways");
}

TEST_CASE("Cast to and from float4e2m1 packs two per byte", "[cast][float4]") {
  // Values 0, 0.5, 1, 1.5, 2, 3, 4, 6. 0.25 and 0.75 are ties (to 0 and 1); 5 ties
  // between 4 (0b110) and 6 (0b111) and goes to 4; beyond 6 saturates; NaN
  // becomes 0x8 (-0, ONNX's reference). 7 elements: the last byte's high nibble is 0.
  auto x = f32({7}, {0.25f, 0.75f, 5.0f, -7.0f, kNaN, -0.0f, kInf});
  auto y = cast_ok(x, DType::kF4E2M1);
  CHECK(bytes_of(y) == std::vector<int>{0x20, 0xf6, 0x88, 0x07});
  auto back = doubles_of(cast_ok(y, DType::kF32));
  CHECK(back == std::vector<double>{0, 1, 4, -6, 0, 0, 6});
  CHECK(std::signbit(back[4]));
}

TEST_CASE("Cast to and from packed int4/uint4/int2/uint2 keeps the low bits", "[cast][int4]") {
  // Floats truncate toward zero, then keep the low bits (-9 -> 7, 8 -> -8), as
  // ONNX's test data; 5 elements pack into 3 bytes, the pad nibble 0.
  auto x = f32({5}, {-9.0f, 7.9f, -8.5f, 8.0f, kNaN});
  auto i4 = cast_ok(x, DType::kI4);
  CHECK(bytes_of(i4) == std::vector<int>{0x77, 0x88, 0x00});
  CHECK(values_of<int8_t>(cast_ok(i4, DType::kI8)) == std::vector<int8_t>{7, 7, -8, -8, 0});
  auto u4 = cast_ok(make_tensor(DType::kI32, {3}, {300, 16, -1}), DType::kU4);
  CHECK(bytes_of(u4) == std::vector<int>{0x0c, 0x0f});
  CHECK(values_of<int64_t>(cast_ok(u4, DType::kI64)) == std::vector<int64_t>{12, 0, 15});
  // Four per byte, first element in bits 0-1: -3 -> 1, 2 -> -2, 5 elements -> 2 bytes.
  auto i2 = cast_ok(make_tensor(DType::kI16, {5}, {-3, 2, -1, 0, 1}), DType::kI2);
  CHECK(bytes_of(i2) == std::vector<int>{0x39, 0x01});
  CHECK(doubles_of(cast_ok(i2, DType::kF16)) == std::vector<double>{1, -2, -1, 0, 1});
  auto u2 = from_bytes(DType::kU2, {6}, {0xe4, 0x0b});
  CHECK(values_of<uint8_t>(cast_ok(u2, DType::kU8)) == std::vector<uint8_t>{0, 1, 2, 3, 3, 2});
  CHECK(values_of<bool>(cast_ok(u2, DType::kBool)) == std::vector<bool>{false, true, true, true, true, true});
}

TEST_CASE("Cast between two storage-only types goes through float exactly", "[cast][float8]") {
  auto i4 = from_bytes(DType::kI4, {3}, {0x97, 0x01});  // 7, -7, 1
  CHECK(bytes_of(cast_ok(i4, DType::kF8E4M3FN)) == std::vector<int>{0x4e, 0xce, 0x38});
  auto f8 = from_bytes(DType::kF8E5M2, {3}, {0x4a, 0xc9, 0x7c});  // 12, -10, inf
  CHECK(bytes_of(cast_ok(f8, DType::kI4)) == std::vector<int>{0x6c, 0x0f});
  CHECK(bytes_of(cast_ok(f8, DType::kF8E4M3FN, 0)) == std::vector<int>{0x54, 0xd2, 0x7f});
}

TEST_CASE("CastLike takes saturate from its attribute and the type from input 1", "[cast][float8]") {
  OpCall call;
  call.op_type = "CastLike";
  call.opset = 19;
  call.attrs.set("saturate", int_attr(0));
  call.inputs = {f32({2}, {1e6f, 1.0f}), from_bytes(DType::kF8E5M2, {0}, {})};
  auto r = run_op_all_backends(call);
  REQUIRE(r.ok());
  CHECK(bytes_of(r->outputs[0]) == std::vector<int>{0x7c, 0x3c});
}

// TensorProto bytes written by hand (the wire format): dims (field 1), data_type
// (field 2), then int32_data (field 5, packed varints) or raw_data (field 9).
std::string tensor_proto(int64_t numel, DType t, int field, const std::vector<uint8_t>& payload) {
  std::string b;
  b += static_cast<char>(0x08);
  b += static_cast<char>(numel);
  b += static_cast<char>(0x10);
  b += static_cast<char>(static_cast<int>(t));
  b += static_cast<char>((field << 3) | 2);
  b += static_cast<char>(payload.size());
  b.append(payload.begin(), payload.end());
  return b;
}

TEST_CASE("Storage-only tensors decode from int32_data and raw_data", "[cast][loader]") {
  // uint2 int32_data: one packed byte per value (0xe4 = 228, varint e4 01).
  auto u2 = parse_tensor_proto(tensor_proto(6, DType::kU2, 5, {0xe4, 0x01, 0x0b}).data(), 9, "");
  REQUIRE(u2.ok());
  CHECK(u2->to_i64_vector() == std::vector<int64_t>{0, 1, 2, 3, 3, 2});
  // float4e2m1 int32_data: two per value, low nibble first: 0.5, 1, 6.
  std::string f4 = tensor_proto(3, DType::kF4E2M1, 5, {0x21, 0x07});
  auto f4t = parse_tensor_proto(f4.data(), f4.size(), "");
  REQUIRE(f4t.ok());
  CHECK(f4t->to_f64_vector() == std::vector<double>{0.5, 1, 6});
  // e8m0 int32_data: one per value (255 = varint ff 01).
  std::string e8 = tensor_proto(2, DType::kF8E8M0, 5, {0x7f, 0xff, 0x01});
  auto e8t = parse_tensor_proto(e8.data(), e8.size(), "");
  REQUIRE(e8t.ok());
  CHECK(e8t->as_f64(0) == 1.0);
  CHECK(std::isnan(e8t->as_f64(1)));
  // int2 raw_data: sign-extended; 5 elements need 2 bytes, and a third is refused.
  std::string i2 = tensor_proto(5, DType::kI2, 9, {0x39, 0x02});
  auto i2t = parse_tensor_proto(i2.data(), i2.size(), "");
  REQUIRE(i2t.ok());
  CHECK(i2t->to_i64_vector() == std::vector<int64_t>{1, -2, -1, 0, -2});
  std::string long_i2 = tensor_proto(5, DType::kI2, 9, {0x39, 0x02, 0x00});
  CHECK(parse_tensor_proto(long_i2.data(), long_i2.size(), "").status().code() == StatusCode::kInvalidModel);
}

TEST_CASE("Cast passes the ONNX node tests", "[cast][onnx]") {
  // Every conversion is exact: no tolerance.
  run_node_cases({"test_cast_", "test_castlike_"}, {}, 0, 0);
}

}  // namespace gk::test

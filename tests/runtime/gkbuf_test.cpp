#include "runtime/kit/kit.h"
#include "tests/runtime/fake_device.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace gk;
using gk::test::FakeKit;

namespace {

template <typename S>
std::vector<S> raw_of(const GkBuf& b) {
  std::vector<S> out(b.bytes() / sizeof(S));
  REQUIRE(b.download_raw(out.data(), b.bytes()).ok());
  return out;
}

const double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("raw uploads round-trip every dtype byte for byte", "[runtime][gkbuf]") {
  FakeKit f;
  std::mt19937 rng(11);
  for (DType t : {DType::kF32, DType::kF16, DType::kBF16, DType::kF64, DType::kI64, DType::kI32,
                  DType::kI16, DType::kI8, DType::kU8, DType::kU16, DType::kU32, DType::kU64,
                  DType::kBool, DType::kF8E4M3FN, DType::kF8E4M3FNUZ, DType::kF8E5M2,
                  DType::kF8E5M2FNUZ, DType::kI4, DType::kU4}) {
    INFO(dtype_name(t));
    GkBuf b = f.kit.alloc(t, 37).value();
    CHECK(b.bytes() == (t == DType::kI4 || t == DType::kU4 ? 19u : 37u * dtype_bits(t) / 8));
    std::vector<uint8_t> src(b.bytes()), back(b.bytes());
    for (auto& x : src) x = static_cast<uint8_t>(rng());
    REQUIRE(b.upload_raw(src.data(), src.size()).ok());
    REQUIRE(b.download_raw(back.data(), back.size()).ok());
    CHECK(src == back);
    auto host = b.download({37});
    REQUIRE(host.ok());
    CHECK(std::memcmp(host->raw(), src.data(), src.size()) == 0);
    // A byte count that is not the buffer's is refused, naming both.
    auto bad = b.upload_raw(src.data(), src.size() - 1);
    CHECK(bad.code() == StatusCode::kInvalidArgument);
    CHECK_THAT(bad.message(), Catch::Contains(std::to_string(src.size()) + " ("));
  }
}

TEST_CASE("converting copies are exact for every integer type", "[runtime][gkbuf]") {
  FakeKit f;
  struct Case {
    DType t;
    std::vector<int64_t> values;
  };
  const int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  for (const Case& c : {Case{DType::kI8, {-128, -1, 0, 127}}, Case{DType::kU8, {0, 1, 200, 255}},
                        Case{DType::kI16, {-32768, -2, 3, 32767}}, Case{DType::kU16, {0, 65535, 4, 5}},
                        Case{DType::kI32, {-2147483648LL, 2147483647LL, -7, 0}},
                        Case{DType::kU32, {0, 4294967295LL, 1, 2}},
                        Case{DType::kI64, {kMin, kMax, kMin + 1, -1}},
                        Case{DType::kU64, {0, kMax, 1, 9007199254740993LL}}}) {
    INFO(dtype_name(c.t));
    GkBuf b = f.kit.alloc(c.t, 4).value();
    REQUIRE(b.upload_i64(c.values).ok());
    CHECK(b.download_i64().value() == c.values);
  }
  // int64 values beyond 2^53 survive the i64 path bit for bit.
  GkBuf i64 = f.kit.alloc(DType::kI64, 1).value();
  REQUIRE(i64.upload_i64(std::vector<int64_t>{9007199254740993LL}).ok());
  CHECK(raw_of<int64_t>(i64)[0] == 9007199254740993LL);
}

TEST_CASE("upload_i64 refuses values outside the element type", "[runtime][gkbuf]") {
  FakeKit f;
  GkBuf i8 = f.kit.alloc(DType::kI8, 2).value();
  Status s = i8.upload_i64(std::vector<int64_t>{5, 128});
  CHECK(s.code() == StatusCode::kOutOfRange);
  CHECK_THAT(s.message(), Catch::Contains("value 128 at index 1"));
  CHECK_THAT(s.message(), Catch::Contains("[-128, 127]"));
  GkBuf u64 = f.kit.alloc(DType::kU64, 1).value();
  CHECK(u64.upload_i64(std::vector<int64_t>{-1}).code() == StatusCode::kOutOfRange);
  // A u64 above INT64_MAX reads back through f64 but not as int64.
  const uint64_t big = ~uint64_t{0};
  REQUIRE(u64.upload_raw(&big, 8).ok());
  CHECK(u64.download_f64().value()[0] == 18446744073709551616.0);
  auto as_i64 = u64.download_i64();
  CHECK(as_i64.status().code() == StatusCode::kOutOfRange);
  CHECK_THAT(as_i64.status().message(), Catch::Contains("18446744073709551615"));
  // Wrong value count.
  CHECK(i8.upload_f64(std::vector<double>{1, 2, 3}).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("f64 to integer types truncates toward zero and saturates", "[runtime][gkbuf]") {
  FakeKit f;
  GkBuf i8 = f.kit.alloc(DType::kI8, 6).value();
  REQUIRE(i8.upload_f64(std::vector<double>{-3.7, 3.7, 1000, -1000, std::nan(""), -0.5}).ok());
  CHECK(raw_of<int8_t>(i8) == std::vector<int8_t>{-3, 3, 127, -128, 0, 0});
  GkBuf u32 = f.kit.alloc(DType::kU32, 3).value();
  REQUIRE(u32.upload_f64(std::vector<double>{-1, 4294967295.0, 1e20}).ok());
  CHECK(raw_of<uint32_t>(u32) == std::vector<uint32_t>{0, 4294967295u, 4294967295u});
  GkBuf b = f.kit.alloc(DType::kBool, 4).value();
  REQUIRE(b.upload_f64(std::vector<double>{0, 2.5, -0.0, -1}).ok());
  CHECK(raw_of<uint8_t>(b) == std::vector<uint8_t>{0, 1, 0, 1});
  REQUIRE(b.upload_i64(std::vector<int64_t>{7, 0, 1, -3}).ok());
  CHECK(b.download_i64().value() == std::vector<int64_t>{1, 0, 1, 1});
  CHECK(b.download_f64().value() == std::vector<double>{1, 0, 1, 1});
}

TEST_CASE("f32 and f64 round-trip exactly", "[runtime][gkbuf]") {
  FakeKit f;
  const double tiny32 = std::ldexp(1.0, -149), big32 = std::ldexp(1.0, 100);
  std::vector<double> v32 = {0.0, -1.5, 3.25, big32, tiny32, -kInf, 16777217.0};
  GkBuf a = f.kit.alloc(DType::kF32, 7).value();
  REQUIRE(a.upload_f64(v32).ok());
  auto back = a.download_f64().value();
  std::vector<double> want = v32;
  want[6] = 16777216.0;  // 2^24 + 1 rounds to even in float
  CHECK(back == want);
  CHECK(raw_of<float>(a)[1] == -1.5f);
  std::vector<double> v64 = {0.1, -1e300, std::ldexp(1.0, -1074), kInf, 1.0 / 3.0};
  GkBuf d = f.kit.alloc(DType::kF64, 5).value();
  REQUIRE(d.upload_f64(v64).ok());
  CHECK(d.download_f64().value() == v64);
  GkBuf fi = f.kit.alloc(DType::kF32, 3).value();
  REQUIRE(fi.upload_i64(std::vector<int64_t>{-7, 16777217, 1}).ok());
  CHECK(fi.download_i64().value() == std::vector<int64_t>{-7, 16777216, 1});
}

TEST_CASE("f16 and bf16 round to nearest even", "[runtime][gkbuf]") {
  FakeKit f;
  const double ulp16 = std::ldexp(1.0, -10);
  GkBuf h = f.kit.alloc(DType::kF16, 9).value();
  REQUIRE(h.upload_f64(std::vector<double>{1.0, 65504, std::ldexp(1.0, -24), -2.0,
                                           1 + ulp16 / 2,      // tie: to even (1.0)
                                           1 + 3 * ulp16 / 2,  // tie: to even (1 + 2 ulp)
                                           65520,              // rounds past the max: inf
                                           std::ldexp(1.0, -26), kInf})
              .ok());
  CHECK(raw_of<uint16_t>(h) ==
        std::vector<uint16_t>{0x3c00, 0x7bff, 0x0001, 0xc000, 0x3c00, 0x3c02, 0x7c00, 0x0000, 0x7c00});
  CHECK(h.download_f64().value() == std::vector<double>{1.0, 65504, std::ldexp(1.0, -24), -2.0, 1.0,
                                                        1 + 2 * ulp16, kInf, 0.0, kInf});
  const double ulpb = std::ldexp(1.0, -7);
  GkBuf b = f.kit.alloc(DType::kBF16, 5).value();
  REQUIRE(b.upload_f64(std::vector<double>{1.0, 1 + ulpb / 2, 1 + 3 * ulpb / 2, -0.0, 3.0e38}).ok());
  CHECK(raw_of<uint16_t>(b) == std::vector<uint16_t>{0x3f80, 0x3f80, 0x3f82, 0x8000, 0x7f62});
  CHECK(b.download_f64().value()[2] == 1 + 2 * ulpb);
  // Integer values through i64.
  REQUIRE(h.upload_i64(std::vector<int64_t>{0, 1, -1, 2048, 2049, 4097, 65504, 70000, -3}).ok());
  CHECK(h.download_i64().value() ==
        std::vector<int64_t>{0, 1, -1, 2048, 2048, 4096, 65504,
                             std::numeric_limits<int64_t>::max(), -3});  // inf saturates
}

TEST_CASE("storage-only types have raw copies only", "[runtime][gkbuf]") {
  FakeKit f;
  GkBuf q = f.kit.alloc(DType::kF8E4M3FN, 2).value();
  CHECK(q.upload_f64(std::vector<double>{1, 2}).code() == StatusCode::kUnimplemented);
  CHECK(q.download_i64().status().code() == StatusCode::kUnimplemented);
}

TEST_CASE("views and reinterpretations are bounds-checked", "[runtime][gkbuf]") {
  FakeKit f;
  GkBuf b = f.kit.alloc(DType::kI32, 10).value();
  REQUIRE(b.upload_i64(std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}).ok());
  GkBuf v = b.view(2, 3).value();
  CHECK(v.ptr() == b.ptr() + 8);
  CHECK(v.owns_memory());
  REQUIRE(v.upload_i64(std::vector<int64_t>{-2, -3, -4}).ok());
  CHECK(b.download_i64().value() == std::vector<int64_t>{0, 1, -2, -3, -4, 5, 6, 7, 8, 9});
  CHECK(b.view(10, 0).ok());
  for (auto [off, n] : {std::pair<int64_t, int64_t>{8, 3}, {-1, 2}, {0, 11}, {11, 0}, {2, -1},
                        {std::numeric_limits<int64_t>::max(), 2}}) {
    auto bad = b.view(off, n);
    CHECK(bad.status().code() == StatusCode::kOutOfRange);
    CHECK_THAT(bad.status().message(), Catch::Contains("[0, 10)"));
  }
  // Reinterpret element 2 (bytes 8..12) as two uint16; then past the end.
  GkBuf r = b.reinterpret(DType::kU16, 8, 2).value();
  CHECK(r.ptr() == b.ptr() + 8);
  CHECK(r.download_i64().value() == std::vector<int64_t>{0xfffe, 0xffff});  // -2 little-endian
  auto past = b.reinterpret(DType::kF64, 36, 1);
  CHECK(past.status().code() == StatusCode::kOutOfRange);
  CHECK_THAT(past.status().message(), Catch::Contains("bytes [36, 44)"));
  CHECK_THAT(past.status().message(), Catch::Contains("[0, 40)"));
  CHECK(b.reinterpret(DType::kF64, 32, 1).ok());
  CHECK(b.reinterpret(DType::kU8, 41, 0).status().code() == StatusCode::kOutOfRange);
  // int4 views start on whole bytes only.
  GkBuf q = f.kit.alloc(DType::kI4, 8).value();
  CHECK(q.view(2, 2).value().ptr() == q.ptr() + 1);
  CHECK(q.view(1, 2).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("wrap and none own nothing", "[runtime][gkbuf]") {
  FakeKit f;
  GkBuf real = f.kit.alloc(DType::kF32, 4).value();
  GkBuf w = GkBuf::wrap(DType::kF32, 4, real.ptr());
  CHECK_FALSE(w.owns_memory());
  CHECK(w.ptr() == real.ptr());
  CHECK(w.bytes() == 16);
  CHECK(w.upload_f64(std::vector<double>{1, 2, 3, 4}).code() == StatusCode::kInvalidArgument);
  CHECK(w.view(1, 2).value().ptr() == real.ptr() + 4);
  CHECK(f.kit.use_count() == 2);  // the kit handle and real's block; w adds nothing
  GkBuf n = GkBuf::none();
  CHECK(n.is_none());
  CHECK(n.bytes() == 0);
  CHECK(n.ptr() == 0);
  CHECK_FALSE(real.is_none());
}

TEST_CASE("Kit::upload and download(shape) carry HostTensors", "[runtime][gkbuf]") {
  FakeKit f;
  auto t = HostTensor::from_vector<int16_t>(DType::kI16, {2, 3}, {1, -2, 3, -4, 5, -6});
  GkBuf b = f.kit.upload(t).value();
  CHECK(b.count() == 6);
  auto back = b.download({3, 2});
  REQUIRE(back.ok());
  CHECK(back->shape() == Shape{3, 2});
  CHECK(back->to_i64_vector() == std::vector<int64_t>{1, -2, 3, -4, 5, -6});
  CHECK(b.download({4}).status().code() == StatusCode::kInvalidArgument);
  auto s = HostTensor::strings({1}, {"x"});
  CHECK(f.kit.upload(s).status().code() == StatusCode::kInvalidArgument);
  auto empty = f.kit.upload(HostTensor::allocate(DType::kF32, {0, 4}).value());
  REQUIRE(empty.ok());
  CHECK(empty->count() == 0);
}

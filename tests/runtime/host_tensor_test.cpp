#include "runtime/kit/host_tensor.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace gk;

TEST_CASE("checked_numel: products, negative dims, int64 overflow", "[runtime][shape][nodevice]") {
  CHECK(checked_numel(Shape{}).value() == 1);
  CHECK(checked_numel(Shape{2, 3, 4}).value() == 24);
  CHECK(checked_numel(Shape{5, 0, 7}).value() == 0);
  auto neg = checked_numel(Shape{2, -3});
  CHECK(neg.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(neg.status().message(), Catch::Contains("dimension 1 is -3"));
  auto big = checked_numel(Shape{int64_t{1} << 32, int64_t{1} << 31});
  CHECK(big.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(big.status().message(), Catch::Contains("overflows int64"));
  // 2^31 * 2^31 * 2 = 2^63: one past INT64_MAX.
  gk::test::require_error(checked_numel(Shape{int64_t{1} << 31, int64_t{1} << 31, 2}), StatusCode::kInvalidArgument,
                          "element count overflows int64");
  CHECK(checked_numel(Shape{int64_t{1} << 31, int64_t{1} << 31, 1}).value() == int64_t{1} << 62);
  CHECK(numel(Shape{3, 1, 2}) == 6);
  CHECK(shape_str(Shape{}) == "scalar");
  CHECK(shape_str(Shape{1, 3, 224, 224}) == "1x3x224x224");
  CHECK(contiguous_strides(Shape{2, 3, 4}) == std::vector<int64_t>{12, 4, 1});
  CHECK(contiguous_strides(Shape{}).empty());
}

TEST_CASE("HostTensor::allocate is zero-filled and writable", "[runtime][host][nodevice]") {
  auto t = HostTensor::allocate(DType::kF32, {2, 3});
  REQUIRE(t.ok());
  CHECK(t->numel() == 6);
  CHECK(t->bytes() == 24);
  for (int64_t i = 0; i < 6; ++i) CHECK(t->as_f64(i) == 0.0);
  t->mutable_data<float>()[4] = 2.5f;
  CHECK(t->as_f64(4) == 2.5);
  HostTensor copy = *t;  // shares storage
  CHECK(copy.data<float>() == t->data<float>());
  CHECK(HostTensor::allocate(DType::kF32, {-1}).status().code() == StatusCode::kInvalidArgument);
  CHECK(HostTensor::allocate(DType::kString, {1}).status().code() == StatusCode::kInvalidArgument);
  auto empty = HostTensor::allocate(DType::kI64, {0});
  REQUIRE(empty.ok());
  CHECK(empty->bytes() == 0);
  CHECK_FALSE(empty->empty_storage());
  CHECK(empty->to_i64_vector().empty());
  auto i4 = HostTensor::allocate(DType::kI4, {3});
  REQUIRE(i4.ok());
  CHECK(i4->bytes() == 2);
}

TEST_CASE("HostTensor::from_bytes and borrow check the byte count", "[runtime][host][nodevice]") {
  const int32_t v[3] = {1, -2, 3};
  auto t = HostTensor::from_bytes(DType::kI32, {3}, v, 12);
  REQUIRE(t.ok());
  CHECK(t->to_i64_vector() == std::vector<int64_t>{1, -2, 3});
  CHECK(t->raw() != v);  // a copy
  auto bad = HostTensor::from_bytes(DType::kI32, {3}, v, 8);
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(bad.status().message(), Catch::Contains("needs 12 bytes, got 8"));

  auto owner = std::make_shared<std::vector<int16_t>>(std::vector<int16_t>{7, -8});
  auto b = HostTensor::borrow(DType::kI16, {2}, owner, owner->data(), 4);
  REQUIRE(b.ok());
  CHECK(b->raw() == owner->data());
  CHECK(owner.use_count() == 2);
  CHECK(b->to_f64_vector() == std::vector<double>{7, -8});
  CHECK(HostTensor::borrow(DType::kI16, {3}, owner, owner->data(), 4).status().code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("as_f64 / as_i64 for every computable dtype", "[runtime][host][nodevice]") {
  auto f16 = HostTensor::from_vector<uint16_t>(DType::kF16, {3}, {0x3c00, 0xc500, 0x0001});
  CHECK(f16.to_f64_vector() == std::vector<double>{1.0, -5.0, std::ldexp(1.0, -24)});
  CHECK(f16.as_i64(1) == -5);
  auto bf = HostTensor::from_vector<uint16_t>(DType::kBF16, {2}, {0x3f80, 0xc040});
  CHECK(bf.to_f64_vector() == std::vector<double>{1.0, -3.0});
  auto b = HostTensor::from_vector<uint8_t>(DType::kBool, {3}, {0, 1, 2});
  CHECK(b.to_i64_vector() == std::vector<int64_t>{0, 1, 1});
  auto u64 = HostTensor::from_vector<uint64_t>(DType::kU64, {1}, {uint64_t{1} << 62});
  CHECK(u64.as_i64(0) == int64_t{1} << 62);
  auto i8 = HostTensor::from_vector<int8_t>(DType::kI8, {2}, {-128, 127});
  CHECK(i8.to_i64_vector() == std::vector<int64_t>{-128, 127});
  auto u16 = HostTensor::from_vector<uint16_t>(DType::kU16, {1}, {65535});
  CHECK(u16.as_f64(0) == 65535.0);
  auto f64 = HostTensor::from_vector<double>(DType::kF64, {3}, {-2.9, 1e300, std::nan("")});
  CHECK(f64.to_i64_vector() == std::vector<int64_t>{-2, std::numeric_limits<int64_t>::max(), 0});
  auto i64 = HostTensor::from_vector<int64_t>(DType::kI64, {1}, {-9007199254740993LL});
  CHECK(i64.as_i64(0) == -9007199254740993LL);
}

TEST_CASE("strings and reshaped", "[runtime][host][nodevice]") {
  auto s = HostTensor::strings({2}, {"a", "bc"});
  CHECK(s.dtype() == DType::kString);
  CHECK(s.numel() == 2);
  CHECK(s.string_values()[1] == "bc");
  CHECK(s.empty_storage());
  auto r = s.reshaped({1, 2});
  REQUIRE(r.ok());
  CHECK(r->string_values().size() == 2);
  auto t = HostTensor::from_vector<float>(DType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6});
  auto t2 = t.reshaped({3, 2});
  REQUIRE(t2.ok());
  CHECK(t2->shape() == Shape{3, 2});
  CHECK(t2->raw() == t.raw());
  auto bad = t.reshaped({4});
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(bad.status().message(), Catch::Contains("2x3 has 6 elements, 4 has 4"));
}

namespace gk {

TEST_CASE("canonical_bools makes every bool byte 0 or 1 and leaves canonical tensors uncopied", "[runtime]") {
  const std::vector<uint8_t> bytes = {0, 1, 139, 255, 0, 2};
  auto raw = HostTensor::from_bytes(DType::kBool, {6}, bytes.data(), bytes.size());
  REQUIRE(raw.ok());
  auto fixed = canonical_bools(*raw);
  REQUIRE(fixed.ok());
  const uint8_t* p = static_cast<const uint8_t*>(fixed->raw());
  CHECK(std::vector<uint8_t>(p, p + 6) == std::vector<uint8_t>{0, 1, 1, 1, 0, 1});
  CHECK(fixed->raw() != raw->raw());
  auto again = canonical_bools(*fixed);
  REQUIRE(again.ok());
  CHECK(again->raw() == fixed->raw());
  // Other dtypes pass through as they are.
  auto u8 = HostTensor::from_bytes(DType::kU8, {6}, bytes.data(), bytes.size());
  REQUIRE(u8.ok());
  auto same = canonical_bools(*u8);
  REQUIRE(same.ok());
  CHECK(same->raw() == u8->raw());
}

}  // namespace gk

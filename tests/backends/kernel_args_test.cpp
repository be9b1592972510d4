// KernelArgs keeps small packs inline and moves a large one to the heap whole:
// every argument reads back the same, on 8-byte boundaries, either way.
#include "backends/kernel_args.h"

#include <catch2/catch.hpp>

#include <array>

namespace gk {
namespace {

struct Big {
  int64_t v[40];  // 320 bytes: four of them pass the inline byte budget
};

}  // namespace

TEST_CASE("kernel args: values read back, aligned, inline and after moving to the heap", "[backends][args]") {
  KernelArgs a;
  a.ptr(DevPtr{0x1000}).i32(-7).f32(2.5f).i64(int64_t{1} << 40).f64(0.125);
  REQUIRE(a.size() == 5);
  CHECK(a.get<uint64_t>(0) == 0x1000);
  CHECK(a.get<int32_t>(1) == -7);
  CHECK(a.get<float>(2) == 2.5f);
  CHECK(a.get<int64_t>(3) == (int64_t{1} << 40));
  CHECK(a.get<double>(4) == 0.125);
  for (size_t i = 0; i < a.size(); ++i) CHECK(reinterpret_cast<uintptr_t>(a.slot(i)) % 8 == 0);

  // Five 320-byte structs: past the inline bytes, so the pack moves to the heap.
  Big big[5];
  for (int k = 0; k < 5; ++k)
    for (int j = 0; j < 40; ++j) big[k].v[j] = 1000 * k + j;
  for (const Big& b : big) a.pod(b);
  // And past the inline argument count.
  for (int k = 0; k < 40; ++k) a.i32(k);
  REQUIRE(a.size() == 5 + 5 + 40);
  CHECK(a.get<int32_t>(1) == -7);
  CHECK(a.get<double>(4) == 0.125);
  for (int k = 0; k < 5; ++k) {
    const Big got = a.get<Big>(5 + k);
    CHECK(got.v[0] == 1000 * k);
    CHECK(got.v[39] == 1000 * k + 39);
    CHECK(a.kind(5 + k) == ArgKind::kPod);
    CHECK(a.arg_bytes(5 + k) == sizeof(Big));
  }
  for (int k = 0; k < 40; ++k) CHECK(a.get<int32_t>(10 + k) == k);
  for (size_t i = 0; i < a.size(); ++i) CHECK(reinterpret_cast<uintptr_t>(a.slot(i)) % 8 == 0);

  // A copy is independent of its source; set_ptr rewrites one slot in place.
  KernelArgs b = a;
  b.set_ptr(0, 0x2000);
  CHECK(a.get<uint64_t>(0) == 0x1000);
  CHECK(b.get<uint64_t>(0) == 0x2000);
  const std::vector<void*> p = b.pointers();
  REQUIRE(p.size() == b.size());
  CHECK(p[1] == b.slot(1));
}

}  // namespace gk

#include "runtime/kit/kit.h"
#include "tests/runtime/fake_device.h"
#include "tests/runtime/test_device.h"

#include <catch2/catch.hpp>

#include <random>
#include <thread>

using namespace gk;
using gk::test::FakeKit;

TEST_CASE("size classes: 512 B steps below 1 MiB, eighths of an octave above", "[runtime][pool][nodevice]") {
  CHECK(Pool::size_class(0) == 512);
  CHECK(Pool::size_class(1) == 512);
  CHECK(Pool::size_class(512) == 512);
  CHECK(Pool::size_class(513) == 1024);
  CHECK(Pool::size_class(4000) == 4096);
  CHECK(Pool::size_class(5000) == 5120);
  CHECK(Pool::size_class((1u << 20) - 1) == (1u << 20));
  CHECK(Pool::size_class(1u << 20) == (1u << 20));
  CHECK(Pool::size_class((1u << 20) + 1) == (1u << 20) + (1u << 17));
  CHECK(Pool::size_class(3000000) == 12 * 262144);
  CHECK(Pool::size_class(100 * (1u << 20) + 1) == 104 * (size_t{1} << 20));
  // Waste bound: under 12.5% from 1 MiB on.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    size_t n = (size_t{1} << 20) + rng() % (size_t{1} << 34);
    size_t c = Pool::size_class(n);
    REQUIRE(c >= n);
    REQUIRE(static_cast<double>(c - n) < 0.125 * static_cast<double>(n));
  }
  // Overflowing round-ups hand the request through unchanged.
  CHECK(Pool::size_class(SIZE_MAX - 3) == SIZE_MAX - 3);
}

static void check_counters(const PoolCounters& c, int64_t held, int64_t idle, size_t idle_bytes,
                           size_t in_use, size_t peak, int64_t allocs, int64_t frees, int64_t reuses) {
  CHECK(c.blocks_held == held);
  CHECK(c.idle_blocks == idle);
  CHECK(c.idle_bytes == idle_bytes);
  CHECK(c.in_use_bytes == in_use);
  CHECK(c.peak_in_use_bytes == peak);
  CHECK(c.device_allocs == allocs);
  CHECK(c.device_frees == frees);
  CHECK(c.reuses == reuses);
}

TEST_CASE("pool counters after a scripted sequence", "[runtime][pool]") {
  FakeKit f;
  Pool& pool = f.kit.pool();
  GkBuf a = f.kit.alloc(DType::kF32, 100).value();   // 400 B -> 512
  GkBuf b = f.kit.alloc(DType::kF32, 1000).value();  // 4000 B -> 4096
  GkBuf c = f.kit.alloc(DType::kU8, 5000).value();   // 5000 B -> 5120
  check_counters(pool.counters(), 3, 0, 0, 9728, 9728, 3, 0, 0);
  const DevPtr b_ptr = b.ptr();
  b = GkBuf();
  check_counters(pool.counters(), 3, 1, 4096, 5632, 9728, 3, 0, 0);
  // Same class: the idle block comes back, the device is not asked.
  GkBuf d = f.kit.alloc(DType::kI32, 1001).value();  // 4004 B -> 4096
  CHECK(d.ptr() == b_ptr);
  check_counters(pool.counters(), 3, 0, 0, 9728, 9728, 3, 0, 1);
  GkBuf e = f.kit.alloc(DType::kF64, 600).value();  // 4800 B -> 5120, nothing idle
  check_counters(pool.counters(), 4, 0, 0, 14848, 14848, 4, 0, 1);
  a = GkBuf();
  c = GkBuf();
  check_counters(pool.counters(), 4, 2, 5632, 9216, 14848, 4, 0, 1);
  pool.release();
  check_counters(pool.counters(), 2, 0, 0, 9216, 14848, 4, 2, 1);
  CHECK(f.log->allocs == 4);
  CHECK(f.log->frees == 2);
  CHECK(f.log->live_blocks == 2);
}

TEST_CASE("alloc of zero elements is an empty buffer with no block", "[runtime][pool]") {
  FakeKit f;
  auto z = f.kit.alloc(DType::kF32, 0);
  REQUIRE(z.ok());
  CHECK(z->count() == 0);
  CHECK(z->bytes() == 0);
  CHECK(z->dtype() == DType::kF32);
  CHECK_FALSE(z->is_none());
  CHECK(f.kit.pool().counters().device_allocs == 0);
  CHECK(z->upload_raw(nullptr, 0).ok());
  CHECK(z->download_f64().value().empty());
  CHECK(f.kit.alloc(DType::kF32, -1).status().code() == StatusCode::kInvalidArgument);
  CHECK(f.kit.alloc(DType::kString, 4).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("idle budget trims least-recently-freed blocks first", "[runtime][pool]") {
  FakeKit f(PoolOptions{true, 5000});
  GkBuf x = f.kit.alloc(DType::kF32, 512).value();  // 2048 B each
  GkBuf y = f.kit.alloc(DType::kF32, 512).value();
  GkBuf z = f.kit.alloc(DType::kF32, 512).value();
  const DevPtr py = y.ptr(), pz = z.ptr();
  x = GkBuf();
  y = GkBuf();
  CHECK(f.kit.pool().counters().device_frees == 0);  // 4096 idle <= 5000
  z = GkBuf();                                       // 6144 idle > 5000: x goes
  auto c = f.kit.pool().counters();
  CHECK(c.device_frees == 1);
  CHECK(c.idle_blocks == 2);
  CHECK(c.idle_bytes == 4096);
  // The survivors are y and z, most recent first.
  GkBuf r1 = f.kit.alloc(DType::kF32, 512).value();
  GkBuf r2 = f.kit.alloc(DType::kF32, 512).value();
  CHECK(r1.ptr() == pz);
  CHECK(r2.ptr() == py);
  CHECK(f.kit.pool().counters().reuses == 2);
  CHECK(f.kit.pool().counters().device_allocs == 3);
  // Lowering the budget trims at once.
  r1 = GkBuf();
  r2 = GkBuf();
  f.kit.pool().set_idle_budget(2048);
  c = f.kit.pool().counters();
  CHECK(c.idle_blocks == 1);
  CHECK(c.idle_bytes == 2048);
  CHECK(c.device_frees == 2);
  GkBuf r3 = f.kit.alloc(DType::kF32, 512).value();
  CHECK(r3.ptr() == py);  // r2 (py) was freed last, r1 (pz) first: pz was trimmed
}

TEST_CASE("release() frees idle blocks and keeps blocks in use", "[runtime][pool]") {
  FakeKit f;
  GkBuf keep = f.kit.alloc(DType::kI64, 3).value();
  REQUIRE(keep.upload_i64(std::vector<int64_t>{-1, 0, 1}).ok());
  { GkBuf gone = f.kit.alloc(DType::kI64, 3000).value(); }
  f.kit.pool().release();
  auto c = f.kit.pool().counters();
  CHECK(c.blocks_held == 1);
  CHECK(c.idle_blocks == 0);
  CHECK(c.device_frees == 1);
  CHECK(f.log->live_blocks == 1);
  CHECK(keep.download_i64().value() == std::vector<int64_t>{-1, 0, 1});
}

TEST_CASE("a disabled pool frees straight to the device", "[runtime][pool]") {
  FakeKit f(PoolOptions{false, 0});
  { GkBuf a = f.kit.alloc(DType::kF32, 10).value(); }
  auto c = f.kit.pool().counters();
  CHECK(c.device_frees == 1);
  CHECK(c.idle_blocks == 0);
  CHECK(c.blocks_held == 0);
  { GkBuf b = f.kit.alloc(DType::kF32, 10).value(); }
  c = f.kit.pool().counters();
  CHECK(c.device_allocs == 2);
  CHECK(c.reuses == 0);
}

TEST_CASE("a request larger than the device is ResourceExhausted naming its size", "[runtime][pool]") {
  SECTION("the test backend's device") {
    Kit kit = Kit::adopt(gk::test::make_test_device(1));
    const size_t total = kit.device().info().total_bytes;
    auto big = kit.alloc(DType::kU8, static_cast<int64_t>(total) + 1);
    REQUIRE(big.status().code() == StatusCode::kResourceExhausted);
    CHECK_THAT(big.status().message(), Catch::Contains(std::to_string(total + 1) + " bytes"));
  }
  SECTION("a device with 1 MiB") {
    FakeKit f(PoolOptions{}, 1u << 20);
    GkBuf held = f.kit.alloc(DType::kF32, 100).value();
    auto big = f.kit.alloc(DType::kF32, 1u << 19);  // 2 MiB
    REQUIRE(big.status().code() == StatusCode::kResourceExhausted);
    CHECK_THAT(big.status().message(), Catch::Contains("2097152 bytes"));
    CHECK_THAT(big.status().message(), Catch::Contains("512 bytes in use in 1 blocks, 0 bytes idle"));
  }
}

TEST_CASE("allocation failure trims idle blocks and retries once", "[runtime][pool]") {
  FakeKit f(PoolOptions{}, 10000);
  GkBuf b = f.kit.alloc(DType::kU8, 5000).value();  // 5120
  { GkBuf a = f.kit.alloc(DType::kF32, 1000).value(); }  // 4096, now idle
  // 3072 more would make 12288 > 10000 with the idle block; without it, 8192.
  auto c3 = f.kit.alloc(DType::kU8, 3000);
  REQUIRE(c3.ok());
  CHECK(f.log->failed_allocs == 1);
  auto c = f.kit.pool().counters();
  CHECK(c.device_frees == 1);
  CHECK(c.device_allocs == 3);
  CHECK(c.idle_blocks == 0);
  CHECK(c.in_use_bytes == 8192);
  // Nothing idle left to trim: the second failure is final and says why.
  auto d = f.kit.alloc(DType::kU8, 3000);
  REQUIRE(d.status().code() == StatusCode::kResourceExhausted);
  CHECK(f.log->failed_allocs == 2);
  CHECK_THAT(d.status().message(), Catch::Contains("3000 bytes (size class 3072)"));
  CHECK_THAT(d.status().message(), Catch::Contains("8192 bytes in use in 2 blocks, 0 bytes idle"));
}

TEST_CASE("process-wide counters follow every pool", "[runtime][pool]") {
  const PoolCounters g0 = global_pool_counters();
  {
    FakeKit f1, f2;
    GkBuf a = f1.kit.alloc(DType::kF32, 100).value();   // 512
    GkBuf b = f2.kit.alloc(DType::kF32, 1000).value();  // 4096
    { GkBuf idle = f2.kit.alloc(DType::kU8, 5000).value(); }  // 5120 idle
    const PoolCounters g = global_pool_counters();
    CHECK(g.blocks_held - g0.blocks_held == 3);
    CHECK(g.idle_blocks - g0.idle_blocks == 1);
    CHECK(g.idle_bytes - g0.idle_bytes == 5120);
    CHECK(g.in_use_bytes - g0.in_use_bytes == 4608);
    CHECK(g.device_allocs - g0.device_allocs == 3);
  }
  const PoolCounters g1 = global_pool_counters();
  CHECK(g1.blocks_held == g0.blocks_held);
  CHECK(g1.idle_blocks == g0.idle_blocks);
  CHECK(g1.idle_bytes == g0.idle_bytes);
  CHECK(g1.in_use_bytes == g0.in_use_bytes);
  CHECK(g1.device_frees - g0.device_frees == 3);
}

TEST_CASE("8 threads allocating and freeing on one kit", "[runtime][pool][threads]") {
  FakeKit f(PoolOptions{true, 1u << 20});
  std::vector<std::thread> threads;
  std::atomic<int> mismatches{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      Kit kit = f.kit;  // each thread its own handle on the same kit
      std::mt19937 rng(static_cast<uint32_t>(t + 1));
      std::vector<GkBuf> live;
      for (int i = 0; i < 300; ++i) {
        int64_t n = 1 + rng() % 3000;
        auto buf = kit.alloc(DType::kI32, n);
        if (!buf.ok()) {
          ++mismatches;
          continue;
        }
        std::vector<int32_t> v(static_cast<size_t>(n), t * 1000000 + i);
        if (!buf->upload_raw(v.data(), v.size() * 4).ok()) ++mismatches;
        live.push_back(std::move(buf).value());
        if (live.size() > 4 || rng() % 2) {
          size_t k = rng() % live.size();
          std::vector<int32_t> back(static_cast<size_t>(live[k].count()));
          if (!live[k].download_raw(back.data(), back.size() * 4).ok()) ++mismatches;
          for (int32_t x : back)
            if (x / 1000000 != t) ++mismatches;  // another thread's block would show here
          live.erase(live.begin() + static_cast<ptrdiff_t>(k));
        }
      }
    });
  for (auto& th : threads) th.join();
  CHECK(mismatches == 0);
  auto c = f.kit.pool().counters();
  CHECK(c.in_use_bytes == 0);
  CHECK(c.blocks_held == c.idle_blocks);
  CHECK(c.idle_bytes <= (1u << 20));
  CHECK(c.device_allocs - c.device_frees == c.blocks_held);
  CHECK(f.log->live_blocks == c.blocks_held);
  CHECK(c.reuses > 0);
}

// run() against the same work written out by hand on a bare backend, autosync,
// and launches from several threads. On the test backend (tests/runtime/test_device.h).
#include "runtime/kit/kit.h"
#include "tests/runtime/fake_device.h"
#include "tests/runtime/test_device.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <thread>

using namespace gk;
using gk::test::FakeKit;
using gk::test::test_kernel_source;

namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-10.0f, 10.0f);
  std::vector<float> v(n);
  for (float& x : v) x = d(rng);
  return v;
}

// The hand-written path: a bare device of the test backend, no kit.
std::vector<float> direct_saxpy(float a, const std::vector<float>& x, std::vector<float> y) {
  auto dev = gk::test::make_test_device(2);
  const size_t bytes = x.size() * 4;
  DevPtr dx = dev->alloc(bytes).value(), dy = dev->alloc(bytes).value();
  REQUIRE(dev->upload(dx, x.data(), bytes).ok());
  REQUIRE(dev->upload(dy, y.data(), bytes).ok());
  const Kernel* k = dev->compile(test_kernel_source(), "gk_test_saxpy").value();
  KernelArgs args;
  args.f32(a).ptr(dx).ptr(dy).i64(static_cast<int64_t>(x.size()));
  REQUIRE(dev->launch(*k, grid_for(static_cast<int64_t>(x.size())), args).ok());
  REQUIRE(dev->sync().ok());
  REQUIRE(dev->download(y.data(), dy, bytes).ok());
  REQUIRE(dev->free(dx).ok());
  REQUIRE(dev->free(dy).ok());
  return y;
}

}  // namespace

TEST_CASE("run() equals direct backend calls bit for bit", "[runtime][run]") {
  FakeKit f;
  const size_t n = 100003;  // several workers' ranges, not a multiple of the block
  const auto x = random_floats(n, 1), y0 = random_floats(n, 2);
  std::vector<float> y = y0;
  const Binding b[] = {Binding::f32(0.7f), Binding::input(DType::kF32, x.data(), n),
                       Binding::inout(DType::kF32, y.data(), n), Binding::i64(static_cast<int64_t>(n))};
  REQUIRE(run(f.kit, test_kernel_source(), "gk_test_saxpy", grid_for(static_cast<int64_t>(n)), b).ok());
  const auto want = direct_saxpy(0.7f, x, y0);
  CHECK(std::memcmp(y.data(), want.data(), n * 4) == 0);
  // And both are the host's fmaf, element by element (the kernel calls fmaf, which
  // is fused and correctly rounded on both backends).
  for (size_t i = 0; i < n; i += 997) REQUIRE(y[i] == std::fmaf(0.7f, x[i], y0[i]));
  CHECK(f.log->syncs == 1);  // run() syncs once; autosync is off
  // The second call compiles nothing.
  REQUIRE(run(f.kit, test_kernel_source(), "gk_test_saxpy", grid_for(static_cast<int64_t>(n)), b).ok());
  CHECK(f.log->compiles == 1);
  // Nothing leaks: run's staging buffers went back to the pool.
  CHECK(f.kit.pool().counters().in_use_bytes == 0);
}

TEST_CASE("run() with outputs, i64 scalars and an empty launch", "[runtime][run]") {
  FakeKit f;
  std::vector<int64_t> in = {-3, 0, 5, int64_t{1} << 40};
  std::vector<int64_t> out(4, 99);
  const Binding b[] = {Binding::input(DType::kI64, in.data(), 4), Binding::output(DType::kI64, out.data(), 4),
                       Binding::i64(-2), Binding::i64(7), Binding::i64(4)};
  REQUIRE(run(f.kit, test_kernel_source(), "gk_test_i64_affine", grid_for(4), b).ok());
  CHECK(out == std::vector<int64_t>{13, 7, -3, -(int64_t{1} << 41) + 7});
  // Zero elements: null buffers, the kernel does nothing.
  const Binding e[] = {Binding::input(DType::kI64, nullptr, 0), Binding::output(DType::kI64, nullptr, 0),
                       Binding::i64(1), Binding::i64(1), Binding::i64(0)};
  CHECK(run(f.kit, test_kernel_source(), "gk_test_i64_affine", grid_for(0), e).ok());
  const Binding wrong[] = {Binding::i32(1)};
  if (gk::test::testing_cpu()) {
    // A wrong signature is the backend's InvalidArgument, passed through. CPU only:
    // a CUDA kernel carries no signature the driver could check (cuLaunchKernel
    // reads the parameter buffer as given), so there it is undefined, not an error.
    CHECK(run(f.kit, test_kernel_source(), "gk_test_i64_affine", grid_for(4), wrong).code() ==
          StatusCode::kInvalidArgument);
    CHECK(run(f.kit, test_kernel_source(), "gk_missing", grid_for(4), wrong).code() ==
          StatusCode::kUnimplemented);
  } else {
    // NVRTC finds no such name in the source: an error naming the entry.
    Status missing = run(f.kit, test_kernel_source(), "gk_missing", grid_for(4), wrong);
    CHECK_FALSE(missing.ok());
    CHECK_THAT(missing.message(), Catch::Contains("gk_missing"));
  }
}

TEST_CASE("device-resident run() launches and syncs", "[runtime][run]") {
  FakeKit f;
  GkBuf a = f.kit.alloc(DType::kF64, 5).value(), c = f.kit.alloc(DType::kF64, 5).value();
  REQUIRE(a.upload_f64(std::vector<double>{1, 2, 3, 4, 5}).ok());
  KernelArgs args;
  args.ptr(a.ptr()).ptr(a.ptr()).ptr(c.ptr()).i64(5);
  REQUIRE(run(f.kit, test_kernel_source(), "gk_test_vector_add<double>", grid_for(5), args).ok());
  CHECK(c.download_f64().value() == std::vector<double>{2, 4, 6, 8, 10});
  CHECK(f.log->syncs == 1);
}

TEST_CASE("autosync: on syncs after every launch, off never", "[runtime][run]") {
  for (bool on : {false, true}) {
    FakeKit f(PoolOptions{}, SIZE_MAX, on);
    CHECK(f.kit.autosync() == on);
    GkBuf a = f.kit.alloc(DType::kI32, 3).value(), c = f.kit.alloc(DType::kI32, 3).value();
    REQUIRE(a.upload_i64(std::vector<int64_t>{1, 2, 3}).ok());
    const Kernel* k = f.kit.kernel(test_kernel_source(), "gk_test_vector_add<int32_t>").value();
    KernelArgs args;
    args.ptr(a.ptr()).ptr(a.ptr()).ptr(c.ptr()).i64(3);
    for (int i = 0; i < 4; ++i) REQUIRE(f.kit.launch(*k, grid_for(3), args).ok());
    CHECK(f.log->launches == 4);
    CHECK(f.log->syncs == (on ? 4 : 0));
    // A download needs no explicit sync.
    CHECK(c.download_i64().value() == std::vector<int64_t>{2, 4, 6});
    f.kit.set_autosync(!on);
    REQUIRE(f.kit.launch(*k, grid_for(3), args).ok());
    CHECK(f.log->syncs == (on ? 4 : 1));
  }
}

TEST_CASE("concurrent run() calls on one kit", "[runtime][run][threads]") {
  FakeKit f;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      Kit kit = f.kit;
      for (int i = 0; i < 50; ++i) {
        const int64_t n = 1000 + t * 100 + i;
        std::vector<int32_t> a(static_cast<size_t>(n)), b(a.size()), c(a.size());
        for (int64_t j = 0; j < n; ++j) {
          a[j] = static_cast<int32_t>(j * t);
          b[j] = i;
        }
        const Binding bind[] = {Binding::input(DType::kI32, a.data(), n),
                                Binding::input(DType::kI32, b.data(), n),
                                Binding::output(DType::kI32, c.data(), n), Binding::i64(n)};
        if (!run(kit, test_kernel_source(), "gk_test_vector_add<int32_t>", grid_for(n), bind).ok()) ++failures;
        for (int64_t j = 0; j < n; ++j)
          if (c[j] != j * t + i) ++failures;
      }
    });
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  CHECK(f.log->compiles == 1);
  CHECK(f.kit.pool().counters().in_use_bytes == 0);
}

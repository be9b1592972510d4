#include "backends/cpu/cpu_device.h"
#include "tests/backends/test_kernels.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

namespace gk {
namespace {

std::unique_ptr<Device> cpu(int threads) {
  return make_cpu_device(CpuDeviceOptions{threads, {test::test_kernel_table()}});
}

template <typename T>
DevPtr upload(Device& d, const std::vector<T>& v) {
  auto p = d.alloc(v.size() * sizeof(T));
  REQUIRE(p.ok());
  REQUIRE(d.upload(*p, v.data(), v.size() * sizeof(T)).ok());
  return *p;
}

template <typename T>
std::vector<T> download(Device& d, DevPtr p, size_t n) {
  std::vector<T> v(n);
  REQUIRE(d.download(v.data(), p, n * sizeof(T)).ok());
  return v;
}

LaunchConfig linear(int64_t n, uint32_t block = 128) {
  LaunchConfig c;
  c.block.x = block;
  c.grid.x = static_cast<uint32_t>((n + block - 1) / block);
  return c;
}

std::vector<float> vector_add(int threads, int64_t n) {
  auto d = cpu(threads);
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = 0.5f * static_cast<float>(i);
    b[i] = 1.0f / static_cast<float>(i + 1);
  }
  DevPtr pa = upload(*d, a), pb = upload(*d, b), pc = *d->alloc(n * sizeof(float));
  auto k = d->compile(test::test_kernel_source(), "gk_test_vector_add<float>");
  REQUIRE(k.ok());
  REQUIRE(d->launch(**k, linear(n), KernelArgs().ptr(pa).ptr(pb).ptr(pc).i64(n)).ok());
  REQUIRE(d->sync().ok());
  auto c = download<float>(*d, pc, n);
  for (int64_t i = 0; i < n; ++i) REQUIRE(c[i] == a[i] + b[i]);
  for (DevPtr p : {pa, pb, pc}) REQUIRE(d->free(p).ok());
  return c;
}

TEST_CASE("cpu backend: vector add matches a host loop", "[backends][cpu]") {
  vector_add(0, 1'000'003);
}

TEST_CASE("cpu backend: thread pool sizes 1 and N agree bit for bit", "[backends][cpu]") {
  REQUIRE(vector_add(1, 200'000) == vector_add(4, 200'000));
}

TEST_CASE("cpu backend: SAXPY with a float scalar argument", "[backends][cpu]") {
  auto d = cpu(0);
  const int64_t n = 100'000;
  std::vector<float> x(n), y(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i % 97) * 0.25f;
    y[i] = static_cast<float>(i % 13) - 6.0f;
  }
  DevPtr px = upload(*d, x), py = upload(*d, y);
  auto k = d->compile(test::test_kernel_source(), "gk_test_saxpy");
  REQUIRE(k.ok());
  REQUIRE(d->launch(**k, linear(n), KernelArgs().f32(2.5f).ptr(px).ptr(py).i64(n)).ok());
  auto out = download<float>(*d, py, n);
  for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == std::fmaf(2.5f, x[i], y[i]));
  for (DevPtr p : {px, py}) REQUIRE(d->free(p).ok());
}

TEST_CASE("cpu backend: a 2-D grid kernel covers every element once", "[backends][cpu]") {
  auto d = cpu(0);
  const int32_t rows = 37, cols = 53;  // not multiples of the 8x16 block
  DevPtr out = *d->alloc(rows * cols * sizeof(float));
  auto k = d->compile(test::test_kernel_source(), "gk_test_grid2d");
  REQUIRE(k.ok());
  LaunchConfig c;
  c.block = {16, 8, 1};
  c.grid = {(cols + 15) / 16, (rows + 7) / 8, 1};
  REQUIRE(d->launch(**k, c, KernelArgs().ptr(out).i32(rows).i32(cols)).ok());
  auto v = download<float>(*d, out, rows * cols);
  for (int r = 0; r < rows; ++r)
    for (int col = 0; col < cols; ++col) REQUIRE(v[r * cols + col] == r * 1000.0f + col);
  REQUIRE(d->free(out).ok());
}

TEST_CASE("cpu backend: int64 arithmetic is exact", "[backends][cpu]") {
  auto d = cpu(2);
  const int64_t n = 50'000;
  std::vector<int64_t> in(n);
  for (int64_t i = 0; i < n; ++i) in[i] = (int64_t{1} << 40) + i * 7919;
  DevPtr pi = upload(*d, in), po = *d->alloc(n * 8);
  auto k = d->compile(test::test_kernel_source(), "gk_test_i64_affine");
  REQUIRE(k.ok());
  REQUIRE(d->launch(**k, linear(n), KernelArgs().ptr(pi).ptr(po).i64(3).i64(-(int64_t{1} << 41)).i64(n)).ok());
  auto out = download<int64_t>(*d, po, n);
  for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == in[i] * 3 - (int64_t{1} << 41));
  for (DevPtr p : {pi, po}) REQUIRE(d->free(p).ok());
}

TEST_CASE("cpu backend: a grid that is not a multiple of the block", "[backends][cpu]") {
  auto d = cpu(3);
  const int64_t n = 1000;  // 8 blocks of 128 = 1024 threads
  std::vector<double> in(n);
  std::iota(in.begin(), in.end(), -500.0);
  DevPtr pi = upload(*d, in);
  DevPtr po = upload(*d, std::vector<double>(n + 24, -1.0));
  auto k = d->compile(test::test_kernel_source(), "gk_test_bounded_scale");
  REQUIRE(k.ok());
  REQUIRE(d->launch(**k, linear(n), KernelArgs().ptr(pi).ptr(po).f64(0.125).i64(n)).ok());
  auto out = download<double>(*d, po, n + 24);
  for (int64_t i = 0; i < n; ++i) REQUIRE(out[i] == in[i] * 0.125);
  for (int64_t i = n; i < n + 24; ++i) REQUIRE(out[i] == -1.0);  // untouched past n
  for (DevPtr p : {pi, po}) REQUIRE(d->free(p).ok());
}

TEST_CASE("cpu backend: a struct argument passes by value", "[backends][cpu]") {
  auto d = cpu(0);
  std::vector<float> in = {1, 2, 3, 4};
  DevPtr pi = upload(*d, in), po = *d->alloc(16);
  struct Affine {
    float scale, shift;
    int32_t pad;
  } p{2.0f, -1.0f, 0};
  auto k = d->compile(test::test_kernel_source(), "gk_test_pod_arg");
  REQUIRE(k.ok());
  REQUIRE(d->launch(**k, linear(4), KernelArgs().ptr(pi).ptr(po).pod(p).i64(4)).ok());
  REQUIRE(download<float>(*d, po, 4) == std::vector<float>{1, 3, 5, 7});
  for (DevPtr p : {pi, po}) REQUIRE(d->free(p).ok());
}

TEST_CASE("cpu backend: errors are values", "[backends][cpu][errors]") {
  auto d = cpu(1);
  SECTION("unknown kernel name") {
    auto k = d->compile(test::test_kernel_source(), "gk_no_such_kernel<float>");
    gk::test::require_error(k, StatusCode::kUnimplemented, "gk_no_such_kernel<float>");
  }
  SECTION("allocation larger than the device") {
    auto p = d->alloc(d->info().total_bytes + 1);
    gk::test::require_error(p, StatusCode::kResourceExhausted,
                            fmt::format("cpu: allocation of {} bytes exceeds", d->info().total_bytes + 1));
  }
  SECTION("argument kinds are checked against the kernel's signature") {
    auto k = d->compile(test::test_kernel_source(), "gk_test_saxpy");
    REQUIRE(k.ok());
    auto s = d->launch(**k, linear(4), KernelArgs().f64(2.5).ptr(DevPtr{0}).ptr(DevPtr{0}).i64(0));
    gk::test::require_error(s, StatusCode::kInvalidArgument, "argument 0");
  }
  SECTION("wrong argument count") {
    auto k = d->compile(test::test_kernel_source(), "gk_test_saxpy");
    REQUIRE(k.ok());
    auto s = d->launch(**k, linear(4), KernelArgs().f32(1));
    CHECK(s.code() == StatusCode::kInvalidArgument);
  }
}

TEST_CASE("cpu backend: event timers measure host time", "[backends][cpu]") {
  auto d = cpu(1);
  auto a = d->record_event();
  auto b = d->record_event();
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  auto ms = d->elapsed_ms(*a, *b);
  REQUIRE(ms.ok());
  CHECK(*ms >= 0.0);
  d->release_event(*a);
  d->release_event(*b);
  gk::test::require_error(d->elapsed_ms(*a, *b), StatusCode::kInvalidArgument,
                          fmt::format("cpu: unknown event id {} or {}", *a, *b));
}

}  // namespace
}  // namespace gk

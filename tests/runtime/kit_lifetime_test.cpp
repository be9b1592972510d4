// Release in every order: the device must outlive every block of its memory, and
// go exactly when its last owner (a kit copy or a buffer) goes.
#include "runtime/kit/kit.h"
#include "tests/runtime/fake_device.h"
#include "tests/runtime/test_device.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

using namespace gk;
using gk::test::FakeKit;

TEST_CASE("kit copies are one kit, and the last copy releases the device", "[runtime][kit]") {
  FakeKit f;
  auto log = f.log;
  Kit a = f.kit;
  Kit b = a;
  CHECK(a == b);
  CHECK(a.use_count() == 3);
  f.kit.close();
  a.close();
  CHECK_FALSE(a.valid());
  CHECK(b.valid());
  CHECK_FALSE(log->destroyed);
  b.close();
  CHECK(log->destroyed);
}

TEST_CASE("kit dropped before its buffers: the device lives until the last buffer", "[runtime][kit]") {
  auto log = std::make_shared<gk::test::DeviceLog>();
  GkBuf x, y;
  {
    FakeKit f;
    log = f.log;
    x = f.kit.alloc(DType::kF32, 100).value();
    y = f.kit.alloc(DType::kI64, 7).value();
    REQUIRE(x.upload_f64(std::vector<double>(100, 2.5)).ok());
  }  // every Kit handle gone
  CHECK_FALSE(log->destroyed);
  CHECK(log->live_blocks == 2);
  auto back = x.download_f64();
  REQUIRE(back.ok());
  CHECK(back.value()[99] == 2.5);
  x = GkBuf();
  CHECK_FALSE(log->destroyed);
  y = GkBuf();
  CHECK(log->destroyed);
  // The pool handed both blocks back before the device went.
  CHECK(log->live_blocks_at_destruction == 0);
  CHECK(log->frees == 2);
}

TEST_CASE("buffers dropped before the kit: blocks go idle, the kit frees them at the end",
          "[runtime][kit]") {
  FakeKit f;
  auto log = f.log;
  {
    GkBuf a = f.kit.alloc(DType::kF32, 1000).value();
    GkBuf b = f.kit.alloc(DType::kF32, 10).value();
  }
  CHECK(log->frees == 0);  // idle in the pool
  CHECK(f.kit.pool().counters().idle_blocks == 2);
  f.kit.close();
  CHECK(log->destroyed);
  CHECK(log->frees == 2);
  CHECK(log->live_blocks_at_destruction == 0);
}

TEST_CASE("views outlive their parent and keep its block", "[runtime][kit]") {
  FakeKit f;
  auto log = f.log;
  GkBuf parent = f.kit.alloc(DType::kI32, 10).value();
  REQUIRE(parent.upload_i64(std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}).ok());
  GkBuf mid = parent.view(3, 4).value();
  GkBuf bytes = parent.reinterpret(DType::kU8, 4 * 8, 8).value();
  parent = GkBuf();
  f.kit.close();
  CHECK_FALSE(log->destroyed);
  CHECK(log->frees == 0);
  CHECK(mid.download_i64().value() == std::vector<int64_t>{3, 4, 5, 6});
  // Little-endian int32 8 and 9 as bytes.
  CHECK(bytes.download_i64().value() == std::vector<int64_t>{8, 0, 0, 0, 9, 0, 0, 0});
  mid = GkBuf();
  CHECK_FALSE(log->destroyed);
  bytes = GkBuf();
  CHECK(log->destroyed);
  CHECK(log->live_blocks_at_destruction == 0);
}

TEST_CASE("close() early lets go of one owner only", "[runtime][kit]") {
  FakeKit f;
  auto log = f.log;
  Kit other = f.kit;
  GkBuf buf = f.kit.alloc(DType::kF64, 4).value();
  f.kit.close();
  CHECK_FALSE(f.kit.valid());
  CHECK(f.kit.alloc(DType::kF32, 1).status().code() == StatusCode::kInvalidArgument);
  // The other copy still works and shares the pool with the live buffer.
  GkBuf more = other.alloc(DType::kF64, 4).value();
  CHECK(other.pool().counters().blocks_held == 2);
  other.close();
  more = GkBuf();
  CHECK_FALSE(log->destroyed);
  buf = GkBuf();
  CHECK(log->destroyed);
  CHECK(log->live_blocks_at_destruction == 0);
}

TEST_CASE("the kernel cache compiles each (source, entry) once", "[runtime][kit]") {
  FakeKit f;
  const KernelSource& src = gk::test::test_kernel_source();
  auto k1 = f.kit.kernel(src, "gk_test_vector_add<float>");
  auto k2 = f.kit.kernel(src, "gk_test_vector_add<float>");
  auto k3 = f.kit.kernel(src, "gk_test_saxpy");
  REQUIRE(k1.ok());
  REQUIRE(k3.ok());
  CHECK(k1.value() == k2.value());
  CHECK(k1.value() != k3.value());
  CHECK(f.log->compiles == 2);
  CHECK(f.kit.cached_kernels() == 2);
  auto missing = f.kit.kernel(src, "gk_no_such_kernel");
  if (gk::test::testing_cpu()) {
    gk::test::require_error(missing, StatusCode::kUnimplemented, "kernel 'gk_no_such_kernel'");
  } else {
    REQUIRE_FALSE(missing.ok());  // NVRTC's code and message: not yet checked on a GPU
  }
  // The CPU backend has no table entry (Unimplemented); NVRTC fails to compile the
  // name. Both name the entry.
  if (gk::test::testing_cpu()) CHECK(missing.status().code() == StatusCode::kUnimplemented);
  CHECK_THAT(missing.status().message(), Catch::Contains("gk_no_such_kernel"));
  CHECK(f.kit.cached_kernels() == 2);
}

TEST_CASE("Kit::open builds a kit of the asked backend from options", "[runtime][kit]") {
  KitOptions o;
  o.device = gk::test::test_device_options(2);
  o.cpu_kernels = {gk::test::test_kernel_table()};
  auto kit = Kit::open(o);
  gk::test::skip_if_unavailable(kit);
  REQUIRE(kit.ok());
  CHECK(kit->backend() == gk::test::test_backend());
  // CPU: the worker count asked for; CUDA: the SM count, which the options do not set.
  if (gk::test::testing_cpu()) CHECK(kit->device().info().threads == 2);
  CHECK(kit->device().info().threads > 0);
  // The kit's kernels come from the asked backend: the CPU table or NVRTC.
  auto k = kit->kernel(gk::test::test_kernel_source(), "gk_test_vector_add<int32_t>");
  REQUIRE(k.ok());
  GkBuf a = kit->alloc(DType::kI32, 3).value(), c = kit->alloc(DType::kI32, 3).value();
  REQUIRE(a.upload_i64(std::vector<int64_t>{1, -2, 40}).ok());
  KernelArgs args;
  args.ptr(a.ptr()).ptr(a.ptr()).ptr(c.ptr()).i64(3);
  REQUIRE(kit->launch(**k, grid_for(3), args).ok());
  CHECK(c.download_i64().value() == std::vector<int64_t>{2, -4, 80});
  CHECK_FALSE(kit->autosync());
  kit->set_autosync(true);
  CHECK(kit->autosync());
}

TEST_CASE("grid_for covers n with at most 65535 blocks", "[runtime][kit][nodevice]") {
  CHECK(grid_for(0).grid.x == 1);
  CHECK(grid_for(1).grid.x == 1);
  CHECK(grid_for(256).grid.x == 1);
  CHECK(grid_for(257).grid.x == 2);
  CHECK(grid_for(1000, 128).grid.x == 8);
  CHECK(grid_for(1000, 128).block.x == 128);
  CHECK(grid_for(int64_t{1} << 40).grid.x == 65535);
}

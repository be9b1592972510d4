// Capture and replay on the CPU backend: nothing runs while capturing, a replay
// runs the recorded work in order, and rebinding moves pointers by range, offsets
// into a buffer included.
#include "backends/cpu/cpu_device.h"
#include "tests/backends/test_kernels.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <vector>

namespace gk {
namespace {

std::unique_ptr<Device> device() {
  CpuDeviceOptions o;
  o.threads = 2;
  o.kernel_tables = {test::test_kernel_table()};
  o.graphs = true;
  return make_cpu_device(std::move(o));
}

LaunchConfig one_block() {
  LaunchConfig c;
  c.block.x = 32;
  return c;
}

TEST_CASE("remap_pointer: by range, first match, untouched outside", "[backends][graphs]") {
  const std::vector<PointerRemap> remap = {{1000, 100, 5000}, {1100, 50, 1000}};
  CHECK(remap_pointer(1000, remap) == 5000);
  CHECK(remap_pointer(1099, remap) == 5099);
  CHECK(remap_pointer(1100, remap) == 1000);  // matched against the old value: no chaining
  CHECK(remap_pointer(1150, remap) == 1150);  // one past the end
  CHECK(remap_pointer(0, remap) == 0);
  CHECK(remap_pointer(1234, {{1234, 0, 9}}) == 1234);  // an empty range holds nothing
}

TEST_CASE("cpu graphs: capture records, replay runs, rebind follows offsets", "[backends][graphs]") {
  auto dev = device();
  GraphCapture* graphs = dev->graphs();
  REQUIRE(graphs);
  const Kernel* saxpy = dev->compile(test::test_kernel_source(), "gk_test_saxpy").value();
  const int64_t n = 8;
  auto alloc = [&](std::vector<float> v) {
    DevPtr p = dev->alloc(v.size() * 4).value();
    REQUIRE(dev->upload(p, v.data(), v.size() * 4).ok());
    return p;
  };
  auto read = [&](DevPtr p, size_t count) {
    std::vector<float> v(count);
    REQUIRE(dev->download(v.data(), p, count * 4).ok());
    return v;
  };
  // y[4..7] += 2 * x[0..3], through pointers offset into both buffers; then a
  // memset of y[0..3] and a copy of y[4..7] to the front of x.
  const DevPtr x = alloc({1, 2, 3, 4, 5, 6, 7, 8}), y = alloc(std::vector<float>(n, 10));
  REQUIRE(graphs->begin_capture().ok());
  REQUIRE(dev->launch(*saxpy, one_block(), KernelArgs().f32(2).ptr(x).ptr(y + 16).i64(4)).ok());
  REQUIRE(dev->memset(y, 0, 16).ok());
  REQUIRE(dev->copy(x, y + 16, 16).ok());
  float probe = 0;
  // Cannot be replayed: refused.
  gk::test::require_error(dev->download(&probe, x, 4), StatusCode::kInvalidArgument,
                          "cpu: download while this thread captures a graph");
  gk::test::require_error(dev->sync(), StatusCode::kInvalidArgument, "cpu: sync while this thread captures a graph");
  GraphId g = graphs->end_capture().value();
  CHECK(read(y, n) == std::vector<float>(n, 10));  // nothing ran yet

  REQUIRE(graphs->launch_graph(g).ok());
  CHECK(read(y, n) == std::vector<float>{0, 0, 0, 0, 12, 14, 16, 18});
  CHECK(read(x, n) == std::vector<float>{12, 14, 16, 18, 5, 6, 7, 8});

  const DevPtr x2 = alloc({1, 2, 3, 4, 9, 9, 9, 9}), y2 = alloc(std::vector<float>(n, 1));
  REQUIRE(graphs->rebind_pointers(g, {{x, n * 4, x2}, {y, n * 4, y2}}).ok());
  REQUIRE(graphs->launch_graph(g).ok());
  CHECK(read(y2, n) == std::vector<float>{0, 0, 0, 0, 3, 5, 7, 9});
  CHECK(read(x2, n) == std::vector<float>{3, 5, 7, 9, 9, 9, 9, 9});
  CHECK(read(y, n) == std::vector<float>{0, 0, 0, 0, 12, 14, 16, 18});  // the old buffers untouched
  graphs->destroy_graph(g);
  gk::test::require_error(graphs->launch_graph(g), StatusCode::kInvalidArgument,
                          fmt::format("cpu: unknown graph id {}", g));
  for (DevPtr p : {x, y, x2, y2}) REQUIRE(dev->free(p).ok());
}

}  // namespace
}  // namespace gk


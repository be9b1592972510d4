// The CUDA backend on a real GPU, with the CPU backend as the oracle: the same
// kernels on the same inputs must give the same bytes. Without a GPU (or driver)
// each case prints "SKIP: <reason>" and exits 77.
#include "backends/cpu/cpu_device.h"
#include "backends/cuda/cuda_device.h"
#include "tests/support/skip.h"
#include "tests/backends/test_kernels.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace gk {
namespace {

namespace fs = std::filesystem;

// Each test process compiles into its own empty cache, so counts are exact.
fs::path fresh_cache_dir() {
  fs::path dir = fs::temp_directory_path() / fmt::format("gk_cuda_test_{}", static_cast<long>(getpid()));
  static bool cleaned = [&] {
    std::error_code ec;
    fs::remove_all(dir, ec);
    ::setenv("GK_KERNEL_CACHE", dir.c_str(), 1);
    std::atexit([] {
      std::error_code e;
      fs::remove_all(fs::temp_directory_path() / fmt::format("gk_cuda_test_{}", static_cast<long>(getpid())), e);
    });
    return true;
  }();
  (void)cleaned;
  return dir;
}

std::unique_ptr<Device> gpu() {
  fresh_cache_dir();
  auto d = make_cuda_device(-1);
  if (!d.ok()) test::skip_if_unavailable(d.status());
  INFO((d.ok() ? std::string() : d.status().to_string()));
  REQUIRE(d.ok());
  return std::move(*d);
}

std::unique_ptr<Device> cpu() { return make_cpu_device(CpuDeviceOptions{0, {test::test_kernel_table()}}); }

LaunchConfig linear(int64_t n, uint32_t block = 256) {
  LaunchConfig c;
  c.block.x = block;
  c.grid.x = static_cast<uint32_t>(std::min<int64_t>((n + block - 1) / block, 4096));
  return c;
}

template <typename T>
DevPtr put(Device& d, const std::vector<T>& v) {
  auto p = d.alloc(v.size() * sizeof(T));
  REQUIRE(p.ok());
  Status s = d.upload(*p, v.data(), v.size() * sizeof(T));
  INFO(s.to_string());
  REQUIRE(s.ok());
  return *p;
}

template <typename T>
std::vector<T> get(Device& d, DevPtr p, size_t n) {
  std::vector<T> v(n);
  Status s = d.download(v.data(), p, n * sizeof(T));
  INFO(s.to_string());
  REQUIRE(s.ok());
  return v;
}

void run(Device& d, std::string_view entry, const LaunchConfig& config, const KernelArgs& args) {
  auto k = d.compile(test::test_kernel_source(), entry);
  INFO(entry << ": " << (k.ok() ? std::string() : k.status().to_string()));
  REQUIRE(k.ok());
  Status s = d.launch(**k, config, args);
  INFO(s.to_string());
  REQUIRE(s.ok());
}

template <typename T>
std::vector<T> ramp(size_t n, double scale, double offset) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>(std::sin(static_cast<double>(i) * 0.001) * scale + offset);
  return v;
}

template <typename T>
std::vector<T> vector_add(Device& d, size_t n) {
  auto a = ramp<T>(n, 1000.0, 0.25), b = ramp<T>(n, -37.0, 3.0);
  DevPtr pa = put(d, a), pb = put(d, b), pc = *d.alloc(n * sizeof(T));
  run(d, fmt::format("gk_test_vector_add<{}>", std::is_same_v<T, int32_t> ? "int32_t" : std::is_same_v<T, float> ? "float" : "double"),
      linear(static_cast<int64_t>(n)), KernelArgs().ptr(pa).ptr(pb).ptr(pc).i64(static_cast<int64_t>(n)));
  auto out = get<T>(d, pc, n);
  for (DevPtr p : {pa, pb, pc}) REQUIRE(d.free(p).ok());
  return out;
}

// Every kernel of the test family on one device; the results as raw bytes.
std::vector<std::vector<uint8_t>> run_all(Device& d) {
  std::vector<std::vector<uint8_t>> out;
  auto keep = [&](const auto& v) {
    const auto* p = reinterpret_cast<const uint8_t*>(v.data());
    out.emplace_back(p, p + v.size() * sizeof(v[0]));
  };
  // 3M floats = 12 MB: a staged upload of three 4 MiB chunks.
  keep(vector_add<float>(d, 3'000'017));
  keep(vector_add<int32_t>(d, 100'003));
  keep(vector_add<double>(d, 100'003));
  {
    const int64_t n = 500'001;
    auto x = ramp<float>(n, 3.0, 0.1), y = ramp<float>(n, -2.0, 0.7);
    DevPtr px = put(d, x), py = put(d, y);
    run(d, "gk_test_saxpy", linear(n), KernelArgs().f32(2.5f).ptr(px).ptr(py).i64(n));
    keep(get<float>(d, py, n));
  }
  {
    const int32_t rows = 37, cols = 53;
    auto po = *d.alloc(rows * cols * sizeof(float));
    LaunchConfig c;
    c.block = {16, 8, 1};
    c.grid = {(cols + 15) / 16, (rows + 7) / 8, 1};
    run(d, "gk_test_grid2d", c, KernelArgs().ptr(po).i32(rows).i32(cols));
    keep(get<float>(d, po, rows * cols));
  }
  {
    const int64_t n = 10'007;
    std::vector<int64_t> in(n);
    for (int64_t i = 0; i < n; ++i) in[i] = (int64_t{1} << 40) + i * 977 - 5'000'000;
    DevPtr pi = put(d, in), po = *d.alloc(n * sizeof(int64_t));
    run(d, "gk_test_i64_affine", linear(n), KernelArgs().ptr(pi).ptr(po).i64(-3).i64(int64_t{1} << 50).i64(n));
    keep(get<int64_t>(d, po, n));
  }
  {
    const int64_t n = 1000;
    auto in = ramp<double>(n, 1e6, -3.0);
    std::vector<double> sentinel(n + 24, -1.0);
    DevPtr pi = put(d, in), po = put(d, sentinel);
    run(d, "gk_test_bounded_scale", linear(n, 128), KernelArgs().ptr(pi).ptr(po).f64(1.0 / 3.0).i64(n));
    keep(get<double>(d, po, n + 24));
  }
  {
    struct Affine {
      float scale, shift;
      int32_t pad;
    } p{1.5f, -0.25f, 0};
    const int64_t n = 4099;
    auto in = ramp<float>(n, 10.0, 0.0);
    DevPtr pi = put(d, in), po = *d.alloc(n * sizeof(float));
    run(d, "gk_test_pod_arg", linear(n), KernelArgs().ptr(pi).ptr(po).pod(p).i64(n));
    keep(get<float>(d, po, n));
  }
  return out;
}

TEST_CASE("cuda backend: every test kernel equals the CPU backend bit for bit", "[cuda]") {
  auto g = gpu();
  std::printf("cuda device: %s (sm_%d%d, %zu bytes, %d SMs)\n", g->info().name.c_str(), g->info().cc_major,
              g->info().cc_minor, g->info().total_bytes, g->info().threads);
  auto c = cpu();
  auto on_gpu = run_all(*g);
  auto on_cpu = run_all(*c);
  REQUIRE(on_gpu.size() == on_cpu.size());
  for (size_t i = 0; i < on_gpu.size(); ++i) {
    INFO("kernel case " << i);
    REQUIRE(on_gpu[i].size() == on_cpu[i].size());
    CHECK(std::memcmp(on_gpu[i].data(), on_cpu[i].data(), on_gpu[i].size()) == 0);
  }
}

TEST_CASE("cuda backend: a second compile is a memory hit and a second device a disk hit", "[cuda]") {
  auto g = gpu();
  auto k1 = g->compile(test::test_kernel_source(), "gk_test_saxpy");
  REQUIRE(k1.ok());
  // A compile in its own ctest process; a disk hit when an earlier case of the
  // same process (a whole-binary run) compiled it already.
  CompileStats s1 = g->compile_stats();
  CHECK(s1.compiles + s1.disk_hits == 1);
  auto k2 = g->compile(test::test_kernel_source(), "gk_test_saxpy");
  REQUIRE(k2.ok());
  CHECK(*k1 == *k2);
  CompileStats s2 = g->compile_stats();
  CHECK(s2.memory_hits == s1.memory_hits + 1);
  CHECK(s2.compiles == s1.compiles);
  // Same primary context, new device object: the module comes from disk.
  auto g2 = gpu();
  REQUIRE(g2->compile(test::test_kernel_source(), "gk_test_saxpy").ok());
  CompileStats s3 = g2->compile_stats();
  CHECK(s3.disk_hits == 1);
  CHECK(s3.compiles == 0);
  std::printf("cuda compile cache: memory_hits=%lld disk_hits=%lld compiles=%lld\n",
              static_cast<long long>(s2.memory_hits + s3.memory_hits), static_cast<long long>(s3.disk_hits),
              static_cast<long long>(s2.compiles + s3.compiles));
}

// c = a + b; d = 2.5 * c + d: two dependent launches, as a graph would hold them.
struct Pipeline {
  Device& dev;
  size_t n;
  DevPtr a, b, c, d;
  void launch() {
    run(dev, "gk_test_vector_add<float>", linear(static_cast<int64_t>(n)),
        KernelArgs().ptr(a).ptr(b).ptr(c).i64(static_cast<int64_t>(n)));
    run(dev, "gk_test_saxpy", linear(static_cast<int64_t>(n)), KernelArgs().f32(2.5f).ptr(c).ptr(d).i64(static_cast<int64_t>(n)));
  }
};

TEST_CASE("cuda backend: graph replay equals plain launches and rebinding reads new inputs", "[cuda]") {
  auto g = gpu();
  GraphCapture* graphs = g->graphs();
  REQUIRE(graphs != nullptr);
  const size_t n = 70'001;
  auto a = ramp<float>(n, 5.0, 1.0), b = ramp<float>(n, -3.0, 0.5), ones = std::vector<float>(n, 1.0f);
  Pipeline plain{*g, n, put(*g, a), put(*g, b), *g->alloc(n * 4), put(*g, ones)};
  plain.launch();
  auto expected = get<float>(*g, plain.d, n);
  for (size_t i = 0; i < n; ++i) REQUIRE(expected[i] == std::fmaf(2.5f, a[i] + b[i], 1.0f));

  Pipeline captured{*g, n, put(*g, a), put(*g, b), *g->alloc(n * 4), put(*g, ones)};
  REQUIRE(g->sync().ok());
  REQUIRE(graphs->begin_capture().ok());
  captured.launch();
  // Host round trips cannot be captured; the capture survives the refusal.
  CHECK(g->sync().code() == StatusCode::kInvalidArgument);
  CHECK(graphs->begin_capture().code() == StatusCode::kInvalidArgument);
  auto id = graphs->end_capture();
  INFO((id.ok() ? std::string() : id.status().to_string()));
  REQUIRE(id.ok());
  CHECK(get<float>(*g, captured.d, n) == ones);  // capture ran nothing
  REQUIRE(graphs->launch_graph(*id).ok());
  CHECK(get<float>(*g, captured.d, n) == expected);

  // New inputs and output, same graph: only the kernel arguments change.
  auto a2 = ramp<float>(n, -7.0, 2.0), b2 = ramp<float>(n, 11.0, -0.5);
  DevPtr pa2 = put(*g, a2), pb2 = put(*g, b2), pd2 = put(*g, ones);
  // Each remap moves a whole buffer's range (from, bytes) to its new base.
  const size_t bytes = n * sizeof(float);
  REQUIRE(graphs->rebind_pointers(*id, {{captured.a, bytes, pa2}, {captured.b, bytes, pb2}, {captured.d, bytes, pd2}})
              .ok());
  REQUIRE(graphs->launch_graph(*id).ok());
  auto rebound = get<float>(*g, pd2, n);
  for (size_t i = 0; i < n; ++i) REQUIRE(rebound[i] == std::fmaf(2.5f, a2[i] + b2[i], 1.0f));
  CHECK(get<float>(*g, captured.d, n) == expected);  // the old output is left alone

  // Rebinding composes: swap a2 and b2 (both pairs match the values before the call).
  REQUIRE(graphs->rebind_pointers(*id, {{pa2, bytes, pb2}, {pb2, bytes, pa2}, {pd2, bytes, captured.d}}).ok());
  REQUIRE(g->upload(captured.d, ones.data(), n * 4).ok());
  REQUIRE(graphs->launch_graph(*id).ok());
  auto swapped = get<float>(*g, captured.d, n);
  for (size_t i = 0; i < n; ++i) REQUIRE(swapped[i] == std::fmaf(2.5f, b2[i] + a2[i], 1.0f));

  graphs->destroy_graph(*id);
  CHECK(graphs->launch_graph(*id).code() == StatusCode::kInvalidArgument);
}

TEST_CASE("cuda backend: an allocation larger than the device is ResourceExhausted", "[cuda]") {
  auto g = gpu();
  auto too_big = g->alloc(g->info().total_bytes + 1);
  gk::test::require_error(too_big, StatusCode::kResourceExhausted,
                          fmt::format("cuda: allocation of {} bytes exceeds", g->info().total_bytes + 1));
  // Below the total but above what is free: the driver's out-of-memory path.
  auto almost = g->alloc(g->info().total_bytes - 1);
  gk::test::require_error(almost, StatusCode::kResourceExhausted, "out of memory");
  auto fine = g->alloc(1 << 20);  // the device still works after the refusals
  REQUIRE(fine.ok());
  CHECK(g->free(*fine).ok());
}

TEST_CASE("cuda backend: copy memset events and memory info", "[cuda]") {
  auto g = gpu();
  const size_t n = 1 << 20;
  std::vector<uint8_t> src(n);
  for (size_t i = 0; i < n; ++i) src[i] = static_cast<uint8_t>(i * 131 + 7);
  DevPtr a = put(*g, src), b = *g->alloc(n);
  auto e0 = g->record_event();
  REQUIRE(e0.ok());
  REQUIRE(g->copy(b, a, n).ok());
  REQUIRE(g->memset(b + 100, 0xab, 1000).ok());
  auto e1 = g->record_event();
  REQUIRE(e1.ok());
  auto out = get<uint8_t>(*g, b, n);
  for (size_t i = 0; i < n; ++i) REQUIRE(out[i] == (i >= 100 && i < 1100 ? 0xab : src[i]));
  auto ms = g->elapsed_ms(*e0, *e1);
  REQUIRE(ms.ok());
  CHECK(*ms >= 0.0);
  g->release_event(*e0);
  g->release_event(*e1);
  CHECK(g->elapsed_ms(*e0, *e1).status().code() == StatusCode::kInvalidArgument);
  MemoryInfo m = g->memory_info();
  CHECK(m.total_bytes == g->info().total_bytes);
  CHECK(m.free_bytes > 0);
  CHECK(m.free_bytes <= m.total_bytes);
}

}  // namespace
}  // namespace gk

// The CUDA backend's failure paths that need no GPU: a missing driver, a kernel
// that does not compile, a corrupt compile-cache entry.
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_library.h"
#include "backends/cuda/module_cache.h"
#include "tests/support/skip.h"
#include "tests/backends/test_kernels.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace gk {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

struct TempDir {
  fs::path path = fs::temp_directory_path() / fmt::format("gk_cuda_errors_{}", static_cast<long>(getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void require_nvrtc() {
  auto v = nvrtc_version();
  if (!v.ok()) test::skip(v.status().message());
}

TEST_CASE("cuda backend: a missing driver library is Unavailable and names it", "[backends][cuda_errors]") {
  ScopedEnv env("GK_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
  auto d = make_cuda_device(-1);
  gk::test::require_error(d, StatusCode::kUnavailable, "/nonexistent/libcuda.so.1 not found");
}

TEST_CASE("cuda backend: the stub driver resolves every symbol and has no device", "[backends][cuda_errors]") {
  // The toolkit's link stub exports the whole driver API and fails cuInit: it
  // proves every name in cuda_symbols.def exists, on a machine without a GPU.
  const std::string stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!fs::exists(stub)) test::skip(stub + " is not installed");
  auto api = cuda::driver_at(stub);
  INFO((api.ok() ? std::string() : api.status().message()));
  REQUIRE(api.ok());
  CHECK((*api)->has_graphs);
  ScopedEnv env("GK_CUDA_LIBRARY", stub);
  auto d = make_cuda_device(-1);
  REQUIRE_FALSE(d.ok());
  CHECK(d.status().code() == StatusCode::kUnavailable);
  CHECK_THAT(d.status().message(), Catch::StartsWith("no CUDA device: cuInit returned CUDA_ERROR_STUB_LIBRARY"));
}

TEST_CASE("cuda backend: a driver error names the call and the error", "[backends][cuda_errors]") {
  const std::string stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!fs::exists(stub)) test::skip(stub + " is not installed");
  auto api = cuda::driver_at(stub);
  REQUIRE(api.ok());
  Status s = cuda::check(**api, cuda::CUDA_ERROR_OUT_OF_MEMORY, "cuMemAlloc_v2");
  CHECK(s.code() == StatusCode::kDeviceError);
  CHECK_THAT(s.message(), Catch::StartsWith("cuda: cuMemAlloc_v2 failed: "));
  CHECK(cuda::check(**api, cuda::CUDA_SUCCESS, "cuInit").ok());
}

TEST_CASE("nvrtc: a syntax error returns the compiler log with source and entry", "[backends][cuda_errors]") {
  require_nvrtc();
  const std::string_view text = "__global__ void gk_broken(float* x) { x[0] = ; }\n";
  const KernelSource broken{"broken_family", text, fnv1a64(text)};
  auto image = nvrtc_compile(broken, {"gk_broken"}, NvrtcOptions{8, 0, true});
  gk::test::require_error(image, StatusCode::kInternal, "NVRTC_ERROR_COMPILATION");
  const std::string& m = image.status().message();
  CHECK_THAT(m, Catch::Contains("broken_family"));
  CHECK_THAT(m, Catch::Contains("gk_broken"));
  CHECK_THAT(m, Catch::Contains("NVRTC_ERROR_COMPILATION"));
  CHECK_THAT(m, Catch::Contains("expected an expression"));  // NVRTC's own log line
}

TEST_CASE("module cache: entries are reused from disk and corrupt ones recompiled", "[backends][cuda_errors]") {
  require_nvrtc();
  TempDir dir;
  const KernelSource& src = test::test_kernel_source();
  const NvrtcOptions sm80{8, 0, true};
  const std::string entry = "gk_test_vector_add<float>";

  cuda::ModuleCache first(dir.path);
  auto compiled = first.get(src, entry, sm80);
  INFO((compiled.ok() ? std::string() : compiled.status().to_string()));
  REQUIRE(compiled.ok());
  CHECK(first.stats().compiles == 1);
  CHECK(first.stats().disk_hits == 0);
  auto path = first.entry_path(src, entry, sm80);
  REQUIRE(path.ok());
  REQUIRE(fs::exists(*path));
  const std::string good_file = slurp(*path);

  SECTION("a second process reads the entry back without compiling") {
    cuda::ModuleCache second(dir.path);
    auto again = second.get(src, entry, sm80);
    REQUIRE(again.ok());
    CHECK(second.stats().disk_hits == 1);
    CHECK(second.stats().compiles == 0);
    CHECK(again->image == compiled->image);
    CHECK(again->lowered_name == compiled->lowered_name);
    CHECK(again->is_cubin == compiled->is_cubin);
  }
  SECTION("another architecture or entry is another file") {
    CHECK(*first.entry_path(src, entry, NvrtcOptions{9, 0, true}) != *path);
    CHECK(*first.entry_path(src, "gk_test_vector_add<double>", sm80) != *path);
  }

  auto corrupt_and_reload = [&](const std::string& bytes) {
    std::ofstream(*path, std::ios::binary | std::ios::trunc) << bytes;
    cuda::ModuleCache third(dir.path);
    auto again = third.get(src, entry, sm80);
    REQUIRE(again.ok());
    CHECK(third.rejected() == 1);
    CHECK(third.stats().compiles == 1);
    CHECK(third.stats().disk_hits == 0);
    CHECK(again->image == compiled->image);
    // Rewritten whole: the next reader hits it.
    CHECK(slurp(*path) == good_file);
    cuda::ModuleCache fourth(dir.path);
    REQUIRE(fourth.get(src, entry, sm80).ok());
    CHECK(fourth.stats().disk_hits == 1);
  };
  SECTION("garbage") { corrupt_and_reload(std::string(4096, 'x')); }
  SECTION("truncated") { corrupt_and_reload(good_file.substr(0, good_file.size() / 2)); }
  SECTION("one flipped byte in the image") {
    std::string flipped = good_file;
    flipped[flipped.size() - 100] ^= 0x5a;
    corrupt_and_reload(flipped);
  }
  SECTION("empty") { corrupt_and_reload(""); }
}

TEST_CASE("module cache: the directory comes from the environment", "[backends][cuda_errors]") {
  {
    ScopedEnv cache("GK_KERNEL_CACHE", "/tmp/gk_explicit_cache");
    CHECK(cuda::ModuleCache::default_dir() == fs::path("/tmp/gk_explicit_cache"));
  }
  {
    ScopedEnv cache("GK_KERNEL_CACHE", "off");
    CHECK(cuda::ModuleCache::default_dir().empty());
  }
  ScopedEnv cache("GK_KERNEL_CACHE", "");
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/gk_xdg");
    CHECK(cuda::ModuleCache::default_dir() == fs::path("/tmp/gk_xdg/gkrun/kernels"));
  }
  ScopedEnv xdg("XDG_CACHE_HOME", "");
  ScopedEnv home("HOME", "/tmp/gk_home");
  CHECK(cuda::ModuleCache::default_dir() == fs::path("/tmp/gk_home/.cache/gkrun/kernels"));
}

TEST_CASE("module cache: without a directory every get compiles", "[backends][cuda_errors]") {
  require_nvrtc();
  cuda::ModuleCache none{fs::path()};
  auto first = none.get(test::test_kernel_source(), "gk_test_saxpy", NvrtcOptions{8, 0, true});
  INFO((first.ok() ? std::string() : first.status().to_string()));
  REQUIRE(first.ok());
  REQUIRE(none.get(test::test_kernel_source(), "gk_test_saxpy", NvrtcOptions{8, 0, true}).ok());
  CHECK(none.stats().compiles == 2);
  CHECK(none.stats().disk_hits == 0);
}

}  // namespace
}  // namespace gk

// NVRTC compiles the kernel sources without a GPU: every entry of the backend
// test family, for the two architectures gkrun targets first.
#include "backends/cuda/cuda_builtin_kernels.h"
#include "backends/cuda/cuda_device.h"
#include "tests/support/skip.h"
#include "tests/backends/test_kernels.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace gk {
namespace {

std::vector<std::string> test_entries() {
  std::vector<std::string> out;
  for (const CpuKernelEntry& e : test::test_kernel_table()) out.emplace_back(e.name);
  return out;
}

std::pair<int, int> version_or_skip() {
  auto v = nvrtc_version();
  if (!v.ok()) test::skip(v.status().message());
  return *v;
}

TEST_CASE("nvrtc: every test kernel compiles for sm_80 and sm_90", "[nvrtc]") {
  auto [major, minor] = version_or_skip();
  const std::vector<std::string> entries = test_entries();
  REQUIRE(entries.size() == 8);
  for (int cc : {80, 90}) {
    auto image = nvrtc_compile(test::test_kernel_source(), entries, NvrtcOptions{cc / 10, cc % 10, true});
    INFO((image.ok() ? std::string() : image.status().message()));
    REQUIRE(image.ok());
    REQUIRE(image->lowered_names.size() == entries.size());
    for (const std::string& lowered : image->lowered_names) {
      CHECK(lowered.rfind("_Z", 0) == 0);  // extern "C++": Itanium-mangled
      CHECK(image->image.find(lowered) != std::string::npos);  // the symbol is in the image
    }
    if (image->is_cubin) {
      CHECK(image->target == fmt::format("sm_{}", cc));
      CHECK(image->image.compare(0, 4, "\x7f" "ELF") == 0);
    } else {
      CHECK(image->target == fmt::format("compute_{}", cc));
      CHECK(image->image.find(fmt::format(".target sm_{}", cc)) != std::string::npos);
    }
    std::printf("nvrtc %d.%d: compiled %zu test_kernels entries for sm_%d as %s\n", major, minor,
                image->lowered_names.size(), cc, image->target.c_str());
  }
}

TEST_CASE("nvrtc: the backend's own copy and memset kernels (graph capture) compile", "[nvrtc]") {
  version_or_skip();
  const std::vector<std::string> entries = {cuda::kBuiltinCopy, cuda::kBuiltinMemset};
  for (int cc : {80, 90}) {
    auto image = nvrtc_compile(cuda::builtin_kernel_source(), entries, NvrtcOptions{cc / 10, cc % 10, true});
    INFO((image.ok() ? std::string() : image.status().message()));
    REQUIRE(image.ok());
    CHECK(image->lowered_names.size() == 2);
  }
}

TEST_CASE("nvrtc: distinct template instantiations get distinct symbols", "[nvrtc]") {
  version_or_skip();
  auto image = nvrtc_compile(test::test_kernel_source(),
                             {"gk_test_vector_add<float>", "gk_test_vector_add<double>", "gk_test_saxpy"},
                             NvrtcOptions{8, 0, true});
  REQUIRE(image.ok());
  const auto& names = image->lowered_names;
  REQUIRE(names.size() == 3);
  CHECK(names[0] != names[1]);
  // Itanium mangling of the template argument: f = float, d = double.
  CHECK(names[0].find("IfE") != std::string::npos);
  CHECK(names[1].find("IdE") != std::string::npos);
  CHECK(names[2].find("gk_test_saxpy") != std::string::npos);
}

TEST_CASE("nvrtc: PTX on request names the entry and its target", "[nvrtc]") {
  version_or_skip();
  auto image = nvrtc_compile(test::test_kernel_source(), {"gk_test_saxpy"}, NvrtcOptions{8, 6, false});
  REQUIRE(image.ok());
  CHECK_FALSE(image->is_cubin);
  CHECK(image->target == "compute_86");
  CHECK(image->image.find(".target sm_86") != std::string::npos);
  CHECK(image->image.find(".entry " + image->lowered_names.at(0)) != std::string::npos);
  CHECK(image->image.find("fma.rn.f32") != std::string::npos);  // saxpy's explicit fmaf
}

TEST_CASE("nvrtc: a*b+c is not contracted into an FMA (--fmad=false)", "[nvrtc]") {
  version_or_skip();
  // The CPU build uses -ffp-contract=off; a contracted GPU FMA would round once
  // where the CPU rounds twice, breaking bit-exact agreement.
  const std::string_view text = "__global__ void gk_mad(float* x) { x[0] = x[1] * x[2] + x[3]; }\n";
  const KernelSource source{"mad_probe", text, fnv1a64(text)};
  auto image = nvrtc_compile(source, {"gk_mad"}, NvrtcOptions{8, 0, false});
  REQUIRE(image.ok());
  CHECK(image->image.find("mul.rn.f32") != std::string::npos);
  CHECK(image->image.find("add.rn.f32") != std::string::npos);
  CHECK(image->image.find("fma") == std::string::npos);
}

TEST_CASE("nvrtc: an architecture older than NVRTC supports is Unavailable", "[nvrtc]") {
  version_or_skip();
  auto image = nvrtc_compile(test::test_kernel_source(), {"gk_test_saxpy"}, NvrtcOptions{3, 0, true});
  gk::test::require_error(image, StatusCode::kUnavailable, "cannot target sm_30");
}

TEST_CASE("nvrtc: an unknown entry names the entry and the source", "[nvrtc]") {
  version_or_skip();
  auto image = nvrtc_compile(test::test_kernel_source(), {"gk_test_no_such_kernel<float>"}, NvrtcOptions{8, 0, true});
  gk::test::require_error(image, StatusCode::kInternal, "gk_test_no_such_kernel<float>");
  CHECK_THAT(image.status().message(), Catch::Contains("test_kernels"));
}

}  // namespace
}  // namespace gk

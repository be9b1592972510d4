// Every operator kernel family compiles under NVRTC: the entries are the names of
// its CPU table, so a kernel that builds for the CPU but not for CUDA fails here,
// on any machine with libnvrtc, GPU or not. One NVRTC program per family and
// architecture, all entries as name expressions.
#include "backends/cuda/cuda_device.h"
#include "ops/op.h"
#include "tests/backends/cuda/skip.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace gk {
namespace {

TEST_CASE("nvrtc: every operator kernel family compiles for sm_80 and sm_90", "[nvrtc][ops]") {
  auto version = nvrtc_version();
  if (!version.ok()) test::skip(version.status().message());
  size_t families = 0, entries_total = 0;
  for (const KernelFamily& family : kernel_families()) {
    REQUIRE(family.source != nullptr);
    std::vector<std::string> entries;
    for (const CpuKernelEntry& e : family.cpu) entries.emplace_back(e.name);
    if (entries.empty()) continue;
    for (int cc : {80, 90}) {
      auto image = nvrtc_compile(*family.source, entries, NvrtcOptions{cc / 10, cc % 10, true});
      INFO("family " << family.source->name << " for sm_" << cc << ": "
                     << (image.ok() ? std::string("ok") : image.status().message()));
      REQUIRE(image.ok());
      REQUIRE(image->lowered_names.size() == entries.size());
      CHECK_FALSE(image->image.empty());
    }
    ++families;
    entries_total += entries.size();
    std::printf("nvrtc: %-20.*s %4zu entries ok for sm_80 and sm_90\n",
                static_cast<int>(family.source->name.size()), family.source->name.data(), entries.size());
  }
  std::printf("nvrtc %d.%d: %zu kernel families, %zu entries compiled for sm_80 and sm_90\n", version->first,
              version->second, families, entries_total);
}

}  // namespace
}  // namespace gk

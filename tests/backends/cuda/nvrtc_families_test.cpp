// Every operator kernel family compiles under NVRTC: the entries are the names of
// its CPU table, so a kernel that builds for the CPU but not for CUDA fails here,
// on any machine with libnvrtc, GPU or not. One NVRTC program per family and
// architecture with every entry as a name expression. PTX, not CUBIN: the front
// end and NVVM are where a kernel source fails, and ptxas more than doubles the
// time (14 families, 1361 entries, both archs: 1m54 CPU as PTX; CUBIN had used
// 3m49 by the 8th family; NVRTC 13.0, shared 2-core dev box).
#include "backends/cuda/cuda_device.h"
#include "ops/core/op.h"
#include "tests/support/skip.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <future>
#include <string>
#include <vector>

namespace gk {
namespace {

struct FamilyResult {
  std::string name;
  size_t entries = 0;
  Status status;
  double seconds = 0;
};

FamilyResult compile_family(const KernelFamily& family) {
  FamilyResult r;
  r.name = std::string(family.source->name);
  std::vector<std::string> entries;
  for (const CpuKernelEntry& e : family.cpu.portable) entries.emplace_back(e.name);
  r.entries = entries.size();
  if (entries.empty()) return r;
  auto start = std::chrono::steady_clock::now();
  for (int cc : {80, 90}) {
    auto image = nvrtc_compile(*family.source, entries, NvrtcOptions{cc / 10, cc % 10, false});
    if (!image.ok()) {
      r.status = image.status().with_context(fmt::format("sm_{}", cc));
      break;
    }
    if (image->lowered_names.size() != entries.size() || image->image.empty()) {
      r.status = internal_error("sm_{}: {} lowered names for {} entries", cc, image->lowered_names.size(),
                                entries.size());
      break;
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

TEST_CASE("nvrtc: every operator kernel family compiles for sm_80 and sm_90", "[nvrtc][ops]") {
  auto version = nvrtc_version();
  if (!version.ok()) test::skip(version.status().message());
  // NVRTC programs are independent: one thread per family.
  std::vector<std::future<FamilyResult>> jobs;
  for (const KernelFamily& family : kernel_families()) {
    REQUIRE(family.source != nullptr);
    jobs.push_back(std::async(std::launch::async, compile_family, std::cref(family)));
  }
  size_t families = 0, entries = 0;
  for (auto& job : jobs) {
    FamilyResult r = job.get();
    INFO("family " << r.name << ": " << r.status.message());
    CHECK(r.status.ok());
    if (!r.status.ok() || r.entries == 0) continue;
    ++families;
    entries += r.entries;
    std::printf("nvrtc: %-20s %4zu entries ok for sm_80 and sm_90 (%.1f s)\n", r.name.c_str(), r.entries,
                r.seconds);
  }
  std::printf("nvrtc %d.%d: %zu kernel families, %zu entries compiled for sm_80 and sm_90\n", version->first,
              version->second, families, entries);
}

}  // namespace
}  // namespace gk

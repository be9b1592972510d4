// The backend the runtime tests run on: GK_TEST_BACKEND=cpu (the default) or cuda.
// ctest registers every device-using runtime test twice, the second time as
// "cuda:<name>" with GK_TEST_BACKEND=cuda (tests/CMakeLists.txt), so the kit, pool
// and profiler are checked on both backends with one set of tests. Asked for cuda
// where there is no driver or GPU, a test prints "SKIP: <reason>" and exits 77
// (skipped to ctest): never a failure, and never a silent run on the CPU.
#pragma once

#include "backends/cpu/cpu_device.h"
#include "backends/cuda/cuda_device.h"
#include "backends/device.h"
#include "tests/support/skip.h"
#include "tests/backends/test_kernels.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <string>

namespace gk::test {

inline BackendKind test_backend() {
  const char* env = std::getenv("GK_TEST_BACKEND");
  const std::string v = env ? env : "cpu";
  if (v == "cuda") return BackendKind::kCuda;
  if (v != "cpu" && !v.empty()) FAIL("GK_TEST_BACKEND='" << v << "' is not a backend (cpu or cuda)");
  return BackendKind::kCpu;
}

inline bool testing_cpu() { return test_backend() == BackendKind::kCpu; }

// The test kernel family on the chosen backend. `threads` sizes the CPU worker
// pool and means nothing on CUDA; the CUDA device compiles test_kernel_source()
// with NVRTC into GK_KERNEL_CACHE (or the default cache) on first use.
inline std::unique_ptr<Device> make_test_device(int threads = 2) {
  if (testing_cpu()) return make_cpu_device(CpuDeviceOptions{threads, {test_kernel_table()}});
  auto d = make_cuda_device(-1);
  if (!d.ok()) skip_if_unavailable(d.status());
  INFO((d.ok() ? std::string() : d.status().to_string()));
  REQUIRE(d.ok());
  return std::move(*d);
}

// Kit::open's options for the chosen backend (CUDA: GK_DEVICE or the best device).
inline DeviceOptions test_device_options(int threads = 2) {
  DeviceOptions o;
  o.kind = test_backend();
  o.threads = threads;
  return o;
}

// Kit::open reports a missing driver or GPU the same way: skip on Unavailable.
template <typename T>
void skip_if_unavailable(const Result<T>& r) {
  if (!r.ok()) skip_if_unavailable(r.status());
}

}  // namespace gk::test

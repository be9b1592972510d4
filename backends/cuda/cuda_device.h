#pragma once

#include "backends/device.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gk {

// ordinal < 0: GK_DEVICE if set, else the device with the highest compute
// capability, total memory breaking ties.
Result<std::unique_ptr<Device>> make_cuda_device(int ordinal);

struct NvrtcOptions {
  int cc_major = 8, cc_minor = 0;
  bool want_cubin = true;  // else PTX
};

// Compiles `entries` (name expressions) of `source` with NVRTC without a GPU:
// what the NVRTC test and the kernel cache use. Returns the CUBIN/PTX image.
struct NvrtcImage {
  std::string image;
  bool is_cubin = false;
  std::string target;  // "sm_90" (CUBIN) or "compute_90" (PTX)
  std::string log;
  std::vector<std::string> lowered_names;  // per entry, the mangled symbol
};
Result<NvrtcImage> nvrtc_compile(const KernelSource& source, const std::vector<std::string>& entries,
                                 const NvrtcOptions& options);

// Version of the NVRTC that would be used, or Unavailable when libnvrtc is absent.
Result<std::pair<int, int>> nvrtc_version();

}  // namespace gk

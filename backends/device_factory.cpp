#include "backends/device_factory.h"

#include "backends/cpu/cpu_device.h"
#include "backends/cuda/cuda_device.h"

namespace gk {

Result<std::unique_ptr<Device>> make_device(const DeviceOptions& options,
                                            std::vector<CpuIsaTables> cpu_kernels) {
  if (options.kind == BackendKind::kCuda) return make_cuda_device(options.ordinal);
  return make_cpu_device(CpuDeviceOptions{options.threads, std::move(cpu_kernels)});
}

}  // namespace gk

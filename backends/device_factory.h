#pragma once

#include "backends/cpu/cpu_kernel_table.h"
#include "backends/device.h"

#include <memory>
#include <vector>

namespace gk {

// Opens the device `options` asks for. CUDA without a driver or GPU is an
// Unavailable error naming what is missing; the caller may fall back to CPU.
Result<std::unique_ptr<Device>> make_device(const DeviceOptions& options,
                                            std::vector<CpuIsaTables> cpu_kernels);

}  // namespace gk

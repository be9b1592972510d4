#pragma once

#include "backends/cpu/cpu_kernel_table.h"
#include "backends/device.h"

#include <memory>
#include <vector>

namespace gk {

struct CpuDeviceOptions {
  int threads = 0;  // 0: hardware concurrency
  std::vector<CpuKernelTable> kernel_tables;
};

std::unique_ptr<Device> make_cpu_device(CpuDeviceOptions options);

}  // namespace gk

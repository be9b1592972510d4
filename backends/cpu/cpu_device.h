#pragma once

#include "backends/cpu/cpu_kernel_table.h"
#include "backends/device.h"

#include <memory>
#include <vector>

namespace gk {

struct CpuDeviceOptions {
  int threads = 0;  // 0: hardware concurrency
  std::vector<CpuIsaTables> kernel_tables;  // each family's for_isa(active_cpu_isa()) is used
  // Capture and replay (graphs()). Off by default: on the CPU a replay does the
  // same work as the launches it recorded; it exists so the executor's CUDA Graph
  // path is exercised where there is no GPU.
  bool graphs = false;
};

std::unique_ptr<Device> make_cpu_device(CpuDeviceOptions options);

}  // namespace gk

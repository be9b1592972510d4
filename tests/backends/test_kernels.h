#pragma once

#include "backends/cpu/cpu_kernel_table.h"
#include "backends/kernel_source.h"
#include "tests/generated_kernels/kernel_sources.h"

namespace gk::test {

CpuKernelTable test_kernel_table();
const KernelSource& test_kernel_source();

}  // namespace gk::test

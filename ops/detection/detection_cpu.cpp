// CPU side of the detection kernel family (RoiAlign, MaxRoiPool): plain GK_KERNEL_LOOPs.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/detection/detection.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kDetectionKernels[] = {
    GK_CPU_KERNEL(kRange, gk_roi_align<float>),
    GK_CPU_KERNEL(kRange, gk_roi_align<double>),
    GK_CPU_KERNEL(kRange, gk_roi_align<gk_half>),
    GK_CPU_KERNEL(kRange, gk_roi_align<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_max_roi_pool<float>),
    GK_CPU_KERNEL(kRange, gk_max_roi_pool<double>),
    GK_CPU_KERNEL(kRange, gk_max_roi_pool<gk_half>),
    GK_CPU_KERNEL(kRange, gk_max_roi_pool<gk_bf16>),
};

}  // namespace

KernelFamily detection_kernels() { return {&kernel_sources::detection, kDetectionKernels}; }

}  // namespace gk::families

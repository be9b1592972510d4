// CPU side of the spatial sampling kernel family (GridSample for every pair of
// float types of X and grid, AffineGrid, Col2Im, DeformConv): plain GK_KERNEL_LOOPs.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/grid_sample/grid_sample.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kGridSampleKernels[] = {
    GK_CPU_KERNEL(kRange, gk_grid_sample<float, float>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<float, double>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<float, gk_half>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<float, gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<double, float>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<double, double>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<double, gk_half>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<double, gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_half, float>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_half, double>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_half, gk_half>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_half, gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_bf16, float>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_bf16, double>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_bf16, gk_half>),
    GK_CPU_KERNEL(kRange, gk_grid_sample<gk_bf16, gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_affine_grid<float>),
    GK_CPU_KERNEL(kRange, gk_affine_grid<double>),
    GK_CPU_KERNEL(kRange, gk_affine_grid<gk_half>),
    GK_CPU_KERNEL(kRange, gk_affine_grid<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<float>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<double>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<gk_half>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<int8_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<int16_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<int32_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<int64_t>),
    GK_CPU_KERNEL(kRange, gk_col2im_gather<uint64_t>),
    GK_CPU_KERNEL(kRange, gk_deform_conv<float>),
    GK_CPU_KERNEL(kRange, gk_deform_conv<double>),
    GK_CPU_KERNEL(kRange, gk_deform_conv<gk_half>),
    GK_CPU_KERNEL(kRange, gk_deform_conv<gk_bf16>),
};

}  // namespace

KernelFamily grid_sample_kernels() { return {&kernel_sources::grid_sample, kGridSampleKernels}; }

}  // namespace gk::families

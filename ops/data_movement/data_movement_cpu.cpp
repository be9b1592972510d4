// CPU instantiations of ops/data_movement/data_movement.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/data_movement/family.h"
#include "ops/kernel_sources.h"
#include "ops/data_movement/data_movement.cuh"

namespace gk::families {
namespace {

#define GK_DM_WIDTH(name)                         \
  GK_CPU_KERNEL(kRange, name<uint8_t>),           \
      GK_CPU_KERNEL(kRange, name<uint16_t>),      \
      GK_CPU_KERNEL(kRange, name<uint32_t>),      \
      GK_CPU_KERNEL(kRange, name<uint64_t>)

#define GK_DM_NONZERO(T)                                  \
  GK_CPU_KERNEL(kRange, gk_dm_nonzero_count<T>),          \
      GK_CPU_KERNEL(kRange, gk_dm_nonzero_write<T>)

const CpuKernelEntry kDataMovementKernels[] = {
    GK_DM_WIDTH(gk_dm_copy),
    GK_DM_WIDTH(gk_dm_fill),
    GK_CPU_KERNEL(kRange, gk_dm_write_bytes),
    GK_DM_WIDTH(gk_dm_copy_rows),
    GK_DM_WIDTH(gk_dm_strided),
    GK_DM_WIDTH(gk_dm_pad),
    GK_DM_WIDTH(gk_dm_trilu),
    GK_DM_WIDTH(gk_dm_reverse_sequence),
    GK_DM_WIDTH(gk_dm_eye),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<float>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<double>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<gk_half>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int16_t>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int32_t>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int64_t>),
    GK_CPU_KERNEL(kRange, gk_dm_exclusive_scan),
    GK_DM_NONZERO(float),
    GK_DM_NONZERO(double),
    GK_DM_NONZERO(gk_half),
    GK_DM_NONZERO(gk_bf16),
    GK_DM_NONZERO(int8_t),
    GK_DM_NONZERO(int16_t),
    GK_DM_NONZERO(int32_t),
    GK_DM_NONZERO(int64_t),
    GK_DM_NONZERO(uint8_t),
    GK_DM_NONZERO(uint16_t),
    GK_DM_NONZERO(uint32_t),
    GK_DM_NONZERO(uint64_t),
    GK_DM_NONZERO(bool),
};

#undef GK_DM_WIDTH
#undef GK_DM_NONZERO

}  // namespace

KernelFamily data_movement_kernels() { return {&kernel_sources::data_movement, kDataMovementKernels}; }

}  // namespace gk::families

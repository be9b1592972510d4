// CPU instantiations of ops/attention/attention.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/attention/attention.cuh"

namespace gk::families {
namespace {

// RMSNormalization: X type T, scale/Y type V, stash (compute) type float or double.
#define GK_RMS_V(T, V) \
  GK_CPU_KERNEL(kBlocks, gk_rms_rows<T, V, float>), GK_CPU_KERNEL(kBlocks, gk_rms_rows<T, V, double>),
#define GK_RMS(T) GK_RMS_V(T, float) GK_RMS_V(T, double) GK_RMS_V(T, gk_half) GK_RMS_V(T, gk_bf16)
// Attention: masks are bool or the score type.
#define GK_ATTN(T)                                                                              \
  GK_CPU_KERNEL(kRange, gk_kv_concat<T>), GK_CPU_KERNEL(kBlocks, gk_attn_softmax<T, T>),        \
      GK_CPU_KERNEL(kBlocks, gk_attn_softmax<T, bool>),

const CpuKernelEntry kAttentionKernels[] = {
    GK_RMS(float) GK_RMS(double) GK_RMS(gk_half) GK_RMS(gk_bf16)
    GK_CPU_KERNEL(kRange, gk_rope<float>), GK_CPU_KERNEL(kRange, gk_rope<gk_half>),
    GK_CPU_KERNEL(kRange, gk_rope<gk_bf16>),
    GK_ATTN(float) GK_ATTN(double) GK_ATTN(gk_half) GK_ATTN(gk_bf16)
};

}  // namespace

KernelFamily attention_kernels() { return {&kernel_sources::attention, kAttentionKernels}; }

}  // namespace gk::families

// CPU instantiations of ops/quantize/quantize.cuh: every (input, precision, output)
// combination QuantizeLinear-10..25 allows, every (input, output) of
// DequantizeLinear, and the integer matmul/conv helpers.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/quantize/quantize.cuh"

namespace gk {
namespace {

#define Q(X, A, Y) GK_CPU_KERNEL(kRange, gk_quantize<X, A, Y>)
#define Q_TO(X, A)                                                                                    \
  Q(X, A, uint8_t), Q(X, A, int8_t), Q(X, A, uint16_t), Q(X, A, int16_t), Q(X, A, gk_f8e4m3fn),       \
      Q(X, A, gk_f8e4m3fnuz), Q(X, A, gk_f8e5m2), Q(X, A, gk_f8e5m2fnuz), Q(X, A, gk_uint4x2),        \
      Q(X, A, gk_int4x2), Q(X, A, gk_f4e2m1x2), Q(X, A, gk_uint2x4), Q(X, A, gk_int2x4)
#define Q_FROM(X) Q_TO(X, float), Q_TO(X, double)
#define SCALE(S) GK_CPU_KERNEL(kRange, gk_q_scale<S, float>), GK_CPU_KERNEL(kRange, gk_q_scale<S, double>)
#define DQ(X)                                                                                   \
  GK_CPU_KERNEL(kRange, gk_dequantize<X, float>), GK_CPU_KERNEL(kRange, gk_dequantize<X, gk_half>), \
      GK_CPU_KERNEL(kRange, gk_dequantize<X, gk_bf16>)
#define REQUANT(S) GK_CPU_KERNEL(kRange, gk_q_requant<S, uint8_t>), GK_CPU_KERNEL(kRange, gk_q_requant<S, int8_t>)

const CpuKernelEntry kKernels[] = {
    Q_FROM(float), Q_FROM(gk_half), Q_FROM(gk_bf16), Q_FROM(int32_t),
    SCALE(float), SCALE(gk_half), SCALE(gk_bf16), SCALE(int32_t), SCALE(gk_f8e8m0),
    DQ(uint8_t), DQ(int8_t), DQ(uint16_t), DQ(int16_t), DQ(int32_t),
    DQ(gk_f8e4m3fn), DQ(gk_f8e4m3fnuz), DQ(gk_f8e5m2), DQ(gk_f8e5m2fnuz),
    DQ(gk_uint4x2), DQ(gk_int4x2), DQ(gk_f4e2m1x2), DQ(gk_uint2x4), DQ(gk_int2x4),
    GK_CPU_KERNEL(kBlocks, gk_dql_minmax),
    GK_CPU_KERNEL(kRange, gk_dql_params),
    GK_CPU_KERNEL(kRange, gk_q_widen<uint8_t>), GK_CPU_KERNEL(kRange, gk_q_widen<int8_t>),
    GK_CPU_KERNEL(kRange, gk_q_im2col<uint8_t>), GK_CPU_KERNEL(kRange, gk_q_im2col<int8_t>),
    REQUANT(float), REQUANT(gk_half), REQUANT(gk_bf16),
};

}  // namespace

namespace families {
KernelFamily quantize_kernels() { return {&kernel_sources::quantize, kKernels}; }
}  // namespace families

}  // namespace gk

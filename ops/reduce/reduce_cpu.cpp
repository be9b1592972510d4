// CPU instantiations of ops/reduce/reduce.cuh.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/reduce/reduce.cuh"

namespace {

// Both reduce kernels share one CPU twin (kBlocks); the names must both resolve.
#define GK_RED(T, OP) GK_CPU_KERNEL(kBlocks, gk_reduce_thread<T, OP>), GK_CPU_KERNEL(kBlocks, gk_reduce_block<T, OP>),
// The types every reduction takes (ONNX: f16, f32, f64, bf16, i32, i64, u32, u64).
#define GK_RED_TYPES(OP) \
  GK_RED(float, OP) GK_RED(double, OP) GK_RED(gk_half, OP) GK_RED(gk_bf16, OP) \
  GK_RED(int32_t, OP) GK_RED(int64_t, OP) GK_RED(uint32_t, OP) GK_RED(uint64_t, OP)
#define GK_ARG(T) GK_CPU_KERNEL(kRange, gk_argreduce<T, 0>), GK_CPU_KERNEL(kRange, gk_argreduce<T, 1>),
#define GK_CUM(T) GK_CPU_KERNEL(kRange, gk_cumulative<T, 0>), GK_CPU_KERNEL(kRange, gk_cumulative<T, 1>),

const ::gk::CpuKernelEntry kReduceKernels[] = {
    GK_RED_TYPES(0) GK_RED_TYPES(1) GK_RED_TYPES(2) GK_RED_TYPES(3) GK_RED_TYPES(4)
    GK_RED_TYPES(5) GK_RED_TYPES(6) GK_RED_TYPES(7) GK_RED_TYPES(8) GK_RED_TYPES(9)
    // ReduceMax/Min also take int8/uint8 (opset 12) and bool (opset 20).
    GK_RED(int8_t, 2) GK_RED(uint8_t, 2) GK_RED(bool, 2)
    GK_RED(int8_t, 3) GK_RED(uint8_t, 3) GK_RED(bool, 3)
    GK_ARG(float) GK_ARG(double) GK_ARG(gk_half) GK_ARG(gk_bf16) GK_ARG(int8_t) GK_ARG(uint8_t)
    GK_ARG(int16_t) GK_ARG(uint16_t) GK_ARG(int32_t) GK_ARG(uint32_t) GK_ARG(int64_t) GK_ARG(uint64_t)
    GK_CUM(float) GK_CUM(double) GK_CUM(gk_half) GK_CUM(gk_bf16)
    GK_CUM(int32_t) GK_CUM(int64_t) GK_CUM(uint32_t) GK_CUM(uint64_t)
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(reduce, kReduceKernels)

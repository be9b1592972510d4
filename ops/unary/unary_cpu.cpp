// CPU instantiations of ops/unary/unary.cuh; ops/unary/unary.cpp and
// ops/unary/activations.cpp build the same names.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/unary/unary.cuh"

namespace {

#define UN(op, T) GK_CPU_KERNEL(kRange, gk_unary<op, T>)
#define UN_FLOATS(op) UN(op, float), UN(op, double), UN(op, gk_half), UN(op, gk_bf16)
#define UN_SIGNED(op) UN(op, int8_t), UN(op, int16_t), UN(op, int32_t), UN(op, int64_t)
#define UN_UNSIGNED(op) UN(op, uint8_t), UN(op, uint16_t), UN(op, uint32_t), UN(op, uint64_t)
#define UN_NUM(op) UN_FLOATS(op), UN_SIGNED(op), UN_UNSIGNED(op)
#define CLIP(T) GK_CPU_KERNEL(kRange, gk_clip<T>)

const ::gk::CpuKernelEntry kKernels[] = {
    UN_NUM(gk_un_abs), UN_FLOATS(gk_un_negate), UN_SIGNED(gk_un_negate), UN_NUM(gk_un_sign),
    UN_FLOATS(gk_un_ceil), UN_FLOATS(gk_un_floor), UN_FLOATS(gk_un_round),
    UN_FLOATS(gk_un_reciprocal), UN_FLOATS(gk_un_sqrt), UN_FLOATS(gk_un_exp), UN_FLOATS(gk_un_log),
    UN_FLOATS(gk_un_erf), UN_FLOATS(gk_un_sin), UN_FLOATS(gk_un_cos), UN_FLOATS(gk_un_tan),
    UN_FLOATS(gk_un_asin), UN_FLOATS(gk_un_acos), UN_FLOATS(gk_un_atan), UN_FLOATS(gk_un_sinh),
    UN_FLOATS(gk_un_cosh), UN_FLOATS(gk_un_asinh), UN_FLOATS(gk_un_acosh), UN_FLOATS(gk_un_atanh),
    UN_FLOATS(gk_un_tanh), UN(gk_un_not, bool), UN_SIGNED(gk_un_bitnot), UN_UNSIGNED(gk_un_bitnot),
    UN_FLOATS(gk_un_isnan), UN_FLOATS(gk_un_isinf),
    UN_FLOATS(gk_un_relu), UN_SIGNED(gk_un_relu), UN_FLOATS(gk_un_leakyrelu), UN_FLOATS(gk_un_elu),
    UN_FLOATS(gk_un_selu), UN_FLOATS(gk_un_celu), UN_FLOATS(gk_un_sigmoid_op),
    UN_FLOATS(gk_un_hardsigmoid), UN_FLOATS(gk_un_hardswish), UN_FLOATS(gk_un_swish),
    UN_FLOATS(gk_un_mish), UN_FLOATS(gk_un_softplus_op), UN_FLOATS(gk_un_softsign),
    UN_FLOATS(gk_un_thresholdedrelu), UN_FLOATS(gk_un_gelu), UN_NUM(gk_un_shrink),
    CLIP(float), CLIP(double), CLIP(gk_half), CLIP(gk_bf16), CLIP(int8_t), CLIP(int16_t),
    CLIP(int32_t), CLIP(int64_t), CLIP(uint8_t), CLIP(uint16_t), CLIP(uint32_t), CLIP(uint64_t),
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(unary, kKernels)

// CPU instantiations of ops/elementwise/elementwise.cuh, one line per entry. The
// launchers in ops/elementwise/elementwise.cpp and ops/elementwise/variadic.cpp build the same names.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/elementwise/elementwise.cuh"

namespace {

#define EW(op, T) GK_CPU_KERNEL(kRange, gk_binary<op, T>)
#define EW_INTS(op)                                                                        \
  EW(op, int8_t), EW(op, int16_t), EW(op, int32_t), EW(op, int64_t), EW(op, uint8_t),     \
      EW(op, uint16_t), EW(op, uint32_t), EW(op, uint64_t)
#define EW_FLOATS(op) EW(op, float), EW(op, double), EW(op, gk_half), EW(op, gk_bf16)
#define EW_NUM(op) EW_FLOATS(op), EW_INTS(op)
#define POW(T) GK_CPU_KERNEL(kRange, gk_binary_pow<T, float>), GK_CPU_KERNEL(kRange, gk_binary_pow<T, double>), \
  GK_CPU_KERNEL(kRange, gk_binary_pow<T, gk_half>), GK_CPU_KERNEL(kRange, gk_binary_pow<T, gk_bf16>),             \
  GK_CPU_KERNEL(kRange, gk_binary_pow<T, int32_t>), GK_CPU_KERNEL(kRange, gk_binary_pow<T, int64_t>),            \
  GK_CPU_KERNEL(kRange, gk_binary_pow<T, uint32_t>), GK_CPU_KERNEL(kRange, gk_binary_pow<T, uint64_t>)
#define BY_SIZE(k) GK_CPU_KERNEL(kRange, k<uint8_t>), GK_CPU_KERNEL(kRange, k<uint16_t>), \
  GK_CPU_KERNEL(kRange, k<uint32_t>), GK_CPU_KERNEL(kRange, k<uint64_t>)

const ::gk::CpuKernelEntry kKernels[] = {
    EW_NUM(gk_op_add), EW_NUM(gk_op_sub), EW_NUM(gk_op_mul), EW_NUM(gk_op_div),
    EW_NUM(gk_op_mod), EW_NUM(gk_op_fmod), EW_NUM(gk_op_max), EW_NUM(gk_op_min),
    EW_FLOATS(gk_op_prelu), EW(gk_op_prelu, int32_t), EW(gk_op_prelu, int64_t),
    EW(gk_op_prelu, uint32_t), EW(gk_op_prelu, uint64_t),
    EW_NUM(gk_op_eq), EW(gk_op_eq, bool), EW_NUM(gk_op_lt), EW_NUM(gk_op_le), EW_NUM(gk_op_gt),
    EW_NUM(gk_op_ge),
    EW(gk_op_and, bool), EW(gk_op_or, bool), EW(gk_op_xor, bool),
    EW_INTS(gk_op_bitand), EW_INTS(gk_op_bitor), EW_INTS(gk_op_bitxor),
    EW(gk_op_shl, uint8_t), EW(gk_op_shl, uint16_t), EW(gk_op_shl, uint32_t), EW(gk_op_shl, uint64_t),
    EW(gk_op_shr, uint8_t), EW(gk_op_shr, uint16_t), EW(gk_op_shr, uint32_t), EW(gk_op_shr, uint64_t),
    POW(float), POW(double), POW(gk_half), POW(gk_bf16), POW(int32_t), POW(int64_t),
    BY_SIZE(gk_where), BY_SIZE(gk_ew_copy),
    GK_CPU_KERNEL(kRange, gk_ew_divide_by<float>), GK_CPU_KERNEL(kRange, gk_ew_divide_by<double>),
    GK_CPU_KERNEL(kRange, gk_ew_divide_by<gk_half>), GK_CPU_KERNEL(kRange, gk_ew_divide_by<gk_bf16>),
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(elementwise, kKernels)

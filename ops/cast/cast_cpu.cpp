// CPU instantiations of ops/cast/cast.cuh (every pair of computable types, and
// each computable type to and from each storage-only one), and
// the host-side single-element conversion that uses the same rules.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/cast/cast.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/cast/cast.cuh"

namespace gk {
namespace {

#define CAST(F, T) GK_CPU_KERNEL(kRange, gk_cast<F, T>)
#define CAST_FROM(F)                                                                     \
  CAST(F, float), CAST(F, double), CAST(F, gk_half), CAST(F, gk_bf16), CAST(F, int8_t),  \
      CAST(F, int16_t), CAST(F, int32_t), CAST(F, int64_t), CAST(F, uint8_t),            \
      CAST(F, uint16_t), CAST(F, uint32_t), CAST(F, uint64_t), CAST(F, bool)
// Each computable type (T) to and from one storage-only type (S): gk_cast for the
// byte-wide float8 types, gk_cast_packed for the packed ones. Storage-to-storage
// casts run as two launches through float (ops/cast/cast.cpp), so they have no entries.
#define EACH_COMPUTABLE(M, S)                                                          \
  M(S, float), M(S, double), M(S, gk_half), M(S, gk_bf16), M(S, int8_t), M(S, int16_t), \
      M(S, int32_t), M(S, int64_t), M(S, uint8_t), M(S, uint16_t), M(S, uint32_t),     \
      M(S, uint64_t), M(S, bool)
#define BYTE_TO(S, T) GK_CPU_KERNEL(kRange, gk_cast<T, S>)
#define BYTE_FROM(S, T) GK_CPU_KERNEL(kRange, gk_cast<S, T>)
#define PACKED_TO(S, T) GK_CPU_KERNEL(kRange, gk_cast_packed<T, S>)
#define PACKED_FROM(S, T) GK_CPU_KERNEL(kRange, gk_cast_packed<S, T>)
#define BYTE_BOTH(S) EACH_COMPUTABLE(BYTE_TO, S), EACH_COMPUTABLE(BYTE_FROM, S)
#define PACKED_BOTH(S) EACH_COMPUTABLE(PACKED_TO, S), EACH_COMPUTABLE(PACKED_FROM, S)

const CpuKernelEntry kKernels[] = {
    CAST_FROM(float),   CAST_FROM(double),   CAST_FROM(gk_half),  CAST_FROM(gk_bf16),
    CAST_FROM(int8_t),  CAST_FROM(int16_t),  CAST_FROM(int32_t),  CAST_FROM(int64_t),
    CAST_FROM(uint8_t), CAST_FROM(uint16_t), CAST_FROM(uint32_t), CAST_FROM(uint64_t),
    CAST_FROM(bool),
    BYTE_BOTH(gk_f8e4m3fn),   BYTE_BOTH(gk_f8e4m3fnuz), BYTE_BOTH(gk_f8e5m2),
    BYTE_BOTH(gk_f8e5m2fnuz), BYTE_BOTH(gk_f8e8m0),
    PACKED_BOTH(gk_f4e2m1x2), PACKED_BOTH(gk_int4x2),   PACKED_BOTH(gk_uint4x2),
    PACKED_BOTH(gk_int2x4),   PACKED_BOTH(gk_uint2x4),
};

template <typename To>
void store(double v, void* out) {
  To t = gk_convert<To, double>(v);
  std::memcpy(out, &t, sizeof(To));
}

}  // namespace

bool encode_scalar(DType t, double v, void* out) {
  switch (t) {
    case DType::kF32: store<float>(v, out); return true;
    case DType::kF64: store<double>(v, out); return true;
    case DType::kF16: store<gk_half>(v, out); return true;
    case DType::kBF16: store<gk_bf16>(v, out); return true;
    case DType::kI8: store<int8_t>(v, out); return true;
    case DType::kI16: store<int16_t>(v, out); return true;
    case DType::kI32: store<int32_t>(v, out); return true;
    case DType::kI64: store<int64_t>(v, out); return true;
    case DType::kU8: store<uint8_t>(v, out); return true;
    case DType::kU16: store<uint16_t>(v, out); return true;
    case DType::kU32: store<uint32_t>(v, out); return true;
    case DType::kU64: store<uint64_t>(v, out); return true;
    case DType::kBool: store<bool>(v, out); return true;
    default: return false;
  }
}

namespace families {
KernelFamily cast_kernels() { return {&kernel_sources::cast, kKernels}; }
}  // namespace families

}  // namespace gk

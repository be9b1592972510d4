// CPU instantiations of ops/kernels/cast.cuh (every pair of computable types), and
// the host-side single-element conversion that uses the same rules.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/cast.h"
#include "ops/families.h"
#include "ops/kernel_sources.h"
#include "ops/kernels/cast.cuh"

namespace gk {
namespace {

#define CAST(F, T) GK_CPU_KERNEL(kRange, gk_cast<F, T>)
#define CAST_FROM(F)                                                                     \
  CAST(F, float), CAST(F, double), CAST(F, gk_half), CAST(F, gk_bf16), CAST(F, int8_t),  \
      CAST(F, int16_t), CAST(F, int32_t), CAST(F, int64_t), CAST(F, uint8_t),            \
      CAST(F, uint16_t), CAST(F, uint32_t), CAST(F, uint64_t), CAST(F, bool)

const CpuKernelEntry kKernels[] = {
    CAST_FROM(float),   CAST_FROM(double),   CAST_FROM(gk_half),  CAST_FROM(gk_bf16),
    CAST_FROM(int8_t),  CAST_FROM(int16_t),  CAST_FROM(int32_t),  CAST_FROM(int64_t),
    CAST_FROM(uint8_t), CAST_FROM(uint16_t), CAST_FROM(uint32_t), CAST_FROM(uint64_t),
    CAST_FROM(bool),
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

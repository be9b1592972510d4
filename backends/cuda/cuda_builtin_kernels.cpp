#include "backends/cuda/cuda_builtin_kernels.h"

namespace gk::cuda {
namespace {

constexpr std::string_view kText = R"(
__global__ void gk_graph_copy(unsigned char* dst, const unsigned char* src, long long bytes) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  const long long first = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if ((((unsigned long long)dst | (unsigned long long)src | (unsigned long long)bytes) & 15ull) == 0) {
    uint4* d = (uint4*)dst;
    const uint4* s = (const uint4*)src;
    for (long long i = first; i < bytes / 16; i += stride) d[i] = s[i];
  } else {
    for (long long i = first; i < bytes; i += stride) dst[i] = src[i];
  }
}

__global__ void gk_graph_memset(unsigned char* dst, int value, long long bytes) {
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < bytes; i += stride)
    dst[i] = (unsigned char)value;
}
)";

}  // namespace

const KernelSource& builtin_kernel_source() {
  static const KernelSource source{"cuda_builtin", kText, fnv1a64(kText)};
  return source;
}

}  // namespace gk::cuda

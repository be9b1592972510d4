// CPU side of the matmul kernel family: the gk_matmul twin (whole tiles of up to
// 256 x 64 per call, ops/common/gemm_block.h) and the instantiation table.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/common/gemm_block.h"
#include "ops/matmul/matmul.cuh"

template <typename T>
void gk_matmul(const T* A, const T* B, const T* C, T* Y, gk_gemm_args g, gk_index_map amap, gk_index_map bmap,
               gk_index_map cmap, int32_t epi, float ea, float eb) {
  using Acc = typename gk_acc<T>::type;
  using namespace gk::cpu_gemm;
  const int64_t ntiles = (g.N + kTile - 1) / kTile, chunks = row_chunks(g.M);
  Acc* acc = acc_tile<Acc>(kMaxPanelRows * kTile);
  const MicroKernel<Acc> mk = micro_kernel<Acc>();
  for (int64_t b = blockIdx.z; b < g.batch; b += gridDim.z) {
    const T* a_base = A + gk_offset(amap, b);
    const T* b_base = B + gk_offset(bmap, b);
    const T* c_base = g.has_c ? C + gk_offset(cmap, b) : nullptr;
    T* y_base = Y + b * g.M * g.N;
    for (int64_t ci = 0; ci < chunks; ++ci) {
      const auto [m0, mt] = row_chunk(g.M, ci);
      // One row against rows of B that are contiguous: B is read in place (gemm_row).
      // One row against a transposed B (a batch-1 Gemm with transB, a classifier):
      // the tile is computed as Bᵀ·Aᵀ, B's rows being the register blocks' A
      // operand read in place, instead of gathering B into panels for one row. Each
      // element folds the same products in the same order (fma is commutative).
      const bool row_direct = std::is_same_v<T, Acc> && mt == 1 && g.b_sn == 1;
      const bool row_swapped = std::is_same_v<T, Acc> && mt == 1 && g.b_sk == 1 && g.b_sn != 1;
      const bool all_direct = row_swapped || (row_direct && g.N % kTile % mk.row_cols == 0);  // no panel of A
      const AOperand<Acc> ap =
          all_direct ? AOperand<Acc>{} : a_operand<Acc>(a_base + m0 * g.a_sm, g.a_sm, g.a_sk, mt, g.K, mk.mr);
      for (int64_t ntile = blockIdx.x; ntile < ntiles; ntile += gridDim.x) {
        const int64_t n0 = ntile * kTile, nt = std::min<int64_t>(kTile, g.N - n0);
        const T* b_tile = b_base + n0 * g.b_sn;
        if (row_direct && nt % mk.row_cols == 0) {
          if constexpr (std::is_same_v<T, Acc>) gemm_row(g.K, a_base + m0 * g.a_sm, g.a_sk, b_tile, g.b_sk, nt, mk, acc);
        } else if (row_swapped) {
          if constexpr (std::is_same_v<T, Acc>) {
            const T* a_row = a_base + m0 * g.a_sm;
            gemm_tile<Acc>(
                nt, 1, g.K, a_operand<Acc>(b_tile, g.b_sn, g.b_sk, nt, g.K, mk.mr), mk,
                [&](int64_t k0, int kc, Acc* bp) { pack_cols_to_panel(a_row, g.a_sk, 0, 1, k0, kc, bp); }, acc);
            for (int64_t j = 1; j < nt; ++j) acc[j] = acc[j * kTile];  // column 0 into row 0
          }
        } else {
          gemm_tile<Acc>(
              mt, nt, g.K, ap, mk,
              [&](int64_t k0, int kc, Acc* bp) { pack_cols_to_panel(b_tile, g.b_sk, g.b_sn, nt, k0, kc, bp); }, acc);
        }
        for (int64_t i = 0; i < mt; ++i) {
          const int64_t m = m0 + i;
          store_row(acc + i * kTile, nt, y_base + m * g.N + n0, g.alpha, g.has_c,
                    c_base ? c_base + m * g.c_sm + n0 * g.c_sn : nullptr, g.c_sn, g.beta, epi, ea, eb);
        }
      }
    }
  }
}

namespace {

const ::gk::CpuKernelEntry kMatmulKernels[] = {
    GK_CPU_KERNEL(kBlocks, gk_matmul<float>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<double>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<gk_half>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<gk_bf16>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<int32_t>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<int64_t>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<uint32_t>),
    GK_CPU_KERNEL(kBlocks, gk_matmul<uint64_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<float>),
    GK_CPU_KERNEL(kRange, gk_einsum<double>),
    GK_CPU_KERNEL(kRange, gk_einsum<gk_half>),
    GK_CPU_KERNEL(kRange, gk_einsum<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_einsum<int8_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<int16_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<int32_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<int64_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_einsum<uint64_t>),
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(matmul, kMatmulKernels)

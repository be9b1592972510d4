// CPU side of the matmul kernel family: the gk_matmul twin (whole tiles of up to
// 256 x 64 per call, ops/common/gemm_block.h) and the instantiation table.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/common/gemm_block.h"
#include "ops/common/gemm_direct.h"
#include "ops/matmul/matmul.cuh"

// Whether C's elements (if any) lie apart from Y's: the direct GEMM writes
// partial sums into Y before the epilogue reads C.
template <typename T>
bool c_apart_from_y(const T* C, const T* Y, const gk_gemm_args& g, const gk_index_map& cmap) {
  if (!g.has_c) return true;
  const T* c_end = C + gk_offset(cmap, g.batch - 1) + (g.M - 1) * g.c_sm + (g.N - 1) * g.c_sn + 1;
  return c_end <= Y || Y + g.batch * g.M * g.N <= C;
}

// The direct GEMM over this block's even share of rows and columns (the grid of
// GridSplit::kWholeRanges; any grid covers the output once).
template <typename T>
void matmul_direct(const T* A, const T* B, const T* C, T* Y, const gk_gemm_args& g, const gk_index_map& amap,
                   const gk_index_map& bmap, const gk_index_map& cmap, int32_t epi, float ea, float eb) {
  using namespace gk::cpu_gemm;
  const MicroKernel<T> mk = micro_kernel<T>();
  // Part `part` of `parts` of [0, n), in whole steps (its start; the end is the next part's).
  const auto share = [](int64_t n, uint32_t parts, uint32_t part, int step) {
    const int64_t per = ((n + parts - 1) / parts + step - 1) / step * step;
    return std::min(n, part * per);
  };
  const int64_t m0 = share(g.M, gridDim.y, blockIdx.y, mk.mr), m1 = share(g.M, gridDim.y, blockIdx.y + 1, mk.mr);
  const int64_t n0 = share(g.N, gridDim.x, blockIdx.x, mk.nr), n1 = share(g.N, gridDim.x, blockIdx.x + 1, mk.nr);
  if (m0 >= m1 || n0 >= n1) return;
  const bool plain = g.alpha == 1.0f && !g.has_c && epi == GK_EPI_NONE;
  const DirectGemm d{m1 - m0, n1 - n0, g.K, g.a_sm, g.a_sk, g.b_sk, g.b_sn, g.N};
  for (int64_t b = blockIdx.z; b < g.batch; b += gridDim.z) {
    const T* c_base = g.has_c ? C + gk_offset(cmap, b) : nullptr;
    T* y = Y + b * g.M * g.N + m0 * g.N + n0;
    gemm_direct<T>(d, A + gk_offset(amap, b) + m0 * g.a_sm, B + gk_offset(bmap, b) + n0 * g.b_sn, y, mk,
                   [&](int64_t i0, int64_t j0, int64_t rows, int64_t cols) {
                     if (plain) return;
                     for (int64_t r = 0; r < rows; ++r) {
                       T* yr = y + (i0 + r) * g.N + j0;
                       const T* cr = c_base ? c_base + (m0 + i0 + r) * g.c_sm + (n0 + j0) * g.c_sn : nullptr;
                       store_row(yr, cols, yr, g.alpha, g.has_c, cr, g.c_sn, g.beta, epi, ea, eb);
                     }
                   });
  }
}

template <typename T>
void gk_matmul(const T* A, const T* B, const T* C, T* Y, gk_gemm_args g, gk_index_map amap, gk_index_map bmap,
               gk_index_map cmap, int32_t epi, float ea, float eb) {
  using Acc = typename gk_acc<T>::type;
  using namespace gk::cpu_gemm;
  if constexpr (std::is_same_v<T, Acc>) {
    if (g.M > 1 && g.K > 0 && c_apart_from_y(C, Y, g, cmap))
      return matmul_direct(A, B, C, Y, g, amap, bmap, cmap, epi, ea, eb);
  }
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

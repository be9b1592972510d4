// The CPU GEMM's register blocks, chosen at run time by the CPU's ISA
// (backends/cpu/cpu_isa.h): AVX-512 8x32 (16 of 32 zmm accumulate), AVX2+FMA 6x16
// (12 of 16 ymm: an 8x16 block would spill, the AVX2 machine's 29%-of-peak
// ResNet-50), and portable loops. One kernel serves plain panels and the conv
// row-window path: term t = row * kws + kw reads row i of A at a[t * lda + i * ars]
// and B at b + row * ldb + kw * dil (plain GEMM: kws = 1). A is read where it lies
// (ars = a conv's K): packing a conv's weights into a panel on every run was a
// scalar transpose taking 15% of ResNet-18.
//
// Blocked K (../shared/DESIGN.md, Numerics): the terms fold in blocks of
// GK_GEMM_KBLOCK = 32 counted from the call's first term, in order, one FMA each,
// each block from zero; each block sum is then added in order to c, so a call
// accumulates into c; with `first` (the call holds the sum's first terms) the
// first block is stored instead, which is 0 + block: a block sum starts from +0
// and is never -0. Callers start every call on a block boundary of the whole
// sum, which is what gk_gemm_block does on CUDA, so both backends agree bit for bit.
#pragma once

#include "ops/common/gemm.cuh"
#include "ops/common/gemm_micro_abi.h"

#include <cstdint>
#include <type_traits>

namespace gk::cpu_gemm {

constexpr int kKBlock = GK_GEMM_KBLOCK;

// The argument and kernel types and the dispatchers live in gemm_micro_abi.h,
// once for every ISA variant (the reason is there).
using ::gk::cpu_gemm::MicroArgs;
using ::gk::cpu_gemm::MicroKernel;
using ::gk::cpu_gemm::micro_kernel_f32;
using ::gk::cpu_gemm::micro_kernel_f64;

// Portable register block (every type, any ISA): the same fold as the vector kernels.
template <typename Acc, int MR, int NR, bool kUnitRows = false>
void micro_portable(const MicroArgs<Acc>& m) {
  const int64_t ars = kUnitRows ? 1 : m.ars;
  const int64_t terms = m.rows * m.kws;
  const Acc* a = m.a;
  int64_t row = 0, kw = 0;
  for (int64_t t0 = 0; t0 < terms; t0 += kKBlock) {
    Acc r[MR][NR];
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) r[i][j] = Acc(0);
    const int64_t tn = terms - t0 < kKBlock ? terms - t0 : kKBlock;
    for (int64_t t = 0; t < tn; ++t, a += m.lda) {
      const Acc* b = m.b + row * m.ldb + kw * m.dil;
      for (int i = 0; i < MR; ++i) {
        const Acc av = a[i * ars];
        for (int j = 0; j < NR; ++j) r[i][j] = gk_madd(av, b[j], r[i][j]);
      }
      if (++kw == m.kws) kw = 0, ++row;
    }
    const bool store = m.first && t0 == 0;
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) m.c[i * m.ldc + j] = store ? r[i][j] : gk_wrap_add(m.c[i * m.ldc + j], r[i][j]);
  }
}

// The portable live-term block: micro_portable's fold over m.live's terms.
template <typename Acc, int MR, int NR, bool kUnitRows = false>
void micro_portable_live(const MicroArgs<Acc>& m) {
  const int64_t ars = kUnitRows ? 1 : m.ars;
  bool first = m.first;
  int li = 0;
  for (int64_t t0 = 0; t0 < m.rows; t0 += kKBlock) {
    const int64_t t1 = m.rows - t0 < kKBlock ? m.rows : t0 + kKBlock;
    Acc r[MR][NR];
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) r[i][j] = Acc(0);
    for (; li < m.nlive && m.live[li] < t1; ++li) {
      const Acc* a = m.a + m.live[li] * m.lda;
      const Acc* b = m.b + m.live[li] * m.ldb;
      for (int i = 0; i < MR; ++i)
        for (int j = 0; j < NR; ++j) r[i][j] = gk_madd(a[i * ars], b[j], r[i][j]);
    }
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) m.c[i * m.ldc + j] = first ? r[i][j] : gk_wrap_add(m.c[i * m.ldc + j], r[i][j]);
    first = false;
  }
}

template <typename Acc>
inline MicroKernel<Acc> micro_kernel() {
  if constexpr (std::is_same_v<Acc, float>) return micro_kernel_f32();
  else if constexpr (std::is_same_v<Acc, double>) return micro_kernel_f64();
  else
    return {4,  16, &micro_portable<Acc, 4, 16, true>, &micro_portable<Acc, 4, 16>, &micro_portable<Acc, 4, 8, true>,
            &micro_portable<Acc, 4, 8>, 16, &micro_portable<Acc, 1, 16, true>, &micro_portable_live<Acc, 4, 16, true>,
            &micro_portable_live<Acc, 4, 16>};
}

}  // namespace gk::cpu_gemm

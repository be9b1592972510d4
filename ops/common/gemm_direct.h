// The CPU GEMM written straight into its output, cache-blocked as BLIS does it
// (Goto's algorithm): for each panel of NC columns and slice of KC terms, B is
// packed once into NR-wide strips (kc x nr contiguous: a strip stays in L1 while
// it meets a column of register blocks), and for each block of MC rows A is
// packed into MR-row strips (an L2-resident block reused by every strip of the
// panel); each register block adds its slice into C where C lies. The acc-tile
// path (gemm_block.h) packed B per 64-column tile, reading rows 4 KB apart, once
// per 256-row chunk (14% of a 1024^3 MatMul), and copied every tile out after.
//
// The fold per element is gemm_tile's: slices of whole K blocks in ascending
// order, the first stored and the rest added (gemm_micro.h), so the bits are
// those of the acc-tile path and of the CUDA block.
#pragma once

#include "ops/common/gemm_block.h"

#include <algorithm>
#include <cstdint>

namespace gk::cpu_gemm {

// The cache blocks for an element of `elem` bytes and an mr x nr register block,
// from the core's cache sizes: a B strip (kc x nr) half of L1d, so the A strip and
// C tile beside it stay too (AVX2 f32: kc 256 on a 32 KB L1d); an A block
// (mc x kc) a quarter of L2 (AVX2 f32 on Zen 3's 512 KB: mc 126); a B panel
// (kc x nc) twice L2, in L3 as BLIS keeps it (nc 1024).
struct CacheBlocks {
  int kc = 0;
  int64_t mc = 0, nc = 0;
};
inline CacheBlocks cache_blocks(int64_t elem, int mr, int nr) {
  const ::gk::CpuCaches caches = ::gk::cpu_caches();  // outside the ISA namespaces (isa_variant.h)
  CacheBlocks cb;
  cb.kc = static_cast<int>(std::clamp<int64_t>(caches.l1d / 2 / (nr * elem) / kKBlock * kKBlock, kKBlock, 1024));
  cb.mc = std::clamp<int64_t>(caches.l2 / 4 / (cb.kc * elem) / mr * mr, mr, 64 * mr);
  cb.nc = std::clamp<int64_t>(caches.l2 * 2 / (cb.kc * elem) / nr * nr, nr, 512 * nr);
  return cb;
}

// B's terms [0, kc) of columns [0, nc) (term stride s_k, column stride s_n) as
// nr-wide strips: panel[(j * kc + k) * nr + i] = column j * nr + i, zero past nc.
// Row-contiguous B is read a row at a time (one stream, where a strip at a time
// read kc rows 4 KB apart for 64 bytes each).
template <typename Acc, typename T>
inline void pack_b_strips(const T* b, int64_t s_k, int64_t s_n, int kc, int64_t nc, int nr, Acc* panel) {
  const int64_t strips = (nc + nr - 1) / nr, full = nc / nr;
  if (s_n == 1) {
    for (int k = 0; k < kc; ++k) {
      const T* row = b + k * s_k;
      Acc* dst = panel + k * nr;
      for (int64_t j = 0; j < full; ++j, dst += kc * nr)
        for (int i = 0; i < nr; ++i) dst[i] = static_cast<Acc>(row[j * nr + i]);
      if (full < strips)
        for (int i = 0; i < nr; ++i) dst[i] = full * nr + i < nc ? static_cast<Acc>(row[full * nr + i]) : Acc(0);
    }
    return;
  }
  for (int64_t j = 0; j < strips; ++j) {  // column by column: each a stream when s_k == 1
    Acc* dst = panel + j * kc * nr;
    for (int i = 0; i < nr; ++i) {
      const int64_t col = j * nr + i;
      if (col < nc) {
        const T* src = b + col * s_n;
        for (int k = 0; k < kc; ++k) dst[k * nr + i] = static_cast<Acc>(src[k * s_k]);
      } else {
        for (int k = 0; k < kc; ++k) dst[k * nr + i] = Acc(0);
      }
    }
  }
}

template <typename Acc>
Acc* b_strip_panel(int64_t elems) {
  thread_local std::vector<Acc> buf;
  if (buf.size() < static_cast<size_t>(elems)) buf.resize(static_cast<size_t>(elems));
  return buf.data();
}

struct DirectGemm {
  int64_t M = 0, N = 0, K = 0;
  int64_t a_sm = 0, a_sk = 0, b_sk = 0, b_sn = 0, ldy = 0;
};

// y[i * ldy + j] = sum_k A(i, k) B(k, j) over [0, M) x [0, N), K > 0; then
// finish(i, j, rows, cols) once per MC x NC block whose sums are complete, while
// it is in L2 (the epilogue, in place; once per register tile cost BERT-tiny's
// bias epilogues a call per 16 elements). y must not overlap A or B.
template <typename Acc, class Finish>
void gemm_direct(const DirectGemm& g, const Acc* a, const Acc* b, Acc* y, const MicroKernel<Acc>& mk,
                 const Finish& finish) {
  CacheBlocks cb = cache_blocks(sizeof(Acc), mk.mr, mk.nr);
  const int mr = mk.mr, nr = mk.nr;
  // Row blocks of even height: 128 rows as 126 + 2 gave the 2 their own pass
  // over every strip of B, each an edge tile (DenseNet-121's 1x1 convs).
  const int64_t row_blocks = (g.M + cb.mc - 1) / cb.mc;
  cb.mc = ((g.M + row_blocks - 1) / row_blocks + mr - 1) / mr * mr;
  const int64_t nc_max = std::min(cb.nc, (g.N + nr - 1) / nr * nr), mc_max = std::min(cb.mc, g.M);
  const int kc_max = static_cast<int>(std::min<int64_t>(cb.kc, g.K));
  Acc* bp = b_strip_panel<Acc>(kc_max * nc_max);
  Acc* ap = a_panel<Acc>(strip_panel_elems(mc_max, kc_max, mr));
  alignas(64) Acc edge[kMaxMR * kMaxNR];
  for (int64_t jc = 0; jc < g.N; jc += cb.nc) {
    const int64_t nc = std::min(cb.nc, g.N - jc), nstrips = (nc + nr - 1) / nr;
    for (int64_t k0 = 0; k0 < g.K; k0 += cb.kc) {
      const int kc = static_cast<int>(std::min<int64_t>(cb.kc, g.K - k0));
      const bool last = k0 + kc == g.K;
      pack_b_strips(b + k0 * g.b_sk + jc * g.b_sn, g.b_sk, g.b_sn, kc, nc, nr, bp);
      for (int64_t ic = 0; ic < g.M; ic += cb.mc) {
        const int64_t mc = std::min(cb.mc, g.M - ic), mstrips = (mc + mr - 1) / mr;
        pack_strips(a + ic * g.a_sm + k0 * g.a_sk, g.a_sm, g.a_sk, mc, kc, mr, ap);
        for (int64_t js = 0; js < nstrips; ++js) {
          const int cols = static_cast<int>(std::min<int64_t>(nr, nc - js * nr));
          const bool half = 2 * cols <= nr;
          void (*run)(const MicroArgs<Acc>&) = half ? mk.run_half : mk.run;
          for (int64_t is = 0; is < mstrips; ++is) {
            const int rows = static_cast<int>(std::min<int64_t>(mr, mc - is * mr));
            const int64_t i0 = ic + is * mr, j0 = jc + js * nr;
            Acc* c = y + i0 * g.ldy + j0;
            MicroArgs<Acc> m{kc, 1, 0, ap + is * mr * kc, mr, 1, bp + js * kc * nr, nr, c, g.ldy, k0 == 0};
            if (rows == mr && (cols == nr || (half && 2 * cols == nr))) {
              run(m);
            } else {  // a ragged edge: the block runs on a copy of the tile's valid part
              std::fill(edge, edge + mr * nr, Acc(0));
              if (k0 != 0)
                for (int r = 0; r < rows; ++r) std::copy(c + r * g.ldy, c + r * g.ldy + cols, edge + r * nr);
              m.c = edge, m.ldc = nr;
              run(m);
              for (int r = 0; r < rows; ++r) std::copy(edge + r * nr, edge + r * nr + cols, c + r * g.ldy);
            }
          }
        }
        if (last) finish(ic, jc, mc, nc);
      }
    }
  }
}

}  // namespace gk::cpu_gemm

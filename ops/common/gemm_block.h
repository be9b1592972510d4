// CPU twin of gk_gemm_block (ops/common/gemm.cuh): one output tile of up to
// 256 x 64 per call. Operands are packed into panels (A as MR-row strips, each
// K x MR contiguous; Bp[k][n] k-slice by k-slice, 64 wide; zero outside the tile), then the ISA's
// register block (gemm_micro.h) runs over each slice. Every element folds K in
// blocks of 32 exactly as the CUDA block does, so results match bit for bit.
#pragma once

#include "ops/common/epilogue.cuh"
#include "ops/common/gemm.cuh"
#include "ops/common/gemm_micro.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace gk::cpu_gemm {

constexpr int kTile = GK_GEMM_TILE;
// 128 k-rows of two 64-wide f32 panels = 64 KB: both stay in L2 (2 MB per core on
// the Xeon these were measured on) while the B row block stays in L1.
constexpr int kKc = 128;

// The widest and tallest register blocks of any ISA (gemm_micro.h): the slack a
// conv row run may write past its tile; the rows of one A strip.
constexpr int kMaxNR = 32, kMaxMR = 8;

// A CPU block's row tile is up to kMaxRowTiles CUDA tiles tall, so that each
// packed B slice (the im2col panel of a conv) serves up to 256 rows of A; the
// rows are a contiguous range of the tiles gk_gemm_block would give one block
// each (row_chunk), and every element's fold is unchanged.
constexpr int kMaxRowTiles = 4;
// Rows of the accumulator tile for mt rows: what any MR's last strip may write
// (6 on AVX2: 258 rows for 256).
inline int64_t panel_rows(int64_t mt) { return (mt + 7) / 8 * 8 + 8; }
constexpr int64_t kMaxPanelRows = kMaxRowTiles * kTile + 8;

// The rows [m0, m0 + mt) of this CPU block's chunk `i` of row tiles: blockIdx.y
// takes ceil(tiles / gridDim.y) consecutive tiles (gemm_grid), kMaxRowTiles at a
// time.
struct RowChunk {
  int64_t m0, mt;
};
inline int64_t row_chunks(int64_t M) {
  const int64_t tiles = (M + kTile - 1) / kTile, per = (tiles + gridDim.y - 1) / gridDim.y;
  const int64_t first = blockIdx.y * per, last = std::min(tiles, first + per);
  return last > first ? (last - first + kMaxRowTiles - 1) / kMaxRowTiles : 0;
}
inline RowChunk row_chunk(int64_t M, int64_t i) {
  const int64_t tiles = (M + kTile - 1) / kTile, per = (tiles + gridDim.y - 1) / gridDim.y;
  const int64_t last = std::min(tiles, blockIdx.y * per + per);
  const int64_t t0 = blockIdx.y * per + i * kMaxRowTiles, t1 = std::min(last, t0 + kMaxRowTiles);
  return {t0 * kTile, std::min(M, t1 * kTile) - t0 * kTile};
}

// The A rows of a tile as the register blocks read them: row i of strip s, term t
// at a[s * strip + t * lda + i * ars]. Where the operand's type is the
// accumulator's, that is the operand where it lies, and only a last strip shorter
// than MR is copied (`tail`, tail[t * mr + i], zero past the tile); otherwise a
// converted panel of strips (pack_strips).
template <typename Acc>
struct AOperand {
  const Acc* a = nullptr;
  int64_t lda = 0, ars = 0, strip = 0;
  const Acc* tail = nullptr;
};

// Elements of the strip panel of mt rows: whole MR strips of K terms.
inline int64_t strip_panel_elems(int64_t mt, int64_t K, int mr) { return (mt + mr - 1) / mr * mr * K; }

// Per-thread buffers: A panels and tails, and an accumulator tile of `elems`.
template <typename Acc>
Acc* a_panel(int64_t elems) {
  thread_local std::vector<Acc> buf;
  if (buf.size() < static_cast<size_t>(elems + 1)) buf.resize(static_cast<size_t>(elems + 1));
  return buf.data();
}
template <typename Acc>
Acc* acc_tile(int64_t elems) {
  thread_local std::vector<Acc> buf;
  if (buf.size() < static_cast<size_t>(elems)) buf.resize(static_cast<size_t>(elems));
  return buf.data();
}

template <typename Acc, typename T>
inline void pack_strips(const T* base, int64_t s_m, int64_t s_k, int64_t mt, int64_t K, int mr, Acc* panel);

// Rows [0, mt) of the matrix at `base` (row stride s_m, term stride s_k, K terms)
// for register blocks `mr` rows tall; `pack` asks for the panel even where the
// operand could be read in place (the conv row-window loop has no registers to
// spare for 8 row offsets: the detector's 96->24 3x3 conv ran 20% slower so).
template <typename Acc, typename T>
AOperand<Acc> a_operand(const T* base, int64_t s_m, int64_t s_k, int64_t mt, int64_t K, int mr, bool pack = false) {
  if constexpr (std::is_same_v<Acc, T>) {
    if (pack) {
      Acc* ap = a_panel<Acc>(strip_panel_elems(mt, K, mr));
      pack_strips(base, s_m, s_k, mt, K, mr, ap);
      return {ap, mr, 1, mr * K, nullptr};
    }
    AOperand<Acc> op{base, s_k, s_m, mr * s_m, nullptr};
    const int64_t full = mt / mr * mr;
    if (full < mt) {
      Acc* tail = a_panel<Acc>(K * mr);
      for (int64_t t = 0; t < K; ++t)
        for (int i = 0; i < mr; ++i) tail[t * mr + i] = full + i < mt ? base[(full + i) * s_m + t * s_k] : Acc(0);
      op.tail = tail;
    }
    return op;
  } else {
    Acc* ap = a_panel<Acc>(strip_panel_elems(mt, K, mr));
    pack_strips(base, s_m, s_k, mt, K, mr, ap);
    return {ap, mr, 1, mr * K, nullptr};
  }
}

// Strip `is` of A (rows is * mr ...) from term k0 on, as micro-kernel arguments,
// and the kernel for it: half width when the strip has at most nr/2 columns left.
template <typename Acc>
inline void a_strip(const AOperand<Acc>& A, const MicroKernel<Acc>& mk, int is, int mstrips, int64_t k0,
                    int64_t cols_left, MicroArgs<Acc>& m, void (**run)(const MicroArgs<Acc>&)) {
  if (A.tail && is == mstrips - 1) {
    m.a = A.tail + k0 * mk.mr, m.lda = mk.mr, m.ars = 1;
  } else {
    m.a = A.a + is * A.strip + k0 * A.lda, m.lda = A.lda, m.ars = A.ars;
  }
  const bool half = 2 * cols_left <= mk.nr;
  *run = m.ars == 1 ? (half ? mk.run_half : mk.run) : (half ? mk.run_rows_half : mk.run_rows);
}

// acc (panel_rows(mt) x kTile, row-major) = A B over the tile's mt x nt valid part
// (the strips' rows and columns; nothing needs zeroing first). A (a_operand) is
// reused across column tiles; pack_b(k0, kc, Bp) fills Bp[kk * kTile + j] for all
// j < kTile (zero past nt). kKc is a multiple of the K block, so every
// micro-kernel call starts on a block boundary. A pack_b(k0, kc, Bp, live) that
// returns a count n < kc has left rows out: only live[0 .. n) are summed (the
// live-term blocks; the caller vouches that each row left out adds +-0).
template <typename Acc, class PackB>
void gemm_tile(int64_t mt, int64_t nt, int64_t K, const AOperand<Acc>& A, const MicroKernel<Acc>& mk,
               const PackB& pack_b, Acc* acc) {
  static_assert(kKc % kKBlock == 0 && kKc <= 32767);
  constexpr bool kMayDrop = std::is_invocable_r_v<int, PackB, int64_t, int, Acc*, int16_t*>;
  alignas(64) Acc bp[kKc * kTile];
  int16_t live[kMayDrop ? kKc : 1];
  const int mstrips = static_cast<int>((mt + mk.mr - 1) / mk.mr), nstrips = static_cast<int>((nt + mk.nr - 1) / mk.nr);
  if (K == 0) std::fill(acc, acc + panel_rows(mt) * kTile, Acc(0));  // an empty sum: no call stores
  for (int64_t k0 = 0; k0 < K; k0 += kKc) {
    const int kc = static_cast<int>(std::min<int64_t>(kKc, K - k0));
    int nlive = kc;
    if constexpr (kMayDrop) nlive = pack_b(k0, kc, bp, live);
    else pack_b(k0, kc, bp);
    for (int js = 0; js < nstrips; ++js)
      for (int is = 0; is < mstrips; ++is) {
        MicroArgs<Acc> m{kc, 1, 0, nullptr, 0, 0, bp + js * mk.nr, kTile, acc + is * mk.mr * kTile + js * mk.nr,
                         kTile, k0 == 0};
        void (*run)(const MicroArgs<Acc>&);
        a_strip(A, mk, is, mstrips, k0, nt - js * mk.nr, m, &run);
        if (nlive < kc) {
          m.live = live, m.nlive = nlive;
          run = m.ars == 1 ? mk.run_live : mk.run_rows_live;
        }
        run(m);
      }
  }
}

// acc[0, nt) = one row of A (K terms, term stride a_sk) times B (K rows of at
// least nt columns, row stride ldb), B read where it lies: every B element is used
// once, so packing it would only copy it (a batch-1 LSTM step packed all of R).
// nt is a multiple of mk.row_cols. The fold is the register blocks' (blocks of 32).
template <typename Acc>
void gemm_row(int64_t K, const Acc* a, int64_t a_sk, const Acc* b, int64_t ldb, int64_t nt, const MicroKernel<Acc>& mk,
              Acc* acc) {
  if (K == 0) {
    std::fill(acc, acc + nt, Acc(0));
    return;
  }
  for (int64_t c0 = 0; c0 < nt; c0 += mk.row_cols) {
    const MicroArgs<Acc> m{K, 1, 0, a, a_sk, 0, b + c0, ldb, acc + c0, 0, true};
    mk.run_row(m);
  }
}

// Applies bias/C and the activation to a finished row segment, the switch hoisted
// out of the loop so the common kinds vectorise.
template <typename Acc, typename T>
inline void store_row_part(const Acc* r, int64_t n, T* y, float alpha, int has_c, const T* c, int64_t c_sn,
                           float beta, int32_t epi, float ea, float eb) {
  Acc tmp[kTile];
  for (int64_t j = 0; j < n; ++j) {
    const Acc cv = has_c ? static_cast<Acc>(c[j * c_sn]) : Acc(0);
    tmp[j] = gk_gemm_finish(r[j], alpha, has_c, cv, beta);
  }
  if constexpr (!gk_is_float_t<Acc>::value) {
    if (epi != GK_EPI_NONE)
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue(tmp[j], epi, ea, eb);
  } else switch (epi) {
    case GK_EPI_NONE: break;
    case GK_EPI_RELU:
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue_apply(tmp[j], GK_EPI_RELU, ea, eb);
      break;
    case GK_EPI_CLIP:
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue_apply(tmp[j], GK_EPI_CLIP, ea, eb);
      break;
    case GK_EPI_HARD_SWISH:
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue_apply(tmp[j], GK_EPI_HARD_SWISH, ea, eb);
      break;
    case GK_EPI_SIGMOID:  // vectorised with the inline exp (ops/common/math.cuh)
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue_apply(tmp[j], GK_EPI_SIGMOID, ea, eb);
      break;
    case GK_EPI_SILU:
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue_apply(tmp[j], GK_EPI_SILU, ea, eb);
      break;
    default:
      for (int64_t j = 0; j < n; ++j) tmp[j] = gk_epilogue(tmp[j], epi, ea, eb);
  }
  for (int64_t j = 0; j < n; ++j) y[j] = static_cast<T>(tmp[j]);
}

template <typename Acc, typename T>
inline void store_row(const Acc* r, int64_t n, T* y, float alpha, int has_c, const T* c, int64_t c_sn, float beta,
                      int32_t epi, float ea, float eb) {
  for (int64_t j0 = 0; j0 < n; j0 += kTile)
    store_row_part(r + j0, std::min<int64_t>(kTile, n - j0), y + j0, alpha, has_c, c ? c + j0 * c_sn : c, c_sn, beta,
                   epi, ea, eb);
}

// The common packers. A's rows into MR-row strips, each K x mr contiguous
// (panel[(s * K + k) * mr + i] = row s * mr + i, term k; zero past mt): a register
// block reads its strip as one stream. The earlier panel, K rows of all 264 tile
// rows, gave a strip 24 useful bytes per 1056-byte row, and a 3x3 256->256 conv's
// 2.4 MB panel touched a new cache line and most of its pages on every term
// (ResNet-50's 14x14 stage at 20 GFLOP/s). Bp rows (kTile wide) are copied.
template <typename Acc, typename T>
inline void pack_strips(const T* base, int64_t s_m, int64_t s_k, int64_t mt, int64_t K, int mr, Acc* panel) {
  for (int64_t i0 = 0; i0 < mt; i0 += mr) {
    Acc* dst = panel + i0 * K;
    const int rows = static_cast<int>(std::min<int64_t>(mr, mt - i0));
    // Term by term, the strip's rows side by side: the stores are one stream (row
    // by row they strode 4 * mr bytes through a strip larger than L1: 41% of a 3x3
    // 256->256 conv at 14x14 went into this copy), and a transposed operand's
    // (s_m == 1) reads are one stream too.
    const T* src[kMaxMR];
    for (int i = 0; i < rows; ++i) src[i] = base + (i0 + i) * s_m;
    for (int64_t k = 0; k < K; ++k) {
      for (int i = 0; i < rows; ++i) dst[k * mr + i] = static_cast<Acc>(src[i][k * s_k]);
      for (int i = rows; i < mr; ++i) dst[k * mr + i] = Acc(0);
    }
  }
}

template <typename Acc, typename T>
inline void pack_cols_to_panel(const T* base, int64_t s_k, int64_t s_n, int64_t nt, int64_t k0, int kc,
                               Acc* panel) {
  // panel[kk * kTile + j] = base[(k0 + kk) * s_k + j * s_n], j < nt
  for (int kk = 0; kk < kc; ++kk) {
    const T* src = base + (k0 + kk) * s_k;
    Acc* dst = panel + kk * kTile;
    if (s_n == 1)
      for (int64_t j = 0; j < nt; ++j) dst[j] = static_cast<Acc>(src[j]);
    else
      for (int64_t j = 0; j < nt; ++j) dst[j] = static_cast<Acc>(src[j * s_n]);
    for (int64_t j = nt; j < kTile; ++j) dst[j] = Acc(0);
  }
}

}  // namespace gk::cpu_gemm

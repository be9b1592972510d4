// CPU twin of gk_gemm_block (ops/common/gemm.cuh): one 64x64 output tile
// per call. Operands are packed k-slice by k-slice into tile-wide panels
// (Ap[k][m], Bp[k][n], 64 wide, zero outside the tile), then an MR x NR register
// block runs over each slice with contiguous NR-wide rows the compiler vectorises.
// Every element still folds its K terms in ascending k with one gk_madd each,
// starting from zero, exactly as the CUDA block does, so results match bit for bit.
#pragma once

#include "ops/common/epilogue.cuh"
#include "ops/common/gemm.cuh"

#include <algorithm>
#include <cstdint>
#include <immintrin.h>
#include <vector>

namespace gk::cpu_gemm {

constexpr int kTile = GK_GEMM_TILE;
// 128 k-rows of two 64-wide f32 panels = 64 KB: both stay in L2 (2 MB per core on
// the Xeon these were measured on) while the B row block stays in L1.
constexpr int kKc = 128;

// Register block. GCC's auto-vectoriser turns the generic loop below into
// permute-heavy SLP code (1.5 GFLOP/s on a 512^3 f32 MatMul), so f32/f64 have
// explicit FMA kernels: 8 rows x 2 vectors (16 accumulators of the 32 AVX-512
// registers). An FMA instruction rounds exactly as fmaf/fma, so the fold and its
// result are unchanged.
#if defined(__AVX512F__)
constexpr int kVecF = 16, kVecD = 8;
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int kVecF = 8, kVecD = 4;
#else
constexpr int kVecF = 4, kVecD = 2;
#endif
template <typename Acc>
struct Micro {
  static constexpr int MR = 8, NR = 16;
};
template <>
struct Micro<float> {
  static constexpr int MR = 8, NR = 2 * kVecF;
};
template <>
struct Micro<double> {
  static constexpr int MR = 8, NR = 2 * kVecD;
};

template <typename Acc, int MR, int NR>
inline __attribute__((always_inline)) void micro(int kc, const Acc* __restrict a, const Acc* __restrict b,
                                                 Acc* __restrict c) {
  Acc r[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) r[i][j] = c[i * kTile + j];
  for (int k = 0; k < kc; ++k) {
    const Acc* ak = a + k * kTile;
    const Acc* bk = b + k * kTile;
    for (int i = 0; i < MR; ++i) {
      const Acc av = ak[i];
      for (int j = 0; j < NR; ++j) r[i][j] = gk_madd(av, bk[j], r[i][j]);
    }
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) c[i * kTile + j] = r[i][j];
}

#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#if defined(__AVX512F__)
#define GK_VF __m512
#define GK_VD __m512d
#define GK_VF_(op) _mm512_##op##_ps
#define GK_VD_(op) _mm512_##op##_pd
#else
#define GK_VF __m256
#define GK_VD __m256d
#define GK_VF_(op) _mm256_##op##_ps
#define GK_VD_(op) _mm256_##op##_pd
#endif
#define GK_MICRO_VEC(T, V, OP, W)                                                                   \
  template <>                                                                                       \
  inline __attribute__((always_inline)) void micro<T, 8, 2 * W>(int kc, const T* __restrict a,      \
                                                                const T* __restrict b, T* __restrict c) { \
    V r[8][2];                                                                                      \
    for (int i = 0; i < 8; ++i) {                                                                   \
      r[i][0] = OP(loadu)(c + i * kTile);                                                           \
      r[i][1] = OP(loadu)(c + i * kTile + W);                                                       \
    }                                                                                               \
    for (int k = 0; k < kc; ++k) {                                                                  \
      const V b0 = OP(loadu)(b + k * kTile), b1 = OP(loadu)(b + k * kTile + W);                     \
      const T* ak = a + k * kTile;                                                                  \
      for (int i = 0; i < 8; ++i) {                                                                 \
        const V av = OP(set1)(ak[i]);                                                               \
        r[i][0] = OP(fmadd)(av, b0, r[i][0]);                                                       \
        r[i][1] = OP(fmadd)(av, b1, r[i][1]);                                                       \
      }                                                                                             \
    }                                                                                               \
    for (int i = 0; i < 8; ++i) {                                                                   \
      OP(storeu)(c + i * kTile, r[i][0]);                                                           \
      OP(storeu)(c + i * kTile + W, r[i][1]);                                                       \
    }                                                                                               \
  }
GK_MICRO_VEC(float, GK_VF, GK_VF_, kVecF)
GK_MICRO_VEC(double, GK_VD, GK_VD_, kVecD)
#undef GK_MICRO_VEC
#undef GK_VF
#undef GK_VD
#undef GK_VF_
#undef GK_VD_
#endif

// acc (kTile x kTile, row-major) = A B over the tile's mt x nt valid part.
// ap: the tile's whole A panel, ap[k * kTile + i] (zero past mt), packed once per
// row tile and reused across column tiles; pack_b(k0, kc, Bp) fills
// Bp[kk * kTile + j] for all j < kTile (zero past nt).
template <typename Acc, class PackB>
void gemm_tile(int64_t mt, int64_t nt, int64_t K, const Acc* ap, const PackB& pack_b, Acc* acc) {
  constexpr int MR = Micro<Acc>::MR, NR = Micro<Acc>::NR;
  alignas(64) Acc bp[kKc * kTile];
  std::fill(acc, acc + kTile * kTile, Acc(0));
  const int mstrips = static_cast<int>((mt + MR - 1) / MR), nstrips = static_cast<int>((nt + NR - 1) / NR);
  for (int64_t k0 = 0; k0 < K; k0 += kKc) {
    const int kc = static_cast<int>(std::min<int64_t>(kKc, K - k0));
    pack_b(k0, kc, bp);
    for (int js = 0; js < nstrips; ++js)
      for (int is = 0; is < mstrips; ++is)
        micro<Acc, MR, NR>(kc, ap + k0 * kTile + is * MR, bp + js * NR, acc + is * MR * kTile + js * NR);
  }
}

// A per-thread buffer for a whole A panel (K x kTile).
template <typename Acc>
Acc* a_panel(int64_t K) {
  thread_local std::vector<Acc> buf;
  if (buf.size() < static_cast<size_t>(K * kTile + 1)) buf.resize(K * kTile + 1);
  return buf.data();
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

// The common packers: a strided matrix (row stride, column stride) into a panel.
// Row-major A (k contiguous) is transposed into Ap; Bp rows are copied.
template <typename Acc, typename T>
inline void pack_rows_to_panel(const T* base, int64_t s_major, int64_t s_minor, int64_t n_major,
                               int64_t k0, int64_t kc, Acc* panel) {
  // panel[kk * kTile + i] = base[i * s_major + (k0 + kk) * s_minor], i < n_major
  if (s_major == 1 && s_minor != 1) {  // transposed operand: rows of the panel are contiguous
    for (int64_t kk = 0; kk < kc; ++kk) {
      const T* src = base + (k0 + kk) * s_minor;
      for (int64_t i = 0; i < n_major; ++i) panel[kk * kTile + i] = static_cast<Acc>(src[i]);
      for (int64_t i = n_major; i < kTile; ++i) panel[kk * kTile + i] = Acc(0);
    }
    return;
  }
  for (int64_t i = 0; i < n_major; ++i) {
    const T* src = base + i * s_major + k0 * s_minor;
    if (s_minor == 1)
      for (int64_t kk = 0; kk < kc; ++kk) panel[kk * kTile + i] = static_cast<Acc>(src[kk]);
    else
      for (int64_t kk = 0; kk < kc; ++kk) panel[kk * kTile + i] = static_cast<Acc>(src[kk * s_minor]);
  }
  for (int64_t kk = 0; kk < kc; ++kk)
    for (int64_t i = n_major; i < kTile; ++i) panel[kk * kTile + i] = Acc(0);
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

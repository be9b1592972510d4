// CPU side of the conv kernel family. gk_conv's twin packs the im2col panel of
// its 64-pixel tile row by row (runs of one output row are contiguous input
// reads, zero-filled where they fall in the padding) and runs the shared register
// block; gk_conv_depthwise's twin walks whole output rows so each tap is one
// vectorisable pass; gk_col2im's twin adds each tap's column run to whole output
// rows. All keep the CUDA kernels' per-element folding order.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/cpu/gemm_block.h"
#include "ops/families.h"
#include "ops/kernel_sources.h"
#include "ops/kernels/conv.cuh"

namespace {

inline int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// Output pixels [p0, p0 + nt) of the tile as runs sharing (od, oh).
struct Run {
  int j0, j1;
  int64_t od, oh, ow0;
};

int tile_runs(const gk_conv_args& a, int64_t p0, int64_t nt, Run* runs) {
  int count = 0;
  for (int64_t j = 0; j < nt;) {
    const int64_t p = p0 + j, ow = p % a.out[2], t = p / a.out[2];
    const int64_t len = std::min<int64_t>(a.out[2] - ow, nt - j);
    runs[count++] = {static_cast<int>(j), static_cast<int>(j + len), t / a.out[1], t % a.out[1], ow};
    j += len;
  }
  return count;
}

// Bp[kk][j] = X_col(k0 + kk, p0 + j) for one (image, group); zero in the padding.
template <typename Acc, typename T>
void pack_im2col(const T* x, const gk_conv_args& a, const Run* runs, int nruns, int64_t nt, int64_t k0, int kc,
                 Acc* bp) {
  using gk::cpu_gemm::kTile;
  const int64_t kv = a.k[0] * a.k[1] * a.k[2];
  int64_t c = k0 / kv, r = k0 % kv;
  int64_t kd = r / (a.k[1] * a.k[2]);
  r -= kd * a.k[1] * a.k[2];
  int64_t kh = r / a.k[2], kw = r % a.k[2];
  for (int kk = 0; kk < kc; ++kk) {
    Acc* dst = bp + kk * kTile;
    const int64_t wofs = kw * a.dil[2] - a.pad[2];
    // ow range whose input column ow * s + wofs lies in [0, in[2]).
    const int64_t ow_lo = floor_div(-wofs + a.s[2] - 1, a.s[2]);
    const int64_t ow_hi = floor_div(a.in[2] - 1 - wofs, a.s[2]);  // inclusive
    for (int ri = 0; ri < nruns; ++ri) {
      const Run& run = runs[ri];
      const int64_t id = run.od * a.s[0] - a.pad[0] + kd * a.dil[0];
      const int64_t ih = run.oh * a.s[1] - a.pad[1] + kh * a.dil[1];
      if (id < 0 || id >= a.in[0] || ih < 0 || ih >= a.in[1]) {
        for (int j = run.j0; j < run.j1; ++j) dst[j] = Acc(0);
        continue;
      }
      const T* row = x + ((c * a.in[0] + id) * a.in[1] + ih) * a.in[2];
      const int64_t jlo = std::clamp<int64_t>(ow_lo - run.ow0 + run.j0, run.j0, run.j1);
      const int64_t jhi = std::clamp<int64_t>(ow_hi - run.ow0 + run.j0 + 1, jlo, run.j1);
      for (int64_t j = run.j0; j < jlo; ++j) dst[j] = Acc(0);
      const T* src = row + (run.ow0 - run.j0) * a.s[2] + wofs;  // src[j * s] is column j
      if (a.s[2] == 1)
        for (int64_t j = jlo; j < jhi; ++j) dst[j] = static_cast<Acc>(src[j]);
      else
        for (int64_t j = jlo; j < jhi; ++j) dst[j] = static_cast<Acc>(src[j * a.s[2]]);
      for (int64_t j = jhi; j < run.j1; ++j) dst[j] = Acc(0);
    }
    for (int64_t j = nt; j < kTile; ++j) dst[j] = Acc(0);
    if (++kw == a.k[2]) {
      kw = 0;
      if (++kh == a.k[1]) {
        kh = 0;
        if (++kd == a.k[0]) {
          kd = 0;
          ++c;
        }
      }
    }
  }
}

}  // namespace

template <typename T>
void gk_conv(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb) {
  using Acc = typename gk_acc<T>::type;
  using namespace gk::cpu_gemm;
  const int64_t mtiles = (a.M + kTile - 1) / kTile, ptiles = (a.P + kTile - 1) / kTile;
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];
  alignas(64) Acc acc[kTile * kTile];
  Acc* ap = a_panel<Acc>(a.K);
  Run runs[kTile];
  for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z) {
    const int64_t n = z / a.group, g = z % a.group;
    const T* x = X + (n * a.C + g * a.Cg) * isz;
    const T* w = W + g * a.M * a.K;
    const T* bias = a.has_bias ? B + g * a.M : nullptr;
    for (int64_t mtile = blockIdx.y; mtile < mtiles; mtile += gridDim.y) {
      const int64_t m0 = mtile * kTile, mt = std::min<int64_t>(kTile, a.M - m0);
      pack_rows_to_panel(w + m0 * a.K, a.K, 1, mt, 0, a.K, ap);
      for (int64_t ptile = blockIdx.x; ptile < ptiles; ptile += gridDim.x) {
        const int64_t p0 = ptile * kTile, nt = std::min<int64_t>(kTile, a.P - p0);
        const int nruns = tile_runs(a, p0, nt, runs);
        gemm_tile<Acc>(
            mt, nt, a.K, ap, [&](int64_t k0, int kc, Acc* bp) { pack_im2col(x, a, runs, nruns, nt, k0, kc, bp); },
            acc);
        T* y = Y + (n * a.Cout + g * a.M) * a.P + p0;
        for (int64_t i = 0; i < mt; ++i)
          store_row(acc + i * kTile, nt, y + (m0 + i) * a.P, 1.0f, a.has_bias, bias ? bias + m0 + i : nullptr, 0,
                    1.0f, epi, ea, eb);
      }
    }
  }
}

// Rows of the output (image, channel, od, oh) per step; `n` (the element count the
// CUDA kernel loops over) is implied by the geometry.
template <typename T>
void gk_conv_depthwise(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb,
                       int64_t n) {
  using Acc = typename gk_acc<T>::type;
  constexpr int64_t kChunk = 256;
  const int64_t rows = n / a.out[2], isz = a.in[0] * a.in[1] * a.in[2];
  Acc acc[kChunk];
  GK_KERNEL_LOOP(row, rows) {
    const int64_t oh = row % a.out[1], t = row / a.out[1];
    const int64_t od = t % a.out[0], nc = t / a.out[0];
    const int64_t co = nc % a.Cout, img = nc / a.Cout;
    const T* x = X + (img * a.C + co / a.M) * isz;
    const T* w = W + co * a.k[0] * a.k[1] * a.k[2];
    T* y = Y + row * a.out[2];
    for (int64_t c0 = 0; c0 < a.out[2]; c0 += kChunk) {
      const int64_t c1 = std::min(a.out[2], c0 + kChunk);
      for (int64_t j = 0; j < c1 - c0; ++j) acc[j] = Acc(0);
      for (int64_t kd = 0; kd < a.k[0]; ++kd) {
        const int64_t id = od * a.s[0] - a.pad[0] + kd * a.dil[0];
        if (id < 0 || id >= a.in[0]) continue;
        for (int64_t kh = 0; kh < a.k[1]; ++kh) {
          const int64_t ih = oh * a.s[1] - a.pad[1] + kh * a.dil[1];
          if (ih < 0 || ih >= a.in[1]) continue;
          const T* xr = x + (id * a.in[1] + ih) * a.in[2];
          for (int64_t kw = 0; kw < a.k[2]; ++kw) {
            const Acc wv = static_cast<Acc>(w[(kd * a.k[1] + kh) * a.k[2] + kw]);
            const int64_t wofs = kw * a.dil[2] - a.pad[2];
            const int64_t lo = std::max(c0, floor_div(-wofs + a.s[2] - 1, a.s[2]));
            const int64_t hi = std::min(c1, floor_div(a.in[2] - 1 - wofs, a.s[2]) + 1);
            const T* src = xr + wofs;
            Acc* dst = acc - c0;
            if (a.s[2] == 1)
              for (int64_t ow = lo; ow < hi; ++ow) dst[ow] = gk_madd(static_cast<Acc>(src[ow]), wv, dst[ow]);
            else
              for (int64_t ow = lo; ow < hi; ++ow)
                dst[ow] = gk_madd(static_cast<Acc>(src[ow * a.s[2]]), wv, dst[ow]);
          }
        }
      }
      gk::cpu_gemm::store_row(acc, c1 - c0, y + c0, 1.0f, a.has_bias, a.has_bias ? B + co : nullptr, 0, 1.0f, epi, ea,
                              eb);
    }
  }
}

// Rows of the output (image * channel, od, oh) per step. Each tap (kd, kh, kw) that
// reaches the row adds its column run in one pass: the outputs it touches are every
// s-th pixel from the first one congruent to kw * dil - pad, so no pixel is
// divided or tested. Taps are added in ascending (kd, kh, kw) order, the CUDA
// kernel's order, so both backends round alike. With stride == kernel (the
// PaddleOCR detector's 2x2 upsampling) each pixel gets exactly one tap.
template <typename T>
void gk_col2im(const T* col, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb, int64_t n) {
  using Acc = typename gk_acc<T>::type;
  constexpr int64_t kChunk = 256;
  const int64_t rows = n / a.out[2], isz = a.in[0] * a.in[1] * a.in[2], kv = a.k[0] * a.k[1] * a.k[2];
  const int64_t s2 = a.s[2];
  Acc acc[kChunk];
  GK_KERNEL_LOOP(row, rows) {
    const int64_t oh = row % a.out[1], t = row / a.out[1];
    const int64_t od = t % a.out[0], co = t / a.out[0];
    T* y = Y + row * a.out[2];
    for (int64_t c0 = 0; c0 < a.out[2]; c0 += kChunk) {
      const int64_t c1 = std::min(a.out[2], c0 + kChunk);
      for (int64_t j = 0; j < c1 - c0; ++j) acc[j] = Acc(0);
      Acc* dst = acc - c0;  // dst[ow] for ow in [c0, c1)
      for (int64_t kd = 0; kd < a.k[0]; ++kd) {
        const int64_t td = od + a.pad[0] - kd * a.dil[0];
        if (td < 0 || td % a.s[0] != 0 || td / a.s[0] >= a.in[0]) continue;
        for (int64_t kh = 0; kh < a.k[1]; ++kh) {
          const int64_t th = oh + a.pad[1] - kh * a.dil[1];
          if (th < 0 || th % a.s[1] != 0 || th / a.s[1] >= a.in[1]) continue;
          const T* base = col + (co * kv + (kd * a.k[1] + kh) * a.k[2]) * isz +
                          ((td / a.s[0]) * a.in[1] + th / a.s[1]) * a.in[2];
          for (int64_t kw = 0; kw < a.k[2]; ++kw) {
            const T* src = base + kw * isz;
            const int64_t off = kw * a.dil[2] - a.pad[2];  // ow = off + iw * s2
            const int64_t lo = std::max(c0, off);
            int64_t iw = (lo - off + s2 - 1) / s2;
            const int64_t hi = std::min(c1, off + a.in[2] * s2);  // exclusive bound on ow
            int64_t ow = off + iw * s2;
            if (s2 == 1)
              for (; ow < hi; ++ow, ++iw) dst[ow] = dst[ow] + static_cast<Acc>(src[iw]);
            else
              for (; ow < hi; ow += s2, ++iw) dst[ow] = dst[ow] + static_cast<Acc>(src[iw]);
          }
        }
      }
      gk::cpu_gemm::store_row(acc, c1 - c0, y + c0, 1.0f, a.has_bias, a.has_bias ? B + co % a.Cout : nullptr, 0, 1.0f,
                              epi, ea, eb);
    }
  }
}

namespace gk::families {
namespace {

#define GK_CONV_KERNELS(T)                                \
  GK_CPU_KERNEL(kBlocks, gk_conv<T>),                     \
      GK_CPU_KERNEL(kRange, gk_conv_depthwise<T>),        \
      GK_CPU_KERNEL(kRange, gk_col2im<T>)

const CpuKernelEntry kConvKernels[] = {
    GK_CONV_KERNELS(float),
    GK_CONV_KERNELS(double),
    GK_CONV_KERNELS(gk_half),
    GK_CONV_KERNELS(gk_bf16),
};

}  // namespace

KernelFamily conv_kernels() { return {&kernel_sources::conv, kConvKernels}; }

}  // namespace gk::families

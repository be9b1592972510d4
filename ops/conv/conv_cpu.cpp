// CPU side of the conv kernel family. gk_conv's twin packs the im2col panel of
// its 64-pixel tile row by row (runs of one output row are contiguous input
// reads, zero-filled where they fall in the padding) and runs the shared register
// block (gemm_micro.h) on the weights where they lie (stride-1 2-D convs with wide
// rows read the kw taps as windows of packed input rows instead);
// gk_conv_depthwise's twin keeps 16-64 columns of a stride-1 output row in
// registers across all taps (depthwise_micro.h; other strides: one pass per tap,
// which measured faster for 3x3/2 than copying every s-th column per tap:
// 1.03 vs 1.62 ms on 96x112x112); gk_col2im's twin adds each tap's column run to
// whole output rows. All keep the CUDA kernels' per-element folding order.
#include "ops/common/isa_variant.h"
#include "ops/conv/depthwise_micro_abi.h"  // outside the ISA namespace: see its header

GK_ISA_BEGIN
#include "ops/common/gemm_block.h"
#include "ops/conv/depthwise_micro.h"
#include "ops/conv/conv.cuh"

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
// Returns how many rows read only padding, flagging them in pad_only[kk].
template <typename Acc, typename T>
int pack_im2col(const T* x, const gk_conv_args& a, const Run* runs, int nruns, int64_t nt, int64_t k0, int kc,
                Acc* bp, uint8_t* pad_only) {
  int pad_rows = 0;
  using gk::cpu_gemm::kTile;
  const int64_t kv = a.k[0] * a.k[1] * a.k[2];
  int64_t c = k0 / kv, r = k0 % kv;
  int64_t kd = r / (a.k[1] * a.k[2]);
  r -= kd * a.k[1] * a.k[2];
  int64_t kh = r / a.k[2], kw = r % a.k[2];
  for (int kk = 0; kk < kc; ++kk) {
    Acc* dst = bp + kk * kTile;
    bool reads_input = false;
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
      reads_input |= jhi > jlo;
      const T* src = row + (run.ow0 - run.j0) * a.s[2] + wofs;  // src[j * s] is column j
      if (a.s[2] == 1)
        for (int64_t j = jlo; j < jhi; ++j) dst[j] = static_cast<Acc>(src[j]);
      else if (a.s[2] == 2)  // a constant stride vectorises (permutes); a runtime one was 2 lanes at a time
        for (int64_t j = jlo; j < jhi; ++j) dst[j] = static_cast<Acc>(src[j * 2]);
      else
        for (int64_t j = jlo; j < jhi; ++j) dst[j] = static_cast<Acc>(src[j * a.s[2]]);
      for (int64_t j = jhi; j < run.j1; ++j) dst[j] = Acc(0);
    }
    for (int64_t j = nt; j < kTile; ++j) dst[j] = Acc(0);
    pad_only[kk] = !reads_input;
    pad_rows += !reads_input;
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
  return pad_rows;
}

// The row-window path (stride 1 along W, one depth slice): instead of a K x 64
// im2col panel, each output-row run packs its Cg * KH input rows once, `seg_w`
// wide with zeros in the padding, and the register block reads the KW taps as
// windows of the same packed row shifted by the dilation. For a 3x3 kernel that
// packs a third of the elements; the fold per output is still (c, kh, kw)
// ascending in blocks of 32 terms, so results are unchanged.
// Row windows compute whole NR-wide strips of one output row: on narrow rows most
// of a strip is waste (ResNet's 7x7 stage: 7 of 32 columns, 15 GFLOP/s), so those
// take the im2col panel, which packs 64 pixels across rows.
bool row_window_path(const gk_conv_args& a, int nr) {
  const int64_t strips = (a.out[2] + nr - 1) / nr;
  return gk_conv_row_window_geometry(a) && 4 * a.out[2] >= 3 * strips * nr;
}

// Register-block strips per output pixel of the row-window path with tiles of
// tile_px pixels: each run of a row in a tile takes ceil(len / nr) strips, a last
// one of at most nr / 2 columns the half-width block, which costs about 3/4 of a
// strip (its A broadcasts are the full block's). Counted over one period of the
// tiling (64 * OW pixels at most).
double window_strips_per_pixel(const gk_conv_args& a, int64_t tile_px, int nr) {
  const int64_t ow_n = a.out[2], span = std::min<int64_t>(a.P, gk::cpu_gemm::kTile * ow_n);
  double strips = 0;
  for (int64_t p0 = 0; p0 < span; p0 += tile_px)
    for (int64_t p = p0, end = std::min(span, p0 + tile_px); p < end;) {
      const int64_t len = std::min(ow_n - p % ow_n, end - p), rem = len % nr;
      strips += static_cast<double>(len / nr) + (rem == 0 ? 0.0 : 2 * rem <= nr ? 0.75 : 1.0);
      p += len;
    }
  return strips / static_cast<double>(span);
}

// Row stride of the window path's accumulator tile: a run's last strip may reach
// NR - 1 columns past the tile (the next run, in order, overwrites its own).
constexpr int64_t kWindowLd = gk::cpu_gemm::kTile + gk::cpu_gemm::kMaxNR;

// One tile of the output (its runs, mt rows) into acc (row stride kWindowLd),
// through the row-window path.
template <typename Acc, typename T>
void conv_tile_windows(const T* x, const gk_conv_args& a, const Run* runs, int nruns, int64_t mt,
                       const gk::cpu_gemm::AOperand<Acc>& ap, const gk::cpu_gemm::MicroKernel<Acc>& mk, Acc* acc) {
  using namespace gk::cpu_gemm;
  const int64_t kh_n = a.k[1], kw_n = a.k[2], rows = a.Cg * kh_n, reach = (kw_n - 1) * a.dil[2];
  thread_local std::vector<Acc> seg_buf;
  const int mstrips = static_cast<int>((mt + mk.mr - 1) / mk.mr);
  if (rows * kw_n == 0) std::fill(acc, acc + panel_rows(mt) * kWindowLd, Acc(0));  // an empty sum: no call stores
  for (int ri = 0; ri < nruns; ++ri) {
    const Run& run = runs[ri];
    const int64_t len = run.j1 - run.j0, nstrips = (len + mk.nr - 1) / mk.nr;
    const int64_t seg_w = nstrips * mk.nr + reach;
    if (seg_buf.size() < static_cast<size_t>(rows * seg_w)) seg_buf.resize(static_cast<size_t>(rows * seg_w));
    Acc* seg = seg_buf.data();
    // Packed column t is input column run.ow0 - pad + t.
    const int64_t iw0 = run.ow0 - a.pad[2];
    const int64_t t_lo = std::clamp<int64_t>(-iw0, 0, seg_w), t_hi = std::clamp<int64_t>(a.in[2] - iw0, t_lo, seg_w);
    for (int64_t c = 0; c < a.Cg; ++c)
      for (int64_t kh = 0; kh < kh_n; ++kh) {
        Acc* dst = seg + (c * kh_n + kh) * seg_w;
        const int64_t ih = run.oh * a.s[1] - a.pad[1] + kh * a.dil[1];
        if (ih < 0 || ih >= a.in[1]) {
          std::fill(dst, dst + seg_w, Acc(0));
          continue;
        }
        const T* src = x + (c * a.in[1] + ih) * a.in[2] + iw0;
        for (int64_t t = 0; t < t_lo; ++t) dst[t] = Acc(0);
        for (int64_t t = t_lo; t < t_hi; ++t) dst[t] = static_cast<Acc>(src[t]);
        for (int64_t t = t_hi; t < seg_w; ++t) dst[t] = Acc(0);
      }
    for (int64_t js = 0; js < nstrips; ++js)
      for (int is = 0; is < mstrips; ++is) {
        MicroArgs<Acc> m{rows, kw_n, a.dil[2], nullptr, 0, 0, seg + js * mk.nr, seg_w,
                         acc + is * mk.mr * kWindowLd + run.j0 + js * mk.nr, kWindowLd, true};
        void (*run_fn)(const MicroArgs<Acc>&);
        a_strip(ap, mk, is, mstrips, 0, len - js * mk.nr, m, &run_fn);
        run_fn(m);
      }
  }
}

}  // namespace

template <typename T>
void gk_conv(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb) {
  using Acc = typename gk_acc<T>::type;
  using namespace gk::cpu_gemm;
  const int64_t chunks = row_chunks(a.M);
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];
  Acc* acc = acc_tile<Acc>(kMaxPanelRows * kWindowLd);
  Run runs[kTile];
  const MicroKernel<Acc> mk = micro_kernel<Acc>();
  const bool windows = row_window_path(a, mk.nr);
  // Row-window tiles hold whole output rows where a row fits the tile and that
  // needs no more strips: a 64-pixel tile over 14-wide rows cut runs of 8, 6 and 2
  // pixels, each a strip of its own (ResNet-50's 14x14 stage), but one 33-wide
  // row per tile wastes more (DeepLabV3's 33x33 ASPP) than runs of 33 and 31.
  int64_t tile_px = kTile;
  if (windows && a.out[2] <= kTile) {
    const int64_t rows_px = kTile / a.out[2] * a.out[2];
    if (window_strips_per_pixel(a, rows_px, mk.nr) <= window_strips_per_pixel(a, kTile, mk.nr)) tile_px = rows_px;
  }
  const int64_t ptiles = (a.P + tile_px - 1) / tile_px;
  for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z) {
    const int64_t n = z / a.group, g = z % a.group;
    const T* x = X + (n * a.C + g * a.Cg) * isz;
    const T* w = W + g * a.M * a.K;
    const T* bias = a.has_bias ? B + g * a.M : nullptr;
    for (int64_t ci = 0; ci < chunks; ++ci) {
      const auto [m0, mt] = row_chunk(a.M, ci);
      const AOperand<Acc> ap = a_operand<Acc>(w + m0 * a.K, a.K, 1, mt, a.K, mk.mr, windows);
      for (int64_t ptile = blockIdx.x; ptile < ptiles; ptile += gridDim.x) {
        const int64_t p0 = ptile * tile_px, nt = std::min<int64_t>(tile_px, a.P - p0);
        const int nruns = tile_runs(a, p0, nt, runs);
        // Where W is a constant with no Inf or NaN (a.finite_w), the tile's taps
        // that read only padding are left out of its sums (the live-term blocks,
        // same bits): DeepLabV3's ASPP convs, dilation 12/24/36 on 33x33, spent
        // 140 of 205 ms multiplying padding.
        auto pack_live = [&](int64_t k0, int kc, Acc* bp, int16_t* live) -> int {
          uint8_t pad_only[kKc];
          if (pack_im2col(x, a, runs, nruns, nt, k0, kc, bp, pad_only) == 0 || !a.finite_w) return kc;
          int n = 0;
          for (int kk = 0; kk < kc; ++kk)
            if (!pad_only[kk]) live[n++] = static_cast<int16_t>(kk);
          return n;
        };
        if (windows) conv_tile_windows(x, a, runs, nruns, mt, ap, mk, acc);
        else gemm_tile<Acc>(mt, nt, a.K, ap, mk, pack_live, acc);
        T* y = Y + (n * a.Cout + g * a.M) * a.P + p0;
        const int64_t ld = windows ? kWindowLd : kTile;
        for (int64_t i = 0; i < mt; ++i)
          store_row(acc + i * ld, nt, y + (m0 + i) * a.P, 1.0f, a.has_bias, bias ? bias + m0 + i : nullptr, 0,
                    1.0f, epi, ea, eb);
      }
    }
  }
}

using gk::cpu_conv::kMaxDepthwiseRows;

// Output columns [c0, c1) of one depthwise row, stride 1 or 2, into acc; false
// (nothing written) when a weight of the row is not finite. The input rows the taps
// read are copied once into zero-padded segments (at stride 2 split into even and
// odd columns, DepthwiseRows), and 64 or 16 columns at a time keep
// their sums in registers across all taps, each folding (kd, kh, kw) ascending as
// the CUDA kernel does. That kernel skips taps outside the input; here they add
// x = 0: the same sums, since 0 * w is a signed zero for a finite w and a sum that
// starts at +0 is never -0. (0 * inf is NaN: such rows take the per-tap path.)
template <typename Acc, typename T>
bool depthwise_row(const T* x, const T* w, const gk_conv_args& a, int64_t od, int64_t oh, int64_t c0, int64_t c1,
                   Acc* acc) {
  const gk::cpu_conv::DepthwiseKernel<Acc, T> dk = gk::cpu_conv::depthwise_kernel<Acc, T>();
  const int64_t kw_n = a.k[2], dil = a.dil[2], reach = (kw_n - 1) * dil, stride = a.s[2];
  const int64_t width = c1 - c0, padded = (width + dk.narrow - 1) / dk.narrow * dk.narrow;
  // Stride 1: one segment of input columns; stride 2: its even and odd halves.
  const int64_t seg_w = stride == 1 ? padded + reach : padded + (reach >> 1) + 1;
  const T* src_rows[kMaxDepthwiseRows];  // caller: k[0] * k[1] <= kMaxDepthwiseRows
  gk::cpu_conv::DepthwiseRows<Acc, T> d{};
  d.kw_n = kw_n, d.dil = dil, d.stride = stride;
  for (int64_t kd = 0; kd < a.k[0]; ++kd) {
    const int64_t id = od * a.s[0] - a.pad[0] + kd * a.dil[0];
    if (id < 0 || id >= a.in[0]) continue;
    for (int64_t kh = 0; kh < a.k[1]; ++kh) {
      const int64_t ih = oh * a.s[1] - a.pad[1] + kh * a.dil[1];
      if (ih < 0 || ih >= a.in[1]) continue;
      src_rows[d.nrows] = x + (id * a.in[1] + ih) * a.in[2];
      d.taps[d.nrows] = (kd * a.k[1] + kh) * kw_n;
      d.wrows[d.nrows] = w + d.taps[d.nrows];
      for (int64_t kw = 0; kw < kw_n; ++kw)
        if (!std::isfinite(static_cast<double>(static_cast<Acc>(d.wrows[d.nrows][kw])))) return false;
      ++d.nrows;
    }
  }
  thread_local std::vector<Acc> seg_buf;
  const size_t need = static_cast<size_t>(d.nrows * stride * seg_w);
  if (seg_buf.size() < need) seg_buf.resize(need);
  if (stride == 1) {
    // Segment column t is input column c0 - pad + t.
    const int64_t iw0 = c0 - a.pad[2];
    const int64_t t_lo = std::clamp<int64_t>(-iw0, 0, seg_w), t_hi = std::clamp<int64_t>(a.in[2] - iw0, t_lo, seg_w);
    for (int r = 0; r < d.nrows; ++r) {
      Acc* dst = seg_buf.data() + r * seg_w;
      for (int64_t t = 0; t < t_lo; ++t) dst[t] = Acc(0);
      for (int64_t t = t_lo; t < t_hi; ++t) dst[t] = static_cast<Acc>(src_rows[r][iw0 + t]);
      for (int64_t t = t_hi; t < seg_w; ++t) dst[t] = Acc(0);
      d.rows[r] = dst;
    }
  } else {
    // Segment column t is input column iw0 + 2t (even) and iw0 + 2t + 1 (odd);
    // pairs [t_lo, t_hi) lie wholly inside the input and split in vectors.
    const int64_t iw0 = 2 * c0 - a.pad[2], in_w = a.in[2];
    const int64_t t_lo = std::clamp<int64_t>((-iw0 + 1) / 2, 0, seg_w);
    const int64_t t_hi = std::clamp<int64_t>(floor_div(in_w - iw0, 2), t_lo, seg_w);
    auto at = [&](const T* row, int64_t i) { return i >= 0 && i < in_w ? static_cast<Acc>(row[i]) : Acc(0); };
    for (int r = 0; r < d.nrows; ++r) {
      Acc* even = seg_buf.data() + 2 * r * seg_w;
      Acc* odd = even + seg_w;
      const T* row = src_rows[r];
      for (int64_t t = 0; t < t_lo; ++t) even[t] = at(row, iw0 + 2 * t), odd[t] = at(row, iw0 + 2 * t + 1);
      if constexpr (std::is_same_v<T, float> && std::is_same_v<Acc, float>) {
        if (t_hi > t_lo) gk::cpu_conv::deinterleave_f32()(row + iw0 + 2 * t_lo, t_hi - t_lo, even + t_lo, odd + t_lo);
      } else {
        for (int64_t t = t_lo; t < t_hi; ++t) even[t] = at(row, iw0 + 2 * t), odd[t] = at(row, iw0 + 2 * t + 1);
      }
      for (int64_t t = t_hi; t < seg_w; ++t) even[t] = at(row, iw0 + 2 * t), odd[t] = at(row, iw0 + 2 * t + 1);
      d.rows[r] = even;
      d.odd[r] = odd;
    }
  }
  int64_t j = 0;
  for (; j + dk.wide <= width; j += dk.wide) dk.run[3](d, j, acc + j);
  if (j < width) {  // one call for the rest; the segment's zero tail makes whole vectors readable
    const int64_t v = (width - j + dk.narrow - 1) / dk.narrow;
    Acc tail[64];
    dk.run[v - 1](d, j, tail);
    for (int64_t t = j; t < width; ++t) acc[t] = tail[t - j];
  }
  return true;
}

// Channels [co0, co0 + 16) of image `img`, every output pixel, channels-last
// (depthwise_micro.h); false (nothing written) when a weight is not finite.
inline bool depthwise_channel_block(const float* X, const float* W, const float* B, float* Y, const gk_conv_args& a,
                                    int64_t img, int64_t co0, int32_t epi, float ea, float eb) {
  using gk::cpu_conv::kDepthwiseLanes;
  constexpr int L = kDepthwiseLanes;
  const int64_t H = a.in[1], Wd = a.in[2], KH = a.k[1], KW = a.k[2], OH = a.out[1], OW = a.out[2];
  const int64_t taps = KH * KW, hp = (OH - 1) * a.s[1] + (KH - 1) * a.dil[1] + 1,
                wp = (OW - 1) * a.s[2] + (KW - 1) * a.dil[2] + 1;
  thread_local std::vector<float> wbuf, xbuf, ybuf;
  wbuf.resize(static_cast<size_t>(taps * L));
  xbuf.assign(static_cast<size_t>(hp * wp * L), 0.0f);
  ybuf.resize(static_cast<size_t>(OH * OW * L));
  for (int c = 0; c < L; ++c)
    for (int64_t t = 0; t < taps; ++t) {
      const float v = W[(co0 + c) * taps + t];
      if (!std::isfinite(v)) return false;
      wbuf[t * L + c] = v;
    }
  for (int c = 0; c < L; ++c) {
    const float* xin = X + (img * a.C + co0 + c) * H * Wd;
    for (int64_t r = 0; r < hp; ++r) {
      const int64_t ih = r - a.pad[1];
      if (ih < 0 || ih >= H) continue;
      const int64_t q_lo = std::clamp<int64_t>(a.pad[2], 0, wp), q_hi = std::clamp<int64_t>(Wd + a.pad[2], q_lo, wp);
      for (int64_t q = q_lo; q < q_hi; ++q) xbuf[(r * wp + q) * L + c] = xin[ih * Wd + q - a.pad[2]];
    }
  }
  const gk::cpu_conv::DepthwiseChannels d{xbuf.data(), wp, wbuf.data(), KH, KW, a.dil[1], a.dil[2], a.s[1], a.s[2],
                                          OH, OW, ybuf.data()};
  gk::cpu_conv::depthwise_channels_f32()(d);
  float row[16];
  for (int c = 0; c < L; ++c)
    for (int64_t oh = 0; oh < OH; ++oh) {
      for (int64_t ow = 0; ow < OW; ++ow) row[ow] = ybuf[(oh * OW + ow) * L + c];
      gk::cpu_gemm::store_row(row, OW, Y + ((img * a.Cout + co0 + c) * OH + oh) * OW, 1.0f, a.has_bias,
                              a.has_bias ? B + co0 + c : nullptr, 0, 1.0f, epi, ea, eb);
    }
  return true;
}

// Output rows [oh_a, oh_b) of plane `nc` (image * Cout + channel) through the plane
// kernel (depthwise_micro.h, DepthwisePlane); false (nothing written) when a weight
// is not finite, as depthwise_row.
inline bool depthwise_plane_rows(const float* X, const float* W, const float* B, float* Y, const gk_conv_args& a,
                                 const gk::cpu_conv::DepthwisePlaneKernel& pk, int64_t nc, int64_t oh_a,
                                 int64_t oh_b, int32_t epi, float ea, float eb) {
  const int64_t co = nc % a.Cout, KH = a.k[1], KW = a.k[2], taps = KH * KW;
  const float* w = W + co * taps;
  for (int64_t t = 0; t < taps; ++t)
    if (!std::isfinite(w[t])) return false;
  const int64_t H = a.in[1], Wd = a.in[2], OW = a.out[2], sw = a.s[2];
  const int64_t vecs = (OW + pk.lanes - 1) / pk.lanes, reach = (KW - 1) * a.dil[2];
  // Padded column c is input column c - pad; stride 2 keeps columns 2t and 2t + 1 apart.
  const int64_t ld = sw == 1 ? vecs * pk.lanes + reach : vecs * pk.lanes + (reach >> 1) + 1;
  const int64_t prow0 = oh_a * a.s[1] - a.pad[1];  // input row of plane row 0
  const int64_t prows = (oh_b - 1 - oh_a) * a.s[1] + (KH - 1) * a.dil[1] + 1;
  thread_local std::vector<float> plane, line, sums;
  plane.resize(static_cast<size_t>(prows * ld * sw));
  sums.resize(static_cast<size_t>((oh_b - oh_a) * vecs * pk.lanes));
  const float* x = X + (nc / a.Cout * a.C + co / a.M) * H * Wd;
  const int64_t wide = ld * sw;  // padded columns one plane row holds
  const int64_t q_lo = std::clamp<int64_t>(a.pad[2], 0, wide), q_hi = std::clamp<int64_t>(Wd + a.pad[2], q_lo, wide);
  if (sw == 2) line.resize(static_cast<size_t>(wide));
  for (int64_t r = 0; r < prows; ++r) {
    const int64_t ih = prow0 + r;
    float* dst = sw == 1 ? plane.data() + r * ld : line.data();
    if (ih < 0 || ih >= H) {
      std::fill(dst, dst + wide, 0.0f);
    } else {
      std::fill(dst, dst + q_lo, 0.0f);
      std::copy(x + ih * Wd + (q_lo - a.pad[2]), x + ih * Wd + (q_hi - a.pad[2]), dst + q_lo);
      std::fill(dst + q_hi, dst + wide, 0.0f);
    }
    if (sw == 2) {
      float* even = plane.data() + r * ld;
      gk::cpu_conv::deinterleave_f32()(dst, ld, even, even + prows * ld);
    }
  }
  const gk::cpu_conv::DepthwisePlane d{plane.data(), plane.data() + prows * ld, ld, w, KH, KW, a.dil[1], a.dil[2],
                                       a.s[1], sw, oh_b - oh_a, vecs, sums.data(), vecs * pk.lanes};
  pk.run(d);
  // The output rows are contiguous in Y: one epilogue pass over all of them (row
  // by row, a 7-wide row ran its SiLU in the scalar remainder loop).
  float* sp = sums.data();
  for (int64_t r = 1; r < oh_b - oh_a; ++r) std::memmove(sp + r * OW, sp + r * d.ldy, sizeof(float) * OW);
  gk::cpu_gemm::store_row(sp, (oh_b - oh_a) * OW, Y + (nc * a.out[1] + oh_a) * OW, 1.0f, a.has_bias,
                          a.has_bias ? B + co : nullptr, 0, 1.0f, epi, ea, eb);
  return true;
}

// Rows of the output (image, channel, od, oh) per step; `n` (the element count the
// CUDA kernel loops over) is implied by the geometry. f32 2-D convs with stride 1 or
// 2 along W take whole planes of the worker's rows; without a vector ISA, f32 images
// at most 16 wide take 16 whole channels at a time channels-last.
template <typename T>
void gk_conv_depthwise(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb,
                       int64_t n) {
  using Acc = typename gk_acc<T>::type;
  constexpr int64_t kChunk = 256;
  const int64_t rows = n / a.out[2], isz = a.in[0] * a.in[1] * a.in[2];
  const int64_t channel_rows = a.out[0] * a.out[1];
  // Planes: 2-D, stride 1 or 2 along W (depthwise_plane_rows). They measured faster
  // than the channels-last blocks even on narrow images (1 thread, AVX-512, with
  // SiLU: 672x14x14 5x5 0.37 vs 0.78 ms, 480x14x14 3x3 0.23 vs 0.50, 1152x7x7 3x3
  // 0.25 vs 0.39), which keep the other strides.
  gk::cpu_conv::DepthwisePlaneKernel pk{};
  if constexpr (std::is_same_v<T, float>)
    if (a.k[0] == 1 && a.in[0] == 1 && a.out[0] == 1 && (a.s[2] == 1 || a.s[2] == 2))
      pk = gk::cpu_conv::depthwise_plane_f32();
  const bool channel_blocks = std::is_same_v<T, float> && !pk.run && a.out[2] <= 16 && a.M == 1 && a.k[0] == 1 &&
                              a.in[0] == 1 && a.out[0] == 1;
  // Stride 2 by rows where it measured faster than the per-tap loop (1 thread,
  // AVX-512): 5x5 taps (72x80x80: 0.83 -> 0.57 ms; 144x56x56: 1.0 -> 0.64 ms) and
  // 3x3 rows of 64 or more (64x160x160: 0.80 -> 0.67 ms); 3x3 rows of 56 measured
  // slower (96x112x112: 0.66 -> 0.71 ms).
  const bool by_rows = a.k[0] * a.k[1] <= kMaxDepthwiseRows &&
                       (a.s[2] == 1 || (a.s[2] == 2 && (a.k[2] >= 5 || a.out[2] >= 64)));
  Acc acc[kChunk], blk[kChunk];
  for (int64_t row = gk_part_begin(rows), end = gk_part_end(rows); row < end; ++row) {
    if constexpr (std::is_same_v<T, float>) {
      if (pk.run) {
        const int64_t oh_a = row % a.out[1], oh_b = std::min(a.out[1], oh_a + (end - row));
        if (depthwise_plane_rows(X, W, B, Y, a, pk, row / a.out[1], oh_a, oh_b, epi, ea, eb)) {
          row += oh_b - oh_a - 1;
          continue;
        }
      }
      if (channel_blocks && row % channel_rows == 0) {
        const int64_t nc = row / channel_rows, co = nc % a.Cout;
        if (co + gk::cpu_conv::kDepthwiseLanes <= a.Cout && row + gk::cpu_conv::kDepthwiseLanes * channel_rows <= end &&
            depthwise_channel_block(X, W, B, Y, a, nc / a.Cout, co, epi, ea, eb)) {
          row += gk::cpu_conv::kDepthwiseLanes * channel_rows - 1;
          continue;
        }
      }
    }
    const int64_t oh = row % a.out[1], t = row / a.out[1];
    const int64_t od = t % a.out[0], nc = t / a.out[0];
    const int64_t co = nc % a.Cout, img = nc / a.Cout;
    const T* x = X + (img * a.C + co / a.M) * isz;
    const T* w = W + co * a.k[0] * a.k[1] * a.k[2];
    T* y = Y + row * a.out[2];
    for (int64_t c0 = 0; c0 < a.out[2]; c0 += kChunk) {
      const int64_t c1 = std::min(a.out[2], c0 + kChunk);
      if (by_rows && depthwise_row(x, w, a, od, oh, c0, c1, acc)) {
        gk::cpu_gemm::store_row(acc, c1 - c0, y + c0, 1.0f, a.has_bias, a.has_bias ? B + co : nullptr, 0, 1.0f, epi,
                                ea, eb);
        continue;
      }
      // Per tap, in blocks of GK_GEMM_KBLOCK tap indices (blk), each added in order to acc.
      for (int64_t j = 0; j < c1 - c0; ++j) acc[j] = blk[j] = Acc(0);
      int64_t block = 0;
      for (int64_t kd = 0; kd < a.k[0]; ++kd) {
        const int64_t id = od * a.s[0] - a.pad[0] + kd * a.dil[0];
        if (id < 0 || id >= a.in[0]) continue;
        for (int64_t kh = 0; kh < a.k[1]; ++kh) {
          const int64_t ih = oh * a.s[1] - a.pad[1] + kh * a.dil[1];
          if (ih < 0 || ih >= a.in[1]) continue;
          const T* xr = x + (id * a.in[1] + ih) * a.in[2];
          for (int64_t kw = 0; kw < a.k[2]; ++kw) {
            const int64_t tap = (kd * a.k[1] + kh) * a.k[2] + kw;
            if (tap / GK_GEMM_KBLOCK != block) {
              for (int64_t j = 0; j < c1 - c0; ++j) acc[j] = gk_wrap_add(acc[j], blk[j]), blk[j] = Acc(0);
              block = tap / GK_GEMM_KBLOCK;
            }
            const Acc wv = static_cast<Acc>(w[tap]);
            const int64_t wofs = kw * a.dil[2] - a.pad[2];
            // Two integer divisions per tap cost more than a short row's FMAs: stride 1 needs none.
            const int64_t lo = std::max(c0, a.s[2] == 1 ? -wofs : floor_div(-wofs + a.s[2] - 1, a.s[2]));
            const int64_t hi = std::min(c1, a.s[2] == 1 ? a.in[2] - wofs : floor_div(a.in[2] - 1 - wofs, a.s[2]) + 1);
            const T* src = xr + wofs;
            // blk[ow - c0] for ow in [c0, c1): the chunk's base is not moved below
            // the array (pointer arithmetic out of bounds is undefined; UBSan).
            if (a.s[2] == 1)
              for (int64_t ow = lo; ow < hi; ++ow)
                blk[ow - c0] = gk_madd(static_cast<Acc>(src[ow]), wv, blk[ow - c0]);
            else if (a.s[2] == 2)  // a constant stride vectorises
              for (int64_t ow = lo; ow < hi; ++ow)
                blk[ow - c0] = gk_madd(static_cast<Acc>(src[ow * 2]), wv, blk[ow - c0]);
            else
              for (int64_t ow = lo; ow < hi; ++ow)
                blk[ow - c0] = gk_madd(static_cast<Acc>(src[ow * a.s[2]]), wv, blk[ow - c0]);
          }
        }
      }
      for (int64_t j = 0; j < c1 - c0; ++j) acc[j] = gk_wrap_add(acc[j], blk[j]);
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
      // acc[ow - c0] for ow in [c0, c1) (not a base moved below the array: UBSan).
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
              for (; ow < hi; ++ow, ++iw) acc[ow - c0] = acc[ow - c0] + static_cast<Acc>(src[iw]);
            else
              for (; ow < hi; ow += s2, ++iw) acc[ow - c0] = acc[ow - c0] + static_cast<Acc>(src[iw]);
          }
        }
      }
      gk::cpu_gemm::store_row(acc, c1 - c0, y + c0, 1.0f, a.has_bias, a.has_bias ? B + co % a.Cout : nullptr, 0, 1.0f,
                              epi, ea, eb);
    }
  }
}

namespace {

#define GK_CONV_KERNELS(T)                                \
  GK_CPU_KERNEL(kBlocks, gk_conv<T>),                     \
      GK_CPU_KERNEL(kRange, gk_conv_depthwise<T>),        \
      GK_CPU_KERNEL(kRange, gk_col2im<T>)

const ::gk::CpuKernelEntry kConvKernels[] = {
    GK_CONV_KERNELS(float),
    GK_CONV_KERNELS(double),
    GK_CONV_KERNELS(gk_half),
    GK_CONV_KERNELS(gk_bf16),
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(conv, kConvKernels)

// CPU side of the pool kernel family. gk_maxpool and gk_avgpool walk whole output
// rows: the row's (image, channel, od, oh) is decoded once and its valid kd/kh taps
// found once, and each output column takes the kw taps inside the input without a
// test per tap (the CUDA kernels decode every element: six divisions, which cost
// more than a 3x2 window's adds, 0.65 ms of the PaddleOCR recogniser's 26 ms). The
// taps fold in the CUDA kernels' (kd, kh, kw) order. The other kernels are shared.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/pool/pool.cuh"

namespace {

// One output row's geometry: the (kd, kh) taps inside the input and, per output
// column, the kw range inside it.
struct PoolRow {
  int64_t nc, od, oh, d0, h0;
  int64_t dh[64][2];  // (id, ih) of each valid (kd, kh) tap, in ascending order
  int ndh = 0;
  bool fits = true;   // false: more than 64 (kd, kh) taps; take the per-element path
};

inline PoolRow pool_row(const gk_pool_args& a, int64_t row) {
  PoolRow r;
  r.oh = row % a.out[1];
  const int64_t t = row / a.out[1];
  r.od = t % a.out[0];
  r.nc = t / a.out[0];
  r.d0 = r.od * a.s[0] - a.pad[0];
  r.h0 = r.oh * a.s[1] - a.pad[1];
  for (int64_t kd = 0; kd < a.k[0]; ++kd) {
    const int64_t id = r.d0 + kd * a.dil[0];
    if (id < 0 || id >= a.in[0]) continue;
    for (int64_t kh = 0; kh < a.k[1]; ++kh) {
      const int64_t ih = r.h0 + kh * a.dil[1];
      if (ih < 0 || ih >= a.in[1]) continue;
      if (r.ndh == 64) {
        r.fits = false;
        return r;
      }
      r.dh[r.ndh][0] = id;
      r.dh[r.ndh++][1] = ih;
    }
  }
  return r;
}

// kw taps of column start w0 that land inside [0, in): [lo, hi).
inline void kw_range(const gk_pool_args& a, int64_t w0, int64_t* lo, int64_t* hi) {
  const int64_t dil = a.dil[2];
  if (dil == 1) {  // no division: it would cost more than a small window's taps
    *lo = std::max<int64_t>(0, -w0);
    *hi = std::max(*lo, std::min<int64_t>(a.k[2], a.in[2] - w0));
    return;
  }
  *lo = w0 >= 0 ? 0 : (-w0 + dil - 1) / dil;
  const int64_t last = a.in[2] - 1 - w0;  // kw * dil <= last
  *hi = last < 0 ? 0 : std::min<int64_t>(a.k[2], last / dil + 1);
  if (*hi < *lo) *hi = *lo;
}

}  // namespace

template <typename T>
void gk_maxpool(const T* X, T* Y, int64_t* I, gk_pool_args a, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];
  GK_KERNEL_LOOP(row, n / a.out[2]) {
    const PoolRow r = pool_row(a, row);
    const T* x = X + r.nc * isz;
    if (!I && r.fits) {
      // Values only (the common case): no index bookkeeping, and `v > best ? v :
      // best` from the first valid tap on is the fold below (a NaN is kept only when
      // it comes first), which compiles to maxss. ResNet-18's 3x3/2 MaxPool: 3.7 ms.
      for (int64_t ow = 0; ow < a.out[2]; ++ow) {
        const int64_t w0 = ow * a.s[2] - a.pad[2];
        int64_t lo, hi;
        kw_range(a, w0, &lo, &hi);
        Acc best = (Acc)gk_limits<T>::lowest();
        if (r.ndh > 0 && lo < hi) best = (Acc)x[(r.dh[0][0] * a.in[1] + r.dh[0][1]) * a.in[2] + w0 + lo * a.dil[2]];
        for (int j = 0; j < r.ndh; ++j) {
          const T* xr = x + (r.dh[j][0] * a.in[1] + r.dh[j][1]) * a.in[2] + w0;
          for (int64_t kw = lo; kw < hi; ++kw) {
            const Acc v = (Acc)xr[kw * a.dil[2]];
            best = v > best ? v : best;
          }
        }
        Y[row * a.out[2] + ow] = (T)best;
      }
      continue;
    }
    for (int64_t ow = 0; ow < a.out[2]; ++ow) {
      const int64_t w0 = ow * a.s[2] - a.pad[2];
      Acc best = (Acc)gk_limits<T>::lowest();
      int64_t arg = -1;
      if (r.fits) {
        int64_t lo, hi;
        kw_range(a, w0, &lo, &hi);
        for (int j = 0; j < r.ndh; ++j)
          for (int64_t kw = lo; kw < hi; ++kw)
            gk_pool_take_max(a, x, r.dh[j][0], r.dh[j][1], w0 + kw * a.dil[2], best, arg);
      } else {
        const int64_t d0 = r.d0, h0 = r.h0;
        GK_POOL_WINDOW(a, { gk_pool_take_max(a, x, id, ih, iw, best, arg); })
      }
      const int64_t i = row * a.out[2] + ow;
      Y[i] = (T)best;
      if (I) I[i] = arg < 0 ? -1 : r.nc * isz + arg;
    }
  }
}

template <typename T>
void gk_avgpool(const T* X, T* Y, gk_pool_args a, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];
  GK_KERNEL_LOOP(row, n / a.out[2]) {
    const PoolRow r = pool_row(a, row);
    const T* x = X + r.nc * isz;
    // count_include_pad: taps inside the padded input along d and h, per row.
    const int64_t pad_dh =
        a.count_include_pad ? gk_pool_padded_taps(a, 0, r.d0) * gk_pool_padded_taps(a, 1, r.h0) : 1;
    for (int64_t ow = 0; ow < a.out[2]; ++ow) {
      const int64_t w0 = ow * a.s[2] - a.pad[2];
      gk_bsum<Acc> sum;  // the taps in the CUDA kernel's order, blocked alike
      sum.init();
      int64_t count = 0;
      if (r.fits) {
        int64_t lo, hi;
        kw_range(a, w0, &lo, &hi);
        for (int j = 0; j < r.ndh; ++j) {
          const T* xr = x + (r.dh[j][0] * a.in[1] + r.dh[j][1]) * a.in[2] + w0;
          for (int64_t kw = lo; kw < hi; ++kw) sum.add((Acc)xr[kw * a.dil[2]]);
        }
        count = r.ndh * (hi - lo);
      } else {
        const int64_t d0 = r.d0, h0 = r.h0;
        GK_POOL_WINDOW(a, {
          sum.add((Acc)x[(id * a.in[1] + ih) * a.in[2] + iw]);
          ++count;
        })
      }
      if (a.count_include_pad) count = pad_dh * gk_pool_padded_taps(a, 2, w0);
      Y[row * a.out[2] + ow] = (T)(count > 0 ? sum.result() / (Acc)count : (Acc)0);
    }
  }
}

namespace {

#define GK_POOL_FLOAT_KERNELS(T)                                                           \
  GK_CPU_KERNEL(kRange, gk_maxpool<T>), GK_CPU_KERNEL(kRange, gk_avgpool<T>),              \
      GK_CPU_KERNEL(kRange, gk_lppool<T>), GK_CPU_KERNEL(kRange, gk_global_pool<T>),       \
      GK_CPU_KERNEL(kRange, gk_pool_zero<T>), GK_CPU_KERNEL(kRange, gk_maxunpool<T>)

const ::gk::CpuKernelEntry kPoolKernels[] = {
    GK_POOL_FLOAT_KERNELS(float),
    GK_POOL_FLOAT_KERNELS(double),
    GK_POOL_FLOAT_KERNELS(gk_half),
    GK_POOL_FLOAT_KERNELS(gk_bf16),
    GK_CPU_KERNEL(kRange, gk_maxpool<int8_t>),
    GK_CPU_KERNEL(kRange, gk_maxpool<uint8_t>),
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(pool, kPoolKernels)

// Quantization kernels: QuantizeLinear / DequantizeLinear (per-tensor, per-axis and
// blocked scales; integer, float8, float4 and packed 4-/2-bit integer types),
// DynamicQuantizeLinear's min/max and parameters, and the integer matmul/conv
// pieces (operand widening to int32 minus the zero point, im2col, requantization).
// The storage-only element types and their conversions come from the Cast family
// (ops/cast/cast.cuh, backends/minifloat.cuh).
#pragma once
#include "backends/kernel_prelude.cuh"
#include "backends/minifloat.cuh"
#include "ops/cast/cast.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/math.cuh"
#include "ops/common/rows.cuh"

// Where element i's scale and zero point live. x is seen as [outer, dim, inner]
// around the quantization axis; per-axis parameters are indexed by the axis
// position, blocked ones ([outer, sdim, inner]) by position / block.
#define GK_Q_TENSOR 0
#define GK_Q_AXIS 1
#define GK_Q_BLOCKED 2
struct gk_qlayout {
  int64_t inner;
  int64_t dim;
  int64_t block;
  int64_t sdim;
  int32_t scale_mode;  // GK_Q_*
  int32_t zp_mode;     // GK_Q_* (a one-element zero point is per-tensor)
  int32_t narrow;      // precision f16 (1) / bf16 (2): values rounded to it after each step
  int32_t cast_mode;   // Cast's mode word: saturate for float8 outputs
};

static GK_FN int64_t gk_q_index(const gk_qlayout& l, int32_t mode, int64_t i) {
  if (mode == GK_Q_TENSOR) return 0;
  const int64_t r = i / l.inner;
  if (mode == GK_Q_AXIS) return r % l.dim;
  const int64_t o = r / l.dim, d = r - o * l.dim;
  return (o * l.sdim + d / l.block) * l.inner + (i - r * l.inner);
}

// Element i of any quantized or float type as A (float or double): packed 4-/2-bit
// integers and float4, float8/e8m0 decoded exactly, the rest converted.
template <typename A, typename X>
static GK_FN A gk_q_load(const X* p, int64_t i) {
  if constexpr (gk_packed<X>::kPer > 1) return (A)gk_load_packed<float, X>(p, i, GK_CAST_SATURATE);
  else if constexpr (gk_is_minifloat<X>::value) return (A)gk_mf_decode(p[i]);
  else if constexpr (gk_is_narrow_float<X>::value) return (A)(float)p[i];
  else return (A)p[i];
}

// QuantizeLinear's `precision` (or the promoted type of x and scale) when it is
// f16/bf16: the division runs in float, whose 24 bits make the rounded result that
// of a division in the narrow type (p' >= 2p + 2).
static GK_FN float gk_q_narrow(float v, int32_t narrow) {
  if (narrow == 1) return (float)gk_half(v);
  if (narrow == 2) return (float)gk_bf16(v);
  return v;
}
static GK_FN double gk_q_narrow(double v, int32_t) { return v; }

// The integer range of a quantized integer type.
template <typename Y> struct gk_q_range {
  static GK_FN double lo() { return (double)gk_limits<Y>::lowest(); }
  static GK_FN double hi() { return (double)gk_limits<Y>::highest(); }
};
#define GK_Q_PACKED_RANGE(P)                                                                      \
  template <> struct gk_q_range<P> {                                                              \
    static GK_FN double lo() { return gk_packed<P>::kSigned ? -(double)(1 << (gk_packed<P>::kBits - 1)) : 0.0; } \
    static GK_FN double hi() {                                                                    \
      return gk_packed<P>::kSigned ? (double)((1 << (gk_packed<P>::kBits - 1)) - 1)               \
                                   : (double)((1 << gk_packed<P>::kBits) - 1);                    \
    }                                                                                             \
  };
GK_Q_PACKED_RANGE(gk_int4x2)
GK_Q_PACKED_RANGE(gk_uint4x2)
GK_Q_PACKED_RANGE(gk_int2x4)
GK_Q_PACKED_RANGE(gk_uint2x4)
#undef GK_Q_PACKED_RANGE

// round_half_even(q) + zp saturated to Y's range; NaN gives the zero point (the
// spec leaves it undefined).
template <typename Y, typename A>
static GK_FN A gk_q_saturate(A q, A zp) {
  const A r = gk_rint(q) + zp;
  if (r != r) return zp;
  const A lo = (A)gk_q_range<Y>::lo(), hi = (A)gk_q_range<Y>::hi();
  return r < lo ? lo : (r > hi ? hi : r);
}

// q = x / scale (in the precision) and the zero point of element i.
template <typename X, typename A, typename Y>
static GK_FN void gk_q_value(const X* x, const A* scale, const Y* zp, const gk_qlayout& l, int64_t i, A& q, A& z) {
  const A s = scale[gk_q_index(l, l.scale_mode, i)];
  const A xv = gk_q_narrow(gk_q_load<A>(x, i), l.narrow);
  q = gk_q_narrow((A)(xv / s), l.narrow);
  z = zp ? gk_q_load<A>(zp, gk_q_index(l, l.zp_mode, i)) : (A)0;
}

// A byte-wide quantized element: integers saturate; float8 converts q + zp with
// Cast's rules (saturate attribute).
template <typename Y, typename A>
static GK_FN Y gk_q_encode(A q, A z, int32_t mode) {
  if constexpr (gk_is_minifloat<Y>::value) return gk_convert<Y, A>((A)(q + z), mode);
  else return (Y)gk_q_saturate<Y, A>(q, z);
}

// The bits of one element of a packed type (float4 rounds q + zp to nearest even).
template <typename P, typename A>
static GK_FN uint32_t gk_q_code(A q, A z, int32_t mode) {
  if constexpr (gk_packed<P>::kFloat) return gk_convert<gk_f4e2m1, A>((A)(q + z), mode).bits;
  else return (uint32_t)(int32_t)gk_q_saturate<P, A>(q, z) & ((1u << gk_packed<P>::kBits) - 1u);
}

// y = saturate(round(x / scale) + zero_point). `scale` holds A values already
// rounded to the precision (gk_q_scale); zp may be null. A packed output is written
// a whole byte per thread, so no two threads share a byte.
template <typename X, typename A, typename Y>
GK_KERNEL void gk_quantize(const X* GK_RESTRICT x, const A* GK_RESTRICT scale, const Y* GK_RESTRICT zp,
                           Y* GK_RESTRICT y, gk_qlayout l, int64_t n) {
  if constexpr (gk_packed<Y>::kPer == 1) {
    GK_KERNEL_LOOP(i, n) {
      A q, z;
      gk_q_value<X, A, Y>(x, scale, zp, l, i, q, z);
      y[i] = gk_q_encode<Y, A>(q, z, l.cast_mode);
    }
  } else {
    const int per = gk_packed<Y>::kPer;
    const int64_t bytes = (n + per - 1) / per;
    GK_KERNEL_LOOP(b, bytes) {
      uint32_t out = 0;
      for (int k = 0; k < per; ++k) {
        const int64_t i = b * per + k;
        if (i >= n) break;
        A q, z;
        gk_q_value<X, A, Y>(x, scale, zp, l, i, q, z);
        out |= gk_q_code<Y, A>(q, z, l.cast_mode) << (k * gk_packed<Y>::kBits);
      }
      y[b].bits = (uint8_t)out;
    }
  }
}

// Scales (any float type, int32 or e8m0) as A values rounded to the precision.
template <typename S, typename A>
GK_KERNEL void gk_q_scale(const S* GK_RESTRICT s, A* GK_RESTRICT out, int32_t narrow, int64_t n) {
  GK_KERNEL_LOOP(i, n) { out[i] = gk_q_narrow(gk_q_load<A>(s, i), narrow); }
}

// Dequantization computes in float (double for int32 input, whose values float
// does not hold), as ONNX's reference does, and rounds once to the output type.
template <typename X> struct gk_q_wide { typedef float type; };
template <> struct gk_q_wide<int32_t> { typedef double type; };

// y = (x - zero_point) * scale; `scale` is float (every scale type is exact in it).
template <typename X, typename Y>
GK_KERNEL void gk_dequantize(const X* GK_RESTRICT x, const float* GK_RESTRICT scale, const X* GK_RESTRICT zp,
                             Y* GK_RESTRICT y, gk_qlayout l, int64_t n) {
  typedef typename gk_q_wide<X>::type A;
  GK_KERNEL_LOOP(i, n) {
    A d = gk_q_load<A>(x, i);
    if (zp) d = d - gk_q_load<A>(zp, gk_q_index(l, l.zp_mode, i));
    const A v = d * (A)scale[gk_q_index(l, l.scale_mode, i)];
    y[i] = (Y)(float)v;
  }
}

// DynamicQuantizeLinear, pass 1: block b reduces its contiguous chunk of x to
// part[2b] = min and part[2b + 1] = max (NaN elements are skipped).
struct gk_fn_qmin {
  template <typename A> GK_FN A operator()(A a, A b) const { return b < a ? b : a; }
};
struct gk_fn_qmax {
  template <typename A> GK_FN A operator()(A a, A b) const { return b > a ? b : a; }
};
// Threads per block of gk_dql_minmax (a power of two, for gk_block_reduce).
#define GK_Q_BLOCK 256
GK_KERNEL void gk_dql_minmax(const float* GK_RESTRICT x, float* GK_RESTRICT part, int64_t n) {
  const int64_t chunk = (n + gridDim.x - 1) / gridDim.x;
  const int64_t begin = (int64_t)blockIdx.x * chunk;
  const int64_t end = begin + chunk < n ? begin + chunk : n;
  float mn = gk_limits<float>::highest(), mx = gk_limits<float>::lowest();
#ifdef __CUDACC_RTC__
  __shared__ float sh[GK_Q_BLOCK];
  for (int64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
    const float v = x[i];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  mn = gk_block_reduce(mn, sh, gk_fn_qmin());
  mx = gk_block_reduce(mx, sh, gk_fn_qmax());
  if (threadIdx.x == 0) {
    part[2 * blockIdx.x] = mn;
    part[2 * blockIdx.x + 1] = mx;
  }
#else
  for (int64_t i = begin; i < end; ++i) {
    const float v = x[i];
    mn = v < mn ? v : mn;
    mx = v > mx ? v : mx;
  }
  part[2 * blockIdx.x] = mn;
  part[2 * blockIdx.x + 1] = mx;
#endif
}

// Pass 2 (one element): the uint8 scale and zero point, in float as the spec's
// function body computes them. The range always includes 0; an all-zero input
// (empty range) gets scale 1, so zero point and y are 0.
GK_KERNEL void gk_dql_params(const float* GK_RESTRICT part, int64_t parts, float* GK_RESTRICT scale,
                             uint8_t* GK_RESTRICT zp) {
  GK_KERNEL_LOOP(t, 1) {
    float mn = 0.0f, mx = 0.0f;
    for (int64_t b = 0; b < parts; ++b) {
      mn = part[2 * b] < mn ? part[2 * b] : mn;
      mx = part[2 * b + 1] > mx ? part[2 * b + 1] : mx;
    }
    const float s = mx == mn ? 1.0f : (mx - mn) / 255.0f;
    float z = 0.0f - mn / s;
    z = z < 0.0f ? 0.0f : (z > 255.0f ? 255.0f : z);
    scale[0] = s;
    zp[0] = (uint8_t)gk_rint(z);
  }
}

// out = x - zero_point as int32, the zero point broadcast through zmap (rank 0:
// one value); zp may be null.
template <typename T>
GK_KERNEL void gk_q_widen(const T* GK_RESTRICT x, const T* GK_RESTRICT zp, int32_t* GK_RESTRICT out,
                          gk_index_map zmap, int64_t n) {
  if (!zp || zmap.rank == 0) {
    const int32_t z = zp ? (int32_t)zp[0] : 0;
    GK_KERNEL_LOOP(i, n) { out[i] = (int32_t)x[i] - z; }
  } else {
    GK_KERNEL_LOOP(i, n) { out[i] = (int32_t)x[i] - (int32_t)zp[gk_offset(zmap, i)]; }
  }
}

// Integer convolution as im2col + int32 GEMM: col[n, g] (Kc x P) holds, for each
// (input channel of the group, kernel tap) row and output position, the input
// minus its zero point, 0 in the padding (the padded input is the zero point).
// Spatial dims are padded to 3 with leading 1s.
struct gk_qconv_geom {
  int64_t C, group, Cg, P, Kc, kvol;
  int64_t in[3], out[3], k[3], s[3], dil[3], pad[3];
};

template <typename T>
GK_KERNEL void gk_q_im2col(const T* GK_RESTRICT x, const T* GK_RESTRICT zp, int32_t* GK_RESTRICT col,
                           gk_qconv_geom g, int64_t n) {
  const int32_t z = zp ? (int32_t)zp[0] : 0;
  GK_KERNEL_LOOP(i, n) {
    const int64_t p = i % g.P, r = i / g.P;
    const int64_t kk = r % g.Kc, b = r / g.Kc;
    const int64_t img = b / g.group, grp = b - img * g.group;
    const int64_t c = kk / g.kvol, tap = kk - c * g.kvol;
    const int64_t kw = tap % g.k[2], kh = (tap / g.k[2]) % g.k[1], kd = tap / (g.k[2] * g.k[1]);
    const int64_t ow = p % g.out[2], oh = (p / g.out[2]) % g.out[1], od = p / (g.out[2] * g.out[1]);
    const int64_t id = od * g.s[0] - g.pad[0] + kd * g.dil[0];
    const int64_t ih = oh * g.s[1] - g.pad[1] + kh * g.dil[1];
    const int64_t iw = ow * g.s[2] - g.pad[2] + kw * g.dil[2];
    int32_t v = 0;
    if (id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1] && iw >= 0 && iw < g.in[2]) {
      const int64_t ch = img * g.C + grp * g.Cg + c;
      v = (int32_t)x[((ch * g.in[0] + id) * g.in[1] + ih) * g.in[2] + iw] - z;
    }
    col[i] = v;
  }
}

// QLinearMatMul / QLinearConv output: y = saturate(round(acc * (sa * sb / sy) + zy))
// with the multiplier computed in the scales' type (as ONNX's reference) and the
// product in double (int32 times a float promotes to float64 there). Each
// parameter is broadcast to the output through its index map.
template <typename S, typename Y>
GK_KERNEL void gk_q_requant(const int32_t* GK_RESTRICT acc, const S* GK_RESTRICT sa, const S* GK_RESTRICT sb,
                            const S* GK_RESTRICT sy, const Y* GK_RESTRICT zy, Y* GK_RESTRICT y, gk_index_map amap,
                            gk_index_map bmap, gk_index_map ymap, gk_index_map zmap, int64_t n) {
  typedef typename gk_acc<S>::type F;
  GK_KERNEL_LOOP(i, n) {
    const S ab = (S)((F)sa[gk_offset(amap, i)] * (F)sb[gk_offset(bmap, i)]);
    const S m = (S)((F)ab / (F)sy[gk_offset(ymap, i)]);
    const double z = zy ? (double)zy[gk_offset(zmap, i)] : 0.0;
    // Rounded after the zero point is added (the reverse of QuantizeLinear): ties
    // to even then depend on zy's parity, as in the reference.
    y[i] = (Y)gk_q_saturate<Y, double>((double)acc[i] * (double)(F)m + z, 0.0);
  }
}

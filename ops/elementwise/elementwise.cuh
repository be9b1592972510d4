// Binary and ternary elementwise kernels with multidirectional broadcasting: the
// arithmetic, comparison, logical and bitwise ops, Pow with mixed base/exponent
// types, Where, and the helpers the variadic ops (Sum, Mean, Max, Min) need.
//
// Layout (uniform over a launch, so no divergence): 0 = all operands have the
// output's shape, 1 = a is a single element, 2 = b is, 3 = general (index maps
// from the output's linear index; the host coalesces dims to keep rank low).
// Integer edge cases are defined, never trapped: x / 0 = 0, x % 0 = 0,
// INT_MIN / -1 wraps to INT_MIN, shifts by >= the bit width give 0.
#include "backends/kernel_prelude.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/math.cuh"
#include "ops/common/wrap_arith.cuh"

template <typename A> static GK_FN bool gk_ew_signed() { return gk_is_signed_t<A>::value; }
template <typename A> static GK_FN bool gk_ew_negative(A x) { return gk_is_negative(x); }

template <typename A>
static GK_FN A gk_ew_div(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    return a / b;
  } else {
    if (b == (A)0) return (A)0;
    if (gk_ew_signed<A>() && b == (A)-1) return gk_wrap_neg(a);
    return (A)(a / b);
  }
}

// Python/numpy modulo: the result takes the divisor's sign.
template <typename A>
static GK_FN A gk_ew_mod(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    A r = gk_fmod(a, b);
    if (r != (A)0 && (gk_is_negative(r) != gk_is_negative(b))) r += b;
    return r;
  } else {
    if (b == (A)0 || (gk_ew_signed<A>() && b == (A)-1)) return (A)0;
    A r = (A)(a % b);
    if (r != (A)0 && (gk_ew_negative(r) != gk_ew_negative(b))) r = (A)(r + b);
    return r;
  }
}

// C fmod: the result takes the dividend's sign.
template <typename A>
static GK_FN A gk_ew_fmod(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    return gk_fmod(a, b);
  } else {
    if (b == (A)0 || (gk_ew_signed<A>() && b == (A)-1)) return (A)0;
    return (A)(a % b);
  }
}

// Integer Add, Sub and Mul wrap (two's complement) as ONNX Runtime's do
// (ops/common/wrap_arith.cuh).

// A double result stored as a 32- or 64-bit signed integer: NaN and values out of
// range give the type's lowest value, x86's cvttsd2si result, which the release
// build returned and ONNX Runtime agrees with (sweep Pow.s32_f32, Pow.s64_f32); the
// plain conversion is undefined there (UBSan float-cast-overflow).
template <typename A>
static GK_FN A gk_ew_from_double(double v) {
  if constexpr (gk_is_signed_t<A>::value && sizeof(A) >= 4) {
    const double lo = (double)gk_limits<A>::lowest();
    if (!(v >= lo && v < -lo)) return gk_limits<A>::lowest();
  }
  return (A)v;
}

#define GK_EW_SAME_T template <typename T> using out_t = T;
#define GK_EW_BOOL_T template <typename T> using out_t = bool;

struct gk_op_add { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_wrap_add(a, b); } };
struct gk_op_sub { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_wrap_sub(a, b); } };
struct gk_op_mul { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_wrap_mul(a, b); } };
struct gk_op_div { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_ew_div(a, b); } };
struct gk_op_mod { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_ew_mod(a, b); } };
struct gk_op_fmod { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return gk_ew_fmod(a, b); } };
// NaN propagates (numpy maximum/minimum): a NaN in a wins, a NaN in b loses every
// comparison and is returned.
struct gk_op_max { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return (a != a || a > b) ? a : b; } };
struct gk_op_min { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return (a != a || a < b) ? a : b; } };
struct gk_op_prelu { GK_EW_SAME_T template <typename A> static GK_FN A apply(A x, A s) { return gk_ew_negative(x) ? gk_wrap_mul(x, s) : x; } };
struct gk_op_eq { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a == b; } };
struct gk_op_lt { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a < b; } };
struct gk_op_le { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a <= b; } };
struct gk_op_gt { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a > b; } };
struct gk_op_ge { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a >= b; } };
struct gk_op_and { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a && b; } };
struct gk_op_or { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a || b; } };
struct gk_op_xor { GK_EW_BOOL_T template <typename A> static GK_FN bool apply(A a, A b) { return a != b; } };
struct gk_op_bitand { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return (A)(a & b); } };
struct gk_op_bitor { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return (A)(a | b); } };
struct gk_op_bitxor { GK_EW_SAME_T template <typename A> static GK_FN A apply(A a, A b) { return (A)(a ^ b); } };
struct gk_op_shl {
  GK_EW_SAME_T
  template <typename A> static GK_FN A apply(A a, A b) { return b >= (A)(sizeof(A) * 8) ? (A)0 : (A)(a << b); }
};
struct gk_op_shr {
  GK_EW_SAME_T
  template <typename A> static GK_FN A apply(A a, A b) { return b >= (A)(sizeof(A) * 8) ? (A)0 : (A)(a >> b); }
};

// Pow with its own exponent type. Float bases compute in the wider of the two
// float types; integer bases with integer exponents square-and-multiply in
// wrapping 64-bit arithmetic (a negative exponent gives 1/x^k truncated: 0 unless
// |x| == 1); integer bases with float exponents go through double.
struct gk_op_pow {
  template <typename A, typename B>
  static GK_FN A apply(A a, B b) {
    if constexpr (gk_is_float_t<A>::value) {
      if constexpr (sizeof(A) == 8 || sizeof(B) == 8) {
        return (A)gk_pow((double)a, (double)b);
      } else {
        return (A)gk_pow((float)a, (float)b);
      }
    } else if constexpr (gk_is_float_t<B>::value) {
      return gk_ew_from_double<A>(gk_pow((double)a, (double)b));
    } else {
      if (gk_ew_negative(b)) {
        if (a == (A)1) return (A)1;
        if (gk_ew_signed<A>() && a == (A)-1) return (((unsigned long long)b & 1ull) ? (A)-1 : (A)1);
        return (A)0;
      }
      unsigned long long r = 1, base = (unsigned long long)a, e = (unsigned long long)b;
      while (e) {
        if (e & 1ull) r *= base;
        base *= base;
        e >>= 1;
      }
      return (A)r;
    }
  }
};

template <typename Op, typename TA, typename TB, typename R>
static GK_FN void gk_binary_body(const TA* a, const TB* b, R* out, int64_t n, int32_t layout,
                                 const gk_index_map& ma, const gk_index_map& mb) {
  typedef typename gk_acc<TA>::type A;
  typedef typename gk_acc<TB>::type B;
  if (layout == 0) {
    GK_KERNEL_LOOP(i, n) { out[i] = (R)Op::apply((A)a[i], (B)b[i]); }
  } else if (layout == 1) {
    const A x = (A)a[0];
    GK_KERNEL_LOOP(i, n) { out[i] = (R)Op::apply(x, (B)b[i]); }
  } else if (layout == 2) {
    const B y = (B)b[0];
    GK_KERNEL_LOOP(i, n) { out[i] = (R)Op::apply((A)a[i], y); }
  } else {
#ifdef __CUDACC_RTC__
    GK_KERNEL_LOOP(i, n) { out[i] = (R)Op::apply((A)a[gk_offset(ma, i)], (B)b[gk_offset(mb, i)]); }
#else
    // A CPU worker owns a contiguous range: divide once to find where it starts,
    // then walk the innermost dim and carry like an odometer. Per-element
    // gk_offset spent ~14 ns on its int64 divisions (1x24x320x320 + 1x24x1x1 Add:
    // 34 ms on 2 threads). Same elements, same arithmetic as the GPU path.
    const int64_t begin = gk_part_begin(n), end = gk_part_end(n);
    if (begin >= end) return;
    if (ma.rank == 0) {
      out[begin] = (R)Op::apply((A)a[0], (B)b[0]);
      return;
    }
    const int32_t last = ma.rank - 1;
    int64_t idx[GK_MAX_RANK];
    int64_t oa = 0, ob = 0, rem = begin;
    for (int32_t d = last; d >= 0; --d) {
      const int64_t q = rem / ma.dims[d];
      idx[d] = rem - q * ma.dims[d];
      rem = q;
      oa += idx[d] * ma.strides[d];
      ob += idx[d] * mb.strides[d];
    }
    const int64_t sa = ma.strides[last], sb = mb.strides[last];
    for (int64_t i = begin; i < end;) {
      const int64_t run = ma.dims[last] - idx[last] < end - i ? ma.dims[last] - idx[last] : end - i;
      // Unit and zero strides spelled out so the run vectorises: a per-channel
      // scale (squeeze-excite's Mul, 1x96x56x56 by 1x96x1x1) ran 0.113 ms with
      // the strides read at run time, 3x a same-shape Mul.
      if (sa == 1 && sb == 0) {
        const B y = (B)b[ob];
        for (int64_t k = 0; k < run; ++k) out[i + k] = (R)Op::apply((A)a[oa + k], y);
      } else if (sa == 0 && sb == 1) {
        const A x = (A)a[oa];
        for (int64_t k = 0; k < run; ++k) out[i + k] = (R)Op::apply(x, (B)b[ob + k]);
      } else if (sa == 1 && sb == 1) {
        for (int64_t k = 0; k < run; ++k) out[i + k] = (R)Op::apply((A)a[oa + k], (B)b[ob + k]);
      } else {
        for (int64_t k = 0; k < run; ++k) out[i + k] = (R)Op::apply((A)a[oa + k * sa], (B)b[ob + k * sb]);
      }
      i += run;
      oa += run * sa;
      ob += run * sb;
      idx[last] += run;
      for (int32_t d = last; d > 0 && idx[d] == ma.dims[d]; --d) {
        oa += ma.strides[d - 1] - idx[d] * ma.strides[d];
        ob += mb.strides[d - 1] - idx[d] * mb.strides[d];
        idx[d] = 0;
        ++idx[d - 1];
      }
    }
#endif
  }
}

// out may alias a (in-place): every element reads a[i] before writing out[i].
template <typename Op, typename T>
GK_KERNEL void gk_binary(const T* a, const T* b, typename Op::template out_t<T>* out, int64_t n,
                         int32_t layout, gk_index_map ma, gk_index_map mb) {
  gk_binary_body<Op, T, T, typename Op::template out_t<T>>(a, b, out, n, layout, ma, mb);
}

template <typename T, typename E>
GK_KERNEL void gk_binary_pow(const T* a, const E* b, T* out, int64_t n, int32_t layout, gk_index_map ma,
                      gk_index_map mb) {
  gk_binary_body<gk_op_pow, T, E, T>(a, b, out, n, layout, ma, mb);
}

// Where moves bits only, so it is instantiated per element size (uint8..uint64).
// layout 0: all three have the output's shape; otherwise index maps.
template <typename T>
GK_KERNEL void gk_where(const bool* c, const T* x, const T* y, T* out, int64_t n, int32_t layout,
                        gk_index_map mc, gk_index_map mx, gk_index_map my) {
  if (layout == 0) {
    GK_KERNEL_LOOP(i, n) { out[i] = c[i] ? x[i] : y[i]; }
  } else {
    GK_KERNEL_LOOP(i, n) { out[i] = c[gk_offset(mc, i)] ? x[gk_offset(mx, i)] : y[gk_offset(my, i)]; }
  }
}

// Broadcasting copy, by element size: the single-input forms of Sum/Max/Min/Mean.
template <typename T>
GK_KERNEL void gk_ew_copy(const T* x, T* out, int64_t n, int32_t layout, gk_index_map mx) {
  if (layout == 0) {
    GK_KERNEL_LOOP(i, n) { out[i] = x[i]; }
  } else {
    GK_KERNEL_LOOP(i, n) { out[i] = x[gk_offset(mx, i)]; }
  }
}

// Mean's last step: the sum divided by the input count (divided, not multiplied
// by 1/count, as the reference computes it).
template <typename T>
GK_KERNEL void gk_ew_divide_by(T* x, int64_t n, double count) {
  typedef typename gk_acc<T>::type A;
  const A d = (A)count;
  GK_KERNEL_LOOP(i, n) { x[i] = (T)((A)x[i] / d); }
}

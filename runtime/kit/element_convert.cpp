#include "runtime/kit/element_convert.h"

#include "backends/kernel_prelude.cuh"
#include "backends/minifloat.cuh"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace gk::kit_detail {
namespace {

template <typename I>
I saturate(double v) {
  using L = std::numeric_limits<I>;
  if (std::isnan(v)) return 0;
  // (double)max rounds up to a power of two for 32/64-bit types, so >= is the
  // exact "does not fit" test; below it the truncating cast is defined.
  if (v >= static_cast<double>(L::max())) return L::max();
  if (v <= static_cast<double>(L::lowest())) return L::lowest();
  return static_cast<I>(v);
}

// Storage helpers: each element type as a host type plus its conversions.
template <typename T>
struct Codec {
  static double to_f64(T v) { return static_cast<double>(v); }
  static int64_t to_i64(T v) {
    if constexpr (std::is_floating_point_v<T>) return saturate<int64_t>(v);
    else return static_cast<int64_t>(v);
  }
  static T from_f64(double v) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v);
    else return saturate<T>(v);
  }
  static bool fits(int64_t v) {
    if constexpr (std::is_floating_point_v<T>) return true;
    else if constexpr (std::is_same_v<T, uint64_t>) return v >= 0;
    else return v >= static_cast<int64_t>(std::numeric_limits<T>::lowest()) &&
                v <= static_cast<int64_t>(std::numeric_limits<T>::max());
  }
  static T from_i64(int64_t v) { return static_cast<T>(v); }
};
template <>
struct Codec<bool> {
  static double to_f64(uint8_t v) { return v != 0 ? 1.0 : 0.0; }
  static int64_t to_i64(uint8_t v) { return v != 0 ? 1 : 0; }
  static uint8_t from_f64(double v) { return v != 0.0 ? 1 : 0; }  // NaN != 0: true, as ONNX Cast
  static bool fits(int64_t) { return true; }
  static uint8_t from_i64(int64_t v) { return v != 0 ? 1 : 0; }
};
struct HalfTag {};
struct BF16Tag {};
template <>
struct Codec<HalfTag> {
  static double to_f64(uint16_t v) { return gk_half_bits_to_float(v); }
  static int64_t to_i64(uint16_t v) { return saturate<int64_t>(gk_half_bits_to_float(v)); }
  static uint16_t from_f64(double v) { return gk_float_to_half_bits(static_cast<float>(v)); }
  static bool fits(int64_t) { return true; }
  static uint16_t from_i64(int64_t v) { return gk_float_to_half_bits(static_cast<float>(v)); }
};
template <>
struct Codec<BF16Tag> {
  static double to_f64(uint16_t v) { return gk_bf16_bits_to_float(v); }
  static int64_t to_i64(uint16_t v) { return saturate<int64_t>(gk_bf16_bits_to_float(v)); }
  static uint16_t from_f64(double v) { return gk_float_to_bf16_bits(static_cast<float>(v)); }
  static bool fits(int64_t) { return true; }
  static uint16_t from_i64(int64_t v) { return gk_float_to_bf16_bits(static_cast<float>(v)); }
};

template <typename T> struct StorageOf { using type = T; };
template <> struct StorageOf<bool> { using type = uint8_t; };
template <> struct StorageOf<HalfTag> { using type = uint16_t; };
template <> struct StorageOf<BF16Tag> { using type = uint16_t; };

// Calls f(Tag{}) with the codec tag of a computable dtype; false for the rest.
template <typename F>
bool dispatch(DType t, F&& f) {
  switch (t) {
    case DType::kF32: f(float{}); return true;
    case DType::kF64: f(double{}); return true;
    case DType::kF16: f(HalfTag{}); return true;
    case DType::kBF16: f(BF16Tag{}); return true;
    case DType::kI8: f(int8_t{}); return true;
    case DType::kI16: f(int16_t{}); return true;
    case DType::kI32: f(int32_t{}); return true;
    case DType::kI64: f(int64_t{}); return true;
    case DType::kU8: f(uint8_t{}); return true;
    case DType::kU16: f(uint16_t{}); return true;
    case DType::kU32: f(uint32_t{}); return true;
    case DType::kU64: f(uint64_t{}); return true;
    case DType::kBool: f(bool{}); return true;
    default: return false;
  }
}

// Unaligned-safe element access: borrowed host memory (a mapped file) need not be
// aligned to the element size.
template <typename S>
S load(const void* base, int64_t i) {
  S v;
  std::memcpy(&v, static_cast<const char*>(base) + i * static_cast<int64_t>(sizeof(S)), sizeof(S));
  return v;
}
template <typename S>
void store(void* base, int64_t i, S v) {
  std::memcpy(static_cast<char*>(base) + i * static_cast<int64_t>(sizeof(S)), &v, sizeof(S));
}

// Storage-only element i of the buffer at base, as its exact value; false for
// other types.
bool decode_storage(DType t, const void* base, int64_t i, double* out) {
  const uint8_t* b = static_cast<const uint8_t*>(base);
  switch (t) {
    case DType::kF8E4M3FN: *out = gk_mf_to_float<gk_fmt_e4m3fn>(b[i]); return true;
    case DType::kF8E4M3FNUZ: *out = gk_mf_to_float<gk_fmt_e4m3fnuz>(b[i]); return true;
    case DType::kF8E5M2: *out = gk_mf_to_float<gk_fmt_e5m2>(b[i]); return true;
    case DType::kF8E5M2FNUZ: *out = gk_mf_to_float<gk_fmt_e5m2fnuz>(b[i]); return true;
    case DType::kF8E8M0: *out = gk_e8m0_to_float(b[i]); return true;
    case DType::kF4E2M1: *out = gk_mf_to_float<gk_fmt_e2m1>((b[i / 2] >> ((i % 2) * 4)) & 15u); return true;
    case DType::kI4: *out = gk_unpack_int<4, true>(b[i / 2], i); return true;
    case DType::kU4: *out = gk_unpack_int<4, false>(b[i / 2], i); return true;
    case DType::kI2: *out = gk_unpack_int<2, true>(b[i / 4], i); return true;
    case DType::kU2: *out = gk_unpack_int<2, false>(b[i / 4], i); return true;
    default: return false;
  }
}

}  // namespace

bool decodable(DType t) {
  double unused;
  static const uint8_t zero[8] = {};
  return dispatch(t, [](auto) {}) || decode_storage(t, zero, 0, &unused);
}

void decode_f64_at(DType t, const void* base, int64_t first, double* dst, int64_t n) {
  bool known = dispatch(t, [&](auto tag) {
    using Tag = decltype(tag);
    using S = typename StorageOf<Tag>::type;
    const void* src = static_cast<const char*>(base) + first * static_cast<int64_t>(sizeof(S));
    for (int64_t i = 0; i < n; ++i) dst[i] = Codec<Tag>::to_f64(load<S>(src, i));
  });
  if (known) return;
  for (int64_t i = 0; i < n; ++i)
    if (!base || !decode_storage(t, base, first + i, &dst[i])) dst[i] = std::numeric_limits<double>::quiet_NaN();
}

int64_t decode_i64_at(DType t, const void* base, int64_t first, int64_t* dst, int64_t n) {
  int64_t first_wrap = -1;
  bool known = dispatch(t, [&](auto tag) {
    using Tag = decltype(tag);
    using S = typename StorageOf<Tag>::type;
    const void* src = static_cast<const char*>(base) + first * static_cast<int64_t>(sizeof(S));
    for (int64_t i = 0; i < n; ++i) {
      S v = load<S>(src, i);
      if constexpr (std::is_same_v<Tag, uint64_t>)
        if (first_wrap < 0 && v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
          first_wrap = i;
      dst[i] = Codec<Tag>::to_i64(v);
    }
  });
  if (known) return first_wrap;
  for (int64_t i = 0; i < n; ++i) {
    double v;
    dst[i] = base && decode_storage(t, base, first + i, &v) ? saturate<int64_t>(v) : 0;
  }
  return first_wrap;
}

void decode_f64(DType t, const void* src, double* dst, int64_t n) { decode_f64_at(t, src, 0, dst, n); }

int64_t decode_i64(DType t, const void* src, int64_t* dst, int64_t n) { return decode_i64_at(t, src, 0, dst, n); }

void encode_f64(DType t, const double* src, void* dst, int64_t n) {
  dispatch(t, [&](auto tag) {
    using Tag = decltype(tag);
    for (int64_t i = 0; i < n; ++i) store(dst, i, Codec<Tag>::from_f64(src[i]));
  });
}

int64_t encode_i64(DType t, const int64_t* src, void* dst, int64_t n) {
  int64_t bad = -1;
  dispatch(t, [&](auto tag) {
    using Tag = decltype(tag);
    for (int64_t i = 0; i < n; ++i) {
      if (!Codec<Tag>::fits(src[i])) {
        bad = i;
        return;
      }
      store(dst, i, Codec<Tag>::from_i64(src[i]));
    }
  });
  return bad;
}

const char* integer_range_text(DType t) {
  switch (t) {
    case DType::kI8: return "[-128, 127]";
    case DType::kI16: return "[-32768, 32767]";
    case DType::kI32: return "[-2147483648, 2147483647]";
    case DType::kI64: return "[-9223372036854775808, 9223372036854775807]";
    case DType::kU8: return "[0, 255]";
    case DType::kU16: return "[0, 65535]";
    case DType::kU32: return "[0, 4294967295]";
    case DType::kU64: return "[0, 9223372036854775807] (as int64)";
    default: return "any";
  }
}

}  // namespace gk::kit_detail

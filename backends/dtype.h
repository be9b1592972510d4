// Element types. The numeric values are ONNX TensorProto.DataType codes, so the
// loader converts with one checked switch (dtype_from_code) and nothing else.
#pragma once

#include "backends/status.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gk {

enum class DType : int32_t {
  kUndefined = 0,
  kF32 = 1,
  kU8 = 2,
  kI8 = 3,
  kU16 = 4,
  kI16 = 5,
  kI32 = 6,
  kI64 = 7,
  kString = 8,
  kBool = 9,
  kF16 = 10,
  kF64 = 11,
  kU32 = 12,
  kU64 = 13,
  kBF16 = 16,
  kF8E4M3FN = 17,
  kF8E4M3FNUZ = 18,
  kF8E5M2 = 19,
  kF8E5M2FNUZ = 20,
  kU4 = 21,
  kI4 = 22,
  kF4E2M1 = 23,
  kF8E8M0 = 24,
  kU2 = 25,
  kI2 = 26,
};

// Checked conversion from an ONNX element-type integer; unknown codes are an
// InvalidModel error naming the code, complex (14, 15) is Unimplemented.
Result<DType> dtype_from_code(int64_t code);

std::string_view dtype_name(DType t);           // "float32", "int64", ...
Result<DType> dtype_from_name(std::string_view name);

// Bits per element: 4 for int4/uint4/float4e2m1, 2 for int2/uint2, 0 for
// string/undefined.
int dtype_bits(DType t);
// Bytes needed for `count` elements (4-bit types pack two per byte and 2-bit types
// four per byte, first element in the low bits; rounded up).
size_t dtype_storage_bytes(DType t, int64_t count);

bool dtype_is_float(DType t);     // f16, bf16, f32, f64
bool dtype_is_integer(DType t);   // signed and unsigned ints (not bool)
bool dtype_is_signed(DType t);
// The storage-only floats: the four float8 formats, float8e8m0 and float4e2m1.
bool dtype_is_minifloat(DType t);
// int4/uint4/int2/uint2 (storage-only, packed).
bool dtype_is_packed_integer(DType t);
// Types that kernels compute on (storage-only float8/float4/int4/int2 and string
// excluded).
bool dtype_is_computable(DType t);

}  // namespace gk

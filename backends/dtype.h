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
};

// Checked conversion from an ONNX element-type integer; unknown codes and types we
// cannot hold (complex, float4) are an InvalidModel error naming the code.
Result<DType> dtype_from_code(int64_t code);

std::string_view dtype_name(DType t);           // "float32", "int64", ...
Result<DType> dtype_from_name(std::string_view name);

// Bits per element: 4 for int4/uint4, 0 for string/undefined.
int dtype_bits(DType t);
// Bytes needed for `count` elements (int4 packs two per byte, rounded up).
size_t dtype_storage_bytes(DType t, int64_t count);

bool dtype_is_float(DType t);     // f16, bf16, f32, f64
bool dtype_is_integer(DType t);   // signed and unsigned ints (not bool)
bool dtype_is_signed(DType t);
// Types that kernels compute on (storage-only float8/int4 and string excluded).
bool dtype_is_computable(DType t);

}  // namespace gk

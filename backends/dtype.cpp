#include "backends/dtype.h"

namespace gk {

Result<DType> dtype_from_code(int64_t code) {
  switch (code) {
    case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9:
    case 10: case 11: case 12: case 13: case 16: case 17: case 18: case 19:
    case 20: case 21: case 22: case 23: case 24: case 25: case 26:
      return static_cast<DType>(code);
    case 14: case 15:
      return unimplemented("complex element type (code {}) is not supported", code);
    default:
      return invalid_model("unknown element type code {} (valid ONNX codes are 1..26)", code);
  }
}

std::string_view dtype_name(DType t) {
  switch (t) {
    case DType::kUndefined: return "undefined";
    case DType::kF32: return "float32";
    case DType::kU8: return "uint8";
    case DType::kI8: return "int8";
    case DType::kU16: return "uint16";
    case DType::kI16: return "int16";
    case DType::kI32: return "int32";
    case DType::kI64: return "int64";
    case DType::kString: return "string";
    case DType::kBool: return "bool";
    case DType::kF16: return "float16";
    case DType::kF64: return "float64";
    case DType::kU32: return "uint32";
    case DType::kU64: return "uint64";
    case DType::kBF16: return "bfloat16";
    case DType::kF8E4M3FN: return "float8e4m3fn";
    case DType::kF8E4M3FNUZ: return "float8e4m3fnuz";
    case DType::kF8E5M2: return "float8e5m2";
    case DType::kF8E5M2FNUZ: return "float8e5m2fnuz";
    case DType::kU4: return "uint4";
    case DType::kI4: return "int4";
    case DType::kF4E2M1: return "float4e2m1";
    case DType::kF8E8M0: return "float8e8m0";
    case DType::kU2: return "uint2";
    case DType::kI2: return "int2";
  }
  return "unknown";
}

Result<DType> dtype_from_name(std::string_view name) {
  for (int code = 1; code <= 26; ++code) {
    if (code == 14 || code == 15) continue;
    auto t = static_cast<DType>(code);
    if (dtype_name(t) == name) return t;
  }
  if (name == "float") return DType::kF32;
  if (name == "double") return DType::kF64;
  if (name == "half") return DType::kF16;
  return invalid_argument("unknown dtype name '{}'", name);
}

int dtype_bits(DType t) {
  switch (t) {
    case DType::kF64: case DType::kI64: case DType::kU64: return 64;
    case DType::kF32: case DType::kI32: case DType::kU32: return 32;
    case DType::kF16: case DType::kBF16: case DType::kI16: case DType::kU16: return 16;
    case DType::kI8: case DType::kU8: case DType::kBool:
    case DType::kF8E4M3FN: case DType::kF8E4M3FNUZ: case DType::kF8E5M2:
    case DType::kF8E5M2FNUZ: case DType::kF8E8M0: return 8;
    case DType::kI4: case DType::kU4: case DType::kF4E2M1: return 4;
    case DType::kI2: case DType::kU2: return 2;
    case DType::kString: case DType::kUndefined: return 0;
  }
  return 0;
}

size_t dtype_storage_bytes(DType t, int64_t count) {
  if (count <= 0) return 0;
  return (static_cast<size_t>(count) * dtype_bits(t) + 7) / 8;
}

bool dtype_is_float(DType t) {
  return t == DType::kF32 || t == DType::kF64 || t == DType::kF16 || t == DType::kBF16;
}

bool dtype_is_integer(DType t) {
  switch (t) {
    case DType::kI8: case DType::kI16: case DType::kI32: case DType::kI64:
    case DType::kU8: case DType::kU16: case DType::kU32: case DType::kU64: return true;
    default: return false;
  }
}

bool dtype_is_signed(DType t) {
  return dtype_is_float(t) || t == DType::kI8 || t == DType::kI16 || t == DType::kI32 ||
         t == DType::kI64;
}

bool dtype_is_minifloat(DType t) {
  switch (t) {
    case DType::kF8E4M3FN: case DType::kF8E4M3FNUZ: case DType::kF8E5M2: case DType::kF8E5M2FNUZ:
    case DType::kF8E8M0: case DType::kF4E2M1: return true;
    default: return false;
  }
}

bool dtype_is_packed_integer(DType t) {
  return t == DType::kI4 || t == DType::kU4 || t == DType::kI2 || t == DType::kU2;
}

bool dtype_is_computable(DType t) {
  return dtype_is_float(t) || dtype_is_integer(t) || t == DType::kBool;
}

}  // namespace gk

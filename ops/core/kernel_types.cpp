#include "ops/core/kernel_types.h"

#include <cstring>

namespace gk {

const char* kernel_type_name(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF64: return "double";
    case DType::kF16: return "gk_half";
    case DType::kBF16: return "gk_bf16";
    case DType::kI8: return "int8_t";
    case DType::kI16: return "int16_t";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    case DType::kU8: return "uint8_t";
    case DType::kU16: return "uint16_t";
    case DType::kU32: return "uint32_t";
    case DType::kU64: return "uint64_t";
    case DType::kBool: return "bool";
    default: return nullptr;
  }
}

const char* storage_kernel_type_name(DType t) {
  if (const char* name = kernel_type_name(t)) return name;
  switch (t) {
    case DType::kF8E4M3FN: return "gk_f8e4m3fn";
    case DType::kF8E4M3FNUZ: return "gk_f8e4m3fnuz";
    case DType::kF8E5M2: return "gk_f8e5m2";
    case DType::kF8E5M2FNUZ: return "gk_f8e5m2fnuz";
    case DType::kF8E8M0: return "gk_f8e8m0";
    case DType::kF4E2M1: return "gk_f4e2m1x2";
    case DType::kI4: return "gk_int4x2";
    case DType::kU4: return "gk_uint4x2";
    case DType::kI2: return "gk_int2x4";
    case DType::kU2: return "gk_uint2x4";
    default: return nullptr;
  }
}

bool push_element(KernelArgs& args, DType t, const void* element) {
  switch (t) {
    case DType::kF32: {
      float v;
      std::memcpy(&v, element, 4);
      args.f32(v);
      return true;
    }
    case DType::kF64: {
      double v;
      std::memcpy(&v, element, 8);
      args.f64(v);
      return true;
    }
    case DType::kI32:
    case DType::kU32: {
      int32_t v;
      std::memcpy(&v, element, 4);
      args.i32(v);
      return true;
    }
    case DType::kI64:
    case DType::kU64: {
      int64_t v;
      std::memcpy(&v, element, 8);
      args.i64(v);
      return true;
    }
    case DType::kBool:
    case DType::kI8:
    case DType::kU8: {
      uint8_t v;
      std::memcpy(&v, element, 1);
      args.pod(v);
      return true;
    }
    case DType::kI16:
    case DType::kU16:
    case DType::kF16:
    case DType::kBF16: {
      uint16_t v;
      std::memcpy(&v, element, 2);
      args.pod(v);
      return true;
    }
    default: return false;
  }
}

std::string type_set_names(TypeSet set) {
  std::string out;
  for (int code = 0; code < 64; ++code) {
    if (!(set & (TypeSet{1} << code))) continue;
    auto t = dtype_from_code(code);
    if (!t.ok()) continue;
    if (!out.empty()) out += ", ";
    out += dtype_name(t.value());
  }
  return out;
}

}  // namespace gk

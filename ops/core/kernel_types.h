// DType → the element type's name in kernel sources ("float", "gk_half", ...), for
// building launch entries such as "gk_binary<gk_op_add, float>", and the helper
// that passes one element of a dtype by value as a kernel argument.
#pragma once

#include "backends/dtype.h"
#include "backends/kernel_args.h"

#include <cstdint>
#include <string>

namespace gk {

// nullptr for types kernels do not compute on (string, float8, int4, undefined).
const char* kernel_type_name(DType t);
// kernel_type_name's name, else the storage struct of a float8/e8m0 or packed
// 4-/2-bit type (ops/cast/cast.cuh) that Cast and the quantization kernels
// read and write; nullptr for string and undefined.
const char* storage_kernel_type_name(DType t);

// Pushes one element (its raw bytes, `dtype_storage_bytes(t, 1)` of them) as the
// kernel parameter a `T` argument expects: f32/f64/i32/u32/i64/u64 as their
// scalar kinds, 1- and 2-byte types (bool, i8, u8, i16, u16, f16, bf16) by value.
// False for a type kernel_type_name does not know.
bool push_element(KernelArgs& args, DType t, const void* element);

// Sets of element types an op accepts, one bit per DType code.
using TypeSet = uint64_t;
constexpr TypeSet type_bit(DType t) { return TypeSet{1} << static_cast<int>(t); }
constexpr TypeSet kFloatTypes =
    type_bit(DType::kF32) | type_bit(DType::kF64) | type_bit(DType::kF16) | type_bit(DType::kBF16);
constexpr TypeSet kSignedIntTypes =
    type_bit(DType::kI8) | type_bit(DType::kI16) | type_bit(DType::kI32) | type_bit(DType::kI64);
constexpr TypeSet kUnsignedIntTypes =
    type_bit(DType::kU8) | type_bit(DType::kU16) | type_bit(DType::kU32) | type_bit(DType::kU64);
constexpr TypeSet kIntTypes = kSignedIntTypes | kUnsignedIntTypes;
constexpr TypeSet kNumericTypes = kFloatTypes | kIntTypes;
constexpr TypeSet kBoolType = type_bit(DType::kBool);
inline bool type_in(DType t, TypeSet set) {
  return static_cast<int>(t) >= 0 && static_cast<int>(t) < 64 && (set & type_bit(t)) != 0;
}
// "float32, int64, ..." for messages.
std::string type_set_names(TypeSet set);

}  // namespace gk

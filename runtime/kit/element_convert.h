// Private to runtime/kit: host-side element conversion between stored element
// types and f64/i64 values, shared by HostTensor and GkBuf's converting copies.
// f16/bf16 round to nearest even through float, exactly as kernel_prelude.cuh's
// gk_half/gk_bf16 do on both backends.
#pragma once

#include "backends/dtype.h"

#include <cstdint>

namespace gk::kit_detail {

// Reads n elements of type t. Floats to integers truncate toward zero and
// saturate (NaN reads as 0); bool reads as 0/1. Returns the index of the first
// u64 element above INT64_MAX in decode_i64 (those wrap), else -1.
void decode_f64(DType t, const void* src, double* dst, int64_t n);
int64_t decode_i64(DType t, const void* src, int64_t* dst, int64_t n);
// The same from element `first` of the buffer at `base` (4-/2-bit types have no
// byte address of their own). Storage-only types decode too: float8/float4/e8m0
// exactly to f64 (read as i64 they truncate like floats), packed integers to
// their values. Other unknown types read as NaN / 0.
void decode_f64_at(DType t, const void* base, int64_t first, double* dst, int64_t n);
int64_t decode_i64_at(DType t, const void* base, int64_t first, int64_t* dst, int64_t n);
// Whether decode_* know the type (every fixed-width ONNX type we hold).
bool decodable(DType t);

// Writes n elements of type t. Doubles to integers truncate and saturate (NaN
// writes 0); nonzero writes bool true. encode_i64 returns the index of the first
// value outside an integer type's range (nothing is written from it on), else -1.
void encode_f64(DType t, const double* src, void* dst, int64_t n);
int64_t encode_i64(DType t, const int64_t* src, void* dst, int64_t n);

// Inclusive range of an integer type as text, for error messages ("[-128, 127]").
const char* integer_range_text(DType t);

}  // namespace gk::kit_detail

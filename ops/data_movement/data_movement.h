// Host helpers shared by the data-movement and gather/scatter op files: launch
// entries built from element widths, byte copies and fills that run as kernels on
// the stream (ordered, and captured by CUDA Graphs, unlike host copies), strided
// copies with dims merged before launch, axis normalisation, and each op file's
// registration table.
#pragma once

#include "ops/common/indexing.h"
#include "ops/core/op.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gk::dm {

// Mirrors gk_pad_map in ops/data_movement/data_movement.cuh (static_asserts in data_movement.cpp).
struct PadMap {
  int32_t rank = 0;
  int32_t mode = 0;  // 0 constant, 1 reflect, 2 edge, 3 wrap
  int64_t out_dims[kMaxRank] = {};
  int64_t in_dims[kMaxRank] = {};
  int64_t in_strides[kMaxRank] = {};
  int64_t begin[kMaxRank] = {};
};

// "uint8_t".."uint64_t" for 1/2/4/8 bytes.
const char* width_name(size_t bytes);
// Bytes of one element, or Unimplemented naming the node for types that are not
// whole bytes (int4), strings and undefined.
Result<size_t> element_bytes(const NodeView& node, DType t);
// The element type's kernel name (ops/core/kernel_types.h), or Unimplemented naming the node.
Result<const char*> type_name(const NodeView& node, DType t, std::string_view what);
// "name<a>", "name<a, b>", "name<a, b, c>": the spelling the CPU tables stringify,
// formatted only when a step first resolves the kernel. The arguments must outlive
// the name (type names are static; a temporary lives to the end of the launch call).
KernelName entry(std::string_view name, std::string_view a);
KernelName entry(std::string_view name, std::string_view a, std::string_view b);
KernelName entry(std::string_view name, std::string_view a, std::string_view b, std::string_view c);

// The raw bit pattern of element i (at most 8 bytes) / of the value 1 in `t`.
uint64_t element_bits(const HostTensor& t, int64_t i);
Result<uint64_t> one_bits(const NodeView& node, DType t);
// The bit pattern of `v` converted to `t` (integers truncate and saturate, f16/bf16
// round to nearest even as the kernels do); Unimplemented for other types.
Result<uint64_t> bits_from_double(const NodeView& node, DType t, double v);

// Byte copy as a kernel; nothing when dst == src or bytes == 0.
Status copy_bytes(KernelContext& ctx, DevPtr dst, DevPtr src, size_t bytes);
// Output `o` takes input `i`'s bytes: what aliasing ops do when not aliased.
Status copy_input(KernelContext& ctx, size_t i, size_t o);
// n elements of `esize` bytes set to the pattern `bits`.
Status fill(KernelContext& ctx, DevPtr dst, size_t esize, int64_t n, uint64_t bits);
// Host bytes written through launch parameters (64 per launch): small values only.
Status write_bytes(KernelContext& ctx, DevPtr dst, const void* data, size_t bytes);
// dst (contiguous, out_shape) = src read through src_strides (elements). Dims of
// size 1 are dropped and contiguous runs merged before launch; the inner run is
// widened to 8/4/2-byte words where alignment allows.
Status strided_copy(KernelContext& ctx, size_t esize, DevPtr src, const Shape& out_shape,
                    std::vector<int64_t> src_strides, DevPtr dst);
// rows x row_len block copy with element strides, widened like strided_copy.
Status copy_rows(KernelContext& ctx, size_t esize, DevPtr src, int64_t src_stride, DevPtr dst,
                 int64_t dst_stride, int64_t rows, int64_t row_len);

// axis in [-rank, rank) → [0, rank); InvalidModel naming the node otherwise.
Result<int64_t> normalize_axis(const NodeView& node, int64_t axis, int64_t rank, std::string_view what = "axis");
// Reads an int64 list from host-known input i (InvalidModel when unknown).
Result<std::vector<int64_t>> host_ints(const InferContext& ctx, size_t i);

template <typename T>
Result<ParsedAttrs> make_attrs(T value) {
  return ParsedAttrs(std::make_shared<const T>(std::move(value)));
}

}  // namespace gk::dm

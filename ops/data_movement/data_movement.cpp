#include "ops/data_movement/data_movement.h"

#include "backends/kernel_prelude.cuh"  // gk_half / gk_bf16 conversions on the host

#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <limits>

namespace gk {
namespace dm {

static_assert(sizeof(PadMap) == 8 + 4 * 8 * kMaxRank, "PadMap must match gk_pad_map");
static_assert(offsetof(PadMap, out_dims) == 8 && offsetof(PadMap, begin) == 8 + 3 * 8 * kMaxRank);

namespace {

struct Bytes64 {
  uint8_t b[64];
};

// The widest word (8/4/2/1 bytes, at least `esize`) that divides every value.
size_t widest_word(size_t esize, std::initializer_list<uint64_t> values) {
  for (size_t w : {size_t{8}, size_t{4}, size_t{2}}) {
    if (w < esize) break;
    bool ok = true;
    for (uint64_t v : values) ok = ok && v % w == 0;
    if (ok) return w;
  }
  return esize;
}

Status launch_copy(KernelContext& ctx, DevPtr dst, DevPtr src, size_t bytes) {
  size_t w = widest_word(1, {dst, src, bytes});
  int64_t n = static_cast<int64_t>(bytes / w);
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_copy", width_name(w)), grid_for(n),
                    KernelArgs().ptr(src).ptr(dst).i64(n));
}

}  // namespace

const char* width_name(size_t bytes) {
  switch (bytes) {
    case 1: return "uint8_t";
    case 2: return "uint16_t";
    case 4: return "uint32_t";
    default: return "uint64_t";
  }
}

Result<size_t> element_bytes(const NodeView& node, DType t) {
  int bits = dtype_bits(t);
  if (bits == 0 || bits % 8 != 0 || bits > 64)
    return unimplemented("{}: element type {} is not supported here (whole-byte types of 1 to 8 bytes)",
                         node.describe(), dtype_name(t));
  return static_cast<size_t>(bits / 8);
}

Result<const char*> type_name(const NodeView& node, DType t, std::string_view what) {
  const char* name = kernel_type_name(t);
  if (!name) return unimplemented("{}: {} of type {} is not supported", node.describe(), what, dtype_name(t));
  return name;
}

KernelName entry(std::string_view name, std::string_view a) { return KernelName::templated(name, {a}); }
KernelName entry(std::string_view name, std::string_view a, std::string_view b) {
  return KernelName::templated(name, {a, b});
}
KernelName entry(std::string_view name, std::string_view a, std::string_view b, std::string_view c) {
  return KernelName::templated(name, {a, b, c});
}

uint64_t element_bits(const HostTensor& t, int64_t i) {
  uint64_t bits = 0;
  size_t esize = std::min<size_t>(8, std::max(1, dtype_bits(t.dtype()) / 8));
  if (i < t.numel() && t.raw()) std::memcpy(&bits, static_cast<const uint8_t*>(t.raw()) + i * esize, esize);
  return bits;
}

Result<uint64_t> one_bits(const NodeView& node, DType t) {
  switch (t) {
    case DType::kF32: return uint64_t{0x3f800000u};
    case DType::kF64: return uint64_t{0x3ff0000000000000ull};
    case DType::kF16: return uint64_t{0x3c00u};
    case DType::kBF16: return uint64_t{0x3f80u};
    case DType::kBool:
    case DType::kI8:
    case DType::kI16:
    case DType::kI32:
    case DType::kI64:
    case DType::kU8:
    case DType::kU16:
    case DType::kU32:
    case DType::kU64: return uint64_t{1};
    default:
      return unimplemented("{}: the value 1 of type {} is not supported", node.describe(), dtype_name(t));
  }
}

namespace {
template <typename T>
uint64_t pattern_of(T v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <typename T>
uint64_t saturated(double v) {
  if (!(v == v)) return 0;
  double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  double hi = static_cast<double>(std::numeric_limits<T>::max());
  if (v <= lo) return pattern_of(std::numeric_limits<T>::lowest());
  if (v >= hi) return pattern_of(std::numeric_limits<T>::max());
  return pattern_of(static_cast<T>(v));
}
}  // namespace

Result<uint64_t> bits_from_double(const NodeView& node, DType t, double v) {
  switch (t) {
    case DType::kF32: return pattern_of(static_cast<float>(v));
    case DType::kF64: return pattern_of(v);
    case DType::kF16: return uint64_t{gk_half(static_cast<float>(v)).bits};
    case DType::kBF16: return uint64_t{gk_bf16(static_cast<float>(v)).bits};
    case DType::kBool: return uint64_t{v != 0 ? 1u : 0u};
    case DType::kI8: return saturated<int8_t>(v);
    case DType::kI16: return saturated<int16_t>(v);
    case DType::kI32: return saturated<int32_t>(v);
    case DType::kI64: return saturated<int64_t>(v);
    case DType::kU8: return saturated<uint8_t>(v);
    case DType::kU16: return saturated<uint16_t>(v);
    case DType::kU32: return saturated<uint32_t>(v);
    case DType::kU64: return saturated<uint64_t>(v);
    default:
      return unimplemented("{}: a value of type {} is not supported here", node.describe(), dtype_name(t));
  }
}

Status copy_bytes(KernelContext& ctx, DevPtr dst, DevPtr src, size_t bytes) {
  if (bytes == 0 || dst == src) return ok_status();
  return launch_copy(ctx, dst, src, bytes);
}

Status copy_input(KernelContext& ctx, size_t i, size_t o) {
  const TensorRef& in = ctx.in(i);
  const TensorRef& out = ctx.out(o);
  return copy_bytes(ctx, out.ptr, in.ptr, dtype_storage_bytes(in.dtype, in.numel()));
}

Status fill(KernelContext& ctx, DevPtr dst, size_t esize, int64_t n, uint64_t bits) {
  if (n <= 0) return ok_status();
  // A pattern made of one repeated byte (zeros above all) fills as wide words.
  uint64_t byte = bits & 0xffu;
  bool one_byte = true;
  for (size_t b = 1; b < esize; ++b) one_byte = one_byte && ((bits >> (8 * b)) & 0xffu) == byte;
  size_t w = esize;
  uint64_t pattern = bits;
  if (one_byte) {
    w = widest_word(1, {dst, static_cast<uint64_t>(n) * esize});
    pattern = byte * 0x0101010101010101ull;
    n = static_cast<int64_t>(static_cast<uint64_t>(n) * esize / w);
  }
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_fill", width_name(w)), grid_for(n),
                    KernelArgs().ptr(dst).i64(static_cast<int64_t>(pattern)).i64(n));
}

Status write_bytes(KernelContext& ctx, DevPtr dst, const void* data, size_t bytes) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t at = 0; at < bytes; at += sizeof(Bytes64)) {
    Bytes64 chunk{};
    size_t n = std::min(bytes - at, sizeof(Bytes64));
    std::memcpy(chunk.b, p + at, n);
    GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::data_movement, "gk_dm_write_bytes",
                                  grid_for(static_cast<int64_t>(n)),
                                  KernelArgs().ptr(dst + at).pod(chunk).i64(static_cast<int64_t>(n))));
  }
  return ok_status();
}

Status strided_copy(KernelContext& ctx, size_t esize, DevPtr src, const Shape& out_shape,
                    std::vector<int64_t> src_strides, DevPtr dst) {
  const int64_t n = numel(out_shape);
  if (n == 0) return ok_status();
  // Drop size-1 dims, then merge each dim into its inner neighbour when contiguous.
  std::vector<int64_t> dims, strides;
  for (size_t d = 0; d < out_shape.size(); ++d) {
    if (out_shape[d] == 1) continue;
    if (!dims.empty() && strides.back() == src_strides[d] * out_shape[d]) {
      dims.back() *= out_shape[d];
      strides.back() = src_strides[d];
      continue;
    }
    dims.push_back(out_shape[d]);
    strides.push_back(src_strides[d]);
  }
  if (dims.empty() || (dims.size() == 1 && strides[0] == 1))
    return copy_bytes(ctx, dst, src, static_cast<size_t>(n) * esize);
  // Widen the contiguous inner run to words.
  size_t w = esize;
  if (strides.back() == 1) {
    std::vector<uint64_t> vals{src, dst, static_cast<uint64_t>(dims.back()) * esize};
    for (size_t d = 0; d + 1 < dims.size(); ++d) vals.push_back(static_cast<uint64_t>(strides[d]) * esize);
    for (size_t cand : {size_t{8}, size_t{4}, size_t{2}}) {
      if (cand <= esize) break;
      if (std::all_of(vals.begin(), vals.end(), [&](uint64_t v) { return v % cand == 0; })) {
        w = cand;
        break;
      }
    }
    if (w != esize) {
      const int64_t ratio = static_cast<int64_t>(w / esize);
      dims.back() /= ratio;
      for (size_t d = 0; d + 1 < dims.size(); ++d) strides[d] /= ratio;
    }
  }
  if (dims.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("{}: a copy over {} non-mergeable dims exceeds the supported rank {}",
                         ctx.node().describe(), dims.size(), kMaxRank);
  IndexMap map;
  map.rank = static_cast<int32_t>(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    map.dims[d] = dims[d];
    map.strides[d] = strides[d];
  }
  const int64_t words = static_cast<int64_t>(static_cast<uint64_t>(n) * esize / w);
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_strided", width_name(w)), grid_for(words),
                    KernelArgs().ptr(src).ptr(dst).pod(map).i64(words));
}

Status copy_rows(KernelContext& ctx, size_t esize, DevPtr src, int64_t src_stride, DevPtr dst,
                 int64_t dst_stride, int64_t rows, int64_t row_len) {
  if (rows == 0 || row_len == 0) return ok_status();
  if (rows == 1 || (src_stride == row_len && dst_stride == row_len))
    return copy_bytes(ctx, dst, src, static_cast<size_t>(rows * row_len) * esize);
  size_t w = widest_word(esize, {src, dst, static_cast<uint64_t>(row_len) * esize,
                                 static_cast<uint64_t>(src_stride) * esize,
                                 static_cast<uint64_t>(dst_stride) * esize});
  const int64_t ratio = static_cast<int64_t>(w / esize);
  const int64_t len = row_len / ratio, n = rows * len;
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_copy_rows", width_name(w)), grid_for(n),
                    KernelArgs().ptr(src).ptr(dst).i64(len).i64(src_stride / ratio).i64(dst_stride / ratio).i64(n));
}

Result<int64_t> normalize_axis(const NodeView& node, int64_t axis, int64_t rank, std::string_view what) {
  if (axis < -rank || axis >= rank)
    return invalid_model("{}: {} {} is out of range [{}, {}] for rank {}", node.describe(), what, axis, -rank,
                         rank - 1, rank);
  return axis < 0 ? axis + rank : axis;
}

Result<std::vector<int64_t>> host_ints(const InferContext& ctx, size_t i) {
  GK_TRY(const HostTensor* t, ctx.value(i));
  if (!dtype_is_integer(t->dtype()))
    return ctx.fail(fmt::format("input {} must be an integer tensor, got {}", i, dtype_name(t->dtype())));
  return t->to_i64_vector();
}

}  // namespace dm
}  // namespace gk

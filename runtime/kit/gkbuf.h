// GkBuf: an element-typed device allocation. Its last owner returns the block to
// the kit's pool; each GkBuf holds its kit's state, so the device outlives its
// memory whatever order owners go in. Views hold their parent's block.
#pragma once

#include "backends/device.h"
#include "backends/dtype.h"
#include "runtime/kit/host_tensor.h"

#include <memory>
#include <span>

namespace gk {

namespace kit_detail {
struct KitState;
struct Block;  // a pooled allocation, shared by a buffer and its views
}  // namespace kit_detail

class GkBuf {
 public:
  GkBuf() = default;  // the "none" buffer: an absent optional operand
  static GkBuf none() { return {}; }
  // Wraps a foreign device pointer; owns nothing, frees nothing.
  static GkBuf wrap(DType dtype, int64_t count, DevPtr ptr);

  bool is_none() const { return ptr_ == 0 && count_ == 0 && dtype_ == DType::kUndefined; }
  DType dtype() const { return dtype_; }
  int64_t count() const { return count_; }
  size_t bytes() const { return dtype_storage_bytes(dtype_, count_); }
  DevPtr ptr() const { return ptr_; }
  bool owns_memory() const { return block_ != nullptr; }

  // Elements [offset, offset+count) of this buffer; holds the parent block.
  Result<GkBuf> view(int64_t offset, int64_t count) const;
  // The bytes from byte_offset on, read as `dtype` (count elements).
  Result<GkBuf> reinterpret(DType dtype, size_t byte_offset, int64_t count) const;

  // Raw: bytes already in the element type, one copy, no staging allocation.
  Status upload_raw(const void* src, size_t bytes);
  Status download_raw(void* dst, size_t bytes) const;  // synchronises the stream
  // Converting: from/to f64 and i64 host values (i64 exact for every integer type).
  Status upload_f64(std::span<const double> values);
  Status upload_i64(std::span<const int64_t> values);
  Result<std::vector<double>> download_f64() const;
  Result<std::vector<int64_t>> download_i64() const;
  Result<HostTensor> download(Shape shape) const;

 private:
  friend class Kit;
  GkBuf(std::shared_ptr<kit_detail::Block> block, DType dtype, int64_t count, DevPtr ptr)
      : block_(std::move(block)), dtype_(dtype), count_(count), ptr_(ptr) {}
  Device* device() const;

  std::shared_ptr<kit_detail::Block> block_;
  DType dtype_ = DType::kUndefined;
  int64_t count_ = 0;
  DevPtr ptr_ = 0;
};

}  // namespace gk

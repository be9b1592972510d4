#include "runtime/kit/gkbuf.h"

#include "runtime/kit/element_convert.h"
#include "runtime/kit/kit_state.h"

#include <vector>

namespace gk {

GkBuf GkBuf::wrap(DType dtype, int64_t count, DevPtr ptr) { return GkBuf(nullptr, dtype, count, ptr); }

Device* GkBuf::device() const { return block_ ? block_->kit->device.get() : nullptr; }

Result<GkBuf> GkBuf::view(int64_t offset, int64_t count) const {
  if (offset < 0 || count < 0 || offset > count_ || count > count_ - offset)
    return out_of_range(
        "GkBuf::view: offset {} count {} reaches outside the buffer's elements [0, {}) ({})", offset,
        count, count_, dtype_name(dtype_));
  const int bits = dtype_bits(dtype_);
  if ((offset * bits) % 8 != 0)
    return invalid_argument("GkBuf::view: element {} of a {} buffer does not start on a byte",
                            offset, dtype_name(dtype_));
  return GkBuf(block_, dtype_, count, ptr_ + static_cast<DevPtr>(offset * bits / 8));
}

Result<GkBuf> GkBuf::reinterpret(DType dtype, size_t byte_offset, int64_t count) const {
  if (dtype_bits(dtype) == 0)
    return invalid_argument("GkBuf::reinterpret: element type {} has no storage", dtype_name(dtype));
  if (count < 0)
    return invalid_argument("GkBuf::reinterpret: element count {} must be >= 0", count);
  const size_t have = bytes();
  const size_t want = dtype_storage_bytes(dtype, count);
  if (byte_offset > have || want > have - byte_offset)
    return out_of_range(
        "GkBuf::reinterpret: bytes [{}, {}) ({} x {}) are outside the buffer's [0, {}) ({} x {})",
        byte_offset, byte_offset + want, count, dtype_name(dtype), have, count_, dtype_name(dtype_));
  return GkBuf(block_, dtype, count, ptr_ + static_cast<DevPtr>(byte_offset));
}

namespace {

Status no_device(const char* what) {
  return invalid_argument(
      "GkBuf::{}: the buffer has no kit (a wrapped pointer or none); copy through its device", what);
}

Status check_size(const char* what, size_t got, size_t want, DType dtype, int64_t count) {
  if (got != want)
    return invalid_argument("GkBuf::{}: {} bytes given, the buffer holds {} ({} x {})", what, got,
                            want, count, dtype_name(dtype));
  return ok_status();
}

Status check_convertible(const char* what, DType dtype) {
  if (!dtype_is_computable(dtype))
    return unimplemented("GkBuf::{}: {} is storage-only; use the raw copies", what,
                         dtype_name(dtype));
  return ok_status();
}

}  // namespace

Status GkBuf::upload_raw(const void* src, size_t bytes) {
  GK_RETURN_IF_ERROR(check_size("upload_raw", bytes, this->bytes(), dtype_, count_));
  if (bytes == 0) return ok_status();
  Device* dev = device();
  if (!dev) return no_device("upload_raw");
  return dev->upload(ptr_, src, bytes);
}

Status GkBuf::download_raw(void* dst, size_t bytes) const {
  GK_RETURN_IF_ERROR(check_size("download_raw", bytes, this->bytes(), dtype_, count_));
  if (bytes == 0) return ok_status();
  Device* dev = device();
  if (!dev) return no_device("download_raw");
  return dev->download(dst, ptr_, bytes);
}

Status GkBuf::upload_f64(std::span<const double> values) {
  GK_RETURN_IF_ERROR(check_convertible("upload_f64", dtype_));
  if (static_cast<int64_t>(values.size()) != count_)
    return invalid_argument("GkBuf::upload_f64: {} values given, the buffer holds {} x {}",
                            values.size(), count_, dtype_name(dtype_));
  std::vector<uint8_t> staged(bytes());
  kit_detail::encode_f64(dtype_, values.data(), staged.data(), count_);
  return upload_raw(staged.data(), staged.size());
}

Status GkBuf::upload_i64(std::span<const int64_t> values) {
  GK_RETURN_IF_ERROR(check_convertible("upload_i64", dtype_));
  if (static_cast<int64_t>(values.size()) != count_)
    return invalid_argument("GkBuf::upload_i64: {} values given, the buffer holds {} x {}",
                            values.size(), count_, dtype_name(dtype_));
  std::vector<uint8_t> staged(bytes());
  int64_t bad = kit_detail::encode_i64(dtype_, values.data(), staged.data(), count_);
  if (bad >= 0)
    return out_of_range("GkBuf::upload_i64: value {} at index {} does not fit {} {}", values[bad], bad,
                        dtype_name(dtype_), kit_detail::integer_range_text(dtype_));
  return upload_raw(staged.data(), staged.size());
}

Result<std::vector<double>> GkBuf::download_f64() const {
  GK_RETURN_IF_ERROR(check_convertible("download_f64", dtype_));
  std::vector<uint8_t> staged(bytes());
  GK_RETURN_IF_ERROR(download_raw(staged.data(), staged.size()));
  std::vector<double> out(static_cast<size_t>(count_));
  kit_detail::decode_f64(dtype_, staged.data(), out.data(), count_);
  return out;
}

Result<std::vector<int64_t>> GkBuf::download_i64() const {
  GK_RETURN_IF_ERROR(check_convertible("download_i64", dtype_));
  std::vector<uint8_t> staged(bytes());
  GK_RETURN_IF_ERROR(download_raw(staged.data(), staged.size()));
  std::vector<int64_t> out(static_cast<size_t>(count_));
  int64_t wrap = kit_detail::decode_i64(dtype_, staged.data(), out.data(), count_);
  if (wrap >= 0)
    return out_of_range("GkBuf::download_i64: uint64 value {} at index {} does not fit int64",
                        static_cast<uint64_t>(out[wrap]), wrap);
  return out;
}

Result<HostTensor> GkBuf::download(Shape shape) const {
  GK_TRY(int64_t n, checked_numel(shape));
  if (n != count_)
    return invalid_argument("GkBuf::download: shape {} has {} elements, the buffer holds {} x {}",
                            shape_str(shape), n, count_, dtype_name(dtype_));
  GK_TRY(HostTensor t, HostTensor::allocate(dtype_, std::move(shape)));
  GK_RETURN_IF_ERROR(download_raw(t.mutable_bytes(), t.bytes()));
  return t;
}

}  // namespace gk

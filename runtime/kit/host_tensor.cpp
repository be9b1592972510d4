#include "runtime/kit/host_tensor.h"

#include "runtime/kit/element_convert.h"

#include <cassert>

namespace gk {
namespace {

Status check_storage_dtype(DType dtype, const char* what) {
  if (dtype == DType::kString)
    return invalid_argument("HostTensor::{}: string tensors hold values, not bytes (use strings())",
                            what);
  if (dtype_bits(dtype) == 0)
    return invalid_argument("HostTensor::{}: element type {} has no storage", what,
                            dtype_name(dtype));
  return ok_status();
}

}  // namespace

Result<HostTensor> HostTensor::allocate(DType dtype, Shape shape) {
  GK_RETURN_IF_ERROR(check_storage_dtype(dtype, "allocate"));
  GK_TRY(int64_t n, checked_numel(shape));
  if (static_cast<uint64_t>(n) > SIZE_MAX / 64)
    return resource_exhausted("HostTensor::allocate: {} elements of {} ({}) do not fit in memory", n,
                              dtype_name(dtype), shape_str(shape));
  HostTensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = n;
  t.bytes_ = dtype_storage_bytes(dtype, n);
  // At least one byte, so an allocated tensor always has storage (data() != null)
  // even with zero elements.
  std::shared_ptr<uint8_t[]> storage(new (std::nothrow) uint8_t[std::max<size_t>(t.bytes_, 1)]());
  if (!storage)
    return resource_exhausted("HostTensor::allocate: out of host memory for {} bytes ({} {})",
                              t.bytes_, dtype_name(dtype), shape_str(t.shape_));
  t.data_ = storage.get();
  t.owner_ = std::shared_ptr<const void>(storage, storage.get());
  t.writable_ = true;
  return t;
}

Result<HostTensor> HostTensor::from_bytes(DType dtype, Shape shape, const void* data, size_t bytes) {
  GK_RETURN_IF_ERROR(check_storage_dtype(dtype, "from_bytes"));
  GK_TRY(int64_t n, checked_numel(shape));
  size_t want = dtype_storage_bytes(dtype, n);
  if (bytes != want)
    return invalid_argument("HostTensor::from_bytes: {} {} needs {} bytes, got {}", dtype_name(dtype),
                            shape_str(shape), want, bytes);
  GK_TRY(HostTensor t, allocate(dtype, std::move(shape)));
  if (bytes) std::memcpy(t.mutable_bytes(), data, bytes);
  return t;
}

Result<HostTensor> HostTensor::borrow(DType dtype, Shape shape, std::shared_ptr<const void> owner,
                                      const void* data, size_t bytes) {
  GK_RETURN_IF_ERROR(check_storage_dtype(dtype, "borrow"));
  GK_TRY(int64_t n, checked_numel(shape));
  size_t want = dtype_storage_bytes(dtype, n);
  if (bytes != want)
    return invalid_argument("HostTensor::borrow: {} {} needs {} bytes, got {}", dtype_name(dtype),
                            shape_str(shape), want, bytes);
  if (bytes && !data)
    return invalid_argument("HostTensor::borrow: null data for {} bytes", bytes);
  HostTensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.numel_ = n;
  t.bytes_ = bytes;
  t.owner_ = std::move(owner);
  t.data_ = data;
  t.writable_ = false;
  return t;
}

HostTensor HostTensor::strings(Shape shape, std::vector<std::string> values) {
  HostTensor t;
  t.dtype_ = DType::kString;
  t.shape_ = std::move(shape);
  t.numel_ = static_cast<int64_t>(values.size());
  t.strings_ = std::move(values);
  return t;
}

void* HostTensor::mutable_bytes() {
  assert(writable_ && "mutable_bytes() on a borrowed or string tensor");
  return writable_ ? const_cast<void*>(data_) : nullptr;
}

double HostTensor::as_f64(int64_t i) const {
  assert(i >= 0 && i < numel_);
  double v;
  kit_detail::decode_f64_at(dtype_, data_, i, &v, 1);
  return v;
}

int64_t HostTensor::as_i64(int64_t i) const {
  assert(i >= 0 && i < numel_);
  int64_t v;
  (void)kit_detail::decode_i64_at(dtype_, data_, i, &v, 1);
  return v;
}

std::vector<int64_t> HostTensor::to_i64_vector() const {
  if (!kit_detail::decodable(dtype_)) return std::vector<int64_t>(static_cast<size_t>(numel_), 0);
  std::vector<int64_t> out(static_cast<size_t>(numel_));
  (void)kit_detail::decode_i64(dtype_, data_, out.data(), numel_);
  return out;
}

std::vector<double> HostTensor::to_f64_vector() const {
  std::vector<double> out(static_cast<size_t>(numel_));
  if (!kit_detail::decodable(dtype_)) {
    kit_detail::decode_f64(dtype_, nullptr, out.data(), numel_);  // NaN for non-numbers
    return out;
  }
  kit_detail::decode_f64(dtype_, data_, out.data(), numel_);
  return out;
}

Result<HostTensor> HostTensor::reshaped(Shape shape) const {
  GK_TRY(int64_t n, checked_numel(shape));
  if (n != numel_)
    return invalid_argument("HostTensor::reshaped: {} has {} elements, {} has {}", shape_str(shape_),
                            numel_, shape_str(shape), n);
  HostTensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

Result<HostTensor> canonical_bools(HostTensor t) {
  if (t.dtype() != DType::kBool || t.numel() == 0) return t;
  const uint8_t* p = static_cast<const uint8_t*>(t.raw());
  int64_t i = 0;
  while (i < t.numel() && p[i] <= 1) ++i;
  if (i == t.numel()) return t;
  GK_TRY(HostTensor out, HostTensor::allocate(DType::kBool, t.shape()));
  uint8_t* q = static_cast<uint8_t*>(out.mutable_bytes());
  for (int64_t k = 0; k < t.numel(); ++k) q[k] = p[k] != 0;
  return out;
}

}  // namespace gk

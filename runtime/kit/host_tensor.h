// A tensor in host memory: initializers, constant-folded values, user inputs and
// downloaded outputs. Storage is shared and may alias a memory-mapped file.
#pragma once

#include "backends/dtype.h"
#include "runtime/kit/shape.h"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gk {

class HostTensor {
 public:
  HostTensor() = default;
  // Zero-filled, writable.
  static Result<HostTensor> allocate(DType dtype, Shape shape);
  // Copies `bytes` (must be dtype_storage_bytes(dtype, numel)).
  static Result<HostTensor> from_bytes(DType dtype, Shape shape, const void* data, size_t bytes);
  // Borrows memory kept alive by `owner` (e.g. a mapped external-data file).
  static Result<HostTensor> borrow(DType dtype, Shape shape, std::shared_ptr<const void> owner,
                                   const void* data, size_t bytes);
  static HostTensor strings(Shape shape, std::vector<std::string> values);
  template <typename T>
  static HostTensor from_vector(DType dtype, Shape shape, const std::vector<T>& values) {
    auto t = allocate(dtype, std::move(shape));
    HostTensor out = std::move(t).value();
    // memcpy from an empty vector's data() (null) is undefined even for 0 bytes (UBSan).
    size_t n = std::min(out.bytes(), values.size() * sizeof(T));
    if (n) std::memcpy(out.mutable_bytes(), values.data(), n);
    return out;
  }

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  size_t bytes() const { return bytes_; }
  bool empty_storage() const { return data_ == nullptr; }

  const void* raw() const { return data_; }
  void* mutable_bytes();  // only for tensors made by allocate/from_bytes
  template <typename T>
  const T* data() const { return static_cast<const T*>(data_); }
  template <typename T>
  T* mutable_data() { return static_cast<T*>(mutable_bytes()); }
  const std::vector<std::string>& string_values() const { return strings_; }

  // Element i converted to double / int64 (any computable dtype, and the
  // storage-only float8/float4/e8m0 and packed 4-/2-bit integers by value).
  double as_f64(int64_t i) const;
  int64_t as_i64(int64_t i) const;
  // All elements as int64 (shape inputs: Reshape shape, Slice starts, ...).
  std::vector<int64_t> to_i64_vector() const;
  std::vector<double> to_f64_vector() const;

  // Same bytes, new shape (numel must match).
  Result<HostTensor> reshaped(Shape shape) const;

 private:
  DType dtype_ = DType::kUndefined;
  Shape shape_;
  int64_t numel_ = 0;
  size_t bytes_ = 0;
  std::shared_ptr<const void> owner_;
  const void* data_ = nullptr;
  bool writable_ = false;
  std::vector<std::string> strings_;
};

// A bool tensor whose every byte is 0 or 1: bytes other than 0 and 1 (a model's
// raw_data, a file, a caller's buffer) become 1, since a kernel reading such a
// byte as bool is undefined (UBSan: "load of value 139 ... for type 'const
// bool'"). Any other tensor, or a canonical one, comes back as it is, uncopied.
Result<HostTensor> canonical_bools(HostTensor t);

}  // namespace gk

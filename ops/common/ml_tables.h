// Constant tables that ML kernels read from device memory (tree nodes and leaves,
// n-gram pools), built from attributes at parse time. Each kit gets its copy on
// the first run that needs it and keeps it for the life of the parsed attributes,
// so later runs upload nothing: uploads are refused while a CUDA Graph is being
// captured, which happens on the second run of a shape (runtime/executor.cpp).
#pragma once

#include "ops/core/op.h"

#include <cstring>
#include <mutex>
#include <vector>

namespace gk::ml {

class DeviceTables {
 public:
  // Appends a table; its index is the position of its pointer in get()'s answer.
  template <typename T>
  size_t add(DType dtype, const std::vector<T>& values) {
    Blob b{dtype, static_cast<int64_t>(values.size()), std::vector<uint8_t>(values.size() * sizeof(T))};
    if (!values.empty()) std::memcpy(b.bytes.data(), values.data(), b.bytes.size());
    blobs_.push_back(std::move(b));
    return blobs_.size() - 1;
  }

  // The tables' device addresses on ctx's kit (0 for an empty table), uploading
  // them the first time this kit asks. Safe under concurrent runs.
  Result<std::vector<DevPtr>> get(KernelContext& ctx) const {
    std::lock_guard lock(mutex_);
    for (const Copy& c : copies_)
      if (c.kit == ctx.kit()) return c.ptrs;
    Copy c{ctx.kit(), {}, {}};
    for (const Blob& b : blobs_) {
      if (b.count == 0) {
        c.ptrs.push_back(0);
        continue;
      }
      GK_TRY(GkBuf buf, c.kit.alloc(b.dtype, b.count));
      GK_RETURN_IF_ERROR(buf.upload_raw(b.bytes.data(), b.bytes.size()));
      c.ptrs.push_back(buf.ptr());
      c.bufs.push_back(std::move(buf));
    }
    copies_.push_back(std::move(c));
    return copies_.back().ptrs;
  }

 private:
  struct Blob {
    DType dtype;
    int64_t count;
    std::vector<uint8_t> bytes;
  };
  struct Copy {
    Kit kit;
    std::vector<GkBuf> bufs;
    std::vector<DevPtr> ptrs;
  };
  std::vector<Blob> blobs_;
  mutable std::mutex mutex_;
  mutable std::vector<Copy> copies_;
};

}  // namespace gk::ml

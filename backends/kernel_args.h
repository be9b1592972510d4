// A typed pack of kernel arguments. Each value starts on an 8-byte boundary in one
// byte buffer, so `pointers()` is the `void** kernelParams` array cuLaunchKernel
// expects, and the CPU backend checks each argument's kind and size against the
// kernel's signature. Small structs (shapes, strides) pass by value as kPod.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gk {

using DevPtr = uint64_t;  // CUdeviceptr on CUDA, a host address on CPU.

enum class ArgKind : uint8_t { kPtr, kI32, kI64, kF32, kF64, kPod };
const char* arg_kind_name(ArgKind kind);

class KernelArgs {
 public:
  KernelArgs& ptr(DevPtr p) { return push(ArgKind::kPtr, &p, sizeof(p)); }
  KernelArgs& ptr(const void* p) {
    uint64_t v = reinterpret_cast<uintptr_t>(p);
    return push(ArgKind::kPtr, &v, sizeof(v));
  }
  KernelArgs& i32(int32_t v) { return push(ArgKind::kI32, &v, sizeof(v)); }
  KernelArgs& i64(int64_t v) { return push(ArgKind::kI64, &v, sizeof(v)); }
  KernelArgs& f32(float v) { return push(ArgKind::kF32, &v, sizeof(v)); }
  KernelArgs& f64(double v) { return push(ArgKind::kF64, &v, sizeof(v)); }
  template <typename T>
  KernelArgs& pod(const T& v) {
    static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 8);
    return push(ArgKind::kPod, &v, sizeof(T));
  }

  size_t size() const { return count_; }
  ArgKind kind(size_t i) const { return arg(i).kind; }
  uint32_t arg_bytes(size_t i) const { return arg(i).size; }
  const void* slot(size_t i) const { return bytes() + arg(i).offset; }
  template <typename T>
  T get(size_t i) const {
    T v;
    std::memcpy(&v, slot(i), sizeof(T));
    return v;
  }
  std::vector<void*> pointers() const {
    std::vector<void*> out(count_);
    for (size_t i = 0; i < count_; ++i) out[i] = const_cast<uint8_t*>(bytes()) + arg(i).offset;
    return out;
  }
  void set_ptr(size_t i, DevPtr p) { std::memcpy(mutable_bytes() + arg(i).offset, &p, sizeof(p)); }

 private:
  struct Arg {
    ArgKind kind;
    uint32_t offset;
    uint32_t size;
  };
  // Every launch builds one pack: held inline, a launch allocates nothing. The
  // widest packs today (two broadcast maps of 136 bytes, conv and attention
  // parameter structs) fit; a larger one moves to the heap whole.
  static constexpr size_t kInlineArgs = 32;
  static constexpr size_t kInlineBytes = 1024;

  const Arg& arg(size_t i) const { return args_heap_.empty() ? args_inline_[i] : args_heap_[i]; }
  const uint8_t* bytes() const { return bytes_heap_.empty() ? bytes_inline_ : bytes_heap_.data(); }
  uint8_t* mutable_bytes() { return bytes_heap_.empty() ? bytes_inline_ : bytes_heap_.data(); }

  KernelArgs& push(ArgKind kind, const void* v, size_t size) {
    const size_t offset = (used_ + 7) / 8 * 8;
    const size_t end = offset + (size + 7) / 8 * 8;
    if (end > kInlineBytes && bytes_heap_.empty()) bytes_heap_.assign(bytes_inline_, bytes_inline_ + used_);
    if (!bytes_heap_.empty()) {
      bytes_heap_.resize(end, 0);
    } else {
      std::memset(bytes_inline_ + used_, 0, end - used_);
    }
    std::memcpy(mutable_bytes() + offset, v, size);
    used_ = end;
    const Arg a{kind, static_cast<uint32_t>(offset), static_cast<uint32_t>(size)};
    if (count_ == kInlineArgs && args_heap_.empty()) args_heap_.assign(args_inline_, args_inline_ + count_);
    if (!args_heap_.empty())
      args_heap_.push_back(a);
    else
      args_inline_[count_] = a;
    ++count_;
    return *this;
  }

  size_t count_ = 0;
  size_t used_ = 0;
  Arg args_inline_[kInlineArgs] = {};
  alignas(8) uint8_t bytes_inline_[kInlineBytes];
  std::vector<Arg> args_heap_;       // all arguments, once more than kInlineArgs
  std::vector<uint8_t> bytes_heap_;  // all bytes, once more than kInlineBytes
};

}  // namespace gk

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

  size_t size() const { return args_.size(); }
  ArgKind kind(size_t i) const { return args_[i].kind; }
  uint32_t arg_bytes(size_t i) const { return args_[i].size; }
  const void* slot(size_t i) const { return bytes_.data() + args_[i].offset; }
  template <typename T>
  T get(size_t i) const {
    T v;
    std::memcpy(&v, slot(i), sizeof(T));
    return v;
  }
  std::vector<void*> pointers() const {
    std::vector<void*> out(args_.size());
    for (size_t i = 0; i < args_.size(); ++i)
      out[i] = const_cast<uint8_t*>(bytes_.data()) + args_[i].offset;
    return out;
  }
  void set_ptr(size_t i, DevPtr p) { std::memcpy(bytes_.data() + args_[i].offset, &p, sizeof(p)); }

 private:
  struct Arg {
    ArgKind kind;
    uint32_t offset;
    uint32_t size;
  };
  KernelArgs& push(ArgKind kind, const void* v, size_t size) {
    size_t offset = (bytes_.size() + 7) / 8 * 8;
    bytes_.resize(offset + (size + 7) / 8 * 8, 0);
    std::memcpy(bytes_.data() + offset, v, size);
    args_.push_back({kind, static_cast<uint32_t>(offset), static_cast<uint32_t>(size)});
    return *this;
  }
  std::vector<Arg> args_;
  std::vector<uint8_t> bytes_;
};

}  // namespace gk

// The CPU backend's kernel table: kernel sources compiled into the binary and
// registered by name (the same name expression NVRTC uses, e.g. "gk_add<float>").
// Tables are listed by hand (GK_CPU_KERNEL lines), never self-registered.
#pragma once

#include "backends/cpu/cpu_isa.h"
#include "backends/kernel_args.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

namespace gk {

enum class CpuKernelMode : uint8_t {
  // Kernel body is GK_KERNEL_LOOP only: each worker runs one contiguous range.
  kRange,
  // Called once per (block, thread) with threadIdx/blockIdx set.
  kThreads,
  // A CPU twin that does a whole block's work per call (blockIdx set, threadIdx 0).
  kBlocks,
};

struct CpuArgSpec {
  ArgKind kind;
  uint32_t bytes;
};

struct CpuKernelEntry {
  const char* name;
  void (*invoke)(const KernelArgs& args);
  const CpuArgSpec* signature;
  size_t arity;
  CpuKernelMode mode;
};

using CpuKernelTable = std::span<const CpuKernelEntry>;

// One family's table per CpuIsa, the same source compiled with each ISA's flags
// (ops/CMakeLists.txt: GK_ISA_FAMILIES). A family compiled once (host code, or a
// native build) gives the same table for all three. The CPU device picks one
// for active_cpu_isa() when it starts.
struct CpuIsaTables {
  CpuKernelTable portable, avx2, avx512;
  CpuIsaTables(CpuKernelTable one) : portable(one), avx2(one), avx512(one) {}
  template <size_t N>
  CpuIsaTables(const CpuKernelEntry (&one)[N]) : CpuIsaTables(CpuKernelTable(one)) {}
  CpuIsaTables(CpuKernelTable p, CpuKernelTable a2, CpuKernelTable a512) : portable(p), avx2(a2), avx512(a512) {}
  CpuKernelTable for_isa(CpuIsa isa) const {
    switch (isa) {
      case CpuIsa::kAvx512: return avx512;
      case CpuIsa::kAvx2Fma: return avx2;
      case CpuIsa::kPortable: break;
    }
    return portable;
  }
};

namespace cpu_detail {

template <typename T, typename = void>
struct ArgOf {  // structs passed by value
  static_assert(std::is_trivially_copyable_v<T>, "kernel argument must be trivially copyable");
  static constexpr ArgKind kind = ArgKind::kPod;
  static T get(const KernelArgs& a, size_t i) { return a.get<T>(i); }
};
template <typename T>
struct ArgOf<T*> {
  static constexpr ArgKind kind = ArgKind::kPtr;
  static T* get(const KernelArgs& a, size_t i) {
    return reinterpret_cast<T*>(static_cast<uintptr_t>(a.get<uint64_t>(i)));
  }
};
template <typename T>
struct ArgOf<T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) == 4>> {
  static constexpr ArgKind kind = ArgKind::kI32;
  static T get(const KernelArgs& a, size_t i) { return a.get<T>(i); }
};
template <typename T>
struct ArgOf<T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) == 8>> {
  static constexpr ArgKind kind = ArgKind::kI64;
  static T get(const KernelArgs& a, size_t i) { return a.get<T>(i); }
};
template <>
struct ArgOf<float> {
  static constexpr ArgKind kind = ArgKind::kF32;
  static float get(const KernelArgs& a, size_t i) { return a.get<float>(i); }
};
template <>
struct ArgOf<double> {
  static constexpr ArgKind kind = ArgKind::kF64;
  static double get(const KernelArgs& a, size_t i) { return a.get<double>(i); }
};

template <auto Fn>
struct Trampoline;

template <typename... P, void (*Fn)(P...)>
struct Trampoline<Fn> {
  static constexpr std::array<CpuArgSpec, sizeof...(P)> signature = {
      CpuArgSpec{ArgOf<std::decay_t<P>>::kind, static_cast<uint32_t>(sizeof(std::decay_t<P>))}...};
  static void invoke(const KernelArgs& a) { call(a, std::index_sequence_for<P...>{}); }
  template <size_t... I>
  static void call(const KernelArgs& a, std::index_sequence<I...>) {
    Fn(ArgOf<std::decay_t<P>>::get(a, I)...);
  }
};

}  // namespace cpu_detail

template <auto Fn>
constexpr CpuKernelEntry make_cpu_kernel(const char* name, CpuKernelMode mode) {
  using T = cpu_detail::Trampoline<Fn>;
  return {name, &T::invoke, T::signature.data(), T::signature.size(), mode};
}

}  // namespace gk

// One line per instantiation: GK_CPU_KERNEL(kRange, gk_add<float>)
#define GK_CPU_KERNEL(mode, ...) \
  ::gk::make_cpu_kernel<&__VA_ARGS__>(#__VA_ARGS__, ::gk::CpuKernelMode::mode)

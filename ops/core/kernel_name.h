// Naming a kernel without formatting its name on every launch. A launcher names
// its kernel as a pattern and arguments ("gk_binary<{}, {}>", "GkAdd", "float");
// the name is formatted only when the kernel is first resolved. A plan's step keeps
// the kernels it resolved (StepKernels), keyed by a hash of the pattern and its
// arguments, so later launches of the step find their kernel with no string built,
// no map searched and no lock taken.
#pragma once

#include "backends/device.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gk {

class KernelName {
 public:
  static constexpr size_t kMaxArgs = 4;

  // A whole name ("gk_dm_write_bytes"): no arguments.
  KernelName(const char* name) : KernelName(Form::kWhole, name, {}) {}
  KernelName(std::string_view name) : KernelName(Form::kWhole, name, {}) {}
  // A name made elsewhere; it must outlive the KernelName.
  KernelName(const std::string& name) : KernelName(Form::kWhole, std::string_view(name), {}) {}

  // fmt-style pattern with "{}" for each argument: format("gk_reduce_{}<{}>", "sum", "float").
  static KernelName format(std::string_view pattern, std::initializer_list<std::string_view> args) {
    return KernelName(Form::kFormat, pattern, args);
  }
  // A template instantiation: templated("gk_dm_copy", {"uint32_t"}) is "gk_dm_copy<uint32_t>".
  static KernelName templated(std::string_view name, std::initializer_list<std::string_view> args) {
    return KernelName(Form::kTemplate, name, args);
  }

  // "0".."63": a small integer template argument (a reduction or mode code) as a
  // static string, so naming it formats nothing. Out of range is a programming error.
  static std::string_view number(int v);

  // A 64-bit hash of the form, the pattern and each argument: no allocation.
  uint64_t key() const { return key_; }
  // The entry name the device compiles ("gk_binary<GkAdd, float>").
  std::string str() const;

 private:
  enum class Form : uint8_t { kWhole, kFormat, kTemplate };
  KernelName(Form form, std::string_view head, std::initializer_list<std::string_view> args);

  Form form_;
  std::string_view head_;
  std::array<std::string_view, kMaxArgs> args_{};
  uint8_t count_ = 0;
  uint64_t key_ = 0;
};

// The kernels one plan step has resolved, by (source, name key). Written once per
// kernel on the step's first run, read by every later run, from any thread.
class StepKernels {
 public:
  // A step that launches more distinct kernels than this resolves the rest through
  // the kit on every launch: still correct, only slower. // untuned
  static constexpr int kSlots = 8;

  const Kernel* find(const KernelSource* source, uint64_t key) const;
  void remember(const KernelSource* source, uint64_t key, const Kernel* kernel);

 private:
  struct Slot {
    std::atomic<const KernelSource*> source{nullptr};
    std::atomic<uint64_t> key{0};
    std::atomic<const Kernel*> kernel{nullptr};  // published last
  };
  std::atomic<int> claimed_{0};
  std::array<Slot, kSlots> slots_;
};

}  // namespace gk

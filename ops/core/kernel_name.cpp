#include "ops/core/kernel_name.h"

#include <fmt/args.h>
#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstring>

namespace gk {
namespace {

constexpr uint64_t kSeed = 0x9e3779b97f4a7c15ull;
constexpr uint64_t kMul = 0xff51afd7ed558ccdull;

uint64_t mix(uint64_t h, uint64_t word) {
  h = (h ^ word) * kMul;
  return h ^ (h >> 29);
}

// Eight bytes at a time (the hash runs on every launch; a byte-wise FNV over the
// pattern and its arguments was 8% of a 1000-Add chain's run), then the length,
// so ("ab", "c") and ("a", "bc") differ.
uint64_t hash_piece(uint64_t h, std::string_view s) {
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = mix(h, w);
  }
  if (i < s.size()) {
    uint64_t w = 0;
    std::memcpy(&w, s.data() + i, s.size() - i);
    h = mix(h, w);
  }
  return mix(h, s.size());
}

}  // namespace

KernelName::KernelName(Form form, std::string_view head, std::initializer_list<std::string_view> args)
    : form_(form), head_(head) {
  assert(args.size() <= kMaxArgs && "KernelName: too many arguments");
  uint64_t h = mix(kSeed, static_cast<uint64_t>(form));
  h = hash_piece(h, head);
  for (std::string_view a : args) {
    if (count_ == kMaxArgs) break;
    args_[count_++] = a;
    h = hash_piece(h, a);
  }
  key_ = h;
}

std::string_view KernelName::number(int v) {
  static const std::array<std::string, 64> names = [] {
    std::array<std::string, 64> a;
    for (int i = 0; i < 64; ++i) a[static_cast<size_t>(i)] = std::to_string(i);
    return a;
  }();
  assert(v >= 0 && v < 64 && "KernelName::number: out of range");
  return names[static_cast<size_t>(std::clamp(v, 0, 63))];
}

std::string KernelName::str() const {
  switch (form_) {
    case Form::kWhole:
      return std::string(head_);
    case Form::kTemplate: {
      std::string s(head_);
      s += '<';
      for (uint8_t i = 0; i < count_; ++i) {
        if (i) s += ", ";
        s += args_[i];
      }
      s += '>';
      return s;
    }
    case Form::kFormat: {
      fmt::dynamic_format_arg_store<fmt::format_context> store;
      for (uint8_t i = 0; i < count_; ++i) store.push_back(args_[i]);
      return fmt::vformat(head_, store);
    }
  }
  return std::string(head_);
}

const Kernel* StepKernels::find(const KernelSource* source, uint64_t key) const {
  const int n = std::min(claimed_.load(std::memory_order_acquire), kSlots);
  for (int i = 0; i < n; ++i) {
    const Slot& s = slots_[i];
    const Kernel* k = s.kernel.load(std::memory_order_acquire);
    if (k && s.key.load(std::memory_order_relaxed) == key && s.source.load(std::memory_order_relaxed) == source)
      return k;
  }
  return nullptr;
}

void StepKernels::remember(const KernelSource* source, uint64_t key, const Kernel* kernel) {
  const int i = claimed_.fetch_add(1, std::memory_order_acq_rel);
  if (i >= kSlots) {
    claimed_.store(kSlots, std::memory_order_relaxed);
    return;
  }
  Slot& s = slots_[i];
  s.source.store(source, std::memory_order_relaxed);
  s.key.store(key, std::memory_order_relaxed);
  s.kernel.store(kernel, std::memory_order_release);
}

}  // namespace gk

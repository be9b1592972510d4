// A kernel family's CUDA-C source text, embedded at build time. NVRTC compiles
// `text`; the CPU backend ignores it and finds the same entries compiled in.
#pragma once

#include <cstdint>
#include <string_view>

namespace gk {

struct KernelSource {
  std::string_view name;  // family, e.g. "elementwise"
  std::string_view text;  // prelude + family source, includes already inlined
  uint64_t hash;          // FNV-1a of text, computed at build time
};

uint64_t fnv1a64(std::string_view text);

}  // namespace gk

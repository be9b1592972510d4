#include "backends/device.h"

#include "backends/kernel_args.h"

namespace gk {

const char* backend_name(BackendKind kind) { return kind == BackendKind::kCuda ? "cuda" : "cpu"; }

const char* arg_kind_name(ArgKind kind) {
  switch (kind) {
    case ArgKind::kPtr: return "pointer";
    case ArgKind::kI32: return "int32";
    case ArgKind::kI64: return "int64";
    case ArgKind::kF32: return "float32";
    case ArgKind::kF64: return "float64";
    case ArgKind::kPod: return "struct";
  }
  return "unknown";
}

uint64_t fnv1a64(std::string_view text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace gk

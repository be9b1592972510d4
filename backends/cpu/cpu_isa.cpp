#include "backends/cpu/cpu_isa.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace gk {
namespace {

CpuIsa probe() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // The GEMM blocks use F only, the per-ISA kernel tables are compiled with F,
  // BW, DQ and VL (every AVX-512 server core since Skylake-SP; ops/CMakeLists.txt).
  // The OS must save the zmm state, which __builtin_cpu_supports checks through XGETBV.
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    return CpuIsa::kAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuIsa::kAvx2Fma;
#endif
  return CpuIsa::kPortable;
}

CpuIsa cap(CpuIsa want) { return want < detected_cpu_isa() ? want : detected_cpu_isa(); }

CpuIsa from_environment() {
  const char* v = std::getenv("GK_CPU_ISA");
  if (!v) return detected_cpu_isa();
  if (!std::strcmp(v, "portable")) return cap(CpuIsa::kPortable);
  if (!std::strcmp(v, "avx2")) return cap(CpuIsa::kAvx2Fma);
  return detected_cpu_isa();  // "avx512" or anything else: the best available
}

std::atomic<CpuIsa>& active() {
  static std::atomic<CpuIsa> isa{from_environment()};
  return isa;
}

}  // namespace

CpuIsa detected_cpu_isa() {
  static const CpuIsa isa = probe();
  return isa;
}

CpuIsa active_cpu_isa() { return active().load(std::memory_order_relaxed); }

CpuIsa set_active_cpu_isa(CpuIsa isa) { return active().exchange(cap(isa)); }

const char* cpu_isa_name(CpuIsa isa) {
  switch (isa) {
    case CpuIsa::kAvx512: return "avx512";
    case CpuIsa::kAvx2Fma: return "avx2+fma";
    case CpuIsa::kPortable: break;
  }
  return "portable";
}

namespace {

CpuCaches& caches_in_use() {
  static CpuCaches caches = [] {
    CpuCaches c;
    const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    c.l1d = l1 >= 16384 ? l1 : 32768;
    c.l2 = l2 >= 131072 ? l2 : 524288;
    return c;
  }();
  return caches;
}

}  // namespace

CpuCaches cpu_caches() { return caches_in_use(); }

CpuCaches set_cpu_caches(CpuCaches caches) {
  const CpuCaches previous = caches_in_use();
  caches_in_use() = caches;
  return previous;
}

}  // namespace gk

// The x86 vector ISA the CPU kernels use, chosen by cpuid when first asked (as
// MLAS does), so that one portable build (-DGK_NATIVE=OFF) runs the AVX-512 or
// AVX2+FMA micro-kernels on machines that have them. GK_CPU_ISA=portable|avx2|avx512
// caps the choice (read once, at the first query); a request above what the
// machine supports is capped to what it has.
#pragma once

#include <cstdint>

namespace gk {

enum class CpuIsa : uint8_t {
  kPortable,  // scalar fmaf loops the compiler may vectorise
  kAvx2Fma,   // 256-bit, 16 vector registers
  kAvx512,    // 512-bit (AVX-512F), 32 vector registers
};

// What the machine can run.
CpuIsa detected_cpu_isa();
// What the kernels use now: the detected ISA, capped by GK_CPU_ISA or the test
// override below.
CpuIsa active_cpu_isa();
const char* cpu_isa_name(CpuIsa isa);

// For tests and benchmarks: run the kernels with `isa` (capped to the detected
// one) until the returned previous value is restored. Not for concurrent use with
// running sessions.
CpuIsa set_active_cpu_isa(CpuIsa isa);

// Per-core data cache sizes in bytes, read once (sysconf); where the system does
// not say, 32 KB L1d and 512 KB L2 (the smallest of the x86 server cores we run
// on: Zen 2/3). The CPU GEMM's cache blocks are cut from these (gemm_direct.h).
struct CpuCaches {
  int64_t l1d = 0, l2 = 0;
};
CpuCaches cpu_caches();
// For tests: cut the cache blocks as for `caches` until the returned previous
// value is restored (small caches make small shapes cross every block edge). Not
// for concurrent use with running sessions.
CpuCaches set_cpu_caches(CpuCaches caches);

}  // namespace gk

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

}  // namespace gk

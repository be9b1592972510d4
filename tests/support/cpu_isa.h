// Runs a CPU test once per vector ISA the machine can run (backends/cpu/cpu_isa.h),
// so the portable, AVX2+FMA and AVX-512 kernels are each checked where they can be.
#pragma once

#include "backends/cpu/cpu_isa.h"

#include <vector>

namespace gk::test {

inline std::vector<CpuIsa> isas_to_test() {
  std::vector<CpuIsa> out;
  for (CpuIsa isa : {CpuIsa::kPortable, CpuIsa::kAvx2Fma, CpuIsa::kAvx512})
    if (isa <= detected_cpu_isa()) out.push_back(isa);
  return out;
}

// Sets the active ISA for a scope.
class IsaScope {
 public:
  explicit IsaScope(CpuIsa isa) : previous_(set_active_cpu_isa(isa)) {}
  ~IsaScope() { set_active_cpu_isa(previous_); }
  IsaScope(const IsaScope&) = delete;
  IsaScope& operator=(const IsaScope&) = delete;

 private:
  CpuIsa previous_;
};

}  // namespace gk::test

// The topk family: TopK.
// Kernels: ops/topk/topk.cuh; CPU twins: ops/topk/topk_cpu.cpp.
#include "ops/topk/family.h"

namespace gk::families {

OpFamily topk_family() {
  return {.name = "topk",
          .tables = {topk_ops()},
          .kernels = topk_kernels()};
}

}  // namespace gk::families

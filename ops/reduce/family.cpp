// The reduce family: the reductions, ArgMax/ArgMin and CumSum/CumProd.
// Kernels: ops/reduce/reduce.cuh; CPU twins: ops/reduce/reduce_cpu.cpp.
#include "ops/reduce/family.h"

namespace gk::families {

OpFamily reduce_family() {
  return {.name = "reduce",
          .tables = {reduce_ops(), arg_reduce_ops(), cumulative_ops()},
          .kernels = reduce_kernels()};
}

}  // namespace gk::families

// The gather_scatter family: Gather* and Scatter*.
// Kernels: ops/gather_scatter/gather_scatter.cuh; CPU twins: ops/gather_scatter/gather_scatter_cpu.cpp.
#include "ops/gather_scatter/family.h"

namespace gk::families {

OpFamily gather_scatter_family() {
  return {.name = "gather_scatter",
          .tables = {dm::gather_op_table(), dm::scatter_op_table()},
          .kernels = gather_scatter_kernels()};
}

}  // namespace gk::families

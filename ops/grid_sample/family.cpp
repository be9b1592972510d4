// The grid_sample family: GridSample, Col2Im and DeformConv.
// Kernels: ops/grid_sample/grid_sample.cuh; CPU twins: ops/grid_sample/grid_sample_cpu.cpp.
#include "ops/grid_sample/family.h"

namespace gk::families {

OpFamily grid_sample_family() {
  return {.name = "grid_sample",
          .tables = {grid_sample_ops(), col2im_ops(), deform_conv_ops()},
          .kernels = grid_sample_kernels()};
}

}  // namespace gk::families

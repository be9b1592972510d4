// The grid_sample family: GridSample, Col2Im and DeformConv.
// Kernels: ops/grid_sample/grid_sample.cuh; CPU twins: ops/grid_sample/grid_sample_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(grid_sample, grid_sample_ops, col2im_ops, deform_conv_ops)

// The data_movement family: shape, copy and index-driven ops.
// Kernels: ops/data_movement/data_movement.cuh; CPU twins: ops/data_movement/data_movement_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(data_movement,
          shape_ops, transpose_ops, concat_split_ops, slice_ops, expand_tile_ops, pad_ops,
          space_depth_ops, index_ops, center_crop_pad_ops, bitcast_ops)

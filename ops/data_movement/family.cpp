// The data_movement family: shape, copy and index-driven ops.
// Kernels: ops/data_movement/data_movement.cuh; CPU twins: ops/data_movement/data_movement_cpu.cpp.
#include "ops/data_movement/family.h"

namespace gk::families {

OpFamily data_movement_family() {
  return {.name = "data_movement",
          .tables = {dm::shape_op_table(),
                     dm::transpose_op_table(),
                     dm::concat_split_op_table(),
                     dm::slice_op_table(),
                     dm::expand_tile_op_table(),
                     dm::pad_op_table(),
                     dm::space_depth_op_table(),
                     dm::index_op_table(),
                     center_crop_pad_ops(),
                     bitcast_ops()},
          .kernels = data_movement_kernels()};
}

}  // namespace gk::families

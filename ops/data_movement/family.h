// The data_movement family's tables (shape, copy and index-driven ops),
// assembled by ops/data_movement/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> center_crop_pad_ops();  // center_crop_pad.cpp
std::span<const OpSchema> bitcast_ops();          // bitcast.cpp
KernelFamily data_movement_kernels();             // data_movement_cpu.cpp
}  // namespace families
namespace dm {
std::span<const OpSchema> shape_op_table();         // shape_ops.cpp
std::span<const OpSchema> transpose_op_table();     // transpose.cpp
std::span<const OpSchema> concat_split_op_table();  // concat_split.cpp
std::span<const OpSchema> slice_op_table();         // slice.cpp
std::span<const OpSchema> expand_tile_op_table();   // expand_tile.cpp
std::span<const OpSchema> pad_op_table();           // pad.cpp
std::span<const OpSchema> space_depth_op_table();   // space_depth.cpp
std::span<const OpSchema> index_op_table();         // index_ops.cpp
}  // namespace dm
}  // namespace gk

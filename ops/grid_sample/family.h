// The grid_sample family's tables (GridSample, Col2Im and DeformConv),
// assembled by ops/grid_sample/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> grid_sample_ops();  // grid_sample.cpp
std::span<const OpSchema> col2im_ops();       // col2im.cpp
std::span<const OpSchema> deform_conv_ops();  // deform_conv.cpp
KernelFamily grid_sample_kernels();           // grid_sample_cpu.cpp
}  // namespace families
}  // namespace gk

// The detection family's tables (NonMaxSuppression and RoiAlign),
// assembled by ops/detection/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> nms_ops();        // nms.cpp
std::span<const OpSchema> roi_align_ops();  // roi_align.cpp (RoiAlign, MaxRoiPool)
KernelFamily detection_kernels();           // detection_cpu.cpp
}  // namespace families
}  // namespace gk

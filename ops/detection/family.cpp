// The detection family: NonMaxSuppression, RoiAlign and MaxRoiPool.
// Kernels: ops/detection/detection.cuh; CPU twins: ops/detection/detection_cpu.cpp.
#include "ops/detection/family.h"

namespace gk::families {

OpFamily detection_family() {
  return {.name = "detection",
          .tables = {nms_ops(), roi_align_ops()},
          .kernels = detection_kernels()};
}

}  // namespace gk::families

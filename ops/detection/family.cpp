// The detection family: NonMaxSuppression, RoiAlign and MaxRoiPool.
// Kernels: ops/detection/detection.cuh; CPU twins: ops/detection/detection_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(detection, nms_ops, roi_align_ops)

// The control_flow family: If, Loop and Scan, which the executor runs.
// Host only: no kernels.
#include "ops/core/family.h"

GK_HOST_FAMILY(control_flow, control_flow_ops)

// The control_flow family: If, Loop and Scan, which the executor runs.
// Host only: no kernels.
#include "ops/control_flow/family.h"

namespace gk::families {

OpFamily control_flow_family() {
  return {.name = "control_flow",
          .tables = {control_flow_ops()},
          .kernels = std::nullopt};
}

}  // namespace gk::families

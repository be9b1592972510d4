// The sequence family: the sequence ops, which the executor runs.
// Host only: no kernels.
#include "ops/sequence/family.h"

namespace gk::families {

OpFamily sequence_family() {
  return {.name = "sequence",
          .tables = {sequence_ops()},
          .kernels = std::nullopt};
}

}  // namespace gk::families

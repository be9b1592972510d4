// The cast family: Cast and CastLike.
// Kernels: ops/cast/cast.cuh; CPU twins: ops/cast/cast_cpu.cpp.
#include "ops/cast/family.h"

namespace gk::families {

OpFamily cast_family() {
  return {.name = "cast",
          .tables = {cast_ops()},
          .kernels = cast_kernels()};
}

}  // namespace gk::families

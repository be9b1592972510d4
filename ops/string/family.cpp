// The string family: the string ops and LabelEncoder.
// Host only: no kernels.
#include "ops/string/family.h"

namespace gk::families {

OpFamily string_family() {
  return {.name = "string",
          .tables = {string_ops(), label_encoder_ops()},
          .kernels = std::nullopt};
}

}  // namespace gk::families

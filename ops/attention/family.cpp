// The attention family: Attention, RMSNormalization and RotaryEmbedding.
// Kernels: ops/attention/attention.cuh; CPU twins: ops/attention/attention_cpu.cpp.
#include "ops/attention/family.h"

namespace gk::families {

OpFamily attention_family() {
  return {.name = "attention",
          .tables = {attention_ops(), rms_rope_schemas()},
          .kernels = attention_kernels()};
}

}  // namespace gk::families

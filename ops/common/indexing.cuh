// Strided indexing shared by kernel families: an output linear index maps to an
// operand offset through the output dims and the operand's strides (0 on a
// broadcast dim). Rank is capped at GK_MAX_RANK; the host side (ops/common/indexing.h)
// refuses higher ranks with a named error.
#pragma once
#include "backends/kernel_prelude.cuh"

#define GK_MAX_RANK 8

struct gk_index_map {
  int32_t rank;
  int32_t pad_;
  int64_t dims[GK_MAX_RANK];     // output dims
  int64_t strides[GK_MAX_RANK];  // operand strides in elements, 0 where broadcast
};

static GK_FN int64_t gk_offset(const gk_index_map& m, int64_t linear) {
  int64_t off = 0;
  for (int32_t d = m.rank - 1; d >= 0; --d) {
    int64_t q = linear / m.dims[d];
    off += (linear - q * m.dims[d]) * m.strides[d];
    linear = q;
  }
  return off;
}

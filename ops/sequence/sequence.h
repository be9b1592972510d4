// The sequence ops' parsed attributes, read by the executor (runtime/sequence_ops.cpp).
#pragma once

#include "ops/core/op.h"

namespace gk {

struct SequenceAttrs {
  DType dtype = DType::kF32;  // SequenceEmpty's element type
  int64_t axis = 0;           // SplitToSequence, ConcatFromSequence
  bool flag = false;          // SplitToSequence keepdims; ConcatFromSequence new_axis
};

}  // namespace gk

// Call and attribute builders shared by the hand-written data-movement, shape and
// gather/scatter op tests.
#pragma once

#include "tests/ops/op_harness.h"

#include <optional>
#include <string>
#include <vector>

namespace gk::test {

inline OpCall call(std::string op, int opset, std::vector<std::optional<HostTensor>> inputs, int outputs = 1) {
  OpCall c;
  c.op_type = std::move(op);
  c.opset = opset;
  c.inputs = std::move(inputs);
  c.num_outputs = outputs;
  return c;
}

inline Attribute int_attr(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = v;
  return a;
}

inline Attribute ints_attr(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::kInts;
  a.ints = std::move(v);
  return a;
}

}  // namespace gk::test

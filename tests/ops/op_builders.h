// Call and attribute builders shared by the op tests (directly, through
// onnx_node_cases.h and nn_test_util.h) and the graph pass tests (pass_builder.h).
#pragma once

#include "tests/ops/op_harness.h"

#include <memory>
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

// An Attribute of `kind` whose `Field` holds v.
template <auto Field, typename T>
Attribute attr_of(Attribute::Kind kind, T v) {
  Attribute a;
  a.kind = kind;
  a.*Field = std::move(v);
  return a;
}

inline Attribute int_attr(int64_t v) { return attr_of<&Attribute::i>(Attribute::Kind::kInt, v); }
inline Attribute ints_attr(std::vector<int64_t> v) {
  return attr_of<&Attribute::ints>(Attribute::Kind::kInts, std::move(v));
}
inline Attribute float_attr(float v) { return attr_of<&Attribute::f>(Attribute::Kind::kFloat, v); }
inline Attribute string_attr(std::string v) { return attr_of<&Attribute::s>(Attribute::Kind::kString, std::move(v)); }
inline Attribute strings_attr(std::vector<std::string> v) {
  return attr_of<&Attribute::strings>(Attribute::Kind::kStrings, std::move(v));
}
inline Attribute floats_attr(std::vector<float> v) {
  return attr_of<&Attribute::floats>(Attribute::Kind::kFloats, std::move(v));
}
inline Attribute tensor_attr(HostTensor t) {
  return attr_of<&Attribute::tensor>(Attribute::Kind::kTensor, std::make_shared<const HostTensor>(std::move(t)));
}

}  // namespace gk::test

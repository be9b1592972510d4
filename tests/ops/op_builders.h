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

// A map of one attribute: attr_map("axis", int_attr(1)).
inline AttrMap attr_map(const std::string& name, Attribute a) {
  AttrMap m;
  m.set(name, std::move(a));
  return m;
}

// A call of `op` with attributes, one output; host_known as OpCall::inputs_host_known.
inline OpCall op_call(std::string op, std::vector<std::optional<HostTensor>> inputs, AttrMap attrs = {},
                      int opset = 17, bool host_known = true) {
  OpCall c = call(std::move(op), opset, std::move(inputs));
  c.attrs = std::move(attrs);
  c.inputs_host_known = host_known;
  return c;
}

// The first output of `c` run on every backend (run_op_all_backends); the case
// fails, naming the op and the error, where the run does.
inline HostTensor first_output(const OpCall& c) {
  auto r = run_op_all_backends(c);
  INFO(c.op_type << ": " << (r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  return r->outputs[0];
}

inline HostTensor first_output(std::string op, std::vector<std::optional<HostTensor>> inputs, AttrMap attrs = {},
                               int opset = 17, bool host_known = true) {
  return first_output(op_call(std::move(op), std::move(inputs), std::move(attrs), opset, host_known));
}

}  // namespace gk::test

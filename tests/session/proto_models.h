// Small ONNX models built in memory for the session tests: a CPU session from a
// ModelProto, attribute setters, host tensors.
#pragma once

#include "../graph/onnx_builders.h"
#include "runtime/session.h"

#include <catch2/catch.hpp>

namespace gk::proto_models {

using test::add_info;
using test::add_node;

constexpr int kFloat = onnx::TensorProto::FLOAT, kInt64 = onnx::TensorProto::INT64,
              kBool = onnx::TensorProto::BOOL, kString = onnx::TensorProto::STRING;

inline std::shared_ptr<Session> open(const onnx::ModelProto& m) {
  std::string bytes;
  m.SerializeToString(&bytes);
  SessionOptions o;
  o.backend = "cpu";
  auto s = Session::open_from_memory(bytes.data(), bytes.size(), o);
  if (!s.ok()) FAIL(s.status().message());
  return *s;
}

inline void set_graph(onnx::NodeProto* node, const std::string& name, const onnx::GraphProto& g) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

inline void set_ints(onnx::NodeProto* node, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

inline void set_int(onnx::NodeProto* node, const std::string& name, int64_t v) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

inline void add_float_initializer(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims,
                           const std::vector<float>& values) {
  auto* t = test::add_initializer(g, name, kFloat, dims);
  for (float v : values) t->add_float_data(v);
}

inline HostTensor floats(Shape shape, std::vector<float> v) { return HostTensor::from_vector(DType::kF32, shape, v); }
inline HostTensor bools(std::vector<uint8_t> v) {
  const int64_t n = static_cast<int64_t>(v.size());
  return HostTensor::from_vector(DType::kBool, {n}, v);
}
inline HostTensor scalar_i64(int64_t v) { return HostTensor::from_vector(DType::kI64, {}, std::vector<int64_t>{v}); }

inline std::vector<float> values_of(const HostTensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

}  // namespace gk::proto_models

// What the hostile-input matrix (tests/security/) shares: models built with ONNX's
// protobuf classes, opened on the CPU backend from a file in a fresh folder, and
// one assertion, expect_error(), per case: the code and a message substring.
#pragma once

#include "tests/graph/onnx_builders.h"
#include "tests/support/errors.h"
#include "runtime/session.h"

#include <catch2/catch.hpp>

#include <limits>
#include <string>
#include <vector>

namespace gk::hostile {

using test::add_info;
using test::add_initializer;
using test::add_node;
using test::make_model;
using test::set_external_data;
using test::TempDir;
using test::write_file;

constexpr int kFloat = onnx::TensorProto::FLOAT, kInt64 = onnx::TensorProto::INT64,
              kBool = onnx::TensorProto::BOOL;

inline SessionOptions cpu(size_t memory_limit = 0) {
  SessionOptions o;
  o.backend = "cpu";
  o.threads = 1;
  o.memory_limit = memory_limit;
  return o;
}

// Writes the model into `dir` and opens it as a CPU session (the whole path:
// parse, validate, passes, executor).
inline Result<std::shared_ptr<Session>> open_in(const TempDir& dir, const onnx::ModelProto& m,
                                                SessionOptions options = cpu()) {
  std::string bytes;
  m.SerializeToString(&bytes);
  write_file(dir / "model.onnx", bytes);
  return Session::open((dir / "model.onnx").string(), std::move(options));
}

// Opens a model that must load, for the run-time cases.
inline std::shared_ptr<Session> must_open(const TempDir& dir, const onnx::ModelProto& m,
                                          SessionOptions options = cpu()) {
  auto s = open_in(dir, m, std::move(options));
  INFO((s.ok() ? std::string("OK") : s.status().to_string()));
  REQUIRE(s.ok());
  return *s;
}

inline void set_int(onnx::NodeProto* node, const std::string& name, int64_t v) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

inline void set_graph(onnx::NodeProto* node, const std::string& name, const onnx::GraphProto& g) {
  auto* a = node->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

inline onnx::TensorProto* int64_initializer(onnx::GraphProto* g, const std::string& name,
                                            const std::vector<int64_t>& dims, const std::vector<int64_t>& v) {
  auto* t = add_initializer(g, name, kInt64, dims);
  for (int64_t x : v) t->add_int64_data(x);
  return t;
}

// y = op(x) on a float input of `dims`.
inline onnx::ModelProto unary_model(const std::string& op, const std::vector<int64_t>& dims, int opset = 13) {
  auto m = make_model(8, opset);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, dims);
  add_node(g, op, {"x"}, {"y"}, "n0");
  add_info(g->mutable_output(), "y", kFloat, {});
  return m;
}

// y = Gather(data[3, 2], idx[n]) with idx fed at run time: the index check runs in the kernel.
inline onnx::ModelProto index_model(const std::string& op, int64_t data_rows = 3) {
  auto m = make_model(8, 16);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "data", kFloat, {data_rows, 2});
  add_info(g->mutable_input(), "idx", kInt64, {-1}, {"n"});
  add_node(g, op, {"data", "idx"}, {"y"}, "idx_node");
  add_info(g->mutable_output(), "y", kFloat, {});
  return m;
}

inline HostTensor f32(Shape shape, std::vector<float> v) { return HostTensor::from_vector(DType::kF32, shape, v); }
inline HostTensor i64(Shape shape, std::vector<int64_t> v) { return HostTensor::from_vector(DType::kI64, shape, v); }
inline HostTensor zeros(Shape shape) { return f32(shape, std::vector<float>(numel(shape), 0.0f)); }

}  // namespace gk::hostile

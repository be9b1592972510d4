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

inline void add_i64_initializer(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims,
                         const std::vector<int64_t>& values) {
  auto* t = test::add_initializer(g, name, kInt64, dims);
  for (int64_t v : values) t->add_int64_data(v);
}

// scores [n] through a static Sigmoid (the "backbone"), then: keep = NonZero(p >
// 0.5); kept scores; K = min(#kept, 3); TopK(kept, K) and the boxes of the winners;
// then every shape op fed by K.
inline onnx::ModelProto detection_tail_model() {
  auto proto = test::make_model(8, 13);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "logits", kFloat, {-1}, {"n"});
  add_info(g->mutable_input(), "boxes", kFloat, {-1, 4}, {"n", ""});
  add_float_initializer(g, "thresh", {}, {0.5f});
  add_i64_initializer(g, "cap", {1}, {3});
  add_i64_initializer(g, "zero", {}, {0});
  add_i64_initializer(g, "one", {}, {1});
  add_i64_initializer(g, "one_1", {1}, {1});
  add_i64_initializer(g, "two_1", {1}, {2});
  add_i64_initializer(g, "three_1", {1}, {3});
  add_i64_initializer(g, "minus1_1", {1}, {-1});
  add_i64_initializer(g, "axes0", {1}, {0});
  add_i64_initializer(g, "axes1", {1}, {1});
  add_node(g, "Sigmoid", {"logits"}, {"p"}, "sigmoid");
  add_node(g, "Greater", {"p", "thresh"}, {"mask"}, "gt");
  add_node(g, "NonZero", {"mask"}, {"nz"}, "nonzero");
  add_node(g, "Squeeze", {"nz", "axes0"}, {"keep"}, "squeeze_nz");
  add_node(g, "Gather", {"p", "keep"}, {"kept"}, "gather_kept");
  add_node(g, "Shape", {"kept"}, {"kept_shape"}, "shape");
  add_node(g, "Min", {"kept_shape", "cap"}, {"k"}, "min_k");
  add_node(g, "TopK", {"kept", "k"}, {"top_scores", "top_pos"}, "topk");
  add_node(g, "Gather", {"keep", "top_pos"}, {"top_index"}, "gather_index");
  add_node(g, "Gather", {"boxes", "top_index"}, {"top_boxes"}, "gather_boxes");
  // Range(0, K, 1) and its Expand to [K, 3].
  add_node(g, "Squeeze", {"k", "axes0"}, {"k_scalar"}, "squeeze_k");
  add_node(g, "Range", {"zero", "k_scalar", "one"}, {"ramp"}, "range");
  add_node(g, "Unsqueeze", {"ramp", "axes1"}, {"ramp_col"}, "unsqueeze_ramp");
  set_int(add_node(g, "Concat", {"k", "three_1"}, {"k_by_3"}, "concat_k3"), "axis", 0);
  add_node(g, "Expand", {"ramp_col", "k_by_3"}, {"grid"}, "expand");
  // ConstantOfShape([K, 2]) and the boxes reshaped to [2K, 2].
  set_int(add_node(g, "Concat", {"k", "two_1"}, {"k_by_2"}, "concat_k2"), "axis", 0);
  add_node(g, "ConstantOfShape", {"k_by_2"}, {"zeros"}, "constant_of_shape");
  set_int(add_node(g, "Concat", {"minus1_1", "two_1"}, {"pairs_shape"}, "concat_pairs"), "axis", 0);
  add_node(g, "Reshape", {"top_boxes", "pairs_shape"}, {"corners"}, "reshape");
  // Slice the scores to K - 1; Tile them to [2, K].
  add_node(g, "Sub", {"k", "one_1"}, {"k_minus_1"}, "sub");
  add_node(g, "Slice", {"top_scores", "axes0", "k_minus_1"}, {"head"}, "slice");
  add_node(g, "Unsqueeze", {"top_scores", "axes0"}, {"row"}, "unsqueeze_row");
  set_int(add_node(g, "Concat", {"two_1", "one_1"}, {"reps"}, "concat_reps"), "axis", 0);
  add_node(g, "Tile", {"row", "reps"}, {"tiled"}, "tile");
  for (const char* out : {"top_scores", "top_boxes", "corners", "head", "tiled", "zeros"})
    add_info(g->mutable_output(), out, kFloat, {});
  add_info(g->mutable_output(), "grid", kInt64, {});
  add_info(g->mutable_output(), "top_index", kInt64, {});
  // Drop the dims add_info gave the outputs: their ranks are what the model says, shapes unknown.
  for (auto& o : *g->mutable_output()) o.mutable_type()->mutable_tensor_type()->clear_shape();
  return proto;
}

}  // namespace gk::proto_models

// What the loader accepts as ONNX Runtime does, outside the spec, and what it
// still refuses: each accepted case loads with a warning naming the value or
// node; each unsafe neighbour is an error naming it. (The same models run
// against ONNX Runtime in tests/diff/compat_test.cpp.)
#include "graph/loader.h"
#include "onnx_builders.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

using namespace gk;
using namespace gk::test;
using Catch::Contains;

namespace {

constexpr int kF = onnx::TensorProto::FLOAT;

// y = Relu(x), x [2, 3].
onnx::ModelProto relu_model(int64_t opset = 13) {
  auto m = make_model(8, opset);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {2, 3});
  add_node(g, "Relu", {"x"}, {"y"}, "relu");
  add_info(g->mutable_output(), "y", kF, {2, 3});
  return m;
}

Model load_ok(const TempDir& dir, const onnx::ModelProto& m) {
  auto r = load_in(dir, m);
  INFO(r.status().to_string());
  REQUIRE(r.ok());
  return std::move(r).value();
}

bool any_warning(const Model& m, const std::string& a, const std::string& b) {
  for (const auto& w : m.warnings)
    if (w.find(a) != std::string::npos && w.find(b) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("loader compat: a declared dimension of -1 reads as unknown", "[loader][compat]") {
  TempDir dir;
  auto m = relu_model();
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_value(-1);
  Model model = load_ok(dir, m);
  for (const auto& w : model.warnings) UNSCOPED_INFO(w);
  CHECK(any_warning(model, "value 'x'", "declares dimension 0 as -1; read as unknown"));
  const Value& x = value_named(model, "x");
  REQUIRE(x.dims.size() == 2);
  CHECK_FALSE(x.dims[0].known());
  CHECK(x.dims[1].value == 3);

  // -2 means nothing: still refused, naming the value.
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_value(-2);
  require_error(load_in(dir, m), StatusCode::kInvalidModel, "value 'x' declares dimension 0 as -2");
}

TEST_CASE("loader compat: value_info whose shape disagrees gives way to inference", "[loader][compat]") {
  TempDir dir;
  auto m = relu_model();
  add_info(m.mutable_graph()->mutable_value_info(), "y", kF, {6});  // rank 1 against the output's rank 2
  Model model = load_ok(dir, m);
  CHECK(any_warning(model, "value 'y' is declared with rank 2 but has rank 1", "shape inference decides"));
  CHECK_FALSE(value_named(model, "y").has_shape);

  // A Constant's value_info with the wrong rank: the tensor's own shape stays.
  auto c = make_model(8, 13);
  auto* g = c.mutable_graph();
  auto* k = add_node(g, "Constant", {}, {"k"}, "const");
  auto* a = k->add_attribute();
  a->set_name("value_floats"), a->set_type(onnx::AttributeProto::FLOATS);
  for (float v : {1.f, 2.f, 3.f}) a->add_floats(v);
  add_info(g->mutable_value_info(), "k", kF, {1, 3});
  add_node(g, "Relu", {"k"}, {"y"});
  add_info(g->mutable_output(), "y", kF, {});
  Model cm = load_ok(dir, c);
  CHECK(any_warning(cm, "value 'k' is declared with rank 2 but has rank 1 by its initializer", "ignored"));
  CHECK(value_named(cm, "k").dims.size() == 1);

  // Element types must agree, and a graph input's declarations must agree (the
  // caller's tensor is checked against them): both still refused.
  auto t = relu_model();
  add_info(t.mutable_graph()->mutable_value_info(), "y", onnx::TensorProto::INT64, {2, 3});
  require_error(load_in(dir, t), StatusCode::kInvalidModel, "value 'y' is declared float32 but is int64");
  auto in = relu_model();
  add_info(in.mutable_graph()->mutable_value_info(), "x", kF, {6});
  require_error(load_in(dir, in), StatusCode::kInvalidModel, "value 'x' is declared with rank 1 but has rank 2");
}

TEST_CASE("loader compat: two Constant nodes writing one name keep the last", "[loader][compat]") {
  TempDir dir;
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  auto constant = [&](const std::string& node, float v) {
    auto* n = add_node(g, "Constant", {}, {"c"}, node);
    auto* a = n->add_attribute();
    a->set_name("value_float"), a->set_type(onnx::AttributeProto::FLOAT), a->set_f(v);
  };
  add_info(g->mutable_input(), "x", kF, {});
  constant("first", 1.0f);
  add_node(g, "Add", {"x", "c"}, {"y"});
  constant("second", 5.0f);
  add_info(g->mutable_output(), "y", kF, {});
  Model model = load_ok(dir, m);
  CHECK(any_warning(model, "node 'second' (Constant) writes 'c'",
                    "which node 'first' (Constant) also writes; the last one is used"));
  const Value& c = value_named(model, "c");
  REQUIRE(c.initializer);
  CHECK(c.initializer->as_f64(0) == 5.0);

  // A Constant writing a name another kind of node wrote stays an error.
  add_node(g, "Relu", {"x"}, {"r"}, "relu");
  auto* n = add_node(g, "Constant", {}, {"r"}, "late");
  auto* a = n->add_attribute();
  a->set_name("value_float"), a->set_type(onnx::AttributeProto::FLOAT), a->set_f(2.0f);
  require_error(load_in(dir, m), StatusCode::kInvalidModel, "'r' is already defined as output of node 'relu'");
}

TEST_CASE("loader compat: LayerNormalization in ai.onnx below opset 17", "[loader][compat]") {
  TempDir dir;
  for (int64_t opset : {1, 11, 16}) {
    auto m = make_model(8, opset);
    auto* g = m.mutable_graph();
    add_info(g->mutable_input(), "x", kF, {2, 4});
    add_info(g->mutable_input(), "s", kF, {4});
    add_node(g, "LayerNormalization", {"x", "s"}, {"y"}, "ln");
    add_info(g->mutable_output(), "y", kF, {2, 4});
    Model model = load_ok(dir, m);
    INFO("opset " << opset);
    CHECK(any_warning(model, "node 'ln'", fmt::format("LayerNormalization is not in the spec's ai.onnx opset {}", opset)));
    REQUIRE(model.graph.nodes.size() == 1);
    CHECK(model.graph.nodes[0].schema);
  }
  // At 17 it is standard: no warning.
  auto m = make_model(8, 17);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {2, 4});
  add_info(g->mutable_input(), "s", kF, {4});
  add_node(g, "LayerNormalization", {"x", "s"}, {"y"}, "ln");
  add_info(g->mutable_output(), "y", kF, {2, 4});
  CHECK(load_ok(dir, m).warnings.empty());
}

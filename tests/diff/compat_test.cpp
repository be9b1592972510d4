// Models ONNX Runtime runs although they step outside the spec, written the way
// the exporters that produce them do: a declared dimension of -1, value_info
// that disagrees with inference, two Constant nodes writing one name, a
// subgraph value shadowing an outer name, LayerNormalization in ai.onnx below
// opset 17. gkrun runs each (with a warning, tests/graph/loader_compat_test.cpp)
// and matches a hand-computed reference and ONNX Runtime.
#include "tests/diff/ort_runner.h"
#include "tests/graph/onnx_builders.h"
#include "tests/support/compare.h"

#include <cmath>

namespace gk::test {
namespace {

constexpr int kF = onnx::TensorProto::FLOAT, kB = onnx::TensorProto::BOOL;
HostTensor floats(Shape s, std::vector<float> v) { return HostTensor::from_vector(DType::kF32, s, v); }

void set_float(onnx::NodeProto* n, const std::string& name, float v) {
  auto* a = n->add_attribute();
  a->set_name(name), a->set_type(onnx::AttributeProto::FLOAT), a->set_f(v);
}

// Both runtimes give `want` (rtol 1e-6).
void check_both(const onnx::ModelProto& m, const std::vector<NamedTensor>& in, const std::string& out,
                const Shape& shape, const std::vector<double>& want, const std::string& key) {
  Outputs ours = run_gk(m, in);
  check_close(ours.at(out), shape, want, Tol{1e-6, 1e-7});
  Outputs ort = run_ort(m, in, key);
  check_close(ort.at(out), shape, want, Tol{1e-6, 1e-7});
}

TEST_CASE("compat: a declared dimension of -1 runs like an unknown one", "[diff][compat]") {
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {1, 3});
  g->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-1);
  add_node(g, "Relu", {"x"}, {"y"});
  add_info(g->mutable_output(), "y", kF, {1, 3});
  g->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)->set_dim_value(-1);
  check_both(m, {{"x", floats({2, 3}, {-1, 2, -3, 4, -5, 6})}}, "y", {2, 3}, {0, 2, 0, 4, 0, 6}, "dim_minus_one");
}

TEST_CASE("compat: value_info with the wrong rank gives way to inference", "[diff][compat]") {
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {2, 3});
  add_node(g, "Relu", {"x"}, {"r"});
  add_node(g, "Neg", {"r"}, {"y"});
  add_info(g->mutable_value_info(), "r", kF, {6, 1, 1});  // an exporter's stale annotation
  add_info(g->mutable_output(), "y", kF, {2, 3});
  check_both(m, {{"x", floats({2, 3}, {-1, 2, -3, 4, -5, 6})}}, "y", {2, 3}, {0, -2, 0, -4, 0, -6},
             "value_info_rank");
}

TEST_CASE("compat: two Constant nodes writing one name: the last is read everywhere", "[diff][compat]") {
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {3});
  set_float(add_node(g, "Constant", {}, {"c"}, "first"), "value_float", 1.0f);
  add_node(g, "Add", {"x", "c"}, {"y"});  // between the two writers
  set_float(add_node(g, "Constant", {}, {"c"}, "second"), "value_float", 5.0f);
  add_node(g, "Mul", {"x", "c"}, {"z"});
  add_info(g->mutable_output(), "y", kF, {3});
  add_info(g->mutable_output(), "z", kF, {3});
  const std::vector<NamedTensor> in = {{"x", floats({3}, {1, 2, 3})}};
  check_both(m, in, "y", {3}, {6, 7, 8}, "duplicate_constant");
  check_both(m, in, "z", {3}, {5, 10, 15}, "duplicate_constant");
}

TEST_CASE("compat: an If branch's value reusing a name the outer graph defines later", "[diff][compat]") {
  // The then-branch makes its own t = x + 1 and returns it; the main graph
  // defines t = 2x after the If (old torch.onnx Ifs reuse names so). ONNX
  // Runtime accepts this (t is not in the If's lexical scope) and refuses a
  // branch reusing a name defined before the If, as gkrun does
  // (tests/graph/loader_errors_test.cpp).
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {3});
  add_info(g->mutable_input(), "cond", kB, {});
  auto* two = add_initializer(g, "two", kF, {});
  two->add_float_data(2.0f);
  auto* one = add_initializer(g, "one", kF, {});
  one->add_float_data(1.0f);
  auto* iff = add_node(g, "If", {"cond"}, {"y"}, "if");
  onnx::GraphProto then_g, else_g;
  then_g.set_name("then");
  add_node(&then_g, "Add", {"x", "one"}, {"t"}, "shadowing_add");
  add_info(then_g.mutable_output(), "t", kF, {3});
  else_g.set_name("else");
  add_node(&else_g, "Sub", {"x", "one"}, {"e"});
  add_info(else_g.mutable_output(), "e", kF, {3});
  for (auto [name, body] : {std::pair{"then_branch", &then_g}, std::pair{"else_branch", &else_g}}) {
    auto* a = iff->add_attribute();
    a->set_name(name), a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = *body;
  }
  add_node(g, "Mul", {"x", "two"}, {"t"});
  add_info(g->mutable_output(), "y", kF, {3});
  add_info(g->mutable_output(), "t", kF, {3});
  const HostTensor x = floats({3}, {1, 2, 3});
  auto cond = [](bool v) { return HostTensor::from_vector(DType::kBool, {}, std::vector<uint8_t>{v}); };
  check_both(m, {{"x", x}, {"cond", cond(true)}}, "y", {3}, {2, 3, 4}, "shadow_then");
  check_both(m, {{"x", x}, {"cond", cond(false)}}, "y", {3}, {0, 1, 2}, "shadow_else");
  check_both(m, {{"x", x}, {"cond", cond(true)}}, "t", {3}, {2, 4, 6}, "shadow_t");
}

TEST_CASE("compat: LayerNormalization in ai.onnx at opsets 1-16", "[diff][compat]") {
  const std::vector<float> x = {1, 2, 4, 9, -3, 0, 3, 0.5f};
  const std::vector<float> s = {1, 0.5f, 2, -1}, b = {0, 1, 0, 0.25f};
  // Float64 reference over the last axis, epsilon 1e-3.
  std::vector<double> want;
  for (int r = 0; r < 2; ++r) {
    double mean = 0, var = 0;
    for (int i = 0; i < 4; ++i) mean += x[r * 4 + i] / 4.0;
    for (int i = 0; i < 4; ++i) var += (x[r * 4 + i] - mean) * (x[r * 4 + i] - mean) / 4.0;
    for (int i = 0; i < 4; ++i) want.push_back((x[r * 4 + i] - mean) / std::sqrt(var + 1e-3) * s[i] + b[i]);
  }
  for (int64_t opset : {9, 13, 16}) {
    INFO("opset " << opset);
    auto m = make_model(8, opset);
    auto* g = m.mutable_graph();
    add_info(g->mutable_input(), "x", kF, {2, 4});
    auto* si = add_initializer(g, "s", kF, {4});
    for (float v : s) si->add_float_data(v);
    auto* bi = add_initializer(g, "b", kF, {4});
    for (float v : b) bi->add_float_data(v);
    set_float(add_node(g, "LayerNormalization", {"x", "s", "b"}, {"y"}, "ln"), "epsilon", 1e-3f);
    add_info(g->mutable_output(), "y", kF, {2, 4});
    const std::vector<NamedTensor> in = {{"x", floats({2, 4}, x)}};
    Outputs ours = run_gk(m, in);
    check_close(ours.at("y"), {2, 4}, want, Tol{1e-5, 1e-6});
    Outputs ort = run_ort(m, in, fmt::format("layernorm_{}", opset));
    check_close(ort.at("y"), {2, 4}, want, Tol{1e-5, 1e-6});
  }
}

}  // namespace
}  // namespace gk::test

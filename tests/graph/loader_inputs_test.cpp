// Required inputs against the ONNX spec's input lists (ops/core/input_spec.inc): a
// node whose required input is absent, or that names too few or too many inputs, is
// InvalidModel naming the node, the input and the op, before any infer rule reads
// the inputs. Absent optional inputs still load.
#include "graph/loader.h"
#include "onnx_builders.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace gk;
using namespace gk::test;

namespace {

constexpr int kFloat = onnx::TensorProto::FLOAT;

// y = op(inputs...) with graph inputs x (and w, r, c where named), float.
onnx::ModelProto one_node(const std::string& op, const std::vector<std::string>& inputs, int64_t opset = 21) {
  auto m = make_model(10, opset);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {1, 4, 2, 2});
  for (const char* extra : {"w", "r", "c"})
    if (std::find(inputs.begin(), inputs.end(), extra) != inputs.end())
      add_info(g->mutable_input(), extra, kFloat, {-1, -1, -1});
  add_node(g, op, inputs, {"y"}, "n");
  add_info(g->mutable_output(), "y", kFloat, {});
  return m;
}

Result<Model> load(const onnx::ModelProto& m) {
  TempDir dir;
  return load_in(dir, m);
}

}  // namespace

// Each of these is a required input given as the empty name: SIGSEGV in `gkrun
// check` before (#16), the infer rule indexing an input that was not there.
TEST_CASE("loader inputs: a required input given as \"\" names the node, input and op", "[loader]") {
  gk::test::require_error(load(one_node("Shape", {""})), StatusCode::kInvalidModel,
                          "node 'n' (Shape): input 0 ('data') is required but absent; Shape-21 takes 1 input");
  auto maxpool = one_node("MaxPool", {""});
  auto* kernel = maxpool.mutable_graph()->mutable_node(0)->add_attribute();
  kernel->set_name("kernel_shape");
  kernel->set_type(onnx::AttributeProto::INTS);
  kernel->add_ints(2);
  kernel->add_ints(2);
  gk::test::require_error(load(maxpool), StatusCode::kInvalidModel,
                          "node 'n' (MaxPool): input 0 ('X') is required but absent");
  auto d2s = one_node("DepthToSpace", {""});
  auto* block = d2s.mutable_graph()->mutable_node(0)->add_attribute();
  block->set_name("blocksize");
  block->set_type(onnx::AttributeProto::INT);
  block->set_i(2);
  gk::test::require_error(load(d2s), StatusCode::kInvalidModel,
                          "node 'n' (DepthToSpace): input 0 ('input') is required but absent");
  auto bitcast = one_node("BitCast", {""}, 26);
  auto* to = bitcast.mutable_graph()->mutable_node(0)->add_attribute();
  to->set_name("to");
  to->set_type(onnx::AttributeProto::INT);
  to->set_i(onnx::TensorProto::INT32);
  gk::test::require_error(load(bitcast), StatusCode::kInvalidModel,
                          "node 'n' (BitCast): input 0 ('input') is required but absent; BitCast-26 takes 1 input");
}

// A required input in the middle given as "": SIGSEGV in `gkrun check` before (#16).
TEST_CASE("loader inputs: GRU with W given as \"\" is refused", "[loader]") {
  auto m = one_node("GRU", {"x", "", "r"});
  auto* hidden = m.mutable_graph()->mutable_node(0)->add_attribute();
  hidden->set_name("hidden_size");
  hidden->set_type(onnx::AttributeProto::INT);
  hidden->set_i(3);
  gk::test::require_error(load(m), StatusCode::kInvalidModel,
                          "node 'n' (GRU): input 1 ('W') is required but absent; GRU-14 takes 3 to 6 inputs");
}

// Fewer inputs than the op's minimum: Gemm's infer rule read past its inputs
// before (undefined behaviour, reported as "element types differ" at best).
TEST_CASE("loader inputs: too few and too many inputs are refused", "[loader]") {
  gk::test::require_error(load(one_node("Gemm", {"x"})), StatusCode::kInvalidModel,
                          "node 'n' (Gemm): input 1 ('B') is required but absent; Gemm-13 takes 2 to 3 inputs");
  // Before opset 11, Gemm's C is required.
  gk::test::require_error(load(one_node("Gemm", {"x", "w"}, 9)), StatusCode::kInvalidModel,
                          "node 'n' (Gemm): input 2 ('C') is required but absent; Gemm-9 takes 3 inputs");
  gk::test::require_error(load(one_node("Shape", {"x", "x"})), StatusCode::kInvalidModel,
                          "node 'n' (Shape): has 2 inputs; Shape-21 takes 1 input");
  gk::test::require_error(load(one_node("Sum", {})), StatusCode::kInvalidModel,
                          "node 'n' (Sum): input 0 ('data_0') is required but absent; Sum-13 takes 1 or more inputs");
  // An element of a variadic input is never optional.
  gk::test::require_error(load(one_node("Concat", {"x", "", "x"})), StatusCode::kInvalidModel,
                          "node 'n' (Concat): input 1 ('inputs') is required but absent");
}

// The check runs on subgraphs too: a body is loaded by the same converter.
TEST_CASE("loader inputs: a required input absent inside an If branch is refused", "[loader]") {
  auto m = make_model(10, 21);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "cond", onnx::TensorProto::BOOL, {});
  auto* node = add_node(g, "If", {"cond"}, {"y"}, "if");
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = node->add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    auto* body = a->mutable_g();
    body->set_name(branch);
    add_node(body, "Shape", {""}, {"s"}, std::string(branch) + "_shape");
    add_info(body->mutable_output(), "s", onnx::TensorProto::INT64, {-1});
  }
  add_info(g->mutable_output(), "y", onnx::TensorProto::INT64, {-1});
  gk::test::require_error(load(m), StatusCode::kInvalidModel,
                          "node 'then_branch_shape' (Shape): input 0 ('data') is required but absent");
}

TEST_CASE("loader inputs: absent optional inputs still load", "[loader]") {
  auto ok = [](const onnx::ModelProto& m) {
    auto r = load(m);
    INFO(r.status().to_string());
    CHECK(r.ok());
  };
  ok(one_node("Clip", {"x", "", "c"}));      // min absent, max given
  ok(one_node("Clip", {"x", "", ""}));       // trailing absent ones dropped
  ok(one_node("Gemm", {"x", "w"}));          // C optional from Gemm-11
  ok(one_node("Gemm", {"x", "w", ""}));
  auto gru = one_node("GRU", {"x", "w", "r", "", "", ""});
  auto* hidden = gru.mutable_graph()->mutable_node(0)->add_attribute();
  hidden->set_name("hidden_size");
  hidden->set_type(onnx::AttributeProto::INT);
  hidden->set_i(3);
  ok(gru);
}

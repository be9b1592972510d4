// The hostile-input matrix, part 1: model files. Each TEST_CASE is one named case
// (ctest runs each as its own process, label hostile); the comment above it names
// the bug class it guards. Every case asserts the error code and a message
// substring; none may end the process with a signal. Part 2 (run-time inputs,
// tensor files, the memory limit) is hostile_run_test.cpp.
#include "tests/security/hostile.h"

#include <filesystem>

using namespace gk;
using namespace gk::hostile;
using gk::test::require_error;
namespace fs = std::filesystem;

namespace {

// A model whose one initializer "w" (4 floats) is stored externally with these
// entries, and y = Add(x, w) reads it.
onnx::ModelProto external_model(const std::string& location, const std::string& offset = "",
                                const std::string& length = "") {
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  auto* t = add_initializer(g, "w", kFloat, {4});
  set_external_data(t, location, offset, length);
  add_node(g, "Add", {"x", "w"}, {"y"}, "add");
  add_info(g->mutable_output(), "y", kFloat, {4});
  return m;
}

// y = Add(x, w) with an inline initializer w that `fill` makes hostile.
template <typename F>
onnx::ModelProto initializer_model(F&& fill) {
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  auto* t = g->add_initializer();
  t->set_name("w");
  fill(*t);
  add_node(g, "Add", {"x", "w"}, {"y"}, "add");
  add_info(g->mutable_output(), "y", kFloat, {4});
  return m;
}

// A branch returning Identity(x) as `out`.
onnx::GraphProto leaf_body(const std::string& out) {
  onnx::GraphProto body;
  body.set_name("leaf_" + out);
  add_node(&body, "Identity", {"x"}, {out}, "leaf");
  add_info(body.mutable_output(), out, kFloat, {2});
  return body;
}

// `depth` Ifs in a chain: each then-branch holds the next If, each else-branch a
// leaf, the innermost then-branch a leaf too (the file grows linearly with depth;
// a protobuf tree cannot share a body between two branches, so depth is the bomb).
onnx::GraphProto nested_if_body(int depth) {
  const std::string out = fmt::format("out{}", depth);
  if (depth == 0) return leaf_body(out);
  onnx::GraphProto body;
  body.set_name(fmt::format("level{}", depth));
  auto* n = add_node(&body, "If", {"cond"}, {out}, fmt::format("if{}", depth));
  set_graph(n, "then_branch", nested_if_body(depth - 1));
  set_graph(n, "else_branch", leaf_body(out + "_else"));
  add_info(body.mutable_output(), out, kFloat, {2});
  return body;
}

onnx::ModelProto nested_if_model(int depth) {
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_info(g->mutable_input(), "cond", kBool, {});
  auto* n = add_node(g, "If", {"cond"}, {"y"}, "top");
  set_graph(n, "then_branch", nested_if_body(depth - 1));
  set_graph(n, "else_branch", leaf_body("y_else"));
  add_info(g->mutable_output(), "y", kFloat, {2});
  return m;
}

}  // namespace

// ---- external data: path traversal and symlinks (CVE-2022-25882, CVE-2024-27318) ----

// Class: path traversal, an absolute location.
TEST_CASE("hostile: external data at an absolute path", "[hostile]") {
  TempDir dir;
  require_error(open_in(dir, external_model("/etc/passwd")), StatusCode::kInvalidModel, "absolute");
}

// Class: path traversal, a '..' component leaving the folder.
TEST_CASE("hostile: external data through '..'", "[hostile]") {
  TempDir dir;
  require_error(open_in(dir, external_model("../../../../etc/passwd")), StatusCode::kInvalidModel, "'..'");
}

// Class: path traversal, a '..' that would come back inside (still refused: no '..' at all).
TEST_CASE("hostile: external data through 'sub/../'", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(16, '\0'));
  require_error(open_in(dir, external_model("sub/../w.bin")), StatusCode::kInvalidModel, "'..'");
}

// Class: symlinks, a file link to a file outside the folder.
TEST_CASE("hostile: external data through a symlink to a file outside", "[hostile]") {
  TempDir outside, dir;
  write_file(outside / "secret.bin", std::string(16, 'S'));
  fs::create_symlink(outside / "secret.bin", dir / "w.bin");
  require_error(open_in(dir, external_model("w.bin")), StatusCode::kInvalidModel, "outside the model's folder");
}

// Class: symlinks, a folder link leading outside.
TEST_CASE("hostile: external data through a symlinked folder", "[hostile]") {
  TempDir outside, dir;
  write_file(outside / "w.bin", std::string(16, 'S'));
  fs::create_directory_symlink(outside.path(), dir / "sub");
  require_error(open_in(dir, external_model("sub/w.bin")), StatusCode::kInvalidModel, "outside the model's folder");
}

// Class: path traversal, a location naming a folder or a device, not a file.
TEST_CASE("hostile: external data naming a folder", "[hostile]") {
  TempDir dir;
  fs::create_directory(dir / "d");
  auto r = open_in(dir, external_model("d"));
  require_error(r, StatusCode::kInvalidModel, "'w'");
}

// Class: path traversal, external data from a model opened from memory (no folder).
TEST_CASE("hostile: external data in a model opened from memory", "[hostile]") {
  std::string bytes;
  external_model("w.bin").SerializeToString(&bytes);
  require_error(Session::open_from_memory(bytes.data(), bytes.size(), cpu()), StatusCode::kInvalidModel, "'w'");
}

// ---- external data: offsets and lengths past the end ----

// Class: offset past the end of the file.
TEST_CASE("hostile: external data offset past the end", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(16, '\0'));
  require_error(open_in(dir, external_model("w.bin", "4096")), StatusCode::kInvalidModel,
                "offset 4096 is past the end of the file (16 bytes)");
}

// Class: offset + length past the end (a short read would be an out-of-bounds mmap read).
TEST_CASE("hostile: external data running past the end", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(16, '\0'));
  require_error(open_in(dir, external_model("w.bin", "8")), StatusCode::kInvalidModel, "run past the end");
}

// Class: offset + length that wraps around uint64.
TEST_CASE("hostile: external data offset that wraps uint64", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(16, '\0'));
  require_error(open_in(dir, external_model("w.bin", "18446744073709551615", "16")), StatusCode::kInvalidModel,
                "past the end");
}

// Class: negative and non-numeric offsets.
TEST_CASE("hostile: external data with a negative offset", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(16, '\0'));
  require_error(open_in(dir, external_model("w.bin", "-4")), StatusCode::kInvalidModel,
                "offset '-4' is not a non-negative integer");
}

// ---- dims: overflow and negative ----

// Class: dims whose product overflows int64 (an undersized allocation then a heap overflow).
TEST_CASE("hostile: initializer dims whose product overflows int64", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    for (int i = 0; i < 3; ++i) t.add_dims(int64_t{1} << 31);
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "overflows int64");
}

// Class: dims whose product fits int64 but whose byte size overflows size_t.
TEST_CASE("hostile: initializer dims whose byte size overflows", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(onnx::TensorProto::DOUBLE);
    t.add_dims(int64_t{1} << 61);
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "'w'");
}

// Class: declared graph-input dims whose product overflows, reaching the planner.
TEST_CASE("hostile: input shape whose product overflows int64", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, unary_model("Relu", {-1, -1, -1}));
  const int64_t big = int64_t{1} << 31;
  require_error(s->plan_summary({{"x", Shape{big, big, big}}}), StatusCode::kInvalidArgument,
                "input 'x': shape 2147483648x2147483648x2147483648: element count overflows int64");
}

// Class: a Reshape target (plan-time value) whose product overflows.
TEST_CASE("hostile: Reshape to a shape whose product overflows", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  int64_initializer(g, "shape", {3}, {int64_t{1} << 40, int64_t{1} << 40, 4});
  add_node(g, "Reshape", {"x", "shape"}, {"y"}, "reshape");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = open_in(dir, m);
  Status st = s.ok() ? (*s)->run({{"x", zeros({4})}}).status() : s.status();
  require_error(st, StatusCode::kInvalidModel, "reshape");
}

// Class: an Expand to an overflowing shape (an allocation sized from wrapped
// arithmetic). InvalidArgument: the shape could as well come from a run-time input.
TEST_CASE("hostile: Expand to a shape whose product overflows", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {1});
  int64_initializer(g, "shape", {3}, {int64_t{1} << 31, int64_t{1} << 31, int64_t{1} << 31});
  add_node(g, "Expand", {"x", "shape"}, {"y"}, "expand");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = open_in(dir, m);
  Status st = s.ok() ? (*s)->run({{"x", zeros({1})}}).status() : s.status();
  require_error(st, StatusCode::kInvalidArgument, "element count overflows int64");
}

// Class: negative dims in an initializer.
TEST_CASE("hostile: initializer with a negative dim", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(-4);
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "dimension 0 is -4");
}

// Class: negative dims in a declared graph input.
TEST_CASE("hostile: graph input declared with a negative dim", "[hostile]") {
  TempDir dir;
  auto m = unary_model("Relu", {2});
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0)
      ->set_dim_value(-3);
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "-3");
}

// Class: negative dims in a ConstantOfShape shape (a negative allocation size).
TEST_CASE("hostile: ConstantOfShape with a negative dim", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  int64_initializer(g, "shape", {2}, {2, -5});
  add_node(g, "ConstantOfShape", {"shape"}, {"y"}, "cos");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = open_in(dir, m);
  Status st = s.ok() ? (*s)->run({}).status() : s.status();
  require_error(st, StatusCode::kInvalidModel, "-5");
}

// ---- wrong initializer sizes ----

// Class: raw_data shorter than the dims say (an out-of-bounds read).
TEST_CASE("hostile: raw_data shorter than its dims", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(4);
    t.set_raw_data(std::string(8, '\0'));
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "raw_data has 8 bytes, expected 16");
}

// Class: a typed data field with too few values.
TEST_CASE("hostile: float_data with too few values", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(4);
    t.add_float_data(1.0f);
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "float_data has 1 values, expected 4");
}

// Class: an initializer whose dims say elements but which carries no data at all.
TEST_CASE("hostile: initializer with dims and no data", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(4);
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "'w'");
}

// Class: an external length that disagrees with the dims.
TEST_CASE("hostile: external data length that disagrees with the dims", "[hostile]") {
  TempDir dir;
  write_file(dir / "w.bin", std::string(64, '\0'));
  require_error(open_in(dir, external_model("w.bin", "0", "12")), StatusCode::kInvalidModel,
                "length 12 does not match the tensor's 16 bytes");
}

// Class: an initializer whose shape disagrees with the graph input it feeds.
TEST_CASE("hostile: initializer shape disagreeing with its declaration", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(4);
    for (int i = 0; i < 4; ++i) t.add_float_data(1.0f);
  });
  add_info(m.mutable_graph()->mutable_input(), "w", kFloat, {5});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "value 'w' dimension 0 is declared 5 but is 4");
}

// ---- absent required inputs ----

// Class: a required input given as "" (the five SIGSEGVs of the mutation run).
TEST_CASE("hostile: required input given as the empty name", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "a", kFloat, {2, 2});
  add_node(g, "MatMul", {"a", ""}, {"y"}, "mm");
  add_info(g->mutable_output(), "y", kFloat, {});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "mm");
}

// Class: too few inputs for the op.
TEST_CASE("hostile: a node with too few inputs", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "a", kFloat, {2, 2});
  add_node(g, "Gemm", {"a"}, {"y"}, "gemm");
  add_info(g->mutable_output(), "y", kFloat, {});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "gemm");
}

// Class: an op the registry runs below its first spec version, with too few inputs
// (mutations 1779/1780/1813/1835 of scripts/mutate_cli.py: a node's op type changed
// to LayerNormalization at opset 10; its infer rule read inputs[1] past the end).
TEST_CASE("hostile: LayerNormalization below opset 17 with one input", "[hostile]") {
  TempDir dir;
  auto m = unary_model("LayerNormalization", {5}, 10);
  require_error(open_in(dir, m), StatusCode::kInvalidModel,
                "input 1 ('Scale') is required but absent; LayerNormalization-17 takes 2 to 3 inputs");
}

// Class: a node naming fewer outputs than its op requires (TopK writes Indices).
TEST_CASE("hostile: a node with too few outputs", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  int64_initializer(g, "k", {1}, {2});
  add_node(g, "TopK", {"x", "k"}, {"values"}, "topk");
  add_info(g->mutable_output(), "values", kFloat, {2});
  require_error(open_in(dir, m), StatusCode::kInvalidModel,
                "node 'topk' (TopK): has 1 output; TopK-11 takes 2 inputs and 2 outputs");
}

// Class: a required single output given as "" (TopK's Values; its infer rule and
// kernel write it). An optional output or an element of a variadic list may be ""
// (ONNX's checker allows both): a Split with its middle piece unwanted runs, and the
// pieces it keeps hold their values.
TEST_CASE("hostile: a required output given as empty", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  int64_initializer(g, "k", {1}, {2});
  add_node(g, "TopK", {"x", "k"}, {"", "indices"}, "topk");
  add_info(g->mutable_output(), "indices", kInt64, {2});
  require_error(open_in(dir, m), StatusCode::kInvalidModel,
                "node 'topk' (TopK): output 0 ('Values') is required but given as \"\"; TopK-11 takes");

  TempDir dir2;
  auto split = make_model();
  auto* sg = split.mutable_graph();
  add_info(sg->mutable_input(), "x", kFloat, {6});
  auto* node = add_node(sg, "Split", {"x"}, {"a", "", "c"}, "split");
  set_int(node, "axis", 0);
  add_info(sg->mutable_output(), "a", kFloat, {2});
  add_info(sg->mutable_output(), "c", kFloat, {2});
  auto s = must_open(dir2, split);
  auto out = s->run({{"x", HostTensor::from_vector(DType::kF32, {6}, std::vector<float>{1, 2, 3, 4, 5, 6})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  REQUIRE(out->size() == 2);
  CHECK(std::vector<float>((*out)[0].tensor.data<float>(), (*out)[0].tensor.data<float>() + 2) ==
        std::vector<float>{1, 2});
  CHECK(std::vector<float>((*out)[1].tensor.data<float>(), (*out)[1].tensor.data<float>() + 2) ==
        std::vector<float>{5, 6});

  // Uneven sizes from the split input (1, 3, 2): the unnamed piece is 3 long.
  TempDir dir3;
  auto sized = make_model();
  auto* zg = sized.mutable_graph();
  add_info(zg->mutable_input(), "x", kFloat, {6});
  int64_initializer(zg, "sizes", {3}, {1, 3, 2});
  set_int(add_node(zg, "Split", {"x", "sizes"}, {"a", "", "c"}, "split"), "axis", 0);
  add_info(zg->mutable_output(), "a", kFloat, {1});
  add_info(zg->mutable_output(), "c", kFloat, {2});
  auto s3 = must_open(dir3, sized);
  auto out3 = s3->run({{"x", HostTensor::from_vector(DType::kF32, {6}, std::vector<float>{1, 2, 3, 4, 5, 6})}});
  INFO((out3.ok() ? std::string("OK") : out3.status().to_string()));
  REQUIRE(out3.ok());
  CHECK((*out3)[0].tensor.data<float>()[0] == 1);
  CHECK(std::vector<float>((*out3)[1].tensor.data<float>(), (*out3)[1].tensor.data<float>() + 2) ==
        std::vector<float>{5, 6});
}

// Class: a node naming more outputs than its op has.
TEST_CASE("hostile: a node with too many outputs", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  add_node(g, "Relu", {"x"}, {"y", "z"}, "relu");
  add_info(g->mutable_output(), "y", kFloat, {4});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "node 'relu' (Relu): has 2 outputs; Relu-");
}

// Class: an input that nothing produces (a dangling edge).
TEST_CASE("hostile: a node input nothing produces", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "a", kFloat, {2});
  add_node(g, "Add", {"a", "ghost"}, {"y"}, "add");
  add_info(g->mutable_output(), "y", kFloat, {});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "input 'ghost' is not produced by any node");
}

// ---- unknown element types ----

// Class: an initializer of element type 99 (an unchecked switch on the raw integer).
TEST_CASE("hostile: initializer of unknown element type", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(99);
    t.add_dims(1);
    t.set_raw_data("abcd");
  });
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "99");
}

// Class: a graph input of unknown element type.
TEST_CASE("hostile: graph input of unknown element type", "[hostile]") {
  TempDir dir;
  auto m = unary_model("Relu", {2});
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(77);
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "77");
}

// Class: a Cast to an unknown element type.
TEST_CASE("hostile: Cast to an unknown element type", "[hostile]") {
  TempDir dir;
  auto m = unary_model("Cast", {2});
  set_int(m.mutable_graph()->mutable_node(0), "to", 1234);
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "1234");
}

// ---- recursion bombs: nested subgraphs and functions ----

// Class: nesting deeper than protobuf's recursion limit (a stack overflow in a
// recursive loader): refused at parse time.
TEST_CASE("hostile: subgraphs nested 200 deep", "[hostile]") {
  TempDir dir;
  require_error(open_in(dir, nested_if_model(200)), StatusCode::kInvalidModel, "corrupt or truncated protobuf");
}

// Class: nesting just below the limit: loads and runs (the loader, validator and
// executor recurse once per level, within the stack).
TEST_CASE("hostile: subgraphs nested 30 deep", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, nested_if_model(30));
  auto out = s->run({{"x", f32({2}, {1.5f, -2.0f})}, {"cond", HostTensor::from_vector(DType::kBool, {}, std::vector<uint8_t>{1})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  CHECK((*out)[0].tensor.data<float>()[1] == -2.0f);
  // And an unknown op at the bottom is named, however deep.
  auto m = nested_if_model(30);
  auto* leaf = m.mutable_graph();
  for (int d = 0; d < 30; ++d) leaf = leaf->mutable_node(0)->mutable_attribute(0)->mutable_g();
  leaf->mutable_node(0)->set_op_type("NoSuchOp");
  require_error(open_in(dir, m), StatusCode::kUnimplemented, "NoSuchOp");
}

// Class: a model-local function that calls itself (an unbounded inlining recursion).
TEST_CASE("hostile: a function that calls itself", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  test::import_domain(m, "local", 1);
  auto* f = m.add_functions();
  f->set_name("Rec");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* fn = f->add_node();
  fn->set_op_type("Rec");
  fn->set_domain("local");
  fn->add_input("a");
  fn->add_output("b");
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_node(g, "Rec", {"x"}, {"y"}, "call", "local");
  add_info(g->mutable_output(), "y", kFloat, {2});
  // Functions are inlined at load (graph/loader_functions.cpp): recursion is refused there, naming the chain.
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "function 'local.Rec' calls itself (local.Rec -> local.Rec)");
}

// ---- cycles ----

// Class: a cycle through two nodes (an endless topological sort or recursion).
TEST_CASE("hostile: a cycle through two nodes", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_node(g, "Add", {"x", "b"}, {"a"}, "na");
  add_node(g, "Relu", {"a"}, {"b"}, "nb");
  add_info(g->mutable_output(), "b", kFloat, {2});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "cycle");
}

// Class: a node that reads its own output.
TEST_CASE("hostile: a node reading its own output", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_node(g, "Add", {"x", "y"}, {"y"}, "self");
  add_info(g->mutable_output(), "y", kFloat, {2});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "self");
}

// ---- duplicate names ----

// Class: two nodes producing one name (a value silently overwritten).
TEST_CASE("hostile: two nodes producing the same value", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_node(g, "Relu", {"x"}, {"y"}, "first");
  add_node(g, "Neg", {"x"}, {"y"}, "second");
  add_info(g->mutable_output(), "y", kFloat, {2});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "'y' is already defined as output of node 'first'");
}

// Class: a graph input declared twice.
TEST_CASE("hostile: a graph input declared twice", "[hostile]") {
  TempDir dir;
  auto m = unary_model("Relu", {2});
  add_info(m.mutable_graph()->mutable_input(), "x", kFloat, {3});
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "'x'");
}

// Class: two initializers of one name.
TEST_CASE("hostile: two initializers of one name", "[hostile]") {
  TempDir dir;
  auto m = initializer_model([](onnx::TensorProto& t) {
    t.set_data_type(kFloat);
    t.add_dims(4);
    for (int i = 0; i < 4; ++i) t.add_float_data(1.0f);
  });
  *m.mutable_graph()->add_initializer() = m.graph().initializer(0);
  require_error(open_in(dir, m), StatusCode::kInvalidModel, "'w'");
}

// ---- truncated files ----

// Class: a truncated model file.
TEST_CASE("hostile: a truncated model file", "[hostile]") {
  TempDir dir;
  std::string bytes;
  external_model("w.bin").SerializeToString(&bytes);
  write_file(dir / "model.onnx", bytes.substr(0, bytes.size() - 7));
  require_error(Session::open((dir / "model.onnx").string(), cpu()), StatusCode::kInvalidModel,
                "corrupt or truncated protobuf");
}

// If, Loop and Scan through the session, on models built here whose results are
// computed by hand: branch choice with values captured from the enclosing graph,
// early loop exit, zero-trip loops, scan axes and directions, nesting; and string
// tensors as model inputs and outputs.
#include "proto_models.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

namespace gk {
namespace {

using namespace proto_models;

TEST_CASE("control flow: If runs the branch its condition picks, reading outer values", "[session][control]") {
  // then: x + c (c an outer initializer); else: Concat(x, x), a different shape.
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "cond", kBool, {-1});  // rank 1, any length: checked by the If
  add_info(g->mutable_input(), "x", kFloat, {3});
  add_info(g->mutable_output(), "z", kFloat, {-1});
  add_float_initializer(g, "c", {3}, {10, 20, 30});
  onnx::GraphProto then_g, else_g;
  then_g.set_name("then");
  add_node(&then_g, "Add", {"x", "c"}, {"t"});
  add_info(then_g.mutable_output(), "t", kFloat, {3});
  else_g.set_name("else");
  auto* cat = add_node(&else_g, "Concat", {"x", "x"}, {"e"});
  set_int(cat, "axis", 0);
  add_info(else_g.mutable_output(), "e", kFloat, {6});
  auto* node = add_node(g, "If", {"cond"}, {"y"}, "branch");
  set_graph(node, "then_branch", then_g);
  set_graph(node, "else_branch", else_g);
  add_node(g, "Neg", {"y"}, {"z"});  // a step after the If: its shape is known only during the run
  auto s = open(m);

  auto then_out = s->run({{"cond", bools({true})}, {"x", floats({3}, {1, 2, 3})}});
  REQUIRE(then_out.ok());
  CHECK(values_of((*then_out)[0].tensor) == std::vector<float>{-11, -22, -33});
  auto else_out = s->run({{"cond", bools({false})}, {"x", floats({3}, {1, 2, 3})}});
  REQUIRE(else_out.ok());
  CHECK((*else_out)[0].tensor.shape() == Shape{6});
  CHECK(values_of((*else_out)[0].tensor) == std::vector<float>{-1, -2, -3, -1, -2, -3});

  // A condition must hold one element.
  auto bad = s->run({{"cond", bools({true, false})},
                     {"x", floats({3}, {1, 2, 3})}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(bad.status().message(), Catch::Contains("'branch' (If)") && Catch::Contains("one element"));
}

// Loop(M, cond, acc): acc += x * i each iteration, scan output acc; the body's
// condition is acc < limit (an outer input), so the loop may stop before M.
onnx::ModelProto running_sum_loop() {
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "M", kInt64, {});
  add_info(g->mutable_input(), "limit", kFloat, {});
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_info(g->mutable_output(), "final", kFloat, {2});
  add_info(g->mutable_output(), "history", kFloat, {-1, 2});
  auto* t = test::add_initializer(g, "true", kBool, {});
  t->add_int32_data(1);
  add_float_initializer(g, "zeros", {2}, {0, 0});
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "cond_in", kBool, {});
  add_info(body.mutable_input(), "acc", kFloat, {2});
  auto* cast = add_node(&body, "Cast", {"i"}, {"fi"});
  set_int(cast, "to", kFloat);
  add_node(&body, "Mul", {"x", "fi"}, {"step"});
  add_node(&body, "Add", {"acc", "step"}, {"acc_out"});
  add_node(&body, "ReduceSum", {"acc_out"}, {"total"});
  add_node(&body, "Less", {"total", "limit"}, {"cond_out"});
  add_node(&body, "Identity", {"acc_out"}, {"scan"});
  add_info(body.mutable_output(), "cond_out", kBool, {});
  add_info(body.mutable_output(), "acc_out", kFloat, {2});
  add_info(body.mutable_output(), "scan", kFloat, {2});
  auto* loop = add_node(g, "Loop", {"M", "true", "zeros"}, {"final", "history"}, "sum");
  set_graph(loop, "body", body);
  return m;
}

TEST_CASE("control flow: Loop carries values, stacks scan outputs and stops on its condition",
          "[session][control]") {
  auto s = open(running_sum_loop());
  auto run = [&](int64_t trips, float limit) {
    auto out = s->run({{"M", scalar_i64(trips)},
                       {"limit", HostTensor::from_vector(DType::kF32, {}, std::vector<float>{limit})},
                       {"x", floats({2}, {1, 2})}});
    if (!out.ok()) FAIL(out.status().message());
    return *out;
  };
  // acc after i = 0, 1, 2, 3: (0,0) (1,2) (3,6) (6,12); totals 0, 3, 9, 18.
  auto all = run(4, 100);
  CHECK(values_of(all[0].tensor) == std::vector<float>{6, 12});
  CHECK(all[1].tensor.shape() == Shape{4, 2});
  CHECK(values_of(all[1].tensor) == std::vector<float>{0, 0, 1, 2, 3, 6, 6, 12});
  // total 9 is not < 5: the third iteration is the last.
  auto early = run(10, 5);
  CHECK(values_of(early[0].tensor) == std::vector<float>{3, 6});
  CHECK(early[1].tensor.shape() == Shape{3, 2});
  // No iteration: the initial value, and an empty scan output.
  auto none = run(0, 100);
  CHECK(values_of(none[0].tensor) == std::vector<float>{0, 0});
  CHECK(none[1].tensor.shape() == Shape{0, 2});
}

TEST_CASE("control flow: a loop-carried value grows past the [0] its body declares, as in Mask R-CNN's exports",
          "[session][control]") {
  // acc starts empty and gains x each iteration; the exporter declares the body's
  // acc input as [0] (its first value), as torchvision's mask pasting loop does.
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "M", kInt64, {});
  add_info(g->mutable_input(), "x", kFloat, {2});
  add_info(g->mutable_output(), "grown", kFloat, {-1});
  add_float_initializer(g, "empty", {0}, {});
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "cond_in", kBool, {});
  add_info(body.mutable_input(), "acc", kFloat, {0});
  set_int(add_node(&body, "Concat", {"acc", "x"}, {"acc_out"}), "axis", 0);
  add_node(&body, "Identity", {"cond_in"}, {"cond_out"});
  add_info(body.mutable_output(), "cond_out", kBool, {});
  add_info(body.mutable_output(), "acc_out", kFloat, {0});
  set_graph(add_node(g, "Loop", {"M", "", "empty"}, {"grown"}, "grow"), "body", body);
  auto s = open(m);
  auto out = s->run({{"M", scalar_i64(3)}, {"x", floats({2}, {1, 2})}});
  if (!out.ok()) FAIL(out.status().message());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{1, 2, 1, 2, 1, 2});
  // The rank a body declares still holds.
  body.mutable_input(2)->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(1);
  set_graph(m.mutable_graph()->mutable_node(0), "body", body);
  m.mutable_graph()->mutable_node(0)->mutable_attribute()->DeleteSubrange(0, 1);
  auto strict = open(m);
  auto bad = strict->run({{"M", scalar_i64(1)}, {"x", floats({2}, {1, 2})}});
  test::require_error(bad, StatusCode::kInvalidArgument, "input 'acc' has rank 1 (shape 0), the model declares rank 2");
}

TEST_CASE("control flow: a Loop body's inputs may share a symbol yet differ, as in Keypoint R-CNN's exports",
          "[session][control]") {
  // The exporter names dims of different body inputs with one symbol: here p
  // ([2] each iteration) and acc (0, 1, 2 elements) are both declared ['n'].
  // ONNX Runtime does not bind a body's symbols across its inputs; nor does gkrun.
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "M", kInt64, {});
  add_info(g->mutable_output(), "grown", kFloat, {-1});
  add_info(g->mutable_output(), "pair", kFloat, {2});
  add_float_initializer(g, "empty", {0}, {});
  add_float_initializer(g, "two", {2}, {0, 0});
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "cond_in", kBool, {});
  add_info(body.mutable_input(), "acc", kFloat, {-1}, {"n"});
  add_info(body.mutable_input(), "p", kFloat, {-1}, {"n"});
  add_float_initializer(&body, "one", {1}, {1});
  auto* cast = add_node(&body, "Cast", {"i"}, {"fi"});
  set_int(cast, "to", kFloat);
  set_int(add_node(&body, "Concat", {"acc", "one"}, {"acc_out"}), "axis", 0);
  add_node(&body, "Add", {"p", "fi"}, {"p_out"});
  add_node(&body, "Identity", {"cond_in"}, {"cond_out"});
  add_info(body.mutable_output(), "cond_out", kBool, {});
  add_info(body.mutable_output(), "acc_out", kFloat, {-1});
  add_info(body.mutable_output(), "p_out", kFloat, {2});
  set_graph(add_node(g, "Loop", {"M", "", "empty", "two"}, {"grown", "pair"}, "decode"), "body", body);
  auto s = open(m);
  auto out = s->run({{"M", scalar_i64(3)}});
  if (!out.ok()) FAIL(out.status().message());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{1, 1, 1});
  CHECK(values_of((*out)[1].tensor) == std::vector<float>{3, 3});  // 0 + 0 + 1 + 2
}

TEST_CASE("control flow: Scan slices along its axes, in both directions", "[session][control]") {
  // Running sum over axis 1 of a [2, 3] input, scanned from the end; the scan
  // output is stacked along axis 1 in reverse, so it lines up with the input.
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "init", kFloat, {2});
  add_info(g->mutable_input(), "xs", kFloat, {2, 3});
  add_info(g->mutable_output(), "last", kFloat, {2});
  add_info(g->mutable_output(), "sums", kFloat, {2, 3});
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "s", kFloat, {2});
  add_info(body.mutable_input(), "col", kFloat, {2});
  add_node(&body, "Add", {"s", "col"}, {"s_out"});
  add_node(&body, "Identity", {"s_out"}, {"y"});
  add_info(body.mutable_output(), "s_out", kFloat, {2});
  add_info(body.mutable_output(), "y", kFloat, {2});
  auto* scan = add_node(g, "Scan", {"init", "xs"}, {"last", "sums"}, "suffix_sum");
  set_graph(scan, "body", body);
  set_int(scan, "num_scan_inputs", 1);
  set_ints(scan, "scan_input_axes", {1});
  set_ints(scan, "scan_input_directions", {1});
  set_ints(scan, "scan_output_axes", {-1});
  set_ints(scan, "scan_output_directions", {1});
  auto s = open(m);
  auto out = s->run({{"init", floats({2}, {100, 200})}, {"xs", floats({2, 3}, {1, 2, 3, 4, 5, 6})}});
  REQUIRE(out.ok());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{106, 215});
  CHECK((*out)[1].tensor.shape() == Shape{2, 3});
  CHECK(values_of((*out)[1].tensor) == std::vector<float>{106, 105, 103, 215, 211, 206});
}

TEST_CASE("control flow: an If inside a Loop body reads values two graphs out", "[session][control]") {
  // for i in 0..M-1: acc = (i is even) ? acc + a : acc - b, with a and b outer inputs.
  auto m = test::make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "M", kInt64, {});
  add_info(g->mutable_input(), "a", kFloat, {1});
  add_info(g->mutable_input(), "b", kFloat, {1});
  add_info(g->mutable_output(), "acc_final", kFloat, {1});
  add_float_initializer(g, "zero", {1}, {0});
  auto* two = test::add_initializer(g, "two", kInt64, {});
  two->add_int64_data(2);
  auto* zero_i = test::add_initializer(g, "zero_i", kInt64, {});
  zero_i->add_int64_data(0);
  onnx::GraphProto then_g, else_g, body;
  then_g.set_name("even");
  add_node(&then_g, "Add", {"acc", "a"}, {"plus"});
  add_info(then_g.mutable_output(), "plus", kFloat, {1});
  else_g.set_name("odd");
  add_node(&else_g, "Sub", {"acc", "b"}, {"minus"});
  add_info(else_g.mutable_output(), "minus", kFloat, {1});
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "c", kBool, {});
  add_info(body.mutable_input(), "acc", kFloat, {1});
  add_node(&body, "Mod", {"i", "two"}, {"r"});
  add_node(&body, "Equal", {"r", "zero_i"}, {"even"});
  auto* branch = add_node(&body, "If", {"even"}, {"acc_out"}, "parity");
  set_graph(branch, "then_branch", then_g);
  set_graph(branch, "else_branch", else_g);
  add_node(&body, "Identity", {"c"}, {"c_out"});
  add_info(body.mutable_output(), "c_out", kBool, {});
  add_info(body.mutable_output(), "acc_out", kFloat, {1});
  auto* loop = add_node(g, "Loop", {"M", "", "zero"}, {"acc_final"}, "outer");
  set_graph(loop, "body", body);
  auto s = open(m);
  auto out = s->run({{"M", scalar_i64(5)}, {"a", floats({1}, {10})}, {"b", floats({1}, {1})}});
  if (!out.ok()) FAIL(out.status().message());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{28});  // +10 -1 +10 -1 +10
}

// x [4] split into four [1] elements, SequenceMap'd by a body that negates each,
// concatenated back; `outputs` names the SequenceMap's outputs.
onnx::ModelProto negate_each(const std::vector<std::string>& outputs) {
  auto m = test::make_model(8, 17);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  add_node(g, "SplitToSequence", {"x"}, {"seq"});
  onnx::GraphProto body;
  body.set_name("negate");
  add_info(body.mutable_input(), "e", kFloat, {1});
  add_node(&body, "Neg", {"e"}, {"n"});
  add_info(body.mutable_output(), "n", kFloat, {1});
  auto* map = add_node(g, "SequenceMap", {"seq"}, outputs, "map");
  set_graph(map, "body", body);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string y = fmt::format("y{}", i);  // "y" + to_string: GCC 12 -Wrestrict false positive
    set_int(add_node(g, "ConcatFromSequence", {outputs[i]}, {y}), "axis", 0);
    add_info(g->mutable_output(), y, kFloat, {-1});
  }
  return m;
}

TEST_CASE("control flow: SequenceMap runs its body per element and refuses a body with too few outputs",
          "[session][control]") {
  auto s = open(negate_each({"neg"}));
  auto out = s->run({{"x", floats({4}, {1, -2, 3, 0.5f})}});
  REQUIRE(out.ok());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{-1, 2, -3, -0.5f});
  // Two node outputs, one body output: the second was an empty sequence before; the
  // load refuses it now, before any run.
  std::string bytes;
  negate_each({"neg", "extra"}).SerializeToString(&bytes);
  SessionOptions o;
  o.backend = "cpu";
  auto bad = Session::open_from_memory(bytes.data(), bytes.size(), o);
  test::require_error(bad, StatusCode::kInvalidModel, "'map' (SequenceMap): the body makes 1 outputs, the node has 2");
}

// Loop(M, cond, acc) whose body `body` is given; the node has `outputs`.
onnx::ModelProto loop_with(const onnx::GraphProto& body, const std::vector<std::string>& outputs) {
  auto m = test::make_model(8, 17);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "M", kInt64, {});
  add_info(g->mutable_input(), "acc", kFloat, {1});
  auto* loop = add_node(g, "Loop", {"M", "", "acc"}, outputs, "loop");
  set_graph(loop, "body", body);
  for (const std::string& y : outputs) add_info(g->mutable_output(), y, kFloat, {-1});
  return m;
}

TEST_CASE("control flow: a body whose counts disagree with its node is refused at load", "[session][control]") {
  auto load = [](const onnx::ModelProto& m) {
    std::string bytes;
    m.SerializeToString(&bytes);
    SessionOptions o;
    o.backend = "cpu";
    return Session::open_from_memory(bytes.data(), bytes.size(), o).status();
  };
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "c", kBool, {});
  add_info(body.mutable_input(), "a", kFloat, {1});
  add_node(&body, "Identity", {"c"}, {"c_out"});
  add_node(&body, "Neg", {"a"}, {"a_out"});
  add_info(body.mutable_output(), "c_out", kBool, {});
  add_info(body.mutable_output(), "a_out", kFloat, {1});
  // The right counts load (and run: -(-(-1)) = -1 after three iterations).
  auto s = open(loop_with(body, {"final"}));
  auto out = s->run({{"M", scalar_i64(3)}, {"acc", floats({1}, {1})}});
  REQUIRE(out.ok());
  CHECK(values_of((*out)[0].tensor) == std::vector<float>{-1});
  // Two node outputs, but the body makes one loop-carried value and no scan output.
  test::require_error(load(loop_with(body, {"final", "scanned"})), StatusCode::kInvalidModel,
                      "'loop' (Loop): 2 outputs, but the body makes 1 loop-carried and 0 scan outputs");
  // A body without the loop-carried input.
  onnx::GraphProto short_body = body;
  short_body.mutable_input()->RemoveLast();
  short_body.clear_node();
  add_node(&short_body, "Identity", {"c"}, {"c_out"});
  short_body.mutable_output()->RemoveLast();
  test::require_error(load(loop_with(short_body, {"final"})), StatusCode::kInvalidModel,
                      "'loop' (Loop): the body takes 2 inputs, expected 3");
}

TEST_CASE("strings: string model inputs are planned by value and returned as strings", "[session][strings]") {
  auto m = test::make_model(8, 19);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "words", kString, {-1});
  add_info(g->mutable_output(), "is_cat", kBool, {-1});
  add_info(g->mutable_output(), "echo", kString, {-1});
  auto* cat = test::add_initializer(g, "cat", kString, {1});
  cat->add_string_data("cat");
  add_node(g, "Equal", {"words", "cat"}, {"is_cat"});
  add_node(g, "Identity", {"words"}, {"echo"});
  auto s = open(m);
  for (const auto& words : {std::vector<std::string>{"cat", "dog", "cat "}, std::vector<std::string>{"Cat"},
                            std::vector<std::string>{"cat", "dog", "cat "}}) {
    auto out = s->run({{"words", HostTensor::strings({static_cast<int64_t>(words.size())}, words)}});
    if (!out.ok()) FAIL(out.status().message());
    const HostTensor& is_cat = (*out)[0].tensor;
    REQUIRE(is_cat.numel() == static_cast<int64_t>(words.size()));
    for (size_t i = 0; i < words.size(); ++i) CHECK(is_cat.data<uint8_t>()[i] == (words[i] == "cat"));
    CHECK((*out)[1].tensor.string_values() == words);
  }
  CHECK(s->plans_created() == 2);  // the third run's strings repeat the first's
  auto wrong = s->run({{"words", floats({1}, {1})}});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().code() == StatusCode::kInvalidArgument);
  CHECK_THAT(wrong.status().message(), Catch::Contains("'words' is float32") || Catch::Contains("'words' is f32"));
}

}  // namespace
}  // namespace gk

// Strings made during the run: a Cast to string of a tensor the run computes, a
// LabelEncoder of an ArgMax, and strings fed on to string ops and back to numbers.
// Strings live on the host, so each such step reads its device input back once
// per run (runtime/executor.cpp run_dynamic_step). Expected texts are what
// onnxruntime-node 1.30 printed for the same Cast (tools/ort, probed by hand:
// its cast_op.cc formats every float type with "%.8g").
#include "tests/session/proto_models.h"

#include <cmath>
#include <limits>

namespace gk::proto_models {
namespace {

const float kInf = std::numeric_limits<float>::infinity();
const float kNaN = std::numeric_limits<float>::quiet_NaN();

HostTensor output(const std::vector<NamedTensor>& outs, const std::string& name) {
  for (const NamedTensor& t : outs)
    if (t.name == name) return t.tensor;
  FAIL("no output " << name);
  return {};
}

// x -> Neg -> Neg (two device steps, so Cast's input comes from the run) -> Cast to string.
onnx::ModelProto cast_to_string_model() {
  auto proto = test::make_model(8, 13);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {-1}, {"n"});
  add_node(g, "Neg", {"x"}, {"nx"}, "neg1");
  add_node(g, "Neg", {"nx"}, {"xx"}, "neg2");
  set_int(add_node(g, "Cast", {"xx"}, {"text"}, "to_text"), "to", kString);
  add_info(g->mutable_output(), "text", kString, {-1}, {"n"});
  return proto;
}

}  // namespace

TEST_CASE("strings at run time: Cast to string of a computed tensor reads it back once, as ONNX Runtime writes it",
          "[session][strings]") {
  auto s = open(cast_to_string_model());
  const std::vector<float> x = {0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 1.0f / 3, 3.14159265f, 1e10f, 1.5e-7f, 123456789.0f,
                                1e-45f, 3.4e38f, kNaN, kInf, -kInf, 100.0f, 1e8f, 12345678.0f, 0.000123f};
  const std::vector<std::string> want = {"0",         "-0",         "1",      "-1.5",          "0.1",
                                         "0.33333334", "3.1415927", "1e+10",  "1.5000001e-07", "1.2345679e+08",
                                         "1.4012985e-45", "3.4e+38", "NaN",   "INF",           "-INF",
                                         "100",        "1e+08",      "12345678", "0.00012300001"};
  RunInfo info;
  auto r = s->run({{"x", floats({static_cast<int64_t>(x.size())}, x)}}, {}, &info);
  REQUIRE(r.ok());
  const HostTensor text = output(*r, "text");
  REQUIRE(text.dtype() == DType::kString);
  CHECK(text.shape() == Shape{static_cast<int64_t>(x.size())});
  CHECK(text.string_values() == want);
  CHECK(info.host_reads == 1);

  // The same shapes with other values: the plan is reused, the strings are new.
  auto again = s->run({{"x", floats({2}, {2.5f, -7.0f})}});
  REQUIRE(again.ok());
  CHECK(output(*again, "text").string_values() == std::vector<std::string>{"2.5", "-7"});
  auto empty = s->run({{"x", floats({0}, {})}});
  REQUIRE(empty.ok());
  CHECK(output(*empty, "text").numel() == 0);
}

TEST_CASE("strings at run time: LabelEncoder names the ArgMax class computed during the run",
          "[session][strings]") {
  // The scikit-learn classifier's tail: scores -> ArgMax -> class label strings.
  auto proto = test::make_model(8, 13);
  test::import_domain(proto, "ai.onnx.ml", 2);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "scores", kFloat, {-1, 3}, {"n", ""});
  auto* relu = add_node(g, "Relu", {"scores"}, {"r"}, "relu");
  (void)relu;
  auto* am = add_node(g, "ArgMax", {"r"}, {"cls"}, "argmax");
  set_int(am, "axis", 1);
  set_int(am, "keepdims", 0);
  auto* le = add_node(g, "LabelEncoder", {"cls"}, {"label"}, "names", "ai.onnx.ml");
  set_ints(le, "keys_int64s", {0, 1, 2});
  auto* values = le->add_attribute();
  values->set_name("values_strings");
  values->set_type(onnx::AttributeProto::STRINGS);
  for (const char* v : {"cat", "dog", "bird"}) values->add_strings(v);
  add_info(g->mutable_output(), "label", kString, {-1}, {"n"});
  auto s = open(proto);
  // 30 rows (90 scores, past the 64 elements up to which an input's value joins
  // the plan signature and the chain would run at plan time): row i's highest
  // score is class i % 3; every fifth row ties classes 1 and 2 (ArgMax takes 1).
  const int64_t rows = 30;
  std::vector<float> scores;
  std::vector<std::string> want;
  const char* names[] = {"cat", "dog", "bird"};
  for (int64_t i = 0; i < rows; ++i) {
    const bool tie = i % 5 == 4;
    for (int64_t c = 0; c < 3; ++c) scores.push_back(tie ? (c == 0 ? 0.0f : 2.0f) : (c == i % 3 ? 1.0f + i : -1.0f));
    want.push_back(names[tie ? 1 : i % 3]);
  }
  RunInfo info;
  auto r = s->run({{"scores", floats({rows, 3}, scores)}}, {}, &info);
  REQUIRE(r.ok());
  CHECK(output(*r, "label").string_values() == want);
  CHECK(info.host_reads == 1);
}

TEST_CASE("strings at run time: a computed string feeds a string op and a Cast back to numbers, past the host-size cap",
          "[session][strings]") {
  // 5000 elements: more than the 4096 a run-time step computes on the host for
  // numbers; strings stay on the host at any size.
  auto proto = test::make_model(8, 20);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {-1}, {"n"});
  auto* suffix = test::add_initializer(g, "unit", kString, {1});
  suffix->add_string_data(" kg");
  add_node(g, "Neg", {"x"}, {"nx"}, "neg");
  set_int(add_node(g, "Cast", {"nx"}, {"text"}, "to_text"), "to", kString);
  add_node(g, "StringConcat", {"text", "unit"}, {"labelled"}, "concat");
  set_int(add_node(g, "Cast", {"text"}, {"back"}, "from_text"), "to", kFloat);
  add_node(g, "Add", {"back", "x"}, {"zero"}, "add");
  add_info(g->mutable_output(), "labelled", kString, {-1}, {"n"});
  add_info(g->mutable_output(), "zero", kFloat, {-1}, {"n"});
  auto s = open(proto);
  const int64_t n = 5000;
  std::vector<float> x(n);
  for (int64_t i = 0; i < n; ++i) x[i] = 0.5f * static_cast<float>(i) - 1000.0f;  // exact in 8 digits
  RunInfo info;
  auto r = s->run({{"x", floats({n}, x)}}, {}, &info);
  REQUIRE(r.ok());
  const HostTensor labelled = output(*r, "labelled");
  REQUIRE(labelled.numel() == n);
  CHECK(labelled.string_values()[0] == "1000 kg");
  CHECK(labelled.string_values()[1] == "999.5 kg");
  CHECK(labelled.string_values()[2000] == "-0 kg");
  CHECK(labelled.string_values()[n - 1] == "-1499.5 kg");
  const HostTensor zero = output(*r, "zero");
  REQUIRE(zero.numel() == n);
  int64_t nonzero = 0;
  for (float v : values_of(zero)) nonzero += v != 0.0f;
  CHECK(nonzero == 0);
  // The Neg output is read back once; the strings and the parsed numbers are
  // host values (the parsed ones uploaded for the Add), never read back.
  CHECK(info.host_reads == 1);
}

TEST_CASE("strings at run time: TreeEnsembleClassifier's string labels for a computed X", "[session][strings]") {
  // skl2onnx's classifier with string classes: X -> Relu (a device step) -> the
  // stump x0 <= 0.5 ? "low" : "high", scores one-hot. 40 rows (80 elements, past
  // the plan signature's 64) so the classifier runs when the run reaches it. A
  // third class no leaf votes for keeps this off ORT's two-class rules.
  auto proto = test::make_model(8, 13);
  test::import_domain(proto, "ai.onnx.ml", 1);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {-1, 2}, {"n", ""});
  add_node(g, "Relu", {"x"}, {"rx"}, "relu");
  auto* tc = add_node(g, "TreeEnsembleClassifier", {"rx"}, {"label", "scores"}, "forest", "ai.onnx.ml");
  set_ints(tc, "nodes_treeids", {0, 0, 0});
  set_ints(tc, "nodes_nodeids", {0, 1, 2});
  set_ints(tc, "nodes_featureids", {0, 0, 0});
  set_ints(tc, "nodes_truenodeids", {1, 0, 0});
  set_ints(tc, "nodes_falsenodeids", {2, 0, 0});
  set_ints(tc, "class_treeids", {0, 0});
  set_ints(tc, "class_nodeids", {1, 2});
  set_ints(tc, "class_ids", {0, 1});
  const auto strings = [&](const char* name, std::vector<const char*> v) {
    auto* a = tc->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::STRINGS);
    for (const char* x : v) a->add_strings(x);
  };
  const auto float_list = [&](const char* name, std::vector<float> v) {
    auto* a = tc->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::FLOATS);
    for (float x : v) a->add_floats(x);
  };
  strings("nodes_modes", {"BRANCH_LEQ", "LEAF", "LEAF"});
  strings("classlabels_strings", {"low", "high", "none"});
  float_list("nodes_values", {0.5f, 0, 0});
  float_list("class_weights", {1, 1});
  add_info(g->mutable_output(), "label", kString, {-1}, {"n"});
  add_info(g->mutable_output(), "scores", kFloat, {-1, 3}, {"n", ""});
  auto s = open(proto);
  const int64_t rows = 40;
  std::vector<float> x;
  std::vector<std::string> want;
  std::vector<float> want_scores;
  for (int64_t i = 0; i < rows; ++i) {
    const float v = 0.05f * static_cast<float>(i) - 0.5f;  // Relu: 0 for the first 10 rows
    x.push_back(v);
    x.push_back(1.0f);
    const bool low = std::max(v, 0.0f) <= 0.5f;
    want.push_back(low ? "low" : "high");
    want_scores.insert(want_scores.end(), {low ? 1.0f : 0.0f, low ? 0.0f : 1.0f, 0.0f});
  }
  RunInfo info;
  auto r = s->run({{"x", floats({rows, 2}, x)}}, {}, &info);
  REQUIRE(r.ok());
  CHECK(output(*r, "label").string_values() == want);
  CHECK(values_of(output(*r, "scores")) == want_scores);
  CHECK(info.host_reads == 1);
}

TEST_CASE("strings: Cast of a constant to string is computed when the plan is built", "[session][strings]") {
  auto proto = test::make_model(8, 13);
  auto* g = proto.mutable_graph();
  add_i64_initializer(g, "ids", {3}, {-9223372036854775807LL - 1, 0, 42});
  set_int(add_node(g, "Cast", {"ids"}, {"text"}, "to_text"), "to", kString);
  add_info(g->mutable_output(), "text", kString, {3});
  auto s = open(proto);
  RunInfo info;
  auto r = s->run({}, {}, &info);
  REQUIRE(r.ok());
  CHECK(output(*r, "text").string_values() == std::vector<std::string>{"-9223372036854775808", "0", "42"});
  CHECK(info.host_reads == 0);
  CHECK(info.runtime_steps == 0);
}

}  // namespace gk::proto_models

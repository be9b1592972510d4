// StringConcat, StringSplit, RegexFullMatch, StringNormalizer and ai.onnx.ml
// LabelEncoder: hand-computed cases (expected values worked out with Python's
// str.split / numpy semantics, which the ONNX reference implementation uses) and the
// ONNX node and simple tests, compared element by element, strings included.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/data.h"
#include "tests/support/errors.h"

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

namespace fs = std::filesystem;

HostTensor strs(Shape shape, std::vector<std::string> v) { return HostTensor::strings(std::move(shape), std::move(v)); }

// "" when equal: same dtype and shape, strings byte for byte, numbers exactly
// (NaN equal to NaN).
std::string differ(const HostTensor& got, const HostTensor& want) {
  if (got.dtype() != want.dtype())
    return fmt::format("dtype {} != {}", dtype_name(got.dtype()), dtype_name(want.dtype()));
  if (got.shape() != want.shape()) return fmt::format("shape {} != {}", shape_str(got.shape()), shape_str(want.shape()));
  if (want.dtype() == DType::kString) {
    const auto &g = got.string_values(), &w = want.string_values();
    if (g.size() != w.size()) return fmt::format("{} strings != {}", g.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i)
      if (g[i] != w[i]) return fmt::format("element {}: \"{}\" != \"{}\"", i, g[i], w[i]);
    return "";
  }
  for (int64_t i = 0; i < want.numel(); ++i) {
    const double a = got.as_f64(i), b = want.as_f64(i);
    if (a != b && !(std::isnan(a) && std::isnan(b))) return fmt::format("element {}: {} != {}", i, a, b);
  }
  return "";
}

std::string run_case(const fs::path& dir) {
  auto model = load_model((dir / "model.onnx").string());
  if (!model.ok()) return "load: " + model.status().to_string();
  const Graph& g = model->graph;
  if (g.nodes.size() != 1) return fmt::format("{} nodes, expected 1", g.nodes.size());
  const Node& n = g.nodes[0];
  int sets = 0;
  for (const auto& set : fs::directory_iterator(dir)) {
    if (!set.is_directory() || set.path().filename().string().rfind("test_data_set_", 0) != 0) continue;
    ++sets;
    OpCall c = call(n.view.op_type, n.view.opset, {}, static_cast<int>(n.outputs.size()));
    c.domain = n.view.domain;
    c.attrs = n.attrs;
    for (ValueId v : n.inputs) {
      auto it = std::find(g.inputs.begin(), g.inputs.end(), v);
      if (it == g.inputs.end()) return "input is not a graph input";
      auto t = node_cases_detail::read_pb(set.path() / fmt::format("input_{}.pb", it - g.inputs.begin()));
      if (!t.ok()) return t.status().to_string();
      c.inputs.emplace_back(std::move(t).value());
    }
    auto r = run_op_all_backends(c);
    if (!r.ok()) return "run: " + r.status().to_string();
    for (size_t j = 0; j < n.outputs.size(); ++j) {
      auto it = std::find(g.outputs.begin(), g.outputs.end(), n.outputs[j]);
      if (it == g.outputs.end()) continue;
      auto want = node_cases_detail::read_pb(set.path() / fmt::format("output_{}.pb", it - g.outputs.begin()));
      if (!want.ok()) return want.status().to_string();
      if (std::string d = differ(r->outputs[j], *want); !d.empty()) return fmt::format("output {}: {}", j, d);
    }
  }
  return sets > 0 ? "" : "no test_data_set_*";
}

// Every folder under `folder` (node/ or simple/) starting with `prefix`; returns
// how many passed, and checks that all did.
int run_cases(const std::string& folder, const std::string& prefix) {
  const fs::path root = kData / folder;
  if (!fs::is_directory(root)) skip("ONNX test data not found at " + root.string());
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (e.path().filename().string().rfind(prefix, 0) == 0) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  int passed = 0;
  for (const fs::path& d : dirs) {
    std::string err = run_case(d);
    INFO(d.filename().string() << ": " << err);
    CHECK(err.empty());
    passed += err.empty();
  }
  return passed;
}

std::vector<std::string> strings_of(const HostTensor& t) { return t.string_values(); }

TEST_CASE("strings: ONNX node and simple tests", "[ops][strings]") {
  const std::pair<const char*, int> node_sets[] = {
      {"test_string_concat", 5}, {"test_string_split", 6}, {"test_regex_full_match", 3},
      {"test_strnormalizer", 6}, {"test_ai_onnx_ml_label_encoder", 4},
  };
  for (const auto& [prefix, count] : node_sets) {
    INFO(prefix);
    const int passed = run_cases("node", prefix);
    CHECK(passed == count);
  }
  const int simple = run_cases("simple", "test_strnorm_model_");
  CHECK(simple == 6);
}

TEST_CASE("StringConcat broadcasts and keeps UTF-8 bytes", "[ops][strings]") {
  auto r = run_op_all_backends(
      call("StringConcat", 20, {strs({2, 1}, {"a", "\xc3\xa9"}), strs({3}, {"1", "\xe4\xb8\xad", ""})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 3});
  CHECK(strings_of(r->outputs[0]) ==
        std::vector<std::string>{"a1", "a\xe4\xb8\xad", "a", "\xc3\xa9" "1", "\xc3\xa9\xe4\xb8\xad", "\xc3\xa9"});

  auto bad = run_op_all_backends(call("StringConcat", 20, {strs({2}, {"a", "b"}), strs({3}, {"x", "y", "z"})}));
  require_error(bad, StatusCode::kInvalidArgument, "shapes 2 and 3 do not broadcast (dim 0: 2 vs 3)");

  auto empty = run_op_all_backends(call("StringConcat", 20, {strs({0, 2}, {}), strs({2}, {"x", "y"})}));
  REQUIRE(empty.ok());
  CHECK(empty->outputs[0].shape() == Shape{0, 2});
}

TEST_CASE("StringSplit: whitespace runs, maxsplit and delimiters as Python's str.split", "[ops][strings]") {
  SECTION("whitespace with maxsplit = 1 keeps the rest's trailing spaces") {
    OpCall c = call("StringSplit", 20, {strs({3}, {"  a b  c ", "x", "   "})}, 2);
    c.attrs.set("maxsplit", int_attr(1));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{3, 2});
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"a", "b  c ", "x", "", "", ""});
    CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{2, 1, 0});
  }
  SECTION("maxsplit = 0 only strips leading whitespace") {
    OpCall c = call("StringSplit", 20, {strs({1}, {"  a b "})}, 2);
    c.attrs.set("maxsplit", int_attr(0));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"a b "});
  }
  SECTION("Unicode spaces separate; other UTF-8 bytes stay") {
    // "a\u3000b\u00a0\u4e2d\u4e2d"
    auto r = run_op_all_backends(call("StringSplit", 20,
                                      {strs({}, {"a\xe3\x80\x80"
                                                 "b\xc2\xa0\xe4\xb8\xad\xe4\xb8\xad"})},
                                      2));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{3});
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"a", "b", "\xe4\xb8\xad\xe4\xb8\xad"});
    CHECK(r->outputs[1].shape() == Shape{});
    CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{3});
  }
  SECTION("a multi-character delimiter; adjacent ones give empty parts") {
    OpCall c = call("StringSplit", 20, {strs({3}, {"a::b::::c", "", "::"})}, 2);
    c.attrs.set("delimiter", string_attr("::"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{3, 4});
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"a", "b", "", "c", "", "", "", "", "", "", "", ""});
    CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{4, 1, 2});
    c.attrs.set("maxsplit", int_attr(1));
    r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"a", "b::::c", "", "", "", ""});
  }
}

TEST_CASE("RegexFullMatch: whole-string matches, bad patterns refused", "[ops][strings]") {
  OpCall c = call("RegexFullMatch", 20, {strs({2, 2}, {"ab12", "ab12x", "", "AB1"})});
  c.attrs.set("pattern", string_attr("[a-z]*\\d+"));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == DType::kBool);
  CHECK(values_of<bool>(r->outputs[0]) == std::vector<bool>{true, false, false, false});

  c.attrs.set("pattern", string_attr("(ab"));
  auto bad = run_op_all_backends(c);
  REQUIRE(!bad.ok());
  CHECK(bad.status().code() == StatusCode::kInvalidModel);
  CHECK_THAT(bad.status().message(), Catch::Contains("(ab") && Catch::Contains("RegexFullMatch"));

#ifdef __GLIBCXX__
  // The default libstdc++ executor overflowed the stack here (15,000 characters).
  c = call("RegexFullMatch", 20, {strs({2}, {std::string(200000, 'a'), std::string(200000, 'a') + "c"})});
  c.attrs.set("pattern", string_attr("(a|b)*"));
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<bool>(r->outputs[0]) == std::vector<bool>{true, false});
  // Back-references are not RE2 syntax.
  c.attrs.set("pattern", string_attr("(a)\\1"));
  CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
#endif
}

TEST_CASE("StringNormalizer: stopwords, case, shapes", "[ops][strings]") {
  SECTION("case-insensitive stopwords; UPPER leaves non-ASCII bytes alone") {
    OpCall c = call("StringNormalizer", 10, {strs({1, 4}, {"MonDay", "\xc3\xa9t\xc3\xa9", "Sun", "monday"})});
    c.attrs.set("stopwords", strings_attr({"MONDAY", "sun"}));
    c.attrs.set("case_change_action", string_attr("UPPER"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{1, 1});
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"\xc3\xa9T\xc3\xa9"});
  }
  SECTION("case-sensitive keeps other cases; LOWER") {
    OpCall c = call("StringNormalizer", 10, {strs({3}, {"MonDay", "monday", "X"})});
    c.attrs.set("stopwords", strings_attr({"monday"}));
    c.attrs.set("is_case_sensitive", int_attr(1));
    c.attrs.set("case_change_action", string_attr("LOWER"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"monday", "x"});
  }
  SECTION("everything removed from [1, C]: [1, 1] holding one empty string") {
    OpCall c = call("StringNormalizer", 10, {strs({1, 2}, {"a", "A"})});
    c.attrs.set("stopwords", strings_attr({"a"}));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{1, 1});
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{""});
  }
  SECTION("refused: [2, C] input, unknown action, other locales") {
    CHECK(run_op_all_backends(call("StringNormalizer", 10, {strs({2, 1}, {"a", "b"})})).status().code() ==
          StatusCode::kInvalidModel);
    OpCall c = call("StringNormalizer", 10, {strs({1}, {"a"})});
    c.attrs.set("case_change_action", string_attr("TITLE"));
    CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
    c = call("StringNormalizer", 10, {strs({1}, {"i"})});
    c.attrs.set("locale", string_attr("tr_TR"));
    CHECK(run_op_all_backends(c).status().code() == StatusCode::kUnimplemented);
  }
}

TEST_CASE("strings: an input not known before the run is refused by name", "[ops][strings]") {
  OpCall c = call("StringConcat", 20, {strs({1}, {"a"}), strs({1}, {"b"})});
  c.inputs_host_known = false;
  auto r = run_op_all_backends(c);
  REQUIRE(!r.ok());
  CHECK(r.status().code() == StatusCode::kUnimplemented);
  CHECK_THAT(r.status().message(), Catch::Contains("StringConcat") && Catch::Contains("host-only"));
}

TEST_CASE("LabelEncoder: float NaN keys, last duplicate wins, version 1 both ways", "[ops][strings]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  SECTION("float keys to strings; NaN matches NaN, -0.0 matches 0.0") {
    OpCall c = call("LabelEncoder", 2, {f32({5}, {nan, 0.0f, 1.0f, 2.0f, -1.0f})});
    c.domain = "ai.onnx.ml";
    c.attrs.set("keys_floats", floats_attr({1.0f, nan, -0.0f}));
    c.attrs.set("values_strings", strings_attr({"one", "nan", "zero"}));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"nan", "zero", "one", "_Unused", "_Unused"});
  }
  SECTION("duplicate keys: the last one wins; int32 keys tensor to double values") {
    OpCall c = call("LabelEncoder", 4, {make_tensor(DType::kI32, {2, 2}, {7, 3, 9, 7})});
    c.domain = "ai.onnx.ml";
    c.attrs.set("keys_tensor", tensor_attr(make_tensor(DType::kI32, {3}, {7, 3, 7})));
    c.attrs.set("values_tensor", tensor_attr(make_tensor(DType::kF64, {3}, {0.5, 1.5, 2.5})));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == DType::kF64);
    CHECK(r->outputs[0].shape() == Shape{2, 2});
    CHECK(doubles_of(r->outputs[0]) == std::vector<double>{2.5, 1.5, -0.0, 2.5});
  }
  SECTION("version 1: int64 to classes_strings and back") {
    OpCall c = call("LabelEncoder", 1, {i64({4}, {1, 5, 0, -1})});
    c.domain = "ai.onnx.ml";
    c.attrs.set("classes_strings", strings_attr({"x", "y"}));
    c.attrs.set("default_string", string_attr("?"));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(strings_of(r->outputs[0]) == std::vector<std::string>{"y", "?", "x", "?"});
    c.inputs = {strs({3}, {"y", "z", "x"})};
    r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{1, -1, 0});
  }
  SECTION("refused: two keys_* attributes, keys and values of different lengths, wrong input type") {
    OpCall c = call("LabelEncoder", 2, {strs({1}, {"a"})});
    c.domain = "ai.onnx.ml";
    c.attrs.set("keys_strings", strings_attr({"a"}));
    c.attrs.set("keys_int64s", ints_attr({1}));
    c.attrs.set("values_int64s", ints_attr({1}));
    CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
    c.attrs = {};
    c.attrs.set("keys_strings", strings_attr({"a", "b"}));
    c.attrs.set("values_int64s", ints_attr({1}));
    CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
    c.attrs.set("values_int64s", ints_attr({1, 2}));
    c.inputs = {i64({1}, {1})};
    CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
  }
}

}  // namespace
}  // namespace gk::test

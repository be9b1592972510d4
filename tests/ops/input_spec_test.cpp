// The spec's input and output lists (ops/core/input_spec.inc, generated from
// Changelog.md) are what the loader checks every node's arity against: every
// registered op must be in them, or a node of that op would reach its infer rule
// unchecked.
#include "ops/core/input_spec.h"
#include "ops/core/op.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <climits>

namespace gk {
namespace {

NodeView node_of(const char* op_type, int opset, std::vector<bool> present, int outputs = 1) {
  NodeView v;
  v.name = "n";
  v.op_type = op_type;
  v.opset = opset;
  v.input_present = std::move(present);
  v.num_outputs = outputs;
  v.output_present.assign(static_cast<size_t>(outputs), true);
  return v;
}

TEST_CASE("input spec: every registered op version has the spec's signature", "[ops][registry]") {
  for (const OpSchema& s : op_table()) {
    INFO((s.domain[0] ? s.domain : "ai.onnx") << " " << s.op_type << " since " << s.since_version);
    // The one registration below an op's first spec version, as ONNX Runtime has it:
    // LayerNormalization in ai.onnx at opsets 1-16 (the loader warns when a model
    // uses it, and checks it against LayerNormalization-17).
    if (!s.domain[0] && std::string_view(s.op_type) == "LayerNormalization" && s.since_version < 17) {
      CHECK(find_input_spec(s.domain, s.op_type, s.since_version) == nullptr);
      const InputSpec* first = node_input_spec(s.domain, s.op_type, s.since_version);
      REQUIRE(first);
      CHECK(first->since_version == 17);
      continue;
    }
    // Null also when the registration starts below the op's first spec version.
    CHECK(find_input_spec(s.domain, s.op_type, s.since_version) != nullptr);
    CHECK(node_input_spec(s.domain, s.op_type, s.since_version) ==
          find_input_spec(s.domain, s.op_type, s.since_version));
  }
}

TEST_CASE("input spec: counts follow the spec's ranges", "[ops][registry]") {
  const InputSpec* gemm13 = find_input_spec("", "Gemm", 13);
  REQUIRE(gemm13);
  CHECK(gemm13->min_inputs() == 2);
  CHECK(gemm13->max_inputs() == 3);
  const InputSpec* gemm7 = find_input_spec("ai.onnx", "Gemm", 8);  // Gemm-7: C is required
  REQUIRE(gemm7);
  CHECK(gemm7->since_version == 7);
  CHECK(gemm7->min_inputs() == 3);
  const InputSpec* concat = find_input_spec("", "Concat", 13);
  REQUIRE(concat);
  CHECK(concat->min_inputs() == 1);
  CHECK(concat->max_inputs() == SIZE_MAX);
  const InputSpec* loop = find_input_spec("", "Loop", 19);  // M? cond? v_initial*
  REQUIRE(loop);
  CHECK(loop->min_inputs() == 0);
  const InputSpec* gru = find_input_spec("", "GRU", 22);
  REQUIRE(gru);
  CHECK(gru->min_inputs() == 3);
  CHECK(gru->max_inputs() == 6);
  const InputSpec* label = find_input_spec("ai.onnx.ml", "LabelEncoder", 4);
  REQUIRE(label);
  CHECK(label->min_inputs() == 1);
  CHECK(gemm13->min_outputs() == 1);
  CHECK(gemm13->max_outputs() == 1);
  const InputSpec* topk = find_input_spec("", "TopK", 11);
  REQUIRE(topk);
  CHECK(topk->min_outputs() == 2);
  CHECK(topk->max_outputs() == 2);
  const InputSpec* maxpool = find_input_spec("", "MaxPool", 12);  // Y Indices?
  REQUIRE(maxpool);
  CHECK(maxpool->min_outputs() == 1);
  CHECK(maxpool->max_outputs() == 2);
  CHECK(maxpool->formal_output(1)->name == "Indices");
  CHECK(maxpool->formal_output(2) == nullptr);
  const InputSpec* split = find_input_spec("", "Split", 18);  // outputs+
  REQUIRE(split);
  CHECK(split->min_outputs() == 1);
  CHECK(split->max_outputs() == SIZE_MAX);
  const InputSpec* lstm = find_input_spec("", "LSTM", 22);  // Y? Y_h? Y_c?
  REQUIRE(lstm);
  CHECK(lstm->min_outputs() == 0);
  CHECK(lstm->max_outputs() == 3);
  CHECK(find_input_spec("", "NoSuchOp", 17) == nullptr);
  CHECK(find_input_spec("", "Gemm", 0) == nullptr);
  CHECK(find_input_spec("com.example", "Gemm", 13) == nullptr);
  CHECK(find_input_spec("", "Abs", INT_MAX) != nullptr);
  CHECK(std::is_sorted(input_specs().begin(), input_specs().end(), [](const InputSpec& a, const InputSpec& b) {
    return std::tie(a.domain, a.op_type, a.since_version) < std::tie(b.domain, b.op_type, b.since_version);
  }));
}

TEST_CASE("input spec: check_node_arity refuses absent required inputs", "[ops][registry]") {
  CHECK(check_node_arity(node_of("Gemm", 13, {true, true})).ok());
  CHECK(check_node_arity(node_of("Gemm", 13, {true, true, true})).ok());
  CHECK(check_node_arity(node_of("Clip", 13, {true, false, true})).ok());  // min absent, max given
  CHECK(check_node_arity(node_of("Loop", 19, {false, false, true})).ok());
  CHECK(check_node_arity(node_of("NoSuchOp", 19, {})).ok());  // unknown ops are reported elsewhere

  Status few = check_node_arity(node_of("Gemm", 13, {true}));
  CHECK(few.code() == StatusCode::kInvalidModel);
  CHECK_THAT(few.message(), Catch::Contains("node 'n' (Gemm): input 1 ('B') is required but absent"));
  CHECK_THAT(few.message(), Catch::Contains("Gemm-13 takes 2 to 3 inputs"));
  Status gru = check_node_arity(node_of("GRU", 22, {true, false, true}));
  CHECK_THAT(gru.message(), Catch::Contains("input 1 ('W') is required but absent"));
  Status many = check_node_arity(node_of("Shape", 21, {true, true}));
  CHECK(many.code() == StatusCode::kInvalidModel);
  CHECK_THAT(many.message(), Catch::Contains("has 2 inputs; Shape-21 takes 1 input"));
  Status hole = check_node_arity(node_of("Concat", 13, {true, false, true}));  // "" inside a variadic
  CHECK_THAT(hole.message(), Catch::Contains("input 1 ('inputs') is required but absent"));
  Status none = check_node_arity(node_of("Sum", 13, {}));
  CHECK_THAT(none.message(), Catch::Contains("input 0 ('data_0') is required but absent; Sum-13 takes 1 or more"));
}

TEST_CASE("input spec: check_node_arity checks an op run below its first version against that version",
          "[ops][registry]") {
  // LayerNormalization at opset 10 (mutation 1779 of scripts/mutate_cli.py): Scale
  // is required by LayerNormalization-17, the signature the registry runs it with.
  CHECK(node_input_spec("", "LayerNormalization", 10) == find_input_spec("", "LayerNormalization", 17));
  CHECK(node_input_spec("", "NoSuchOp", 10) == nullptr);
  CHECK(check_node_arity(node_of("LayerNormalization", 10, {true, true})).ok());
  Status one = check_node_arity(node_of("LayerNormalization", 10, {true}));
  CHECK(one.code() == StatusCode::kInvalidModel);
  CHECK_THAT(one.message(), Catch::Contains("node 'n' (LayerNormalization): input 1 ('Scale') is required but "
                                            "absent; LayerNormalization-17 takes 2 to 3 inputs and 1 to 3 outputs"));
  Status four = check_node_arity(node_of("LayerNormalization", 6, {true, true, true, true}));
  CHECK_THAT(four.message(), Catch::Contains("has 4 inputs; LayerNormalization-17 takes 2 to 3 inputs"));
}

TEST_CASE("input spec: an output given as empty is refused only where the op requires it", "[ops][registry]") {
  auto with_hole = [](const char* op, int opset, std::vector<bool> in, int outputs, size_t hole) {
    NodeView v = node_of(op, opset, std::move(in), outputs);
    v.output_present[hole] = false;
    return v;
  };
  Status topk = check_node_arity(with_hole("TopK", 11, {true, true}, 2, 0));
  CHECK(topk.code() == StatusCode::kInvalidModel);
  CHECK_THAT(topk.message(), Catch::Contains("node 'n' (TopK): output 0 ('Values') is required but given as \"\"; "
                                             "TopK-11 takes 2 inputs and 2 outputs"));
  CHECK(check_node_arity(with_hole("LSTM", 22, {true, true, true}, 3, 0)).ok());     // Y optional, Y_c wanted
  CHECK(check_node_arity(with_hole("MaxPool", 12, {true}, 2, 1)).ok());              // Indices optional
  CHECK(check_node_arity(with_hole("Split", 18, {true}, 3, 1)).ok());                // a variadic element
  CHECK(check_node_arity(with_hole("Dropout", 13, {true}, 2, 1)).ok());              // mask optional
  Status bn = check_node_arity(with_hole("BatchNormalization", 15, {true, true, true, true, true}, 3, 0));
  CHECK_THAT(bn.message(), Catch::Contains("output 0 ('Y') is required but given as"));
}

TEST_CASE("input spec: check_node_arity refuses too few or too many outputs", "[ops][registry]") {
  CHECK(check_node_arity(node_of("MaxPool", 12, {true}, 2)).ok());  // Indices is optional
  CHECK(check_node_arity(node_of("MaxPool", 12, {true}, 1)).ok());
  CHECK(check_node_arity(node_of("Split", 18, {true}, 7)).ok());
  CHECK(check_node_arity(node_of("LSTM", 22, {true, true, true}, 0)).ok());  // every output optional
  Status few = check_node_arity(node_of("TopK", 11, {true, true}, 1));
  CHECK(few.code() == StatusCode::kInvalidModel);
  CHECK_THAT(few.message(), Catch::Contains("node 'n' (TopK): has 1 output; TopK-11 takes 2 inputs and 2 outputs"));
  Status none = check_node_arity(node_of("Relu", 14, {true}, 0));
  CHECK_THAT(none.message(), Catch::Contains("has 0 outputs; Relu-14 takes 1 input and 1 output"));
  Status many = check_node_arity(node_of("MaxPool", 12, {true}, 3));
  CHECK_THAT(many.message(), Catch::Contains("has 3 outputs; MaxPool-12 takes 1 input and 1 to 2 outputs"));
}

}  // namespace
}  // namespace gk

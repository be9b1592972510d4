// TfIdfVectorizer and the ai.onnx.ml Binarizer, ArrayFeatureExtractor,
// TreeEnsemble, TreeEnsembleRegressor, TreeEnsembleClassifier, LinearClassifier,
// LinearRegressor, Scaler, Normalizer, Imputer, OneHotEncoder, FeatureVectorizer,
// CategoryMapper, SVMRegressor, SVMClassifier (and the refused map ops): the ONNX node tests, and hand-computed
// cases (skip-gram counts worked out on paper, a two-level forest walked by hand,
// post transforms from numpy's softmax/logistic and the normal quantile).
#include "tests/ops/onnx_node_cases.h"
#include "tests/ops/op_builders.h"
#include "tests/support/errors.h"

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

OpCall ml_call(std::string op, int opset, std::vector<std::optional<HostTensor>> inputs) {
  OpCall c = call(std::move(op), opset, std::move(inputs));
  c.domain = "ai.onnx.ml";
  return c;
}

constexpr Tol kTol{.rtol = 1e-6, .atol = 1e-6};

TEST_CASE("ml ops: ONNX node tests", "[ops][ml]") {
  run_node_cases({"test_tfidfvectorizer_", "test_ai_onnx_ml_binarizer", "test_ai_onnx_ml_array_feature_extractor",
                  "test_ai_onnx_ml_tree_ensemble"});
}

// ---- TfIdfVectorizer ------------------------------------------------------------------

// Pool: the 1-gram [1] (coordinate 0) and the 2-gram [1, 2] (coordinate 1).
OpCall tfidf(HostTensor x, std::string mode, int64_t max_skip) {
  OpCall c = call("TfIdfVectorizer", 9, {std::move(x)});
  c.attrs.set("mode", string_attr(std::move(mode)));
  c.attrs.set("min_gram_length", int_attr(1));
  c.attrs.set("max_gram_length", int_attr(2));
  c.attrs.set("max_skip_count", int_attr(max_skip));
  c.attrs.set("ngram_counts", ints_attr({0, 1}));
  c.attrs.set("ngram_indexes", ints_attr({0, 1}));
  c.attrs.set("pool_int64s", ints_attr({1, 1, 2}));
  return c;
}

TEST_CASE("TfIdfVectorizer: skip-grams counted by hand", "[ops][ml]") {
  // x = 1 2 1 2 1. The 1-gram 1 occurs 3 times (counted once, not per skip).
  // [1, 2] at distance 1: positions (0,1), (2,3) = 2; distance 2: (0,2) (1,3)
  // (2,4) pair equal tokens = 0; distance 3: (0,3) = [1, 2] yes, (1,4) no = 1.
  const HostTensor x = i64({5}, {1, 2, 1, 2, 1});
  auto skip0 = run_op_all_backends(tfidf(x, "TF", 0));
  REQUIRE(skip0.ok());
  check_close(skip0->outputs[0], {2}, {3, 2}, kTol);
  auto skip1 = run_op_all_backends(tfidf(x, "TF", 1));
  REQUIRE(skip1.ok());
  check_close(skip1->outputs[0], {2}, {3, 2}, kTol);
  auto skip2 = run_op_all_backends(tfidf(x, "TF", 2));
  REQUIRE(skip2.ok());
  check_close(skip2->outputs[0], {2}, {3, 3}, kTol);

  // Weights scale output coordinates: TFIDF multiplies counts, IDF replaces a
  // non-zero count by the weight.
  OpCall weighted = tfidf(x, "TFIDF", 2);
  weighted.attrs.set("weights", floats_attr({0.5f, 2.0f}));
  auto tfidf_r = run_op_all_backends(weighted);
  REQUIRE(tfidf_r.ok());
  check_close(tfidf_r->outputs[0], {2}, {1.5, 6}, kTol);
  weighted.attrs.set("mode", string_attr("IDF"));
  auto idf_r = run_op_all_backends(weighted);
  REQUIRE(idf_r.ok());
  check_close(idf_r->outputs[0], {2}, {0.5, 2}, kTol);

  // Rows of a 2-D int32 input never share an n-gram: [1 1 | 2 1] has no [1, 2].
  auto rows = run_op_all_backends(tfidf(make_tensor(DType::kI32, {2, 2}, {1, 1, 2, 1}), "TF", 0));
  REQUIRE(rows.ok());
  check_close(rows->outputs[0], {2, 2}, {2, 0, 1, 0}, kTol);
}

TEST_CASE("TfIdfVectorizer: string pool, batched, permuted coordinates", "[ops][ml]") {
  OpCall c = call("TfIdfVectorizer", 9, {HostTensor::strings({2, 3}, {"a", "b", "a", "b", "b", "c"})});
  c.attrs.set("mode", string_attr("TF"));
  c.attrs.set("min_gram_length", int_attr(1));
  c.attrs.set("max_gram_length", int_attr(2));
  c.attrs.set("max_skip_count", int_attr(0));
  c.attrs.set("ngram_counts", ints_attr({0, 2}));
  c.attrs.set("ngram_indexes", ints_attr({2, 0, 1}));  // a -> 2, b -> 0, [a, b] -> 1
  c.attrs.set("pool_strings", strings_attr({"a", "b", "a", "b"}));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  // Row 0 "a b a": a 2, b 1, [a, b] 1. Row 1 "b b c": b 2.
  check_close(r->outputs[0], {2, 3}, {1, 1, 2, 2, 0, 0}, kTol);
}

TEST_CASE("TfIdfVectorizer: malformed pools are refused", "[ops][ml]") {
  OpCall c = tfidf(i64({2}, {1, 2}), "TF", 0);
  c.attrs.set("ngram_counts", ints_attr({0, 2}));  // 1 item for 2-grams
  auto r = run_op_all_backends(c);
  require_error(r, StatusCode::kInvalidModel, "the pool lists the 1-gram at item 1 twice");
  OpCall bad_mode = tfidf(i64({2}, {1, 2}), "BM25", 0);
  CHECK(run_op_all_backends(bad_mode).status().code() == StatusCode::kInvalidModel);
}

// ---- Binarizer, ArrayFeatureExtractor -------------------------------------------------

TEST_CASE("Binarizer: strictly above the threshold", "[ops][ml]") {
  OpCall c = ml_call("Binarizer", 1, {make_tensor(DType::kF64, {5}, {-1, 0.5, 0.75, 2, kNaN})});
  c.attrs.set("threshold", float_attr(0.5f));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == DType::kF64);
  check_close(r->outputs[0], {5}, {0, 0, 1, 1, 0}, kTol);
  OpCall ints = ml_call("Binarizer", 1, {make_tensor(DType::kI32, {3}, {0, 1, 2})});
  ints.attrs.set("threshold", float_attr(1.0f));
  auto ri = run_op_all_backends(ints);
  REQUIRE(ri.ok());
  CHECK(values_of<int32_t>(ri->outputs[0]) == std::vector<int32_t>{0, 0, 1});
}

TEST_CASE("ArrayFeatureExtractor: last-axis gather and range checks", "[ops][ml]") {
  // x [2, 2, 3] int32, indices [2, 0] -> z [2, 2, 2].
  auto r = run_op_all_backends(ml_call("ArrayFeatureExtractor", 1,
                          {make_tensor(DType::kI32, {2, 2, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                           i64({2}, {2, 0})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 2, 2});
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{2, 0, 5, 3, 8, 6, 11, 9});
  // A 1-D x gives [1, count].
  auto flat =
      run_op_all_backends(ml_call("ArrayFeatureExtractor", 1, {f32({4}, {10, 11, 12, 13}), i64({3}, {3, 3, 1})}));
  REQUIRE(flat.ok());
  check_close(flat->outputs[0], {1, 3}, {13, 13, 11}, kTol);
  // Strings run on the host.
  auto s = run_op_all_backends(
      ml_call("ArrayFeatureExtractor", 1, {HostTensor::strings({2, 2}, {"a", "b", "c", "d"}), i64({1}, {1})}));
  REQUIRE(s.ok());
  CHECK(s->outputs[0].string_values() == std::vector<std::string>{"b", "d"});
  // Out-of-range indices: OutOfRange, never a read outside x.
  for (int64_t bad : {3, -1}) {
    auto e =
        run_op_all_backends(ml_call("ArrayFeatureExtractor", 1, {f32({2, 3}, {0, 1, 2, 3, 4, 5}), i64({2}, {0, bad})}));
    require_error(e, StatusCode::kOutOfRange, "an index was out of range");
  }
  auto es =
      run_op_all_backends(ml_call("ArrayFeatureExtractor", 1, {HostTensor::strings({2}, {"a", "b"}), i64({1}, {2})}));
  require_error(es, StatusCode::kOutOfRange, "index 2 in Y is outside [0, 2) (X's last dimension)");
}

// ---- TreeEnsemble -----------------------------------------------------------------------

// Tree 0 (two levels):   node0: x0 <= 0.5 (NaN goes true) ? node1 : node2
//                        node1: x1 < 2  ? leaf0 (t0 += 1) : leaf1 (t1 += 2)
//                        node2: x1 >= 3 ? leaf2 (t0 += 3) : leaf3 (t1 += 4)
// Tree 1 (one leaf):     node3: both branches leaf4 (t0 += 10)
// Rows and their leaves: [0, 1] -> leaf0, [1, 5] -> leaf2, [1, 2] -> leaf3,
// [NaN, 2.5] -> leaf1; tree 1 adds 10 to target 0 everywhere.
OpCall forest(int64_t aggregate, int64_t post, DType t = DType::kF32) {
  OpCall c = ml_call("TreeEnsemble", 5, {make_tensor(t, {4, 2}, {0, 1, 1, 5, 1, 2, kNaN, 2.5})});
  c.attrs.set("n_targets", int_attr(2));
  c.attrs.set("aggregate_function", int_attr(aggregate));
  c.attrs.set("post_transform", int_attr(post));
  c.attrs.set("tree_roots", ints_attr({0, 3}));
  c.attrs.set("nodes_modes", tensor_attr(make_tensor(DType::kU8, {4}, {0, 1, 2, 0})));
  c.attrs.set("nodes_featureids", ints_attr({0, 1, 1, 0}));
  c.attrs.set("nodes_splits", tensor_attr(make_tensor(DType::kF64, {4}, {0.5, 2, 3, 0})));
  c.attrs.set("nodes_truenodeids", ints_attr({1, 0, 2, 4}));
  c.attrs.set("nodes_trueleafs", ints_attr({0, 1, 1, 1}));
  c.attrs.set("nodes_falsenodeids", ints_attr({2, 1, 3, 4}));
  c.attrs.set("nodes_falseleafs", ints_attr({0, 1, 1, 1}));
  c.attrs.set("nodes_missing_value_tracks_true", ints_attr({1, 0, 0, 0}));
  c.attrs.set("leaf_targetids", ints_attr({0, 1, 0, 1, 0}));
  c.attrs.set("leaf_weights", tensor_attr(make_tensor(DType::kF32, {5}, {1, 2, 3, 4, 10})));
  return c;
}

TEST_CASE("TreeEnsemble: a two-level forest walked by hand", "[ops][ml]") {
  const Shape y{4, 2};
  struct Case {
    int64_t aggregate;
    std::vector<double> want;
  };
  for (const Case& k : {Case{1, {11, 0, 13, 0, 10, 4, 10, 2}}, Case{0, {5.5, 0, 6.5, 0, 5, 2, 5, 1}},
                        Case{2, {1, 0, 3, 0, 10, 4, 10, 2}}, Case{3, {10, 0, 10, 0, 10, 4, 10, 2}}}) {
    INFO("aggregate_function " << k.aggregate);
    for (DType t : {DType::kF32, DType::kF64, DType::kF16}) {
      auto r = run_op_all_backends(forest(k.aggregate, 0, t));
      REQUIRE(r.ok());
      CHECK(r->outputs[0].dtype() == t);
      check_close(r->outputs[0], y, k.want, kTol);
    }
  }
}

TEST_CASE("TreeEnsemble: post transforms", "[ops][ml]") {
  // Scores (SUM) [11, 0], [13, 0], [10, 4], [10, 2]; expected values from numpy.
  auto softmax = run_op_all_backends(forest(1, 1));
  REQUIRE(softmax.ok());
  check_close(softmax->outputs[0], {4, 2},
              {0.999983298578152, 1.670142184809518e-05, 0.999997739675702, 2.2603242979035742e-06,
               0.9975273768433653, 0.0024726231566347748, 0.9996646498695336, 0.0003353501304664781},
              Tol{.rtol = 1e-5, .atol = 1e-5});
  auto logistic = run_op_all_backends(forest(1, 2));
  REQUIRE(logistic.ok());
  check_close(logistic->outputs[0], {4, 2},
              {0.999983298578152, 0.5, 0.999997739675702, 0.5, 0.9999546021312976, 0.9820137900379085,
               0.9999546021312976, 0.8807970779778825}, Tol{.rtol = 1e-6, .atol = 1e-6});
  // SOFTMAX_ZERO keeps a zero score at zero.
  auto softmax_zero = run_op_all_backends(forest(1, 3));
  REQUIRE(softmax_zero.ok());
  check_close(softmax_zero->outputs[0], {4, 2},
              {1, 0, 1, 0, 0.9975273768433653, 0.0024726231566347748, 0.9996646498695336, 0.0003353501304664781},
              Tol{.rtol = 1e-5, .atol = 1e-5});
  // PROBIT of probabilities: the standard normal quantiles (ONNX Runtime's
  // approximation is within 2e-3 of them).
  OpCall probit = ml_call("TreeEnsemble", 5, {f32({1, 1}, {0})});
  probit.attrs.set("n_targets", int_attr(3));
  probit.attrs.set("post_transform", int_attr(4));
  // Three one-node trees, each sending every row to its own leaf.
  probit.attrs.set("leaf_targetids", ints_attr({0, 1, 2}));
  probit.attrs.set("leaf_weights", tensor_attr(f32({3}, {0.1f, 0.5f, 0.975f})));
  probit.attrs.set("tree_roots", ints_attr({0, 1, 2}));
  probit.attrs.set("nodes_modes", tensor_attr(make_tensor(DType::kU8, {3}, {0, 0, 0})));
  probit.attrs.set("nodes_featureids", ints_attr({0, 0, 0}));
  probit.attrs.set("nodes_splits", tensor_attr(f32({3}, {1, 1, 1})));
  probit.attrs.set("nodes_truenodeids", ints_attr({0, 1, 2}));
  probit.attrs.set("nodes_trueleafs", ints_attr({1, 1, 1}));
  probit.attrs.set("nodes_falsenodeids", ints_attr({0, 1, 2}));
  probit.attrs.set("nodes_falseleafs", ints_attr({1, 1, 1}));
  auto pr = run_op_all_backends(probit);
  REQUIRE(pr.ok());
  check_close(pr->outputs[0], {1, 3}, {-1.2815516, 0, 1.9599640}, Tol{.rtol = 2e-3, .atol = 2e-3});
}

TEST_CASE("TreeEnsemble: set membership and bad forests", "[ops][ml]") {
  // node0: x0 in {1, 2} ? leaf0 : node1; node1: x0 in {5} ? leaf1 : leaf2.
  OpCall c = ml_call("TreeEnsemble", 5, {f32({4, 1}, {2, 5, 3, NAN})});
  c.attrs.set("n_targets", int_attr(1));
  c.attrs.set("tree_roots", ints_attr({0}));
  c.attrs.set("nodes_modes", tensor_attr(make_tensor(DType::kU8, {2}, {6, 6})));
  c.attrs.set("nodes_featureids", ints_attr({0, 0}));
  c.attrs.set("nodes_splits", tensor_attr(f32({2}, {NAN, NAN})));
  c.attrs.set("membership_values", tensor_attr(f32({4}, {1, 2, NAN, 5})));
  c.attrs.set("nodes_truenodeids", ints_attr({0, 1}));
  c.attrs.set("nodes_trueleafs", ints_attr({1, 1}));
  c.attrs.set("nodes_falsenodeids", ints_attr({1, 2}));
  c.attrs.set("nodes_falseleafs", ints_attr({0, 1}));
  c.attrs.set("leaf_targetids", ints_attr({0, 0, 0}));
  c.attrs.set("leaf_weights", tensor_attr(f32({3}, {1, 2, 3})));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {4, 1}, {1, 2, 3, 3}, kTol);

  // A loop (node1's false branch back to node0) is refused at load.
  OpCall loop = c;
  loop.attrs.set("nodes_falseleafs", ints_attr({0, 0}));
  loop.attrs.set("nodes_falsenodeids", ints_attr({1, 0}));
  CHECK(run_op_all_backends(loop).status().code() == StatusCode::kInvalidModel);
  // A leaf voting outside n_targets.
  OpCall target = c;
  target.attrs.set("leaf_targetids", ints_attr({0, 1, 0}));
  CHECK(run_op_all_backends(target).status().code() == StatusCode::kInvalidModel);
  // A node reading a feature X lacks.
  OpCall feature = c;
  feature.attrs.set("nodes_featureids", ints_attr({0, 1}));
  CHECK(run_op_all_backends(feature).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("TreeEnsembleRegressor: the same forest in the legacy encoding", "[ops][ml]") {
  // Tree 0 nodes 0..6 (0-2 branches, 3-6 leaves), tree 1 node 0 a leaf.
  for (int opset : {1, 3}) {
    INFO("opset " << opset);
    OpCall c = ml_call("TreeEnsembleRegressor", opset, {make_tensor(DType::kF64, {4, 2}, {0, 1, 1, 5, 1, 2, kNaN, 2.5})});
    c.attrs.set("n_targets", int_attr(2));
    c.attrs.set("nodes_treeids", ints_attr({0, 0, 0, 0, 0, 0, 0, 1}));
    c.attrs.set("nodes_nodeids", ints_attr({0, 1, 2, 3, 4, 5, 6, 0}));
    c.attrs.set("nodes_featureids", ints_attr({0, 1, 1, 0, 0, 0, 0, 0}));
    c.attrs.set("nodes_modes", strings_attr({"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "LEAF", "LEAF", "LEAF", "LEAF",
                                          "LEAF"}));
    c.attrs.set("nodes_values", floats_attr({0.5f, 2, 3, 0, 0, 0, 0, 0}));
    c.attrs.set("nodes_truenodeids", ints_attr({1, 3, 5, 0, 0, 0, 0, 0}));
    c.attrs.set("nodes_falsenodeids", ints_attr({2, 4, 6, 0, 0, 0, 0, 0}));
    c.attrs.set("nodes_missing_value_tracks_true", ints_attr({1, 0, 0, 0, 0, 0, 0, 0}));
    c.attrs.set("target_treeids", ints_attr({0, 0, 0, 0, 1}));
    c.attrs.set("target_nodeids", ints_attr({3, 4, 5, 6, 0}));
    c.attrs.set("target_ids", ints_attr({0, 1, 0, 1, 0}));
    c.attrs.set("target_weights", floats_attr({1, 2, 3, 4, 10}));
    c.attrs.set("base_values", floats_attr({100, 200}));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    CHECK(r->outputs[0].dtype() == DType::kF32);
    check_close(r->outputs[0], {4, 2}, {111, 200, 113, 200, 110, 204, 110, 202}, kTol);
    c.attrs.set("aggregate_function", string_attr("AVERAGE"));
    auto avg = run_op_all_backends(c);
    REQUIRE(avg.ok());
    check_close(avg->outputs[0], {4, 2}, {105.5, 200, 106.5, 200, 105, 202, 105, 201}, kTol);
  }
}

// ---- TreeEnsembleClassifier ------------------------------------------------------------

// One stump: x0 <= 0.5 goes to leaf 1, else leaf 2.
OpCall stump_classifier(HostTensor x, std::vector<int64_t> class_ids, std::vector<int64_t> leaves,
                        std::vector<float> weights) {
  OpCall c = ml_call("TreeEnsembleClassifier", 1, {std::move(x)});
  c.attrs.set("nodes_treeids", ints_attr({0, 0, 0}));
  c.attrs.set("nodes_nodeids", ints_attr({0, 1, 2}));
  c.attrs.set("nodes_featureids", ints_attr({0, 0, 0}));
  c.attrs.set("nodes_modes", strings_attr({"BRANCH_LEQ", "LEAF", "LEAF"}));
  c.attrs.set("nodes_values", floats_attr({0.5f, 0, 0}));
  c.attrs.set("nodes_truenodeids", ints_attr({1, 0, 0}));
  c.attrs.set("nodes_falsenodeids", ints_attr({2, 0, 0}));
  c.attrs.set("class_treeids", ints_attr(std::vector<int64_t>(class_ids.size(), 0)));
  c.attrs.set("class_nodeids", ints_attr(std::move(leaves)));
  c.attrs.set("class_ids", ints_attr(std::move(class_ids)));
  c.attrs.set("class_weights", floats_attr(std::move(weights)));
  return c;
}

TEST_CASE("TreeEnsembleClassifier: three classes with string labels", "[ops][ml]") {
  // Leaf 1 votes class 0 0.7 and class 2 0.3, leaf 2 class 1 1.0: row 0 (x0 = 0)
  // scores [0.7 0 0.3] -> "a", row 1 [0 1 0] -> "b". SOFTMAX of row 1:
  // [1 e 1] / (2 + e) = 0.211942 0.576117 0.211942.
  OpCall c = stump_classifier(make_tensor(DType::kF32, {2, 1}, {0, 1}), {0, 2, 1}, {1, 1, 2}, {0.7f, 0.3f, 1.0f});
  c.attrs.set("classlabels_strings", strings_attr({"a", "b", "c"}));
  c.num_outputs = 2;
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].string_values() == std::vector<std::string>{"a", "b"});
  check_close(r->outputs[1], {2, 3}, {0.7, 0, 0.3, 0, 1, 0}, kTol);
  c.attrs.set("post_transform", string_attr("SOFTMAX"));
  auto soft = run_op_all_backends(c);
  REQUIRE(soft.ok());
  check_close(soft->outputs[1], {2, 3},
              {0.461488, 0.229168, 0.309344, 0.211942, 0.576117, 0.211942}, Tol{.rtol = 1e-5, .atol = 1e-6});
}

TEST_CASE("TreeEnsembleClassifier: ONNX Runtime's binary rules", "[ops][ml]") {
  // Random-forest style, votes for class 1 only, all positive: the label is the
  // positive class when its score passes 0.5; class 0's score has no vote and
  // reads 0 (as ORT writes it).
  OpCall rf = stump_classifier(make_tensor(DType::kF32, {2, 1}, {0, 1}), {1, 1}, {1, 2}, {0.2f, 0.8f});
  rf.attrs.set("classlabels_int64s", ints_attr({4, 9}));
  rf.num_outputs = 2;
  auto r = run_op_all_backends(rf);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{4, 9});
  check_close(r->outputs[1], {2, 2}, {0, 0.2, 0, 0.8}, kTol);

  // Gradient-boosting style: class 0 only, mixed signs, one base value, LOGISTIC:
  // s = -0.4 + 0.1 and 1.2 + 0.1; Z = [logistic(-s), logistic(s)], label s > 0.
  OpCall gb = stump_classifier(make_tensor(DType::kF64, {2, 1}, {0, 1}), {0, 0}, {1, 2}, {-0.4f, 1.2f});
  gb.attrs.set("classlabels_int64s", ints_attr({0, 1}));
  gb.attrs.set("base_values", floats_attr({0.1f}));
  gb.attrs.set("post_transform", string_attr("LOGISTIC"));
  gb.num_outputs = 2;
  auto g = run_op_all_backends(gb);
  REQUIRE(g.ok());
  CHECK(values_of<int64_t>(g->outputs[0]) == std::vector<int64_t>{0, 1});
  check_close(g->outputs[1], {2, 2}, {0.574443, 0.425557, 0.214165, 0.785835}, Tol{.rtol = 1e-5, .atol = 1e-6});
}

TEST_CASE("TreeEnsembleClassifier: malformed classes are refused", "[ops][ml]") {
  OpCall both = stump_classifier(make_tensor(DType::kF32, {1, 1}, {0}), {0, 1}, {1, 2}, {1, 1});
  both.attrs.set("classlabels_int64s", ints_attr({0, 1}));
  both.attrs.set("classlabels_strings", strings_attr({"x", "y"}));
  require_error(run_op_all_backends(both).status(), StatusCode::kInvalidModel,
                "exactly one of classlabels_int64s and classlabels_strings");
  OpCall one = stump_classifier(make_tensor(DType::kF32, {1, 1}, {0}), {0, 0}, {1, 2}, {1, 1});
  one.attrs.set("classlabels_int64s", ints_attr({3}));
  require_error(run_op_all_backends(one).status(), StatusCode::kUnimplemented, "needs at least 2");
  OpCall outside = stump_classifier(make_tensor(DType::kF32, {1, 1}, {0}), {0, 5}, {1, 2}, {1, 1});
  outside.attrs.set("classlabels_int64s", ints_attr({0, 1}));
  require_error(run_op_all_backends(outside).status(), StatusCode::kInvalidModel, "votes for target 5");
}

// ---- LinearClassifier, LinearRegressor, Scaler, Normalizer ------------------------------

TEST_CASE("LinearClassifier: scores and labels by hand", "[ops][ml]") {
  // Rows of X [2 1] and [0 1] against coefficients [1 0] and [0 1] plus [0 0.5]:
  // scores [2 1.5] -> "cat", [0 1.5] -> "dog"; SOFTMAX of row 0 is
  // [1 e^-0.5] / (1 + e^-0.5) = 0.622459 0.377541.
  OpCall c = ml_call("LinearClassifier", 1, {make_tensor(DType::kF32, {2, 2}, {2, 1, 0, 1})});
  c.attrs.set("coefficients", floats_attr({1, 0, 0, 1}));
  c.attrs.set("intercepts", floats_attr({0, 0.5f}));
  c.attrs.set("classlabels_strings", strings_attr({"cat", "dog"}));
  c.num_outputs = 2;
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].string_values() == std::vector<std::string>{"cat", "dog"});
  check_close(r->outputs[1], {2, 2}, {2, 1.5, 0, 1.5}, kTol);
  c.attrs.set("post_transform", string_attr("SOFTMAX"));
  auto soft = run_op_all_backends(c);
  REQUIRE(soft.ok());
  check_close(soft->outputs[1], {2, 2}, {0.622459, 0.377541, 0.182426, 0.817574}, Tol{.rtol = 1e-5, .atol = 1e-6});

  // One coefficient row is binary: label 1 when the score is > 0, Z = (1 - s, s).
  OpCall bin = ml_call("LinearClassifier", 1, {make_tensor(DType::kI64, {2, 2}, {2, 1, 0, 1})});
  bin.attrs.set("coefficients", floats_attr({1, -1}));
  bin.attrs.set("intercepts", floats_attr({0}));
  bin.attrs.set("classlabels_ints", ints_attr({3, 5}));
  bin.num_outputs = 2;
  auto b = run_op_all_backends(bin);
  REQUIRE(b.ok());
  CHECK(values_of<int64_t>(b->outputs[0]) == std::vector<int64_t>{5, 3});
  check_close(b->outputs[1], {2, 2}, {0, 1, 2, -1}, kTol);
  bin.attrs.set("classlabels_ints", ints_attr({3}));
  require_error(run_op_all_backends(bin).status(), StatusCode::kInvalidModel, "needs 2 class labels, got 1");
  bin.attrs.set("classlabels_ints", ints_attr({3, 5}));
  bin.attrs.set("coefficients", floats_attr({1, -1, 2}));
  require_error(run_op_all_backends(bin).status(), StatusCode::kInvalidArgument, "3 coefficients for 1 rows");
}

TEST_CASE("LinearRegressor Scaler and Normalizer by hand", "[ops][ml]") {
  OpCall lr = ml_call("LinearRegressor", 1, {make_tensor(DType::kF64, {1, 2}, {1, 1})});
  lr.attrs.set("coefficients", floats_attr({1, 2, 3, 4}));
  lr.attrs.set("intercepts", floats_attr({0.5f, -1}));
  lr.attrs.set("targets", int_attr(2));
  auto r = run_op_all_backends(lr);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].dtype() == DType::kF32);
  check_close(r->outputs[0], {1, 2}, {3.5, 6}, kTol);

  OpCall sc = ml_call("Scaler", 1, {make_tensor(DType::kI64, {2, 2}, {3, 4, 1, 2})});
  sc.attrs.set("offset", floats_attr({1, 2}));
  sc.attrs.set("scale", floats_attr({2, 0.5f}));
  auto s = run_op_all_backends(sc);
  REQUIRE(s.ok());
  check_close(s->outputs[0], {2, 2}, {4, 1, 0, 0}, kTol);
  sc.attrs.set("scale", floats_attr({2, 0.5f, 1}));
  require_error(run_op_all_backends(sc).status(), StatusCode::kInvalidArgument, "3 scale values");

  const HostTensor x = make_tensor(DType::kF32, {2, 2}, {3, -4, 0, 0});
  for (auto [norm, want] : {std::pair<const char*, std::vector<double>>{"MAX", {1, -4.0 / 3, 0, 0}},
                            {"L1", {3.0 / 7, -4.0 / 7, 0, 0}},
                            {"L2", {0.6, -0.8, 0, 0}}}) {
    INFO(norm);
    OpCall n = ml_call("Normalizer", 1, {x});
    n.attrs.set("norm", string_attr(norm));
    auto got = run_op_all_backends(n);
    REQUIRE(got.ok());
    check_close(got->outputs[0], {2, 2}, want, kTol);
  }
}

TEST_CASE("ZipMap DictVectorizer and CastMap are refused by name", "[ops][ml]") {
  for (const char* op : {"ZipMap", "DictVectorizer", "CastMap"}) {
    INFO(op);
    OpCall c = ml_call(op, 1, {make_tensor(DType::kF32, {1, 2}, {0, 1})});
    require_error(run_op_all_backends(c).status(), StatusCode::kUnimplemented, "gkrun has no map values");
  }
}

// ---- Imputer, OneHotEncoder, FeatureVectorizer, CategoryMapper ---------------------------

TEST_CASE("Imputer OneHotEncoder and FeatureVectorizer by hand", "[ops][ml]") {
  OpCall im = ml_call("Imputer", 1, {make_tensor(DType::kF32, {2, 2}, {kNaN, 1, 3, kNaN})});
  im.attrs.set("imputed_value_floats", floats_attr({-1, -2}));
  im.attrs.set("replaced_value_float", float_attr(std::numeric_limits<float>::quiet_NaN()));
  auto r = run_op_all_backends(im);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {2, 2}, {-1, 1, 3, -2}, kTol);
  OpCall imi = ml_call("Imputer", 1, {make_tensor(DType::kI64, {3}, {0, 5, 0})});
  imi.attrs.set("imputed_value_int64s", ints_attr({4}));
  auto ri = run_op_all_backends(imi);
  REQUIRE(ri.ok());
  CHECK(values_of<int64_t>(ri->outputs[0]) == std::vector<int64_t>{4, 5, 4});

  // Categories [3 1 7]: 1 -> column 1, 7 -> column 2, 5 is none (zeros = 1: a zero row).
  OpCall oh = ml_call("OneHotEncoder", 1, {make_tensor(DType::kI64, {3}, {1, 7, 5})});
  oh.attrs.set("cats_int64s", ints_attr({3, 1, 7}));
  auto o = run_op_all_backends(oh);
  REQUIRE(o.ok());
  check_close(o->outputs[0], {3, 3}, {0, 1, 0, 0, 0, 1, 0, 0, 0}, kTol);
  oh.attrs.set("zeros", int_attr(0));
  require_error(run_op_all_backends(oh).status(), StatusCode::kOutOfRange, "");
  OpCall ohs = ml_call("OneHotEncoder", 1, {HostTensor::strings({2}, {"b", "a"})});
  ohs.attrs.set("cats_strings", strings_attr({"a", "b"}));
  auto os = run_op_all_backends(ohs);
  REQUIRE(os.ok());
  check_close(os->outputs[0], {2, 2}, {0, 1, 1, 0}, kTol);

  // Columns: a's 2 padded to 3, b's 3 cut to 1.
  OpCall fv = ml_call("FeatureVectorizer", 1, {make_tensor(DType::kI64, {2, 2}, {1, 2, 3, 4}),
                                               make_tensor(DType::kI64, {2, 3}, {5, 6, 7, 8, 9, 10})});
  fv.attrs.set("inputdimensions", ints_attr({3, 1}));
  auto v = run_op_all_backends(fv);
  REQUIRE(v.ok());
  check_close(v->outputs[0], {2, 4}, {1, 2, 0, 5, 3, 4, 0, 8}, kTol);
  fv.inputs[1] = make_tensor(DType::kF32, {2, 3}, {5, 6, 7, 8, 9, 10});
  require_error(run_op_all_backends(fv).status(), StatusCode::kInvalidModel, "share one type");
}

TEST_CASE("CategoryMapper: both directions with defaults", "[ops][ml]") {
  OpCall to_int = ml_call("CategoryMapper", 1, {HostTensor::strings({3}, {"b", "z", "a"})});
  to_int.attrs.set("cats_strings", strings_attr({"a", "b"}));
  to_int.attrs.set("cats_int64s", ints_attr({10, 20}));
  auto r = run_op_all_backends(to_int);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{20, -1, 10});
  OpCall to_str = ml_call("CategoryMapper", 1, {make_tensor(DType::kI64, {3}, {10, 11, 20})});
  to_str.attrs = to_int.attrs;
  to_str.attrs.set("default_string", string_attr("?"));
  auto s = run_op_all_backends(to_str);
  REQUIRE(s.ok());
  CHECK(s->outputs[0].string_values() == std::vector<std::string>{"a", "?", "b"});
  to_str.attrs.set("cats_int64s", ints_attr({10}));
  require_error(run_op_all_backends(to_str).status(), StatusCode::kInvalidModel, "must pair up");
}

TEST_CASE("SVMRegressor: RBF support vectors and the liblinear mode by hand", "[ops][ml]") {
  // x = [0 0] against [0 0] and [1 1]: K = 1 and exp(-0.5 * 2); 1 - 0.367879 + 0.1.
  OpCall c = ml_call("SVMRegressor", 1, {make_tensor(DType::kF32, {1, 2}, {0, 0})});
  c.attrs.set("support_vectors", floats_attr({0, 0, 1, 1}));
  c.attrs.set("coefficients", floats_attr({1, -1}));
  c.attrs.set("n_supports", int_attr(2));
  c.attrs.set("kernel_type", string_attr("RBF"));
  c.attrs.set("kernel_params", floats_attr({0.5f, 0, 0}));
  c.attrs.set("rho", floats_attr({0.1f}));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  check_close(r->outputs[0], {1, 1}, {0.732121}, Tol{.rtol = 1e-5, .atol = 1e-6});
  // Linear mode: [1 3] . [2 -1] + 0.5 = -0.5; one_class gives its sign.
  OpCall lin = ml_call("SVMRegressor", 1, {make_tensor(DType::kI32, {1, 2}, {1, 3})});
  lin.attrs.set("coefficients", floats_attr({2, -1}));
  lin.attrs.set("rho", floats_attr({0.5f}));
  auto l = run_op_all_backends(lin);
  REQUIRE(l.ok());
  check_close(l->outputs[0], {1, 1}, {-0.5}, kTol);
  lin.attrs.set("one_class", int_attr(1));
  auto o = run_op_all_backends(lin);
  REQUIRE(o.ok());
  check_close(o->outputs[0], {1, 1}, {-1}, kTol);
  c.attrs.set("coefficients", floats_attr({1}));
  require_error(run_op_all_backends(c).status(), StatusCode::kInvalidModel, "1 coefficients for 2 support vectors");
}

TEST_CASE("SVMClassifier: one-vs-one votes by hand", "[ops][ml]") {
  // Support vectors [1 0] (class 0) and [0 1] (class 1), LINEAR kernel, pair
  // coefficients [1 -1], rho 0.5: x = [2 1] scores 2 - 1 + 0.5 = 1.5 > 0 (votes
  // class 0), x = [0 3] scores -2.5 (class 1); Z = (-s, s) without a transform.
  OpCall c = ml_call("SVMClassifier", 1, {make_tensor(DType::kF32, {2, 2}, {2, 1, 0, 3})});
  c.attrs.set("support_vectors", floats_attr({1, 0, 0, 1}));
  c.attrs.set("vectors_per_class", ints_attr({1, 1}));
  c.attrs.set("coefficients", floats_attr({1, -1}));
  c.attrs.set("rho", floats_attr({0.5f}));
  c.attrs.set("kernel_params", floats_attr({0, 0, 0}));
  c.attrs.set("classlabels_strings", strings_attr({"no", "yes"}));
  c.num_outputs = 2;
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].string_values() == std::vector<std::string>{"no", "yes"});
  check_close(r->outputs[1], {2, 2}, {-1.5, 1.5, 2.5, -2.5}, kTol);
  // Platt: p(0 over 1) = 1 - logistic(s * a + b) with a = -2, b = 0: row 0
  // 1 - logistic(-3) = 0.952574; two classes couple to (p, 1 - p), which
  // libsvm's iteration reaches within its stopping error 0.005 / classes (the
  // exact ORT figures are the sweep's).
  c.attrs.set("prob_a", floats_attr({-2}));
  c.attrs.set("prob_b", floats_attr({0}));
  auto platt = run_op_all_backends(c);
  REQUIRE(platt.ok());
  CHECK(platt->outputs[0].string_values() == std::vector<std::string>{"no", "yes"});
  check_close(platt->outputs[1], {2, 2}, {0.952574, 0.047426, 0.006693, 0.993307}, Tol{.rtol = 0, .atol = 2.5e-3});
  c.attrs.set("prob_b", floats_attr({0, 1}));
  require_error(run_op_all_backends(c).status(), StatusCode::kInvalidModel, "1 prob_a but 2 prob_b");
}

}  // namespace
}  // namespace gk::test

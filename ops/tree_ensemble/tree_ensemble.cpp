// ai.onnx.ml TreeEnsemble-5, TreeEnsembleRegressor-1/3 and TreeEnsembleClassifier-1/3.
// All flatten at parse time into one forest (branch nodes, leaves with their votes,
// roots), checked once (indices in range, no cycles), and walk it with one set of
// row functions (ops/tree_ensemble/tree_ensemble.cuh): the classifier adds ONNX
// Runtime's class rules on top of the regressor's sums.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/tree_ensemble/tree_ensemble.cuh"
#include "ops/common/ml_labels.h"
#include "ops/common/ml_tables.h"
#include "ops/string/string_ops.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gk {
namespace {

struct Forest {
  std::vector<int64_t> nodes;  // GK_TREE_NODE_INTS per branch node
  std::vector<double> splits, members;
  std::vector<int64_t> roots, leaf_begin{0}, vote_target;
  std::vector<double> vote_weight, base;
  int64_t targets = 0;
  int32_t aggregate = GK_TREE_SUM;
  int32_t post_transform = GK_TREE_NONE;
  int64_t max_feature = -1;

  int64_t branches() const { return static_cast<int64_t>(splits.size()); }
  int64_t leaves() const { return static_cast<int64_t>(leaf_begin.size()) - 1; }
  void add_branch(int64_t feature, int64_t mode, bool missing_true, int64_t t, int64_t f, double split,
                  int64_t set_begin = 0, int64_t set_end = 0) {
    nodes.insert(nodes.end(), {feature, mode, missing_true ? 1 : 0, t, f, set_begin, set_end, 0});
    splits.push_back(split);
    max_feature = std::max(max_feature, feature);
  }
};

// TreeEnsembleClassifier's classes: its labels, and its base values, which it
// adds by its own rules (gk_tree_classify), not as the forest's base.
struct Classes {
  std::vector<int64_t> labels;             // classlabels_int64s (empty for strings)
  std::vector<std::string> string_labels;  // classlabels_strings
  std::vector<double> base;
  bool binary_case = false;  // two classes, every vote for one class id (ORT's rule)
  bool all_positive = true;  // no negative class weight
};

struct TreeAttrs {
  Forest forest;
  bool legacy = false;  // TreeEnsembleRegressor/Classifier: any numeric input, float output
  std::optional<Classes> classes;  // TreeEnsembleClassifier
  ml::DeviceTables device;
};

// Every child and root names an existing node or leaf, every vote an existing
// target, and no tree loops (a walk would never end).
Status check_forest(const Forest& f, const NodeView& node) {
  const auto bad = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  const int64_t n = f.branches(), leaves = f.leaves();
  const auto valid = [&](int64_t c) { return c >= 0 ? c < n : -(c + 1) < leaves; };
  if (f.targets <= 0) return bad(fmt::format("the number of targets must be positive, got {}", f.targets));
  for (int64_t r : f.roots)
    if (!valid(r)) return bad(fmt::format("a tree root points outside the {} nodes and {} leaves", n, leaves));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t* nd = &f.nodes[static_cast<size_t>(i * GK_TREE_NODE_INTS)];
    if (nd[0] < 0) return bad(fmt::format("node {} reads feature {}", i, nd[0]));
    if (nd[1] < GK_TREE_LEQ || nd[1] > GK_TREE_MEMBER) return bad(fmt::format("node {} has mode {}", i, nd[1]));
    if (!valid(nd[3]) || !valid(nd[4]))
      return bad(fmt::format("node {}'s children point outside the {} nodes and {} leaves", i, n, leaves));
  }
  for (int64_t t : f.vote_target)
    if (t < 0 || t >= f.targets) return bad(fmt::format("a leaf votes for target {}, outside [0, {})", t, f.targets));
  if (!f.base.empty() && static_cast<int64_t>(f.base.size()) != f.targets)
    return bad(fmt::format("{} base values for {} targets", f.base.size(), f.targets));
  // Depth-first with colours: 1 = on the current path, 2 = done.
  std::vector<uint8_t> colour(static_cast<size_t>(n), 0);
  std::vector<std::pair<int64_t, int>> stack;
  for (int64_t r : f.roots) {
    if (r < 0 || colour[static_cast<size_t>(r)]) continue;
    stack.push_back({r, 0});
    colour[static_cast<size_t>(r)] = 1;
    while (!stack.empty()) {
      auto& [at, next] = stack.back();
      if (next == 2) {
        colour[static_cast<size_t>(at)] = 2;
        stack.pop_back();
        continue;
      }
      const int64_t c = f.nodes[static_cast<size_t>(at * GK_TREE_NODE_INTS + 3 + next++)];
      if (c < 0) continue;
      if (colour[static_cast<size_t>(c)] == 1) return bad(fmt::format("the trees loop through node {}", c));
      if (colour[static_cast<size_t>(c)] == 0) {
        colour[static_cast<size_t>(c)] = 1;
        stack.push_back({c, 0});
      }
    }
  }
  return ok_status();
}

ParsedAttrs finish(std::shared_ptr<TreeAttrs> attrs) {
  const Forest& f = attrs->forest;
  attrs->device.add(DType::kI64, f.nodes);
  attrs->device.add(DType::kF64, f.splits);
  attrs->device.add(DType::kF64, f.members);
  attrs->device.add(DType::kI64, f.roots);
  attrs->device.add(DType::kI64, f.leaf_begin);
  attrs->device.add(DType::kI64, f.vote_target);
  attrs->device.add(DType::kF64, f.vote_weight);
  attrs->device.add(DType::kF64, f.base);
  if (attrs->classes) {
    attrs->device.add(DType::kI64, attrs->classes->labels);
    attrs->device.add(DType::kF64, attrs->classes->base);
  }
  return ParsedAttrs(std::move(attrs));
}

Result<std::vector<double>> tensor_values(const AttrMap& a, const std::string& name) {
  if (!a.has(name)) return std::vector<double>{};
  GK_TRY(auto t, a.require_tensor(name));
  return t->to_f64_vector();
}

// ---- TreeEnsemble-5 -------------------------------------------------------------

Result<ParsedAttrs> parse_tree_ensemble(const AttrMap& a, const NodeView& node) {
  const auto bad = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  auto attrs = std::make_shared<TreeAttrs>();
  Forest& f = attrs->forest;
  GK_TRY(std::vector<int64_t> roots, a.require_ints("tree_roots"));
  GK_TRY(std::vector<int64_t> features, a.require_ints("nodes_featureids"));
  GK_TRY(auto modes_t, a.require_tensor("nodes_modes"));
  GK_TRY(auto splits_t, a.require_tensor("nodes_splits"));
  GK_TRY(std::vector<int64_t> true_ids, a.require_ints("nodes_truenodeids"));
  GK_TRY(std::vector<int64_t> true_leaf, a.require_ints("nodes_trueleafs"));
  GK_TRY(std::vector<int64_t> false_ids, a.require_ints("nodes_falsenodeids"));
  GK_TRY(std::vector<int64_t> false_leaf, a.require_ints("nodes_falseleafs"));
  GK_TRY(std::vector<int64_t> missing, a.get_ints("nodes_missing_value_tracks_true"));
  GK_TRY(std::vector<int64_t> leaf_targets, a.require_ints("leaf_targetids"));
  GK_TRY(auto weights_t, a.require_tensor("leaf_weights"));
  GK_TRY(std::vector<double> members, tensor_values(a, "membership_values"));
  GK_TRY(int64_t aggregate, a.get_int("aggregate_function", GK_TREE_SUM));
  GK_TRY(int64_t post, a.get_int("post_transform", GK_TREE_NONE));
  const std::vector<int64_t> modes = modes_t->to_i64_vector();
  const std::vector<double> splits = splits_t->to_f64_vector(), weights = weights_t->to_f64_vector();
  const size_t n = features.size();
  if (modes.size() != n || splits.size() != n || true_ids.size() != n || true_leaf.size() != n ||
      false_ids.size() != n || false_leaf.size() != n || (!missing.empty() && missing.size() != n))
    return bad(fmt::format("the nodes_* attributes must all hold {} values (nodes_featureids)", n));
  if (leaf_targets.size() != weights.size())
    return bad(fmt::format("{} leaf_targetids but {} leaf_weights", leaf_targets.size(), weights.size()));
  if (aggregate < GK_TREE_AVERAGE || aggregate > GK_TREE_MAX)
    return bad(fmt::format("aggregate_function {} is not one of 0..3", aggregate));
  if (post < GK_TREE_NONE || post > GK_TREE_PROBIT) return bad(fmt::format("post_transform {} is not one of 0..4", post));
  f.aggregate = static_cast<int32_t>(aggregate);
  f.post_transform = static_cast<int32_t>(post);
  int64_t max_target = -1;
  for (int64_t t : leaf_targets) max_target = std::max(max_target, t);
  GK_TRY(f.targets, a.get_int("n_targets", max_target + 1));
  f.members = std::move(members);
  // Member sets: NaN-delimited runs of membership_values, in node order.
  size_t set_at = 0;
  for (size_t i = 0; i < n; ++i) {
    const auto child = [&](int64_t id, int64_t leaf) { return leaf ? -(id + 1) : id; };
    int64_t begin = 0, end = 0;
    if (modes[i] == GK_TREE_MEMBER) {
      if (set_at >= f.members.size())
        return bad(fmt::format("membership_values has no set left for member node {}", i));
      begin = static_cast<int64_t>(set_at);
      while (set_at < f.members.size() && !std::isnan(f.members[set_at])) ++set_at;
      end = static_cast<int64_t>(set_at);
      ++set_at;  // past the NaN
    }
    f.add_branch(features[i], modes[i], !missing.empty() && missing[i] != 0, child(true_ids[i], true_leaf[i]),
                 child(false_ids[i], false_leaf[i]), splits[i], begin, end);
  }
  f.roots = std::move(roots);
  for (size_t l = 0; l < weights.size(); ++l) {
    f.vote_target.push_back(leaf_targets[l]);
    f.vote_weight.push_back(weights[l]);
    f.leaf_begin.push_back(static_cast<int64_t>(l) + 1);
  }
  GK_RETURN_IF_ERROR(check_forest(f, node));
  return finish(std::move(attrs));
}

// ---- TreeEnsembleRegressor-1/3 --------------------------------------------------------

// "X" as floats, or (opset 3) "X_as_tensor" as doubles.
Result<std::vector<double>> floats_or_tensor(const AttrMap& a, const NodeView& node, const std::string& name) {
  if (node.opset >= 3 && a.has(name + "_as_tensor")) return tensor_values(a, name + "_as_tensor");
  GK_TRY(std::vector<float> v, a.get_floats(name));
  return std::vector<double>(v.begin(), v.end());
}

Result<int32_t> named(const AttrMap& a, const NodeView& node, const std::string& name, const std::string& dflt,
                      std::initializer_list<const char*> names) {
  GK_TRY(std::string s, a.get_string(name, dflt));
  int32_t k = 0;
  for (const char* candidate : names) {
    if (s == candidate) return k;
    ++k;
  }
  return invalid_model("{}: {} '{}' is not recognised", node.describe(), name, s);
}

// The nodes_* and <votes>_* attributes of TreeEnsembleRegressor ("target") and
// TreeEnsembleClassifier ("class") into `f` (its targets already set).
Status parse_legacy_forest(const AttrMap& a, const NodeView& node, const std::string& votes_stem, Forest& f) {
  const auto bad = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  GK_TRY(std::vector<int64_t> tree_ids, a.require_ints("nodes_treeids"));
  GK_TRY(std::vector<int64_t> node_ids, a.require_ints("nodes_nodeids"));
  GK_TRY(std::vector<int64_t> features, a.require_ints("nodes_featureids"));
  GK_TRY(std::vector<int64_t> true_ids, a.require_ints("nodes_truenodeids"));
  GK_TRY(std::vector<int64_t> false_ids, a.require_ints("nodes_falsenodeids"));
  GK_TRY(std::vector<int64_t> missing, a.get_ints("nodes_missing_value_tracks_true"));
  GK_TRY(std::vector<double> values, floats_or_tensor(a, node, "nodes_values"));
  GK_TRY(std::vector<int64_t> vote_trees, a.get_ints(votes_stem + "_treeids"));
  GK_TRY(std::vector<int64_t> vote_nodes, a.get_ints(votes_stem + "_nodeids"));
  GK_TRY(std::vector<int64_t> vote_targets, a.get_ints(votes_stem + "_ids"));
  GK_TRY(std::vector<double> vote_weights, floats_or_tensor(a, node, votes_stem + "_weights"));
  GK_TRY(f.post_transform,
         named(a, node, "post_transform", "NONE", {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"}));
  std::vector<std::string> modes;
  if (const Attribute* m = a.find("nodes_modes"); m && m->kind == Attribute::Kind::kStrings) modes = m->strings;
  else return bad("nodes_modes must be a list of strings");
  const size_t n = tree_ids.size();
  if (node_ids.size() != n || features.size() != n || true_ids.size() != n || false_ids.size() != n ||
      modes.size() != n || (!values.empty() && values.size() != n) || (!missing.empty() && missing.size() != n))
    return bad(fmt::format("the nodes_* attributes must all hold {} values (nodes_treeids)", n));
  if (vote_nodes.size() != vote_trees.size() || vote_targets.size() != vote_trees.size() ||
      vote_weights.size() != vote_trees.size())
    return bad(fmt::format("{0}_treeids, {0}_nodeids, {0}_ids and {0}_weights must have one length", votes_stem));
  static const char* kModes[] = {"BRANCH_LEQ", "BRANCH_LT", "BRANCH_GTE", "BRANCH_GT", "BRANCH_EQ", "BRANCH_NEQ"};
  // Each (tree, node id) becomes a branch ordinal or a leaf ordinal.
  std::map<std::pair<int64_t, int64_t>, size_t> where;
  std::vector<int64_t> code(n);
  std::vector<int64_t> tree_order;
  int64_t branch = 0, leaf = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!where.emplace(std::pair{tree_ids[i], node_ids[i]}, i).second)
      return bad(fmt::format("tree {} lists node {} twice", tree_ids[i], node_ids[i]));
    if (std::find(tree_order.begin(), tree_order.end(), tree_ids[i]) == tree_order.end())
      tree_order.push_back(tree_ids[i]);
    code[i] = modes[i] == "LEAF" ? -(leaf++ + 1) : branch++;
  }
  const auto lookup = [&](int64_t tree, int64_t id) -> Result<int64_t> {
    auto it = where.find({tree, id});
    if (it == where.end()) return bad(fmt::format("tree {} has no node {}", tree, id));
    return code[it->second];
  };
  for (size_t i = 0; i < n; ++i) {
    if (code[i] < 0) continue;
    const auto* mode = std::find(std::begin(kModes), std::end(kModes), modes[i]);
    if (mode == std::end(kModes)) return bad(fmt::format("nodes_modes value '{}' is not recognised", modes[i]));
    GK_TRY(int64_t t, lookup(tree_ids[i], true_ids[i]));
    GK_TRY(int64_t fl, lookup(tree_ids[i], false_ids[i]));
    f.add_branch(features[i], mode - std::begin(kModes), !missing.empty() && missing[i] != 0, t, fl,
                 values.empty() ? 0.0 : values[i]);
  }
  for (int64_t tree : tree_order) {
    GK_TRY(int64_t root, lookup(tree, 0));
    f.roots.push_back(root);
  }
  std::vector<std::vector<size_t>> votes(static_cast<size_t>(leaf));
  for (size_t v = 0; v < vote_trees.size(); ++v) {
    GK_TRY(int64_t c, lookup(vote_trees[v], vote_nodes[v]));
    if (c >= 0)
      return bad(fmt::format("a {} vote names node {} of tree {}, which is not a LEAF", votes_stem, vote_nodes[v],
                             vote_trees[v]));
    votes[static_cast<size_t>(-(c + 1))].push_back(v);
  }
  for (const auto& list : votes) {
    for (size_t v : list) {
      f.vote_target.push_back(vote_targets[v]);
      f.vote_weight.push_back(vote_weights[v]);
    }
    f.leaf_begin.push_back(static_cast<int64_t>(f.vote_target.size()));
  }
  return check_forest(f, node);
}

Result<ParsedAttrs> parse_tree_regressor(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<TreeAttrs>();
  attrs->legacy = true;
  Forest& f = attrs->forest;
  GK_TRY(f.base, floats_or_tensor(a, node, "base_values"));
  GK_TRY(f.targets, a.get_int("n_targets", 1));
  GK_TRY(f.aggregate, named(a, node, "aggregate_function", "SUM", {"AVERAGE", "SUM", "MIN", "MAX"}));
  GK_RETURN_IF_ERROR(parse_legacy_forest(a, node, "target", f));
  return finish(std::move(attrs));
}

// ---- TreeEnsembleClassifier-1/3 -------------------------------------------------------

Result<ParsedAttrs> parse_tree_classifier(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<TreeAttrs>();
  attrs->legacy = true;
  Classes c;
  GK_TRY(c.labels, a.get_ints("classlabels_int64s"));
  if (const Attribute* at = a.find("classlabels_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute classlabels_strings must be strings, got {}", node.describe(),
                           attribute_kind_name(at->kind));
    c.string_labels = at->strings;
  }
  if (c.labels.empty() == c.string_labels.empty())
    return invalid_model("{}: exactly one of classlabels_int64s and classlabels_strings must be set",
                         node.describe());
  const size_t classes = c.labels.empty() ? c.string_labels.size() : c.labels.size();
  // One class makes ORT score a single column and write two (its FinalizeScores1).
  if (classes < 2)
    return unimplemented("{}: {} class label; TreeEnsembleClassifier needs at least 2", node.describe(), classes);
  GK_TRY(c.base, floats_or_tensor(a, node, "base_values"));
  if (!c.base.empty() && c.base.size() != classes && !(classes == 2 && c.base.size() == 1))
    return invalid_model("{}: {} base_values for {} classes", node.describe(), c.base.size(), classes);
  Forest& f = attrs->forest;
  f.targets = static_cast<int64_t>(classes);
  f.aggregate = GK_TREE_SUM;
  GK_RETURN_IF_ERROR(parse_legacy_forest(a, node, "class", f));
  const std::set<int64_t> voted(f.vote_target.begin(), f.vote_target.end());
  c.binary_case = classes == 2 && voted.size() == 1;
  c.all_positive = std::none_of(f.vote_weight.begin(), f.vote_weight.end(), [](double w) { return w < 0; });
  attrs->classes = std::move(c);
  return finish(std::move(attrs));
}

// ---- shared rule and launcher -----------------------------------------------------------

// X's row count, after checking its type and that every feature a node reads exists.
Result<int64_t> tree_rows(InferContext& ctx) {
  const auto& attrs = attrs_as<TreeAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  const bool ok = attrs.legacy ? (x.dtype == DType::kF32 || x.dtype == DType::kF64 || x.dtype == DType::kI64 ||
                                  x.dtype == DType::kI32)
                               : (x.dtype == DType::kF32 || x.dtype == DType::kF64 || x.dtype == DType::kF16);
  if (!ok)
    return unimplemented("{}: input type {}; {} takes {}", ctx.node.describe(), dtype_name(x.dtype), ctx.node.op_type,
                         attrs.legacy ? "float32, float64, int64, int32" : "float32, float64, float16");
  if (x.shape.empty() || x.shape.size() > 2)
    return ctx.fail(fmt::format("X must be [N, F] (or [F]), got {}", shape_str(x.shape)));
  const int64_t features = x.shape.back(), rows = x.shape.size() == 2 ? x.shape[0] : 1;
  if (attrs.forest.max_feature >= features && rows > 0)
    return invalid_argument("{}: a node reads feature {}, but X has {} features", ctx.node.describe(),
                            attrs.forest.max_feature, features);
  return rows;
}

Status infer_tree(InferContext& ctx) {
  const auto& attrs = attrs_as<TreeAttrs>(ctx.attrs);
  GK_TRY(int64_t rows, tree_rows(ctx));
  ctx.outputs[0] = {attrs.legacy ? DType::kF32 : ctx.in(0).dtype, Shape{rows, attrs.forest.targets}};
  return ok_status();
}

const double* data_or_null(const std::vector<double>& v) { return v.empty() ? nullptr : v.data(); }

gk_tree_classes classes_table(const Classes& c, const int64_t* labels, const double* base) {
  return {labels, base, static_cast<int64_t>(c.base.size()), c.binary_case ? 1 : 0, c.all_positive ? 1 : 0};
}

gk_tree_params tree_params(const Forest& f, int64_t rows, int64_t features) {
  gk_tree_params p{};
  p.rows = rows;
  p.features = features;
  p.trees = static_cast<int64_t>(f.roots.size());
  p.nodes = f.branches();
  p.targets = f.targets;
  p.aggregate = f.aggregate;
  p.post_transform = f.post_transform;
  return p;
}

// String labels cannot live on the device: the classifier then computes on the
// host from X's value (known at plan time, or read back by the executor when the
// run computes it), through the device kernel's own row functions.
Status classify_on_host(InferContext& ctx, const TreeAttrs& attrs, int64_t rows) {
  const Forest& f = attrs.forest;
  const Classes& c = *attrs.classes;
  const std::vector<double> x = ctx.values[0]->to_f64_vector();
  const int64_t n = f.targets, features = ctx.in(0).shape.back();
  const gk_tree_tables t{f.nodes.data(), f.splits.data(), data_or_null(f.members), f.roots.data(),
                         f.leaf_begin.data(), f.vote_target.data(), data_or_null(f.vote_weight), nullptr};
  const gk_tree_params p = tree_params(f, rows, features);
  const gk_tree_classes table = classes_table(c, nullptr, data_or_null(c.base));
  GK_TRY(HostTensor z, HostTensor::allocate(DType::kF32, Shape{rows, n}));
  std::vector<std::string> labels(static_cast<size_t>(rows));
  std::vector<float> score(static_cast<size_t>(n)), has(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    gk_tree_aggregate(x.data() + r * features, score.data(), has.data(), t, p);
    bool literal = false;
    const int64_t k = gk_tree_classify(score.data(), has.data(), z.mutable_data<float>() + r * n, table, n,
                                       p.post_transform, &literal);
    labels[static_cast<size_t>(r)] = c.string_labels[static_cast<size_t>(k)];
  }
  return ml::set_string_label_outputs(ctx, std::move(labels), std::move(z));
}

// Y: labels [N] (int64, or strings); Z: scores [N, classes], float.
Status infer_tree_classifier(InferContext& ctx) {
  const auto& attrs = attrs_as<TreeAttrs>(ctx.attrs);
  GK_TRY(int64_t rows, tree_rows(ctx));
  const bool strings = !attrs.classes->string_labels.empty();
  ctx.outputs[0] = {strings ? DType::kString : DType::kI64, Shape{rows}};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {DType::kF32, Shape{rows, attrs.forest.targets}};
  if (strings && ctx.has_value(0)) return classify_on_host(ctx, attrs, rows);
  return ok_status();
}

const char* tree_input_type(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF64: return "double";
    case DType::kF16: return "gk_half";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    default: return nullptr;
  }
}

Status run_tree(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<TreeAttrs>();
  const Forest& f = attrs.forest;
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const int64_t rows = x.shape.size() == 2 ? x.shape[0] : 1;
  if (rows == 0 || f.targets == 0) return ok_status();
  const gk_tree_params p = tree_params(f, rows, x.shape.back());
  GK_TRY(std::vector<DevPtr> d, attrs.device.get(ctx));
  const auto ptr = [&](size_t i) { return reinterpret_cast<const void*>(static_cast<uintptr_t>(d[i])); };
  gk_tree_tables t{static_cast<const int64_t*>(ptr(0)), static_cast<const double*>(ptr(1)),
                   static_cast<const double*>(ptr(2)), static_cast<const int64_t*>(ptr(3)),
                   static_cast<const int64_t*>(ptr(4)), static_cast<const int64_t*>(ptr(5)),
                   static_cast<const double*>(ptr(6)), static_cast<const double*>(ptr(7))};
  const char* in = tree_input_type(x.dtype);
  if (!in) return internal_error("{}: input type {}", ctx.node().describe(), dtype_name(x.dtype));
  if (attrs.classes) {
    if (y.dtype == DType::kString) return strings::run_host_only(ctx);
    GK_TRY(GkBuf acc, ctx.scratch(DType::kF32, 2 * p.rows * p.targets));
    DevPtr z = ctx.num_outputs() > 1 && ctx.out(1).ptr ? ctx.out(1).ptr : 0;
    if (!z) {
      GK_TRY(GkBuf scores, ctx.scratch(DType::kF32, p.rows * p.targets));
      z = scores.ptr();
    }
    DevPtr labels = y.ptr;
    if (!labels) {
      GK_TRY(GkBuf scratch_labels, ctx.scratch(DType::kI64, p.rows));
      labels = scratch_labels.ptr();
    }
    const gk_tree_classes c = classes_table(*attrs.classes, static_cast<const int64_t*>(ptr(8)),
                                            static_cast<const double*>(ptr(9)));
    KernelArgs args;
    args.ptr(x.ptr).ptr(labels).ptr(z).ptr(acc.ptr()).pod(t).pod(p).pod(c);
    return ctx.launch(kernel_sources::tree_ensemble, KernelName::format("gk_tree_classifier<{}, float>", {in}),
                      grid_for(p.rows), args);
  }
  const bool wide = y.dtype == DType::kF64;
  const bool extreme = f.aggregate == GK_TREE_MIN || f.aggregate == GK_TREE_MAX;
  GK_TRY(GkBuf acc, ctx.scratch(wide ? DType::kF64 : DType::kF32, p.rows * p.targets * (extreme ? 2 : 1)));
  const char* out = y.dtype == DType::kF64 ? "double" : y.dtype == DType::kF16 ? "gk_half" : "float";
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).ptr(acc.ptr()).pod(t).pod(p);
  return ctx.launch(kernel_sources::tree_ensemble,
                    KernelName::format("gk_tree_ensemble<{}, {}, {}>", {in, out, wide ? "double" : "float"}),
                    grid_for(p.rows), args);
}

const OpImpl kTreeEnsemble{&parse_tree_ensemble, &infer_tree, &run_tree};
const OpImpl kTreeRegressor{&parse_tree_regressor, &infer_tree, &run_tree};
const OpImpl kTreeClassifier{&parse_tree_classifier, &infer_tree_classifier, &run_tree};

const OpSchema kTreeSchemas[] = {
    {"ai.onnx.ml", "TreeEnsemble", 5, kOpsetCurrent, &kTreeEnsemble, {}},
    {"ai.onnx.ml", "TreeEnsembleRegressor", 1, 2, &kTreeRegressor, {}},
    {"ai.onnx.ml", "TreeEnsembleRegressor", 3, kOpsetCurrent, &kTreeRegressor, {}},
    {"ai.onnx.ml", "TreeEnsembleClassifier", 1, 2, &kTreeClassifier, {}},
    {"ai.onnx.ml", "TreeEnsembleClassifier", 3, kOpsetCurrent, &kTreeClassifier, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> tree_ensemble_ops() { return kTreeSchemas; }
}  // namespace families

}  // namespace gk

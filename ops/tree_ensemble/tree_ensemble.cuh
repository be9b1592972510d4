// Tree ensembles (ai.onnx.ml TreeEnsemble-5 and the older TreeEnsembleRegressor /
// TreeEnsembleClassifier, all flattened to one form by ops/tree_ensemble/tree_ensemble.cpp).
// One thread per row walks every tree, aggregates the leaf votes per target in
// a scratch row of the accumulator type, then applies the post transform.
// Splits and features compare in double: float and double thresholds and inputs
// are exact there, as in the reference's numpy comparisons.
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"

#define GK_TREE_LEQ 0
#define GK_TREE_LT 1
#define GK_TREE_GTE 2
#define GK_TREE_GT 3
#define GK_TREE_EQ 4
#define GK_TREE_NEQ 5
#define GK_TREE_MEMBER 6

#define GK_TREE_AVERAGE 0
#define GK_TREE_SUM 1
#define GK_TREE_MIN 2
#define GK_TREE_MAX 3

#define GK_TREE_NONE 0
#define GK_TREE_SOFTMAX 1
#define GK_TREE_LOGISTIC 2
#define GK_TREE_SOFTMAX_ZERO 3
#define GK_TREE_PROBIT 4

// Per branch node, this many int64: feature, mode, missing_tracks_true, true
// child, false child, member set begin, member set end, unused. A child (and a
// root) >= 0 is a branch node, < 0 is leaf -(child + 1).
#define GK_TREE_NODE_INTS 8

// Must match the launcher in ops/tree_ensemble/tree_ensemble.cpp.
struct gk_tree_params {
  int64_t rows;
  int64_t features;
  int64_t trees;
  int64_t nodes;
  int64_t targets;
  int32_t aggregate;       // GK_TREE_AVERAGE..MAX
  int32_t post_transform;  // GK_TREE_NONE..PROBIT
};

// The forest's tables, on the device.
struct gk_tree_tables {
  const int64_t* nodes;        // [nodes * GK_TREE_NODE_INTS]
  const double* splits;        // [nodes]
  const double* members;       // the member sets' values
  const int64_t* roots;        // [trees]
  const int64_t* leaf_begin;   // [leaves + 1]: each leaf's range of votes
  const int64_t* vote_target;  // [votes]
  const double* vote_weight;   // [votes]
  const double* base;          // [targets] or null: added after aggregation
};

static GK_FN bool gk_tree_goes_true(const int64_t* node, double split, const double* members, double v) {
  if (v != v && node[2]) return true;
  switch ((int32_t)node[1]) {
    case GK_TREE_LEQ: return v <= split;
    case GK_TREE_LT: return v < split;
    case GK_TREE_GTE: return v >= split;
    case GK_TREE_GT: return v > split;
    case GK_TREE_EQ: return v == split;
    case GK_TREE_NEQ: return v != split;
    default:
      for (int64_t m = node[5]; m < node[6]; ++m)
        if (members[m] == v) return true;
      return false;
  }
}

// ONNX Runtime's erf inverse (Winitzki's approximation), which its PROBIT and the
// reference's use: PROBIT(p) = sqrt(2) * erfinv(2p - 1).
static GK_FN double gk_tree_probit(double p) {
  double x = 2.0 * p - 1.0;
  const double sgn = x < 0 ? -1.0 : 1.0;
  x = (1.0 - x) * (1.0 + x);
  if (x == 0.0) return 0.0;
  const double lg = gk_log(x);
  const double v = 2.0 / (3.14159265358979323846 * 0.147) + 0.5 * lg;
  const double v2 = 1.0 / 0.147 * lg;
  const double v3 = -v + gk_sqrt(v * v - v2);
  return 1.41421356 * sgn * gk_sqrt(v3);
}

// Stable logistic, as ONNX Runtime computes it.
static GK_FN double gk_tree_logistic(double x) {
  const double v = 1.0 / (1.0 + gk_exp(-(x < 0 ? -x : x)));
  return x < 0 ? 1.0 - v : v;
}

// Walks every tree for one row and aggregates the leaf votes per target into
// score[targets]; has[targets] (MIN/MAX, and the classifier) marks the targets
// some leaf voted for. AVERAGE divides by the tree count; base (when set) is added.
template <typename TI, typename A>
static GK_FN void gk_tree_aggregate(const TI* row, A* score, A* has, const gk_tree_tables& t,
                                    const gk_tree_params& p) {
  const bool extreme = p.aggregate == GK_TREE_MIN || p.aggregate == GK_TREE_MAX;
  for (int64_t j = 0; j < p.targets; ++j) {
    score[j] = (A)0;
    if (has) has[j] = (A)0;
  }
  for (int64_t tree = 0; tree < p.trees; ++tree) {
    int64_t at = t.roots[tree];
    // The host proved every tree acyclic; the bound only guards that proof.
    for (int64_t steps = 0; at >= 0 && steps <= p.nodes; ++steps) {
      const int64_t* node = t.nodes + at * GK_TREE_NODE_INTS;
      const bool go = gk_tree_goes_true(node, t.splits[at], t.members, (double)(typename gk_acc<TI>::type)row[node[0]]);
      at = go ? node[3] : node[4];
    }
    if (at >= 0) continue;
    const int64_t leaf = -(at + 1);
    for (int64_t v = t.leaf_begin[leaf]; v < t.leaf_begin[leaf + 1]; ++v) {
      const int64_t j = t.vote_target[v];
      const A w = (A)t.vote_weight[v];
      if (!extreme) {
        score[j] += w;
      } else {
        const bool better = has[j] == (A)0 || (p.aggregate == GK_TREE_MIN ? w < score[j] : w > score[j]);
        if (better) score[j] = w;
      }
      if (has) has[j] = (A)1;
    }
  }
  for (int64_t j = 0; j < p.targets; ++j) {
    if (p.aggregate == GK_TREE_AVERAGE && p.trees > 0) score[j] /= (A)p.trees;
    if (t.base) score[j] += (A)t.base[j];
  }
}

// The post transform over n scores in place (SOFTMAX_ZERO leaves (near-)zero
// scores out, as ONNX Runtime does).
template <typename A>
static GK_FN void gk_tree_post(A* score, int64_t n, int32_t post) {
  if (post == GK_TREE_SOFTMAX || post == GK_TREE_SOFTMAX_ZERO) {
    A top = score[0];
    for (int64_t j = 1; j < n; ++j)
      if (score[j] > top) top = score[j];
    A sum = (A)0;
    for (int64_t j = 0; j < n; ++j) {
      const A s = score[j];
      const bool zero = post == GK_TREE_SOFTMAX_ZERO && s <= (A)1e-7 && s >= (A)-1e-7;
      score[j] = zero ? s * gk_exp(-top) : gk_exp(s - top);
      if (!zero) sum += score[j];
    }
    for (int64_t j = 0; j < n; ++j) score[j] /= sum;
  }
  for (int64_t j = 0; j < n; ++j) {
    if (post == GK_TREE_LOGISTIC) score[j] = (A)gk_tree_logistic((double)score[j]);
    else if (post == GK_TREE_PROBIT) score[j] = (A)gk_tree_probit((double)score[j]);
  }
}

// acc: scratch [rows, targets] (MIN/MAX: then [rows, targets] of 0/1 "has a vote").
template <typename TI, typename TO, typename A>
GK_KERNEL void gk_tree_ensemble(const TI* GK_RESTRICT x, TO* GK_RESTRICT y, A* GK_RESTRICT acc, gk_tree_tables t,
                                gk_tree_params p) {
  GK_KERNEL_LOOP(r, p.rows) {
    A* score = acc + r * p.targets;
    const bool extreme = p.aggregate == GK_TREE_MIN || p.aggregate == GK_TREE_MAX;
    gk_tree_aggregate(x + r * p.features, score, extreme ? acc + (p.rows + r) * p.targets : (A*)0, t, p);
    gk_tree_post(score, p.targets, p.post_transform);
    for (int64_t j = 0; j < p.targets; ++j) y[r * p.targets + j] = (TO)score[j];
  }
}

// TreeEnsembleClassifier's labels and base values (the forest's own base is unset:
// the classifier adds its base values by ONNX Runtime's rules below).
struct gk_tree_classes {
  const int64_t* labels;  // [targets] classlabels_int64s, or null: Y holds the class index
  const double* base;     // [bases]
  int64_t bases;
  int32_t binary_case;    // two classes and every vote for one class id
  int32_t all_positive;   // every class weight >= 0
};

// One row's class and scores from its summed votes, as ONNX Runtime's
// TreeAggregatorClassifier::FinalizeScores and write_scores compute them (its
// tree_ensemble_aggregator.h): more than two classes take the arg max of the
// voted classes after the base values; two classes follow its binary rules,
// where a single score becomes the pair (1 - s, s) or (-s, s) (LOGISTIC: the
// logistic of each). Returns the label index, or (two classes that are not the
// binary case) ORT's literal 1 / 0 with *literal set. z: [targets].
template <typename A>
static GK_FN int64_t gk_tree_classify(A* score, A* has, float* z, const gk_tree_classes& c, int64_t n, int32_t post,
                                      bool* literal) {
  *literal = false;
  if (n > 2) {
    for (int64_t k = 0; k < c.bases && k < n; ++k) {
      score[k] = has[k] != (A)0 ? score[k] + (A)c.base[k] : (A)c.base[k];
      has[k] = (A)1;
    }
    int64_t best = -1;
    for (int64_t k = 0; k < n; ++k)
      if (has[k] != (A)0 && (best < 0 || score[k] > score[best])) best = k;
    gk_tree_post(score, n, post);
    for (int64_t k = 0; k < n; ++k) z[k] = (float)score[k];
    return best < 0 ? 0 : best;  // no vote and no base value: ORT reads label -1; the first class here
  }
  int64_t kept = 2;
  int32_t extra = -1;  // ORT's write_additional_scores
  if (c.bases == 2) {
    if (has[1] != (A)0) {
      score[1] = (A)c.base[1] + score[0];  // ORT uses base_values[1] only (and score 0)
      score[0] = -score[1];
    } else {
      score[1] += (A)c.base[1];
      score[0] += (A)c.base[0];
    }
  } else if (c.bases == 1) {
    score[0] += (A)c.base[0];
    if (has[1] == (A)0) kept = 1;
  } else {
    extra = 3;
    if (has[1] == (A)0) kept = 1;
  }
  const A pos = kept == 2 && has[1] != (A)0 ? score[1] : has[0] != (A)0 ? score[0] : (A)0;
  int64_t label;
  if (c.binary_case) {
    const bool positive = c.all_positive ? pos > (A)0.5 : pos > (A)0;
    extra = c.all_positive ? (positive ? 0 : 1) : (positive ? 2 : 3);
    label = positive ? 1 : 0;
  } else {
    *literal = true;
    label = pos > (A)0 ? 1 : 0;
  }
  if (kept == 2) {
    // ORT's scores carry a has-a-vote flag and read as 0 without one (its
    // ScoreValue), whatever the base values did to them.
    for (int64_t k = 0; k < 2; ++k)
      if (has[k] == (A)0) score[k] = (A)0;
    gk_tree_post(score, 2, post);
    z[0] = (float)score[0];
    z[1] = (float)score[1];
  } else if (post == GK_TREE_PROBIT) {
    z[0] = (float)gk_tree_probit((double)score[0]);  // ORT writes this one score only
    z[1] = 0.0f;
  } else if (extra == 0 || extra == 1) {  // all positive weights
    z[0] = (float)((A)1 - score[0]);
    z[1] = (float)score[0];
  } else if (post == GK_TREE_LOGISTIC) {  // mixed-sign weights (ORT's cases 2 and 3; case -1, one base
                                          // value and no class-1 vote outside the binary case, ORT refuses)
    z[0] = (float)gk_tree_logistic(-(double)score[0]);
    z[1] = (float)gk_tree_logistic((double)score[0]);
  } else {
    z[0] = (float)-score[0];
    z[1] = (float)score[0];
  }
  return label;
}

// Y [rows] (a label, or the class index when c.labels is null), Z [rows, targets].
// acc: scratch [2, rows, targets] (scores, then 0/1 "has a vote").
template <typename TI, typename A>
GK_KERNEL void gk_tree_classifier(const TI* GK_RESTRICT x, int64_t* GK_RESTRICT y, float* GK_RESTRICT z,
                                  A* GK_RESTRICT acc, gk_tree_tables t, gk_tree_params p, gk_tree_classes c) {
  GK_KERNEL_LOOP(r, p.rows) {
    A* score = acc + r * p.targets;
    A* has = acc + (p.rows + r) * p.targets;
    gk_tree_aggregate(x + r * p.features, score, has, t, p);
    bool literal = false;
    const int64_t k = gk_tree_classify(score, has, z + r * p.targets, c, p.targets, p.post_transform, &literal);
    y[r] = c.labels && !literal ? c.labels[k] : k;
  }
}

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

// acc: scratch [rows, targets] (MIN/MAX: then [rows, targets] of 0/1 "has a vote").
template <typename TI, typename TO, typename A>
GK_KERNEL void gk_tree_ensemble(const TI* GK_RESTRICT x, TO* GK_RESTRICT y, A* GK_RESTRICT acc, gk_tree_tables t,
                                gk_tree_params p) {
  GK_KERNEL_LOOP(r, p.rows) {
    const TI* row = x + r * p.features;
    A* score = acc + r * p.targets;
    A* has = acc + (p.rows + r) * p.targets;  // only MIN/MAX allocate this half
    const bool extreme = p.aggregate == GK_TREE_MIN || p.aggregate == GK_TREE_MAX;
    for (int64_t j = 0; j < p.targets; ++j) {
      score[j] = (A)0;
      if (extreme) has[j] = (A)0;
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
          has[j] = (A)1;
        }
      }
    }
    A top = (A)0;
    for (int64_t j = 0; j < p.targets; ++j) {
      if (p.aggregate == GK_TREE_AVERAGE && p.trees > 0) score[j] /= (A)p.trees;
      if (t.base) score[j] += (A)t.base[j];
      if (j == 0 || score[j] > top) top = score[j];
    }
    if (p.post_transform == GK_TREE_SOFTMAX || p.post_transform == GK_TREE_SOFTMAX_ZERO) {
      // SOFTMAX_ZERO leaves (near-)zero scores out, as ONNX Runtime does.
      A sum = (A)0;
      for (int64_t j = 0; j < p.targets; ++j) {
        const A s = score[j];
        const bool zero = p.post_transform == GK_TREE_SOFTMAX_ZERO && s <= (A)1e-7 && s >= (A)-1e-7;
        score[j] = zero ? s * gk_exp(-top) : gk_exp(s - top);
        if (!zero) sum += score[j];
      }
      for (int64_t j = 0; j < p.targets; ++j) score[j] /= sum;
    }
    for (int64_t j = 0; j < p.targets; ++j) {
      A s = score[j];
      if (p.post_transform == GK_TREE_LOGISTIC) s = (A)gk_tree_logistic((double)s);
      else if (p.post_transform == GK_TREE_PROBIT) s = (A)gk_tree_probit((double)s);
      y[r * p.targets + j] = (TO)s;
    }
  }
}

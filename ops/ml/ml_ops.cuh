// ai.onnx.ml Binarizer and ArrayFeatureExtractor.
#include "backends/kernel_prelude.cuh"

// y = 1 where x > threshold, else 0 (NaN gives 0, as the reference's x > t does).
// The comparison runs in double, where every float and int32 value and the float
// threshold are exact.
template <typename T>
GK_KERNEL void gk_binarizer(const T* x, T* y, int64_t n, double threshold) {
  GK_KERNEL_LOOP(i, n) { y[i] = (double)x[i] > threshold ? (T)1 : (T)0; }
}

// y[r, j] = x[r, idx[j]] over x viewed as [rows, d] and y as [rows, k]. T is a
// storage type of the element's width (the op copies bits). An index outside
// [0, d) is clamped and raises the flag (OutOfRange on the host); d > 0 whenever
// y is non-empty (checked by the launcher).
template <typename T>
GK_KERNEL void gk_array_feature_extract(const T* GK_RESTRICT x, const int64_t* GK_RESTRICT idx, T* GK_RESTRICT y,
                                        int32_t* flag, int64_t n, int64_t k, int64_t d) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t r = i / k;
    int64_t c = idx[i - r * k];
    if (c < 0 || c >= d) {
      gk_raise(flag, 1);
      c = c < 0 ? 0 : d - 1;
    }
    y[i] = x[r * d + c];
  }
}

// ---- linear models, Scaler, Normalizer (ONNX Runtime's float arithmetic) -----------

// Their post transforms are the tree ensembles' (one rule set, ORT's write_scores).
#include "ops/tree_ensemble/tree_ensemble.cuh"
#include "ops/common/blocked_sum.cuh"

// Must match the launchers in ops/ml/linear.cpp.
struct gk_linear_params {
  int64_t rows;
  int64_t features;
  int64_t targets;       // rows of coefficients
  int32_t post;          // GK_TREE_NONE..PROBIT
  int32_t second_class;  // LinearClassifier, one coefficient row, two labels: Z is (1 - s, s)
};

// score[t] = x . coef[t] + intercept[t] in float, as ORT's float GEMM on X cast to
// float; the dot product is a blocked sum (DESIGN.md, Numerics).
template <typename T>
static GK_FN void gk_linear_row(const T* x, const float* coef, const float* intercept, float* score,
                                const gk_linear_params& p) {
  for (int64_t t = 0; t < p.targets; ++t) {
    const float* w = coef + t * p.features;
    const float dot = gk_bsum_row<float>(p.features, [&](float acc, int64_t k) { return acc + (float)x[k] * w[k]; });
    score[t] = intercept ? dot + intercept[t] : dot;
  }
}

// One row of LinearClassifier: the scores into z (targets wide, or 2 with
// second_class) and the winning label index (ORT's linearclassifier.cc): one
// coefficient row votes index 1 when its score is > 0 (its post transform then
// only PROBIT, or the (1 - s, s) pair), several take the first arg max before the
// post transform.
template <typename T>
static GK_FN int64_t gk_linear_classify(const T* x, const float* coef, const float* intercept, float* z,
                                        const gk_linear_params& p) {
  gk_linear_row(x, coef, intercept, z, p);
  if (p.targets == 1) {
    const float s = z[0];
    if (p.second_class) {
      // onnxruntime-node 1.30 takes the logistic first (checked: tests/diff/sweep).
      const float v = p.post == GK_TREE_LOGISTIC ? (float)gk_tree_logistic((double)s) : s;
      z[0] = 1.0f - v;
      z[1] = v;
    } else if (p.post == GK_TREE_PROBIT) {
      z[0] = (float)gk_tree_probit((double)s);
    }
    return s > 0.0f ? 1 : 0;
  }
  int64_t best = 0;
  for (int64_t t = 1; t < p.targets; ++t)
    if (z[t] > z[best]) best = t;
  gk_tree_post(z, p.targets, p.post);
  return best;
}

// Y [rows]: labels[index], or the index itself when labels is null.
template <typename T>
GK_KERNEL void gk_linear_classifier(const T* GK_RESTRICT x, int64_t* GK_RESTRICT y, float* GK_RESTRICT z,
                                    const float* coef, const float* intercept, const int64_t* labels,
                                    gk_linear_params p) {
  const int64_t width = p.second_class ? 2 : p.targets;
  GK_KERNEL_LOOP(r, p.rows) {
    const int64_t k = gk_linear_classify(x + r * p.features, coef, intercept, z + r * width, p);
    y[r] = labels ? labels[k] : k;
  }
}

// LinearRegressor: one target takes only PROBIT (ORT's batched_update_scores_inplace).
template <typename T>
GK_KERNEL void gk_linear_regressor(const T* GK_RESTRICT x, float* GK_RESTRICT y, const float* coef,
                                   const float* intercept, gk_linear_params p) {
  GK_KERNEL_LOOP(r, p.rows) {
    float* score = y + r * p.targets;
    gk_linear_row(x + r * p.features, coef, intercept, score, p);
    if (p.targets > 1) gk_tree_post(score, p.targets, p.post);
    else if (p.post == GK_TREE_PROBIT) score[0] = (float)gk_tree_probit((double)score[0]);
  }
}

// Scaler: y = (x - offset[j]) * scale[j] over the last axis (c columns; a table
// of one value applies to every column), in the arithmetic C++ gives x's type
// against a float (double stays double), as ORT's scaler.cc.
template <typename T>
GK_KERNEL void gk_scaler(const T* GK_RESTRICT x, float* GK_RESTRICT y, const float* offset, const float* scale,
                         int64_t n, int64_t c, int64_t offsets, int64_t scales) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t j = i % c;
    y[i] = (float)((x[i] - offset[offsets == 1 ? 0 : j]) * scale[scales == 1 ? 0 : j]);
  }
}

#define GK_NORM_MAX 0
#define GK_NORM_L1 1
#define GK_NORM_L2 2

// Normalizer over rows of c: divided by the row's max (MAX), its sum of |x| (L1)
// or its Euclidean norm (L2); a row whose statistic is 0 is copied (ORT's
// normalizer.cc). Sums are blocked, in float.
template <typename T>
GK_KERNEL void gk_normalizer(const T* GK_RESTRICT x, float* GK_RESTRICT y, int64_t rows, int64_t c, int32_t norm) {
  GK_KERNEL_LOOP(r, rows) {
    const T* in = x + r * c;
    float* out = y + r * c;
    if (norm == GK_NORM_MAX) {
      T top = in[0];
      for (int64_t k = 1; k < c; ++k)
        if (in[k] > top) top = in[k];
      for (int64_t k = 0; k < c; ++k) out[k] = top != (T)0 ? (float)((float)in[k] / top) : (float)in[k];
      continue;
    }
    const float sum = gk_bsum_row<float>(c, [&](float acc, int64_t k) {
      const float v = (float)in[k];
      return acc + (norm == GK_NORM_L1 ? (v < 0 ? -v : v) : v * v);
    });
    const float d = norm == GK_NORM_L1 ? sum : gk_sqrt(sum);
    for (int64_t k = 0; k < c; ++k) out[k] = sum != 0.0f ? (float)in[k] / d : (float)in[k];
  }
}

// ---- Imputer, OneHotEncoder, FeatureVectorizer ------------------------------------------

// Imputer: an element equal to `replaced` (any NaN when nan_replaced) takes
// values[j] of its last-axis column j (values[0] when count is 1). Compared in
// double, where every float, int32 and the attribute values are exact.
template <typename T>
GK_KERNEL void gk_imputer(const T* GK_RESTRICT x, T* GK_RESTRICT y, const double* values, int64_t n, int64_t c,
                          int64_t count, double replaced, int32_t nan_replaced) {
  GK_KERNEL_LOOP(i, n) {
    const double v = (double)x[i];
    const bool hit = nan_replaced ? v != v : v == replaced;
    y[i] = hit ? (T)values[count == 1 ? 0 : i % c] : x[i];
  }
}

// OneHotEncoder on numbers: y[e, :] is 0 but a 1 at the first category equal to
// (int64)x[e] (ORT's cast); no match raises the flag when zeros is 0.
template <typename T>
GK_KERNEL void gk_one_hot_encode(const T* GK_RESTRICT x, float* GK_RESTRICT y, const int64_t* cats, int32_t* flag,
                                 int64_t n, int64_t c, int32_t zeros) {
  GK_KERNEL_LOOP(e, n) {
    const int64_t v = (int64_t)x[e];
    float* row = y + e * c;
    int64_t at = -1;
    for (int64_t k = 0; k < c; ++k) {
      row[k] = 0.0f;
      if (at < 0 && cats[k] == v) at = k;
    }
    if (at >= 0) row[at] = 1.0f;
    else if (!zeros) gk_raise(flag, 1);
  }
}

// FeatureVectorizer, one input: its rows of `in_cols` into columns [at, at + width)
// of y (rows of out_cols), zero past the input's own columns.
template <typename T>
GK_KERNEL void gk_feature_place(const T* GK_RESTRICT x, float* GK_RESTRICT y, int64_t rows, int64_t in_cols,
                                int64_t out_cols, int64_t at, int64_t width) {
  GK_KERNEL_LOOP(i, rows * width) {
    const int64_t r = i / width, k = i - r * width;
    y[r * out_cols + at + k] = k < in_cols ? (float)x[r * in_cols + k] : 0.0f;
  }
}

// ---- SVMRegressor -----------------------------------------------------------------------

#define GK_SVM_LINEAR 0
#define GK_SVM_POLY 1
#define GK_SVM_RBF 2
#define GK_SVM_SIGMOID 3

// Must match the launcher in ops/ml/svm.cpp.
struct gk_svm_params {
  int64_t rows;
  int64_t features;
  int64_t vectors;  // support vectors (0: the linear mode, coefficients are one weight row)
  int32_t kernel;   // GK_SVM_*
  int32_t one_class;
  float gamma, coef0, degree, rho;
};

// ORT's kernel_dot (svm_common.h) in float; the sums are blocked.
template <typename T>
static GK_FN float gk_svm_kernel(const T* x, const float* v, const gk_svm_params& p) {
  if (p.kernel == GK_SVM_RBF) {
    const float d2 = gk_bsum_row<float>(p.features, [&](float acc, int64_t k) {
      const float d = (float)x[k] - v[k];
      return acc + d * d;
    });
    return gk_exp(-p.gamma * d2);
  }
  const float dot = gk_bsum_row<float>(p.features, [&](float acc, int64_t k) { return acc + (float)x[k] * v[k]; });
  if (p.kernel == GK_SVM_POLY) return gk_pow(p.gamma * dot + p.coef0, p.degree);
  if (p.kernel == GK_SVM_SIGMOID) return gk_tanh(p.gamma * dot + p.coef0);
  return dot;
}

// y [rows, 1] = sum_j coef[j] K(x, sv_j) + rho (or K(x, coef) + rho in the linear
// mode); one_class gives the sign as 1 / -1 (ORT's svmregressor.cc).
template <typename T>
GK_KERNEL void gk_svm_regressor(const T* GK_RESTRICT x, float* GK_RESTRICT y, const float* sv, const float* coef,
                                gk_svm_params p) {
  GK_KERNEL_LOOP(r, p.rows) {
    const T* row = x + r * p.features;
    float sum = 0.0f;
    if (p.vectors > 0) {
      sum = gk_bsum_row<float>(p.vectors, [&](float acc, int64_t j) {
        return acc + gk_svm_kernel(row, sv + j * p.features, p) * coef[j];
      });
    } else {
      sum = gk_svm_kernel(row, coef, p);
    }
    sum += p.rho;
    y[r] = p.one_class ? (sum > 0.0f ? 1.0f : -1.0f) : sum;
  }
}

// ---- SVMClassifier ------------------------------------------------------------------------

// The classifier's tables and class count (ops/ml/svm.cpp).
struct gk_svm_tables {
  const float* sv;       // [vectors, features]
  const float* coef;     // SVC: [classes - 1, vectors]; linear: [classes, features]
  const float* rho;      // SVC: one per class pair; linear: rho[0] for every class
  const int64_t* start;  // [classes] first support vector of each class
  const int64_t* count;  // [classes] vectors_per_class
  const int64_t* labels; // [classes] classlabels_ints, or null: Y holds the class index
  const float* prob_a;   // [pairs] Platt scaling, or null
  const float* prob_b;
  int64_t classes;
  int32_t post;
  int32_t all_positive;  // every coefficient >= 0
};

// libsvm's multiclass_probability as ORT writes it (svmclassifier.h): the class
// probabilities p [c] from the pair probabilities r [c, c]. q: [c, c], qp: [c].
static GK_FN void gk_svm_couple(int64_t c, const float* r, float* q, float* qp, float* p) {
  for (int64_t i = 0; i < c * c; ++i) q[i] = 0.0f;
  const float eps = 0.005f / (float)c;
  for (int64_t i = 0; i < c; ++i) {
    p[i] = 1.0f / (float)c;
    for (int64_t j = 0; j < i; ++j) {
      q[i * c + i] += r[j * c + i] * r[j * c + i];
      q[i * c + j] = q[j * c + i];
    }
    for (int64_t j = i + 1; j < c; ++j) {
      q[i * c + i] += r[j * c + i] * r[j * c + i];
      q[i * c + j] = -r[j * c + i] * r[i * c + j];
    }
  }
  for (int loop = 0; loop < 100; ++loop) {
    float pqp = 0.0f;
    for (int64_t i = 0; i < c; ++i) {
      qp[i] = 0.0f;
      for (int64_t j = 0; j < c; ++j) qp[i] += q[i * c + j] * p[j];
      pqp += p[i] * qp[i];
    }
    float max_error = 0.0f;
    for (int64_t i = 0; i < c; ++i) {
      const float e = qp[i] > pqp ? qp[i] - pqp : pqp - qp[i];
      if (e > max_error) max_error = e;
    }
    if (max_error < eps) break;
    for (int64_t i = 0; i < c; ++i) {
      const float diff = (-qp[i] + pqp) / q[i * c + i];
      p[i] += diff;
      pqp = (pqp + diff * (diff * q[i * c + i] + 2.0f * qp[i])) / (1.0f + diff) / (1.0f + diff);
      for (int64_t j = 0; j < c; ++j) {
        qp[j] = (qp[j] + diff * q[i * c + j]) / (1.0f + diff);
        p[j] /= (1.0f + diff);
      }
    }
  }
}

// One row of SVMClassifier without prob_a/prob_b, as ORT's svmclassifier.cc: the
// liblinear mode scores each class (K(x, w_c) + rho[0]) and takes the arg max (two
// classes: class 1 past ORT's 0.5 / 0 thresholds); the SVC mode scores each class
// pair i < j (the two coefficient blocks against the kernels, summed in double,
// plus its rho), votes i when > 0 else j, and takes the most voted class. Z: the
// class scores, or the pair scores (two classes: the pair (1 - v, v) under a post
// transform, v its logistic under LOGISTIC, else (-s, s)). With prob_a/prob_b (SVC
// mode) Z is the class probabilities instead. work: [vectors + classes + 2 classes^2
// + classes] (kernels, votes, pair probabilities and the coupling's Q, Qp).
template <typename T>
static GK_FN int64_t gk_svm_classify(const T* x, float* z, float* work, const gk_svm_tables& t,
                                     const gk_svm_params& p) {
  const int64_t c = t.classes;
  if (p.vectors == 0) {
    for (int64_t k = 0; k < c; ++k) z[k] = gk_svm_kernel(x, t.coef + k * p.features, p) + t.rho[0];
    int64_t best = 0;
    for (int64_t k = 1; k < c; ++k)
      if (z[k] > z[best]) best = k;
    const float top = z[best];
    gk_tree_post(z, c, t.post);
    if (c == 2 && ((t.all_positive && top >= 0.5f) || (!t.all_positive && top > 0.0f))) return 1;
    return best;
  }
  float* kern = work;
  float* votes = work + p.vectors;
  for (int64_t v = 0; v < p.vectors; ++v) kern[v] = gk_svm_kernel(x, t.sv + v * p.features, p);
  for (int64_t k = 0; k < c; ++k) votes[k] = 0.0f;
  int64_t pair = 0;
  for (int64_t i = 0; i + 1 < c; ++i) {
    for (int64_t j = i + 1; j < c; ++j, ++pair) {
      double sum = 0;
      for (int64_t m = 0; m < t.count[i]; ++m)
        sum += (double)(t.coef[(j - 1) * p.vectors + t.start[i] + m] * kern[t.start[i] + m]);
      for (int64_t m = 0; m < t.count[j]; ++m)
        sum += (double)(t.coef[i * p.vectors + t.start[j] + m] * kern[t.start[j] + m]);
      sum += (double)t.rho[pair];
      z[pair] = (float)sum;
      votes[sum > 0 ? i : j] += 1.0f;
    }
  }
  int64_t best = 0;
  for (int64_t k = 1; k < c; ++k)
    if (votes[k] > votes[best]) best = k;
  if (t.prob_a) {
    // Z: class probabilities from the pair scores (Platt), coupled as libsvm's
    // multiclass_probability, then the post transform.
    float* pairs = votes + c;  // [c, c] pair probabilities
    int64_t at = 0;
    for (int64_t i = 0; i + 1 < c; ++i)
      for (int64_t j = i + 1; j < c; ++j, ++at) {
        float v = 1.0f - (float)gk_tree_logistic((double)(z[at] * t.prob_a[at] + t.prob_b[at]));
        v = v < 1.0e-7f ? 1.0e-7f : v > 1.0f - 1.0e-7f ? 1.0f - 1.0e-7f : v;
        pairs[i * c + j] = v;
        pairs[j * c + i] = 1.0f - v;
      }
    gk_svm_couple(c, pairs, pairs + c * c, pairs + 2 * c * c, z);
    gk_tree_post(z, c, t.post);
    return best;
  }
  if (c > 2) {
    gk_tree_post(z, pair, t.post);
  } else {
    const float s = z[0];
    if (t.post == GK_TREE_PROBIT) {
      z[0] = (float)gk_tree_probit((double)s);
      z[1] = 0.0f;  // ORT leaves this column unwritten
    } else if (t.post != GK_TREE_NONE) {
      const float v = t.post == GK_TREE_LOGISTIC ? (float)gk_tree_logistic((double)s) : s;
      z[0] = 1.0f - v;
      z[1] = v;
    } else {
      z[0] = -s;
      z[1] = s;
    }
  }
  return best;
}

// Y [rows], Z [rows, width]; work: gk_svm_classify's per row.
template <typename T>
GK_KERNEL void gk_svm_classifier(const T* GK_RESTRICT x, int64_t* GK_RESTRICT y, float* GK_RESTRICT z,
                                 float* GK_RESTRICT work, gk_svm_tables t, gk_svm_params p, int64_t width) {
  GK_KERNEL_LOOP(r, p.rows) {
    const int64_t k = gk_svm_classify(x + r * p.features, z + r * width,
                                      work + r * (p.vectors + t.classes * (2 * t.classes + 2)), t, p);
    y[r] = t.labels ? t.labels[k] : k;
  }
}

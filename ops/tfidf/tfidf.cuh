// TfIdfVectorizer over int32/int64 token rows. One thread per output cell (row r,
// coordinate j) counts, in row r, every pool n-gram that ngram_indexes maps to j
// (a CSR list built at parse time), so no two threads write one cell and no
// atomics are needed. Counting follows ONNX Runtime and the ONNX reference: a
// 1-gram is counted once per position; an n-gram (n >= 2) once per skip distance
// d in 1..max_skip+1 at every start p with p + (n-1)*d inside the row.
#include "backends/kernel_prelude.cuh"

#define GK_TFIDF_TF 0
#define GK_TFIDF_IDF 1
#define GK_TFIDF_TFIDF 2

// Must match the launcher in ops/tfidf/tfidf.cpp.
struct gk_tfidf_params {
  int64_t rows;      // 1 for 1-D input
  int64_t cols;      // tokens per row
  int64_t out_size;  // max(ngram_indexes) + 1
  int32_t max_skip;
  int32_t mode;      // GK_TFIDF_*
};

// Occurrences of the n-gram gram[0..n) in row[0..cols).
template <typename I>
static GK_FN int64_t gk_tfidf_count(const I* row, int64_t cols, const int64_t* gram, int64_t n, int32_t max_skip) {
  int64_t count = 0;
  if (n == 1) {
    for (int64_t p = 0; p < cols; ++p) count += (int64_t)row[p] == gram[0];
    return count;
  }
  for (int64_t d = 1; d <= (int64_t)max_skip + 1; ++d) {
    for (int64_t p = 0; p + (n - 1) * d < cols; ++p) {
      int64_t k = 0;
      while (k < n && (int64_t)row[p + k * d] == gram[k]) ++k;
      count += k == n;
    }
  }
  return count;
}

// Cell j of one row. table: out_begin[out_size + 1] (the range of entries for
// each coordinate), then entry_offset[E] and entry_length[E] into pool.
// weights: indexed by output coordinate (as ONNX Runtime and the reference do),
// null for all ones.
template <typename I>
static GK_FN float gk_tfidf_cell(const I* row, const int64_t* table, const int64_t* pool, const float* weights,
                                 int64_t entries, int64_t j, const gk_tfidf_params& p) {
  const int64_t* out_begin = table;
  const int64_t* offset = table + p.out_size + 1;
  const int64_t* length = offset + entries;
  int64_t count = 0;
  for (int64_t e = out_begin[j]; e < out_begin[j + 1]; ++e)
    count += gk_tfidf_count(row, p.cols, pool + offset[e], length[e], p.max_skip);
  const float w = weights ? weights[j] : 1.0f;
  if (p.mode == GK_TFIDF_IDF) return count > 0 ? w : 0.0f;
  if (p.mode == GK_TFIDF_TFIDF) return (float)count * w;
  return (float)count;
}

template <typename I>
GK_KERNEL void gk_tfidf(const I* GK_RESTRICT x, const int64_t* GK_RESTRICT table, const int64_t* GK_RESTRICT pool,
                        const float* GK_RESTRICT weights, float* GK_RESTRICT y, int64_t entries, gk_tfidf_params p) {
  GK_KERNEL_LOOP(i, p.rows * p.out_size) {
    const int64_t r = i / p.out_size;
    y[i] = gk_tfidf_cell(x + r * p.cols, table, pool, weights, entries, i - r * p.out_size, p);
  }
}

// TensorScatter: update [P, S, I] written into present [P, L, I] (P = the dims
// before the sequence axis, S the update's sequence length, L max_sequence_length,
// I the dims after it) at rows write_indices[batch] + s, batch = p / per_batch.
// present already holds past_cache. Elements move as raw words of their width.
// Linear mode: a row outside [0, L) is skipped and raises the error flag;
// circular mode wraps it modulo L.
#include "backends/kernel_prelude.cuh"

// Must match ScatterParams in ops/tensor_scatter/tensor_scatter.cpp.
struct gk_tensor_scatter_params {
  int64_t n;          // update elements: P * S * I
  int64_t per_batch;  // prefix rows per batch entry: P / batch
  int64_t seq;        // S
  int64_t max_seq;    // L
  int64_t inner;      // I
  int32_t circular;
  int32_t has_indices;
};

template <typename W>
GK_KERNEL void gk_tensor_scatter(W* GK_RESTRICT present, const W* GK_RESTRICT update,
                                 const int64_t* GK_RESTRICT write_indices, int32_t* flag,
                                 gk_tensor_scatter_params p) {
  GK_KERNEL_LOOP(e, p.n) {
    const int64_t row = e / p.inner;
    const int64_t k = e - row * p.inner;
    const int64_t pre = row / p.seq;
    const int64_t s = row - pre * p.seq;
    int64_t pos = s + (p.has_indices ? write_indices[pre / p.per_batch] : 0);
    if (p.circular) {
      pos %= p.max_seq;
      if (pos < 0) pos += p.max_seq;
    } else if (pos < 0 || pos >= p.max_seq) {
      gk_raise(flag, 1);
      continue;
    }
    present[(pre * p.max_seq + pos) * p.inner + k] = update[e];
  }
}

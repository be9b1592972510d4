// Transformer kernels: RMSNormalization rows, RotaryEmbedding, and the parts of
// Attention around its two GEMMs (ops/matmul/gemm_launch.h): the KV-cache concat and the
// score-row pass (softcap, mask, causal and padding bias, max-subtracted softmax).
// f16/bf16 compute in float (gk_acc), f64 in double. The RMS sum of squares (by
// FMA) and the softmax denominator are blocked and pairwise (ops/common/
// blocked_sum.cuh), the same tree on the CPU and in the CUDA block kernels.
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/math.cuh"
#include "ops/common/rows.cuh"

// ---- RMSNormalization: y = (x / sqrt(mean(x^2) + eps)) * scale over contiguous rows.

struct gk_rms_params {
  int64_t rows;
  int64_t len;
  double eps;
  // 0: scale[r] (scale is the normalised shape itself); 1: scale through smap
  // from the element's flat index (any unidirectional broadcast to X).
  int32_t scale_general;
  int32_t pad_;
  gk_index_map smap;
};

// The function body rounds Normalized to X's type before the Mul by scale.
template <typename T, typename V, typename C>
static GK_FN void gk_rms_write(const T* xr, const V* scale, V* yr, const gk_rms_params& p, int64_t row, int64_t r,
                               C rms) {
  typedef typename gk_acc<T>::type A;
  typedef typename gk_acc<V>::type VA;
  const T normalized = (T)(A)((C)(A)xr[r] / rms);
  const int64_t k = p.scale_general ? gk_offset(p.smap, row * p.len + r) : r;
  yr[r] = (V)(VA)((C)(A)normalized * (C)(VA)scale[k]);
}

// One block per row (blocks stride over further rows); C is the stash type.
template <typename T, typename V, typename C>
GK_KERNEL void gk_rms_rows(const T* x, const V* scale, V* y, gk_rms_params p) {
  typedef typename gk_acc<T>::type A;
#ifdef __CUDACC_RTC__
  __shared__ C sh[GK_ROWS_BLOCK];
  for (int64_t row = blockIdx.x; row < p.rows; row += gridDim.x) {
    const T* xr = x + row * p.len;
    const C sq = gk_block_bsum<C>(
        p.len,
        [&](C s, int64_t r) {
          const C v = (C)(A)xr[r];
          return gk_sum_fma(v, v, s);
        },
        sh);
    const C rms = gk_sqrt(sq / (C)p.len + (C)p.eps);
    for (int64_t r = threadIdx.x; r < p.len; r += blockDim.x) gk_rms_write<T, V, C>(xr, scale, y + row * p.len, p, row, r, rms);
  }
#else
  for (int64_t row = gk_part_begin(p.rows), end = gk_part_end(p.rows); row < end; ++row) {
    const T* xr = x + row * p.len;
    const C sq = gk_bsum_row<C>(p.len, [&](C s, int64_t r) {
      const C v = (C)(A)xr[r];
      return gk_sum_fma(v, v, s);
    });
    const C rms = gk_sqrt(sq / (C)p.len + (C)p.eps);
    for (int64_t r = 0; r < p.len; ++r) gk_rms_write<T, V, C>(xr, scale, y + row * p.len, p, row, r, rms);
  }
#endif
}

// ---- RotaryEmbedding over X as [B, H, S, D] (4-D) or [B, S, H*D] (3-D).

struct gk_rope_params {
  int64_t n;         // elements of X
  int64_t seq;       // S
  int64_t head;      // D
  int64_t s_div;     // flat index / s_div % S = s: D (4-D) or H*D (3-D)
  int64_t b_div;     // flat index / b_div = b: H*S*D
  int64_t half;      // rotary_embedding_dim / 2; elements d >= 2*half pass through
  int64_t positions; // rows of the caches when position_ids index them
  int32_t interleaved;
  int32_t has_pos;
};

template <typename T>
GK_KERNEL void gk_rope(const T* GK_RESTRICT x, const T* GK_RESTRICT cos_cache, const T* GK_RESTRICT sin_cache,
                       const int64_t* GK_RESTRICT pos, T* GK_RESTRICT y, gk_rope_params p, int32_t* flag) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.n) {
    const int64_t d = i % p.head;
    if (d >= 2 * p.half) {
      y[i] = x[i];
      continue;
    }
    const int64_t s = (i / p.s_div) % p.seq, b = i / p.b_div;
    int64_t k, i1;
    bool first;
    if (p.interleaved) {
      first = (d & 1) == 0;
      k = d >> 1;
      i1 = i - (d & 1);
    } else {
      first = d < p.half;
      k = first ? d : d - p.half;
      i1 = first ? i : i - p.half;
    }
    const int64_t i2 = i1 + (p.interleaved ? 1 : p.half);
    int64_t c = b * p.seq + s;
    if (p.has_pos) {
      int64_t q = pos[c];
      if (q < 0 || q >= p.positions) {
        gk_raise(flag, 1);
        q = q < 0 ? 0 : p.positions - 1;
      }
      c = q;
    }
    c = c * p.half + k;
    const A cs = (A)cos_cache[c], sn = (A)sin_cache[c], x1 = (A)x[i1], x2 = (A)x[i2];
    y[i] = (T)(first ? cs * x1 - sn * x2 : sn * x1 + cs * x2);
  }
}

// ---- Attention

// present[b, h, t, :] = t < past ? past[b, h, t, :] : cur[b, h, t - past, :], where
// cur (K or V, 3-D or 4-D) is read through its (batch, head, position) strides.
template <typename T>
GK_KERNEL void gk_kv_concat(const T* GK_RESTRICT past, const T* GK_RESTRICT cur, T* GK_RESTRICT present, int64_t n,
                            int64_t heads, int64_t past_len, int64_t total, int64_t dim, int64_t c_sb, int64_t c_sh,
                            int64_t c_ss) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t d = i % dim, t = (i / dim) % total, bh = i / (dim * total);
    if (t < past_len) {
      present[i] = past[(bh * past_len + t) * dim + d];
    } else {
      const int64_t b = bh / heads, h = bh - b * heads;
      present[i] = cur[b * c_sb + h * c_sh + (t - past_len) * c_ss + d];
    }
  }
}

struct gk_attn_params {
  int64_t rows;      // B * Hq * Sq score rows, each `total` long
  int64_t total;     // past + kv length
  int64_t q_len;     // Sq
  int64_t per_batch; // Hq * Sq rows per batch entry
  int64_t past;      // past_key's length (the causal offset); -1 without past_key
  int64_t mask_len;  // the mask's last dim; positions at or past it are masked (-inf)
  float softcap;     // 0: none
  int32_t causal;
  int32_t mask_kind;  // 0 none, 1 bool (true attends), 2 additive
  int32_t qk_mode;    // qk_matmul_output stage 0..3; -1: output not requested
  int32_t has_nonpad;
  int32_t pad_;
  gk_index_map mask_rows;  // score row -> offset of its mask row
};

template <typename T, typename M, typename A>
static GK_FN A gk_attn_score(const T* sr, const M* mask, T* qk, const gk_attn_params& p,
                             int64_t mask_base, int64_t limit, int64_t valid, int64_t j) {
  A s = (A)sr[j];
  if (p.qk_mode == 0) qk[j] = (T)s;
  if (p.softcap > 0.f) s = (A)p.softcap * gk_tanh(s / (A)p.softcap);
  if (p.qk_mode == 1) qk[j] = (T)s;
  const A neg_inf = gk_limits<A>::lowest();
  if (p.mask_kind != 0) {
    if (j >= p.mask_len) s += neg_inf;
    else if (p.mask_kind == 1) s += mask[mask_base + j] ? (A)0 : neg_inf;
    else s += (A)(typename gk_acc<M>::type)mask[mask_base + j];
  }
  if (p.causal && j > limit) s += neg_inf;
  if (p.has_nonpad && j >= valid) s += neg_inf;
  if (p.qk_mode == 2) qk[j] = (T)s;
  return s;
}

// The row's coordinates: mask row offset, causal limit (j <= limit attends) and the
// valid kv length from nonpad_kv_seqlen.
static GK_FN void gk_attn_row_setup(const gk_attn_params& p, const int64_t* nonpad, int64_t row, int64_t* mask_base,
                                    int64_t* limit, int64_t* valid) {
  const int64_t b = row / p.per_batch, i = row % p.q_len;
  *mask_base = p.mask_kind ? gk_offset(p.mask_rows, row) : 0;
  *valid = p.has_nonpad ? nonpad[b] : p.total;
  // Bottom-right alignment: past_key gives the offset; without it nonpad_kv_seqlen
  // (an external cache holding the queries last); else 0 (upper-left).
  const int64_t offset = p.past >= 0 ? p.past : (p.has_nonpad ? *valid - p.q_len : 0);
  *limit = i + offset;
}

// In place on the scores (already alpha-scaled by the GEMM): each row becomes its
// softmax probabilities. qk (may be null) gets the stage qk_mode selects. A fully
// masked row gives NaN, as the reference's max-subtracted softmax does.
template <typename T, typename M>
GK_KERNEL void gk_attn_softmax(T* scores, const M* mask, const int64_t* nonpad, T* qk, gk_attn_params p) {
  typedef typename gk_acc<T>::type A;
  const int64_t n = p.total;
#ifdef __CUDACC_RTC__
  __shared__ A sh[GK_ROWS_BLOCK];
  for (int64_t row = blockIdx.x; row < p.rows; row += gridDim.x) {
    T* sr = scores + row * n;
    T* qr = qk ? qk + row * n : qk;
    int64_t mask_base, limit, valid;
    gk_attn_row_setup(p, nonpad, row, &mask_base, &limit, &valid);
    A mx = gk_limits<A>::lowest();
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const A s = gk_attn_score<T, M, A>(sr, mask, qr, p, mask_base, limit, valid, j);
      sr[j] = (T)s;
      mx = s > mx ? s : mx;
    }
    mx = gk_block_reduce(mx, sh, gk_fn_max());
    // The max's block reduce synchronised the block: every score is written.
    const A sum = gk_block_bsum<A>(n, [&](A s, int64_t j) { return (A)(s + gk_exp((A)sr[j] - mx)); }, sh);
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) {
      const T prob = (T)(gk_exp((A)sr[j] - mx) / sum);
      sr[j] = prob;
      if (p.qk_mode == 3) qr[j] = prob;
    }
  }
#else
  for (int64_t row = gk_part_begin(p.rows), end = gk_part_end(p.rows); row < end; ++row) {
    T* sr = scores + row * n;
    T* qr = qk ? qk + row * n : qk;
    int64_t mask_base, limit, valid;
    gk_attn_row_setup(p, nonpad, row, &mask_base, &limit, &valid);
    A mx = gk_limits<A>::lowest();
    for (int64_t j = 0; j < n; ++j) {
      const A s = gk_attn_score<T, M, A>(sr, mask, qr, p, mask_base, limit, valid, j);
      sr[j] = (T)s;
      mx = s > mx ? s : mx;
    }
    const A sum = gk_bsum_row<A>(n, [&](A s, int64_t j) { return (A)(s + gk_exp((A)sr[j] - mx)); });
    for (int64_t j = 0; j < n; ++j) {
      const T prob = (T)(gk_exp((A)sr[j] - mx) / sum);
      sr[j] = prob;
      if (p.qk_mode == 3) qr[j] = prob;
    }
  }
#endif
}

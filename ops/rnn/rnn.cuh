// Recurrent cells (RNN, GRU, LSTM). f32 and f64 take the GEMM form (rnn.cpp):
// X·Wᵀ for every time step in one GEMM up front (xw, [dirs, seq * batch, gates *
// hidden], rows in X's order), then per step one GEMM H_{t-1}·Rᵀ (hr, [dirs,
// batch, gates * hidden] against Rᵀ; GRU without linear_before_reset:
// z and r, then (r ⊙ H_{t-1})·Rhᵀ as a second) and one fused cell launch adding the biases and
// applying the gates, over every (direction, batch, hidden) element. Both GEMMs
// fold K in blocks as every GEMM does. Half types keep the direct cells below,
// where each element computes its gates' dot products itself (the GEMM writes
// its operands' type, and half partial sums would lose the accumulator's
// precision): O(gates * (input + hidden)) per element, a 2-layer LSTM of hidden
// 128 was 12x ONNX Runtime's time that way.
//
// State lives in scratch as [dirs, batch, hidden] ping-pong buffers: a step reads
// h_in/c_in and writes h_out/c_out, so no element reads a value another writes.
// A batch entry past its sequence_lens copies its state through (so the final
// state is the one at its last valid step) and writes zeros to Y.
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"

// Must match RnnParams in ops/rnn/rnn.cpp.
struct gk_rnn_params {
  int64_t seq;
  int64_t batch;
  int64_t input;
  int64_t hidden;
  int64_t dirs;
  int64_t step;
  int32_t layout;        // 0: X [seq, batch, input]; 1: X [batch, seq, input]
  int32_t has_clip;
  int32_t lbr;           // GRU linear_before_reset
  int32_t input_forget;  // LSTM: f = 1 - i
  int32_t reverse_mask;  // bit d: direction d runs backwards
  float clip;
  int32_t act_kind[6];   // [direction * 3 + k]: f, g, h
  float act_alpha[6];
  float act_beta[6];
};

// Activation kinds, in the order of kRnnActivations in ops/rnn/rnn.cpp.
template <typename A>
static GK_FN A gk_rnn_act(A x, int32_t kind, float alpha, float beta) {
  const A a = (A)alpha, b = (A)beta;
  switch (kind) {
    case 0: return x > (A)0 ? x : (A)0;                                   // Relu
    case 1: return gk_tanh(x);                                            // Tanh
    case 2: {                                                             // Sigmoid
      if (x >= (A)0) return (A)1 / ((A)1 + gk_exp(-x));
      const A e = gk_exp(x);
      return e / ((A)1 + e);
    }
    case 3: return a * x + b;                                             // Affine
    case 4: return x >= (A)0 ? x : a * x;                                 // LeakyRelu
    case 5: return x > a ? x : (A)0;                                      // ThresholdedRelu
    case 6: return a * gk_tanh(b * x);                                    // ScaledTanh
    case 7: {                                                             // HardSigmoid
      const A v = a * x + b;
      return v < (A)0 ? (A)0 : (v > (A)1 ? (A)1 : v);
    }
    case 8: return x >= (A)0 ? x : a * gk_expm1(x);                       // Elu
    case 9: return x / ((A)1 + gk_fabs(x));                               // Softsign
    default: return x > (A)0 ? x + gk_log1p(gk_exp(-x)) : gk_log1p(gk_exp(x));  // Softplus
  }
}

template <typename A>
static GK_FN A gk_rnn_apply(const gk_rnn_params& p, int64_t d, int k, A x) {
  if (p.has_clip) x = x < (A)-p.clip ? (A)-p.clip : (x > (A)p.clip ? (A)p.clip : x);
  const int idx = (int)d * 3 + k;
  return gk_rnn_act(x, p.act_kind[idx], p.act_alpha[idx], p.act_beta[idx]);
}

template <typename T, typename A>
static GK_FN A gk_rnn_dot(const T* a, const T* b, int64_t n) {
  A s = (A)0;
  for (int64_t k = 0; k < n; ++k) s += (A)a[k] * (A)b[k];
  return s;
}

// Where element i (over [dirs, batch, hidden]) is at this step.
struct gk_rnn_pos {
  int64_t d, b, j, t, row;  // row: d * batch + b, the state row
  bool valid;
};

static GK_FN gk_rnn_pos gk_rnn_locate(const gk_rnn_params& p, const int32_t* lens, int32_t* flag, int64_t i) {
  gk_rnn_pos q;
  q.j = i % p.hidden;
  q.row = i / p.hidden;
  q.b = q.row % p.batch;
  q.d = q.row / p.batch;
  int64_t len = p.seq;
  if (lens) {
    len = lens[q.b];
    if (len < 0 || len > p.seq) {
      gk_raise(flag, 1);
      len = len < 0 ? 0 : p.seq;
    }
  }
  q.valid = p.step < len;
  // Past the length, this step's Y slot (t = step) is one of the zero-filled ones.
  q.t = q.valid && ((p.reverse_mask >> q.d) & 1) ? len - 1 - p.step : p.step;
  return q;
}

static GK_FN int64_t gk_rnn_x_off(const gk_rnn_params& p, const gk_rnn_pos& q) {
  return (p.layout ? q.b * p.seq + q.t : q.t * p.batch + q.b) * p.input;
}

static GK_FN int64_t gk_rnn_y_off(const gk_rnn_params& p, const gk_rnn_pos& q) {
  return (p.layout ? (q.b * p.seq + q.t) * p.dirs + q.d : (q.t * p.dirs + q.d) * p.batch + q.b) * p.hidden + q.j;
}

// X_t·W_gᵀ + Wb_g for gate g of `gates` (its row j), without the recurrent part.
template <typename T, typename A>
static GK_FN A gk_rnn_input_part(const T* x, const T* w, const T* bias, const gk_rnn_params& p,
                                 const gk_rnn_pos& q, int gates, int g) {
  const int64_t row = (q.d * gates + g) * p.hidden + q.j;
  A v = gk_rnn_dot<T, A>(x + gk_rnn_x_off(p, q), w + row * p.input, p.input);
  if (bias) v += (A)bias[q.d * 2 * gates * p.hidden + g * p.hidden + q.j];
  return v;
}

// H_{t-1}·R_gᵀ + Rb_g.
template <typename T, typename A>
static GK_FN A gk_rnn_hidden_part(const T* r, const T* bias, const T* h_in, const gk_rnn_params& p,
                                  const gk_rnn_pos& q, int gates, int g) {
  const int64_t row = (q.d * gates + g) * p.hidden + q.j;
  A v = gk_rnn_dot<T, A>(h_in + q.row * p.hidden, r + row * p.hidden, p.hidden);
  if (bias) v += (A)bias[q.d * 2 * gates * p.hidden + (gates + g) * p.hidden + q.j];
  return v;
}

// H_t = f(X_t·Wᵀ + H_{t-1}·Rᵀ + Wb + Rb).
template <typename T>
GK_KERNEL void gk_rnn_step(const T* x, const T* w, const T* r, const T* bias, const int32_t* lens,
                           const T* h_in, T* h_out, T* y, int32_t* flag, gk_rnn_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      h_out[i] = h_in[i];
      if (y) y[gk_rnn_y_off(p, q)] = (T)(A)0;
      continue;
    }
    const A pre = gk_rnn_input_part<T, A>(x, w, bias, p, q, 1, 0) + gk_rnn_hidden_part<T, A>(r, bias, h_in, p, q, 1, 0);
    const T h = (T)gk_rnn_apply(p, q.d, 0, pre);
    h_out[i] = h;
    if (y) y[gk_rnn_y_off(p, q)] = h;
  }
}

// GRU, first half: z and r (gate order z, r, h) into zr [dirs, batch, 2, hidden].
template <typename T>
GK_KERNEL void gk_gru_gates(const T* x, const T* w, const T* r, const T* bias, const int32_t* lens,
                            const T* h_in, typename gk_acc<T>::type* zr, int32_t* flag, gk_rnn_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) continue;
    for (int g = 0; g < 2; ++g) {
      const A pre = gk_rnn_input_part<T, A>(x, w, bias, p, q, 3, g) + gk_rnn_hidden_part<T, A>(r, bias, h_in, p, q, 3, g);
      zr[(q.row * 2 + g) * p.hidden + q.j] = gk_rnn_apply(p, q.d, 0, pre);
    }
  }
}

// GRU, second half: h~ = g(X_t·Whᵀ + Wbh + (r ⊙ H_{t-1})·Rhᵀ + Rbh), or with
// linear_before_reset r ⊙ (H_{t-1}·Rhᵀ + Rbh); H_t = (1 - z) ⊙ h~ + z ⊙ H_{t-1}.
template <typename T>
GK_KERNEL void gk_gru_step(const T* x, const T* w, const T* r, const T* bias, const int32_t* lens,
                           const T* h_in, const typename gk_acc<T>::type* zr, T* h_out, T* y, int32_t* flag,
                           gk_rnn_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      h_out[i] = h_in[i];
      if (y) y[gk_rnn_y_off(p, q)] = (T)(A)0;
      continue;
    }
    const A* zrow = zr + q.row * 2 * p.hidden;
    const A z = zrow[q.j], rg = zrow[p.hidden + q.j];
    A pre = gk_rnn_input_part<T, A>(x, w, bias, p, q, 3, 2);
    if (p.lbr) {
      pre += rg * gk_rnn_hidden_part<T, A>(r, bias, h_in, p, q, 3, 2);
    } else {
      const T* hrow = h_in + q.row * p.hidden;
      const T* rrow = r + ((q.d * 3 + 2) * p.hidden + q.j) * p.hidden;
      A s = (A)0;
      for (int64_t k = 0; k < p.hidden; ++k) s += zrow[p.hidden + k] * (A)hrow[k] * (A)rrow[k];
      if (bias) s += (A)bias[q.d * 6 * p.hidden + 5 * p.hidden + q.j];
      pre += s;
    }
    const A ht = gk_rnn_apply(p, q.d, 1, pre);
    const T h = (T)(((A)1 - z) * ht + z * (A)h_in[i]);
    h_out[i] = h;
    if (y) y[gk_rnn_y_off(p, q)] = h;
  }
}

// The LSTM cell from its gates' pre-activations (gate order i, o, f, c;
// peepholes i, o, f): i = f(.. + Pi ⊙ C_{t-1}), f = f(.. + Pf ⊙ C_{t-1}) (or 1 - i),
// c = g(..), C_t = f ⊙ C_{t-1} + i ⊙ c, o = f(.. + Po ⊙ C_t), H_t = o ⊙ h(C_t).
template <typename T, typename A>
static GK_FN void gk_lstm_gates(const gk_rnn_params& p, const gk_rnn_pos& q, int64_t i, const A* pre, const T* peep,
                                const T* c_in, T* h_out, T* c_out, T* y) {
  const A c_prev = (A)c_in[i];
  A pi = (A)0, po = (A)0, pf = (A)0;
  if (peep) {
    const T* pp = peep + q.d * 3 * p.hidden + q.j;
    pi = (A)pp[0], po = (A)pp[p.hidden], pf = (A)pp[2 * p.hidden];
  }
  const A ig = gk_rnn_apply(p, q.d, 0, pre[0] + pi * c_prev);
  const A fg = p.input_forget ? (A)1 - ig : gk_rnn_apply(p, q.d, 0, pre[2] + pf * c_prev);
  const A cg = gk_rnn_apply(p, q.d, 1, pre[3]);
  const A c = fg * c_prev + ig * cg;
  const A og = gk_rnn_apply(p, q.d, 0, pre[1] + po * c);
  const int hk = (int)q.d * 3 + 2;
  const T h = (T)(og * gk_rnn_act(c, p.act_kind[hk], p.act_alpha[hk], p.act_beta[hk]));
  h_out[i] = h;
  c_out[i] = (T)c;
  if (y) y[gk_rnn_y_off(p, q)] = h;
}

// LSTM, direct form: each element's gate dot products, then gk_lstm_gates.
template <typename T>
GK_KERNEL void gk_lstm_step(const T* x, const T* w, const T* r, const T* bias, const T* peep, const int32_t* lens,
                            const T* h_in, const T* c_in, T* h_out, T* c_out, T* y, int32_t* flag, gk_rnn_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      h_out[i] = h_in[i];
      c_out[i] = c_in[i];
      if (y) y[gk_rnn_y_off(p, q)] = (T)(A)0;
      continue;
    }
    A pre[4];
    for (int g = 0; g < 4; ++g)
      pre[g] = gk_rnn_input_part<T, A>(x, w, bias, p, q, 4, g) + gk_rnn_hidden_part<T, A>(r, bias, h_in, p, q, 4, g);
    gk_lstm_gates<T, A>(p, q, i, pre, peep, c_in, h_out, c_out, y);
  }
}

// Past a batch entry's sequence length: the state passes through, Y gets zeros.
template <typename T>
static GK_FN void gk_rnn_hold(const gk_rnn_params& p, const gk_rnn_pos& q, int64_t i, const T* h_in, T* h_out, T* y) {
  h_out[i] = h_in[i];
  if (y) y[gk_rnn_y_off(p, q)] = (T)0;
}

// The GEMM form. Gate g's pre-activation at element q from the precomputed
// products: (X_t·W_gᵀ + Wb_g) + (H_{t-1}·R_gᵀ + Rb_g), the direct cells' sums.
// hr is the step's product H_{t-1}·Rᵀ, [dirs, batch, hr_cols] (gates * hidden, or
// 2 * hidden for GRU's z, r), computed against Rᵀ (gk_rnn_transpose, once per run),
// whose rows the GEMM reads in place for a batch of 1 (gemm_row).
template <typename A>
static GK_FN A gk_rnn_xw(const A* xw, const A* bias, const gk_rnn_params& p, const gk_rnn_pos& q, int gates, int g) {
  const int64_t xrow = q.d * p.seq * p.batch + (p.layout ? q.b * p.seq + q.t : q.t * p.batch + q.b);
  A v = xw[xrow * gates * p.hidden + g * p.hidden + q.j];
  if (bias) v += bias[q.d * 2 * gates * p.hidden + g * p.hidden + q.j];
  return v;
}
template <typename A>
static GK_FN A gk_rnn_hr(const A* hr, int64_t hr_cols, int64_t col, const A* bias, const gk_rnn_params& p,
                         const gk_rnn_pos& q, int gates, int g) {
  A v = hr[q.row * hr_cols + col + q.j];
  if (bias) v += bias[q.d * 2 * gates * p.hidden + (gates + g) * p.hidden + q.j];
  return v;
}

// R [dirs, rows, k] -> Rᵀ [dirs, k, rows], once per run (rows: gates * hidden):
// one output row per step (n = dirs * k), so a CPU worker's consecutive rows
// reuse the cache lines of R they read (per element, with three divisions, it was
// a third of a batch-1 LSTM's time).
template <typename T>
GK_KERNEL void gk_rnn_transpose(const T* src, T* dst, int64_t rows, int64_t k, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t t = i % k, d = i / k;
    const T* s = src + d * rows * k + t;
    T* o = dst + i * rows;
    for (int64_t r = 0; r < rows; ++r) o[r] = s[r * k];
  }
}

#ifdef __CUDACC_RTC__  // CPU twin: ops/rnn/rnn_cpu.cpp
template <typename T>
GK_KERNEL void gk_rnn_cell(const T* xw, const T* hr, const T* bias, const int32_t* lens, const T* h_in, T* h_out,
                           T* y, int32_t* flag, gk_rnn_params p) {
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      gk_rnn_hold(p, q, i, h_in, h_out, y);
      continue;
    }
    const T pre = gk_rnn_xw(xw, bias, p, q, 1, 0) + gk_rnn_hr(hr, p.hidden, 0, bias, p, q, 1, 0);
    const T h = gk_rnn_apply(p, q.d, 0, pre);
    h_out[i] = h;
    if (y) y[gk_rnn_y_off(p, q)] = h;
  }
}
#endif

#ifdef __CUDACC_RTC__  // CPU twins: ops/rnn/rnn_cpu.cpp (row at a time, activations vectorised)
// GRU, first half: z and r into zr [dirs, batch, 2, hidden]; without
// linear_before_reset also rh = r ⊙ H_{t-1}, the second GEMM's operand (zero past
// a sequence's end).
template <typename T>
GK_KERNEL void gk_gru_cell_zr(const T* xw, const T* hr, int64_t hr_cols, const T* bias, const int32_t* lens,
                              const T* h_in, T* zr, T* rh, int32_t* flag, gk_rnn_params p) {
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      if (rh) rh[i] = (T)0;
      continue;
    }
    T g2[2];
    for (int g = 0; g < 2; ++g) {
      const T pre = gk_rnn_xw(xw, bias, p, q, 3, g) + gk_rnn_hr(hr, hr_cols, g * p.hidden, bias, p, q, 3, g);
      g2[g] = gk_rnn_apply(p, q.d, 0, pre);
      zr[(q.row * 2 + g) * p.hidden + q.j] = g2[g];
    }
    if (rh) rh[i] = g2[1] * h_in[i];
  }
}

// GRU, second half: h~ = g((X_t·Whᵀ + Wbh) + (rh·Rhᵀ + Rbh)), or with
// linear_before_reset g((X_t·Whᵀ + Wbh) + r ⊙ (H_{t-1}·Rhᵀ + Rbh));
// H_t = (1 - z) ⊙ h~ + z ⊙ H_{t-1}. hh: the h gate's product rows (hh_cols wide,
// from column hh_col).
template <typename T>
GK_KERNEL void gk_gru_cell_h(const T* xw, const T* hh, int64_t hh_cols, int64_t hh_col, const T* bias,
                             const int32_t* lens, const T* h_in, const T* zr, T* h_out, T* y, int32_t* flag,
                             gk_rnn_params p) {
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      gk_rnn_hold(p, q, i, h_in, h_out, y);
      continue;
    }
    const T* zrow = zr + q.row * 2 * p.hidden;
    const T z = zrow[q.j], rg = zrow[p.hidden + q.j];
    const T hpart = gk_rnn_hr(hh, hh_cols, hh_col, bias, p, q, 3, 2);
    const T pre = gk_rnn_xw(xw, bias, p, q, 3, 2) + (p.lbr ? rg * hpart : hpart);
    const T ht = gk_rnn_apply(p, q.d, 1, pre);
    const T h = ((T)1 - z) * ht + z * h_in[i];
    h_out[i] = h;
    if (y) y[gk_rnn_y_off(p, q)] = h;
  }
}
#endif

#ifdef __CUDACC_RTC__  // CPU twin: ops/rnn/rnn_cpu.cpp
template <typename T>
GK_KERNEL void gk_lstm_cell(const T* xw, const T* hr, const T* bias, const T* peep, const int32_t* lens,
                            const T* h_in, const T* c_in, T* h_out, T* c_out, T* y, int32_t* flag, gk_rnn_params p) {
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    if (!q.valid) {
      gk_rnn_hold(p, q, i, h_in, h_out, y);
      c_out[i] = c_in[i];
      continue;
    }
    T pre[4];
    for (int g = 0; g < 4; ++g)
      pre[g] = gk_rnn_xw(xw, bias, p, q, 4, g) + gk_rnn_hr(hr, 4 * p.hidden, g * p.hidden, bias, p, q, 4, g);
    gk_lstm_gates<T, T>(p, q, i, pre, peep, c_in, h_out, c_out, y);
  }
}
#endif

// Moves a state between the internal [dirs, batch, hidden] form and the op's
// initial_h/Y_h form ([batch, dirs, hidden] under layout 1). to_state with a null
// src zero-fills.
template <typename T>
GK_KERNEL void gk_rnn_state_io(const T* src, T* dst, int32_t to_state, gk_rnn_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, p.dirs * p.batch * p.hidden) {
    const int64_t j = i % p.hidden, row = i / p.hidden, b = row % p.batch, d = row / p.batch;
    const int64_t ext = p.layout ? (b * p.dirs + d) * p.hidden + j : i;
    if (to_state) dst[i] = src ? src[ext] : (T)(A)0;
    else dst[ext] = src[i];
  }
}

// CPU instantiations of ops/rnn/rnn.cuh.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/rnn/rnn.cuh"

// CPU twins of the GEMM form's cells (rnn.cuh): the same formulas, a run of one
// state row's hidden units at a time, so the gate activations are loops with the
// activation chosen once (gk_rnn_act's switch per element kept it out of line and
// scalar: 48% of a 2-layer LSTM with hidden 128, 19 us a step).
namespace {

constexpr int64_t kRnnRun = 64;

// x[k] = gk_rnn_apply(p, d, k_act, x[k]) for k < n.
template <typename A>
void rnn_apply_run(const gk_rnn_params& p, int64_t d, int k_act, A* x, int64_t n) {
  if (p.has_clip) {
    const A lo = (A)-p.clip, hi = (A)p.clip;
    for (int64_t k = 0; k < n; ++k) x[k] = x[k] < lo ? lo : (x[k] > hi ? hi : x[k]);
  }
  const int idx = static_cast<int>(d) * 3 + k_act;
  switch (p.act_kind[idx]) {
    case 1:
      for (int64_t k = 0; k < n; ++k) x[k] = gk_tanh(x[k]);
      break;
    case 2:  // gk_rnn_act's Sigmoid, both sides computed and one chosen
      for (int64_t k = 0; k < n; ++k) {
        const A v = x[k], e = gk_exp(v >= (A)0 ? -v : v);
        x[k] = v >= (A)0 ? (A)1 / ((A)1 + e) : e / ((A)1 + e);
      }
      break;
    default:
      for (int64_t k = 0; k < n; ++k) x[k] = gk_rnn_act(x[k], p.act_kind[idx], p.act_alpha[idx], p.act_beta[idx]);
  }
}

// Calls run(q, i, n) for the runs of [gk_part_begin(n), gk_part_end(n)) that share
// one state row (q is the run's first element) and hold(q, i) per element past a
// sequence's end.
template <typename Run, typename Hold>
void rnn_runs(const gk_rnn_params& p, const int32_t* lens, int32_t* flag, Run run, Hold hold) {
  const int64_t total = p.dirs * p.batch * p.hidden;
  for (int64_t i = gk_part_begin(total), end = gk_part_end(total); i < end;) {
    gk_rnn_pos q = gk_rnn_locate(p, lens, flag, i);
    const int64_t n = std::min({end - i, p.hidden - q.j, kRnnRun});
    if (q.valid) {
      run(q, i, n);
    } else {
      for (int64_t k = 0; k < n; ++k, ++q.j) hold(q, i + k);
    }
    i += n;
  }
}

}  // namespace

template <typename T>
void gk_rnn_cell(const T* xw, const T* hr, const T* bias, const int32_t* lens, const T* h_in, T* h_out, T* y,
                 int32_t* flag, gk_rnn_params p) {
  rnn_runs(
      p, lens, flag,
      [&](gk_rnn_pos q, int64_t i, int64_t n) {
        T h[kRnnRun];
        const int64_t j0 = q.j;
        for (int64_t k = 0; k < n; ++k) {
          q.j = j0 + k;
          h[k] = gk_rnn_xw(xw, bias, p, q, 1, 0) + gk_rnn_hr(hr, p.hidden, 0, bias, p, q, 1, 0);
        }
        rnn_apply_run(p, q.d, 0, h, n);
        q.j = j0;
        std::copy(h, h + n, h_out + i);
        if (y) std::copy(h, h + n, y + gk_rnn_y_off(p, q));
      },
      [&](const gk_rnn_pos& q, int64_t i) { gk_rnn_hold(p, q, i, h_in, h_out, y); });
}

template <typename T>
void gk_gru_cell_zr(const T* xw, const T* hr, int64_t hr_cols, const T* bias, const int32_t* lens, const T* h_in,
                    T* zr, T* rh, int32_t* flag, gk_rnn_params p) {
  rnn_runs(
      p, lens, flag,
      [&](gk_rnn_pos q, int64_t i, int64_t n) {
        const int64_t j0 = q.j;
        for (int g = 0; g < 2; ++g) {
          T* dst = zr + (q.row * 2 + g) * p.hidden + j0;
          for (int64_t k = 0; k < n; ++k) {
            q.j = j0 + k;
            dst[k] = gk_rnn_xw(xw, bias, p, q, 3, g) + gk_rnn_hr(hr, hr_cols, g * p.hidden, bias, p, q, 3, g);
          }
          rnn_apply_run(p, q.d, 0, dst, n);
        }
        if (rh) {
          const T* r = zr + (q.row * 2 + 1) * p.hidden + j0;
          for (int64_t k = 0; k < n; ++k) rh[i + k] = r[k] * h_in[i + k];
        }
      },
      [&](const gk_rnn_pos&, int64_t i) {
        if (rh) rh[i] = (T)0;
      });
}

template <typename T>
void gk_gru_cell_h(const T* xw, const T* hh, int64_t hh_cols, int64_t hh_col, const T* bias, const int32_t* lens,
                   const T* h_in, const T* zr, T* h_out, T* y, int32_t* flag, gk_rnn_params p) {
  rnn_runs(
      p, lens, flag,
      [&](gk_rnn_pos q, int64_t i, int64_t n) {
        const int64_t j0 = q.j;
        const T* z = zr + q.row * 2 * p.hidden + j0;
        const T* rg = z + p.hidden;
        T ht[kRnnRun];
        for (int64_t k = 0; k < n; ++k) {
          q.j = j0 + k;
          const T hpart = gk_rnn_hr(hh, hh_cols, hh_col, bias, p, q, 3, 2);
          ht[k] = gk_rnn_xw(xw, bias, p, q, 3, 2) + (p.lbr ? rg[k] * hpart : hpart);
        }
        rnn_apply_run(p, q.d, 1, ht, n);
        for (int64_t k = 0; k < n; ++k) ht[k] = ((T)1 - z[k]) * ht[k] + z[k] * h_in[i + k];
        q.j = j0;
        std::copy(ht, ht + n, h_out + i);
        if (y) std::copy(ht, ht + n, y + gk_rnn_y_off(p, q));
      },
      [&](const gk_rnn_pos& q, int64_t i) { gk_rnn_hold(p, q, i, h_in, h_out, y); });
}

// gk_lstm_gates over a run: gate order i, o, f, c; peepholes i, o, f.
template <typename T>
void gk_lstm_cell(const T* xw, const T* hr, const T* bias, const T* peep, const int32_t* lens, const T* h_in,
                  const T* c_in, T* h_out, T* c_out, T* y, int32_t* flag, gk_rnn_params p) {
  rnn_runs(
      p, lens, flag,
      [&](gk_rnn_pos q, int64_t i, int64_t n) {
        const int64_t j0 = q.j;
        T pre[4][kRnnRun];
        for (int g = 0; g < 4; ++g)
          for (int64_t k = 0; k < n; ++k) {
            q.j = j0 + k;
            pre[g][k] = gk_rnn_xw(xw, bias, p, q, 4, g) + gk_rnn_hr(hr, 4 * p.hidden, g * p.hidden, bias, p, q, 4, g);
          }
        q.j = j0;
        const T* cp = c_in + i;
        const T* pp = peep ? peep + q.d * 3 * p.hidden + j0 : nullptr;
        T *ig = pre[0], *og = pre[1], *fg = pre[2], *cg = pre[3], c[kRnnRun];
        // Without peepholes the terms are 0 * C, as in gk_lstm_gates (it keeps -0 and NaN alike).
        auto peephole = [&](int which, int64_t k) { return pp ? pp[which * p.hidden + k] : (T)0; };
        for (int64_t k = 0; k < n; ++k) ig[k] = ig[k] + peephole(0, k) * cp[k];
        rnn_apply_run(p, q.d, 0, ig, n);
        if (p.input_forget) {
          for (int64_t k = 0; k < n; ++k) fg[k] = (T)1 - ig[k];
        } else {
          for (int64_t k = 0; k < n; ++k) fg[k] = fg[k] + peephole(2, k) * cp[k];
          rnn_apply_run(p, q.d, 0, fg, n);
        }
        rnn_apply_run(p, q.d, 1, cg, n);
        for (int64_t k = 0; k < n; ++k) c[k] = fg[k] * cp[k] + ig[k] * cg[k];
        for (int64_t k = 0; k < n; ++k) og[k] = og[k] + peephole(1, k) * c[k];
        rnn_apply_run(p, q.d, 0, og, n);
        std::copy(c, c + n, c_out + i);
        rnn_apply_run(p, q.d, 2, c, n);  // c now holds h(C_t)
        for (int64_t k = 0; k < n; ++k) c[k] = og[k] * c[k];
        std::copy(c, c + n, h_out + i);
        if (y) std::copy(c, c + n, y + gk_rnn_y_off(p, q));
      },
      [&](const gk_rnn_pos& q, int64_t i) {
        gk_rnn_hold(p, q, i, h_in, h_out, y);
        c_out[i] = c_in[i];
      });
}

namespace {

#define GK_RNN(T)                                                                              \
  GK_CPU_KERNEL(kRange, gk_rnn_step<T>), GK_CPU_KERNEL(kRange, gk_gru_gates<T>),               \
      GK_CPU_KERNEL(kRange, gk_gru_step<T>), GK_CPU_KERNEL(kRange, gk_lstm_step<T>),           \
      GK_CPU_KERNEL(kRange, gk_rnn_state_io<T>),

// The GEMM form's cells: f32 and f64 only (rnn.cuh).
#define GK_RNN_CELLS(T)                                                                       \
  GK_CPU_KERNEL(kRange, gk_rnn_cell<T>), GK_CPU_KERNEL(kRange, gk_gru_cell_zr<T>),           \
      GK_CPU_KERNEL(kRange, gk_gru_cell_h<T>), GK_CPU_KERNEL(kRange, gk_lstm_cell<T>),                \
      GK_CPU_KERNEL(kRange, gk_rnn_transpose<T>),

const ::gk::CpuKernelEntry kRnnKernels[] = {GK_RNN(float) GK_RNN(double) GK_RNN(gk_half) GK_RNN(gk_bf16)
                                              GK_RNN_CELLS(float) GK_RNN_CELLS(double)};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(rnn, kRnnKernels)

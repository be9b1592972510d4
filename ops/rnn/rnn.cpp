// RNN, GRU and LSTM (opsets 7, 14 with `layout`, 22 with bf16), inference forward
// pass: a state-init launch; for f32/f64 one GEMM X·Wᵀ over every time step, then
// per step a GEMM H·Rᵀ (GRU without linear_before_reset: two) and one fused cell
// launch, both directions at once; for half types one direct step launch per time
// step (GRU: two); then the Y_h/Y_c copies. Kernels in ops/rnn/rnn.cuh.
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace gk {
namespace {

// Must match gk_rnn_params in ops/rnn/rnn.cuh.
struct RnnParams {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0, dirs = 1, step = 0;
  int32_t layout = 0, has_clip = 0, lbr = 0, input_forget = 0, reverse_mask = 0;
  float clip = 0;
  std::array<int32_t, 6> act_kind{};
  std::array<float, 6> act_alpha{}, act_beta{};
};
static_assert(sizeof(RnnParams) == 144);

enum class Cell { kRnn, kGru, kLstm };

struct ActivationInfo {
  const char* name;
  bool uses_alpha, uses_beta;
  float alpha, beta;  // the defaults of the matching ONNX operators
};
// Indexed by the kernel's activation kind (gk_rnn_act).
constexpr ActivationInfo kRnnActivations[] = {
    {"relu", false, false, 0, 0},          {"tanh", false, false, 0, 0},
    {"sigmoid", false, false, 0, 0},       {"affine", true, true, 1.0f, 0.0f},
    {"leakyrelu", true, false, 0.01f, 0},  {"thresholdedrelu", true, false, 1.0f, 0},
    {"scaledtanh", true, true, 1.0f, 1.0f}, {"hardsigmoid", true, true, 0.2f, 0.5f},
    {"elu", true, false, 1.0f, 0},         {"softsign", false, false, 0, 0},
    {"softplus", false, false, 0, 0},
};

struct RnnAttrs {
  Cell cell = Cell::kRnn;
  int64_t hidden = 0;  // 0: from R's shape
  int dirs = 1;
  int32_t reverse_mask = 0;
  int32_t layout = 0;
  bool has_clip = false;
  float clip = 0;
  bool lbr = false, input_forget = false;
  std::array<int32_t, 6> act_kind{};
  std::array<float, 6> act_alpha{}, act_beta{};
};

int gates_of(Cell c) { return c == Cell::kRnn ? 1 : c == Cell::kGru ? 3 : 4; }
int acts_per_dir(Cell c) { return c == Cell::kRnn ? 1 : c == Cell::kGru ? 2 : 3; }

Result<ParsedAttrs> parse_cell(const AttrMap& a, const NodeView& node, Cell cell) {
  auto r = std::make_shared<RnnAttrs>();
  r->cell = cell;
  GK_TRY(r->hidden, a.get_int("hidden_size", 0));
  if (r->hidden < 0) return invalid_model("{}: hidden_size must be positive, got {}", node.describe(), r->hidden);
  GK_TRY(std::string direction, a.get_string("direction", "forward"));
  if (direction == "forward") r->dirs = 1, r->reverse_mask = 0;
  else if (direction == "reverse") r->dirs = 1, r->reverse_mask = 1;
  else if (direction == "bidirectional") r->dirs = 2, r->reverse_mask = 2;
  else return invalid_model("{}: direction '{}' is not forward, reverse or bidirectional", node.describe(), direction);
  GK_TRY(int64_t layout, a.get_int("layout", 0));
  if (layout != 0 && layout != 1) return invalid_model("{}: layout must be 0 or 1, got {}", node.describe(), layout);
  r->layout = static_cast<int32_t>(layout);
  if (a.has("clip")) {
    GK_TRY(r->clip, a.get_float("clip", 0));
    if (!(r->clip >= 0)) return invalid_model("{}: clip must be non-negative, got {}", node.describe(), r->clip);
    r->has_clip = true;
  }
  GK_TRY(int64_t lbr, a.get_int("linear_before_reset", 0));
  GK_TRY(int64_t input_forget, a.get_int("input_forget", 0));
  r->lbr = lbr != 0;
  r->input_forget = input_forget != 0;

  const int per_dir = acts_per_dir(cell);
  std::vector<std::string> dflt = cell == Cell::kRnn   ? std::vector<std::string>{"Tanh"}
                                  : cell == Cell::kGru ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                                       : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  std::vector<std::string> names;
  if (const Attribute* acts = a.find("activations")) {
    if (acts->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: activations must be a list of strings", node.describe());
    names = acts->strings;
  }
  if (names.empty()) {
    for (int d = 0; d < r->dirs; ++d) names.insert(names.end(), dflt.begin(), dflt.end());
  } else if (names.size() == static_cast<size_t>(per_dir) && r->dirs == 2) {
    const std::vector<std::string> one = names;  // one direction's list serves both
    names.insert(names.end(), one.begin(), one.end());
  }
  if (names.size() != static_cast<size_t>(per_dir * r->dirs))
    return invalid_model("{}: {} activations given, expected {} ({} per direction)", node.describe(), names.size(),
                         per_dir * r->dirs, per_dir);
  GK_TRY(std::vector<float> alphas, a.get_floats("activation_alpha"));
  GK_TRY(std::vector<float> betas, a.get_floats("activation_beta"));
  size_t next_alpha = 0, next_beta = 0;  // consumed in the order of the activations that take one
  for (int d = 0; d < r->dirs; ++d) {
    for (int k = 0; k < per_dir; ++k) {
      std::string n = names[d * per_dir + k];
      std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return std::tolower(c); });
      const ActivationInfo* info = nullptr;
      int kind = 0;
      for (; kind < static_cast<int>(std::size(kRnnActivations)); ++kind)
        if (n == kRnnActivations[kind].name) {
          info = &kRnnActivations[kind];
          break;
        }
      if (!info)
        return unimplemented("{}: activation '{}' is not supported (Relu, Tanh, Sigmoid, Affine, LeakyRelu, "
                             "ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)",
                             node.describe(), names[d * per_dir + k]);
      const int slot = d * 3 + k;
      r->act_kind[slot] = kind;
      r->act_alpha[slot] = info->uses_alpha && next_alpha < alphas.size() ? alphas[next_alpha++] : info->alpha;
      r->act_beta[slot] = info->uses_beta && next_beta < betas.size() ? betas[next_beta++] : info->beta;
    }
  }
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_rnn(const AttrMap& a, const NodeView& n) { return parse_cell(a, n, Cell::kRnn); }
Result<ParsedAttrs> parse_gru(const AttrMap& a, const NodeView& n) { return parse_cell(a, n, Cell::kGru); }
Result<ParsedAttrs> parse_lstm(const AttrMap& a, const NodeView& n) { return parse_cell(a, n, Cell::kLstm); }

bool has(const InferContext& ctx, size_t i) { return ctx.node.has_input(i) && ctx.in(i).dtype != DType::kUndefined; }

Status check_shape(const InferContext& ctx, size_t i, const Shape& want, const char* what) {
  if (!has(ctx, i)) return ok_status();
  const TensorType& t = ctx.in(i);
  if (i != 4 && t.dtype != ctx.in(0).dtype)
    return ctx.fail(fmt::format("{} has type {}, X has {}", what, dtype_name(t.dtype), dtype_name(ctx.in(0).dtype)));
  if (t.shape != want)
    return ctx.fail(fmt::format("{} has shape {}, expected {}", what, shape_str(t.shape), shape_str(want)));
  return ok_status();
}

Status infer_cell(InferContext& ctx) {
  const auto& r = attrs_as<RnnAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!dtype_is_float(x.dtype))
    return unimplemented("{}: element type {} is not supported (float types only)", ctx.node.describe(),
                         dtype_name(x.dtype));
  if (x.shape.size() != 3) return ctx.fail(fmt::format("X must have rank 3, got shape {}", shape_str(x.shape)));
  const int64_t seq = x.shape[r.layout ? 1 : 0], batch = x.shape[r.layout ? 0 : 1], input = x.shape[2];
  const int64_t G = gates_of(r.cell);
  const TensorType& rt = ctx.in(2);
  if (rt.shape.size() != 3) return ctx.fail(fmt::format("R must have rank 3, got shape {}", shape_str(rt.shape)));
  const int64_t hidden = r.hidden > 0 ? r.hidden : rt.shape[2];
  GK_RETURN_IF_ERROR(check_shape(ctx, 1, {r.dirs, G * hidden, input}, "W"));
  GK_RETURN_IF_ERROR(check_shape(ctx, 2, {r.dirs, G * hidden, hidden}, "R"));
  GK_RETURN_IF_ERROR(check_shape(ctx, 3, {r.dirs, 2 * G * hidden}, "B"));
  if (has(ctx, 4)) {
    if (ctx.in(4).dtype != DType::kI32)
      return unimplemented("{}: sequence_lens of type {} is not supported (int32)", ctx.node.describe(),
                           dtype_name(ctx.in(4).dtype));
    GK_RETURN_IF_ERROR(check_shape(ctx, 4, {batch}, "sequence_lens"));
  }
  const Shape state = r.layout ? Shape{batch, r.dirs, hidden} : Shape{r.dirs, batch, hidden};
  GK_RETURN_IF_ERROR(check_shape(ctx, 5, state, "initial_h"));
  if (r.cell == Cell::kLstm) {
    GK_RETURN_IF_ERROR(check_shape(ctx, 6, state, "initial_c"));
    GK_RETURN_IF_ERROR(check_shape(ctx, 7, {r.dirs, 3 * hidden}, "P"));
  }
  const Shape y = r.layout ? Shape{batch, seq, r.dirs, hidden} : Shape{seq, r.dirs, batch, hidden};
  for (size_t i = 0; i < ctx.outputs.size(); ++i) ctx.outputs[i] = {x.dtype, i == 0 ? y : state};
  return ok_status();
}

DevPtr input_ptr(const KernelContext& ctx, size_t i) {
  return i < ctx.num_inputs() && ctx.node().has_input(i) && ctx.in(i).present() ? ctx.in(i).ptr : 0;
}
DevPtr output_ptr(const KernelContext& ctx, size_t i) {
  return i < ctx.num_outputs() && ctx.node().has_output(i) ? ctx.out(i).ptr : 0;
}

// The ping-pong states ([2][dirs, batch, hidden] for h, and c for LSTM) and the
// element count every step launch covers.
struct CellState {
  const GkBuf& h;
  const GkBuf& c;
  int64_t n, esize;
  DevPtr h_at(int64_t which) const { return h.ptr() + static_cast<DevPtr>(which * n * esize); }
  DevPtr c_at(int64_t which) const { return c.ptr() + static_cast<DevPtr>(which * n * esize); }
};

Status run_direct_steps(KernelContext& ctx, const RnnAttrs& r, RnnParams p, const char* tn, const CellState& st) {
  const TensorRef& x = ctx.in(0);
  const DType t = x.dtype;
  const int64_t n = st.n;
  const LaunchConfig grid = grid_for(n);
  const KernelSource& src = kernel_sources::rnn;
  GkBuf zr;
  if (r.cell == Cell::kGru) {
    GK_TRY(zr, ctx.scratch(t == DType::kF64 ? DType::kF64 : DType::kF32, 2 * n));
  }
  const DevPtr w = ctx.in(1).ptr, rw = ctx.in(2).ptr, bias = input_ptr(ctx, 3), lens = input_ptr(ctx, 4);
  const DevPtr y = ctx.out(0).numel() > 0 ? output_ptr(ctx, 0) : 0;
  const KernelName step_name = KernelName::templated(r.cell == Cell::kRnn   ? "gk_rnn_step"
                                                     : r.cell == Cell::kGru ? "gk_gru_step"
                                                                            : "gk_lstm_step",
                                                     {tn});
  const KernelName gates_name = KernelName::format("gk_gru_gates<{}>", {tn});
  for (int64_t s = 0; s < p.seq; ++s) {
    p.step = s;
    const DevPtr h_in = st.h_at(s & 1), h_out = st.h_at((s + 1) & 1);
    KernelArgs args;
    args.ptr(x.ptr).ptr(w).ptr(rw).ptr(bias);
    switch (r.cell) {
      case Cell::kRnn:
        args.ptr(lens).ptr(h_in).ptr(h_out).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
      case Cell::kGru: {
        KernelArgs gates = args;
        gates.ptr(lens).ptr(h_in).ptr(zr.ptr()).ptr(ctx.error_flag()).pod(p);
        GK_RETURN_IF_ERROR(ctx.launch(src, gates_name, grid, gates));
        args.ptr(lens).ptr(h_in).ptr(zr.ptr()).ptr(h_out).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
      }
      case Cell::kLstm:
        args.ptr(input_ptr(ctx, 7)).ptr(lens).ptr(h_in).ptr(st.c_at(s & 1)).ptr(h_out);
        args.ptr(st.c_at((s + 1) & 1)).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
    }
    GK_RETURN_IF_ERROR(ctx.launch(src, step_name, grid, args));
  }
  return ok_status();
}

// Y[d] (rows x cols) = A[d] (rows x k, row stride a_sm) · B[d] (k x cols, strides
// b_sk, b_sn) for each direction d; a_dir/b_dir: the operands' step per direction
// (0: shared).
Status gemm_per_direction(KernelContext& ctx, DType t, int64_t dirs, int64_t rows, int64_t cols, int64_t k, DevPtr a,
                          int64_t a_sm, int64_t a_dir, DevPtr b, int64_t b_sk, int64_t b_sn, int64_t b_dir, DevPtr y) {
  GemmCall g;
  g.dtype = t;
  g.M = rows, g.N = cols, g.K = k, g.batch = dirs;
  g.a = a, g.a_sm = a_sm, g.a_sk = 1;
  g.b = b, g.b_sk = b_sk, g.b_sn = b_sn;
  g.y = y;
  g.amap.rank = g.bmap.rank = 1;
  g.amap.dims[0] = g.bmap.dims[0] = dirs;
  g.amap.strides[0] = a_dir, g.bmap.strides[0] = b_dir;
  return launch_gemm(ctx, g);
}

Status run_gemm_steps(KernelContext& ctx, const RnnAttrs& r, RnnParams p, const char* tn, const CellState& st) {
  const TensorRef& x = ctx.in(0);
  const DType t = x.dtype;
  const int64_t n = st.n, esize = st.esize;
  const LaunchConfig grid = grid_for(n);
  const KernelSource& src = kernel_sources::rnn;
  const int64_t G = gates_of(r.cell), H = p.hidden, rows = p.seq * p.batch;
  const bool gru_two = r.cell == Cell::kGru && !r.lbr;  // (r ⊙ H)·Rhᵀ needs r first
  const int64_t hr_cols = gru_two ? 2 * H : G * H;
  GK_TRY(GkBuf xw, ctx.scratch(t, p.dirs * rows * G * H));
  GK_TRY(GkBuf hr, ctx.scratch(t, n * hr_cols / H));
  GkBuf zr, rh, hh;
  if (r.cell == Cell::kGru) {
    GK_TRY(zr, ctx.scratch(t, 2 * n));
  }
  if (gru_two) {
    GK_TRY(rh, ctx.scratch(t, n));
    GK_TRY(hh, ctx.scratch(t, n));
  }
  const DevPtr w = ctx.in(1).ptr, rw = ctx.in(2).ptr, bias = input_ptr(ctx, 3), lens = input_ptr(ctx, 4);
  const DevPtr y = ctx.out(0).numel() > 0 ? output_ptr(ctx, 0) : 0;
  // xw[d] = X · W[d]ᵀ
  GK_RETURN_IF_ERROR(gemm_per_direction(ctx, t, p.dirs, rows, G * H, p.input, x.ptr, p.input, 0, w, 1, p.input,
                                        G * H * p.input, xw.ptr()));
  GK_TRY(GkBuf rt, ctx.scratch(t, p.dirs * G * H * H));
  {
    KernelArgs args;
    args.ptr(rw).ptr(rt.ptr()).i64(G * H).i64(H).i64(p.dirs * H);
    GK_RETURN_IF_ERROR(ctx.launch(src, KernelName::templated("gk_rnn_transpose", {tn}), grid_for(p.dirs * H), args));
  }
  const KernelName cell_name = KernelName::templated(r.cell == Cell::kRnn   ? "gk_rnn_cell"
                                                     : r.cell == Cell::kGru ? "gk_gru_cell_h"
                                                                            : "gk_lstm_cell",
                                                     {tn});
  const KernelName zr_name = KernelName::templated("gk_gru_cell_zr", {tn});
  for (int64_t s = 0; s < p.seq; ++s) {
    p.step = s;
    const DevPtr h_in = st.h_at(s & 1), h_out = st.h_at((s + 1) & 1);
    // hr[d] = H_{t-1}[d] · Rᵀ[d] (its columns 0..hr_cols)
    GK_RETURN_IF_ERROR(gemm_per_direction(ctx, t, p.dirs, p.batch, hr_cols, H, h_in, H, p.batch * H, rt.ptr(), G * H,
                                          1, G * H * H, hr.ptr()));
    KernelArgs args;
    args.ptr(xw.ptr());
    switch (r.cell) {
      case Cell::kRnn:
        args.ptr(hr.ptr()).ptr(bias).ptr(lens).ptr(h_in).ptr(h_out).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
      case Cell::kGru: {
        KernelArgs gates;
        gates.ptr(xw.ptr()).ptr(hr.ptr()).i64(hr_cols).ptr(bias).ptr(lens).ptr(h_in).ptr(zr.ptr());
        gates.ptr(gru_two ? rh.ptr() : 0).ptr(ctx.error_flag()).pod(p);
        GK_RETURN_IF_ERROR(ctx.launch(src, zr_name, grid, gates));
        if (gru_two)  // hh[d] = rh[d] · Rhᵀ[d] (columns 2H.. of Rᵀ)
          GK_RETURN_IF_ERROR(gemm_per_direction(ctx, t, p.dirs, p.batch, H, H, rh.ptr(), H, p.batch * H,
                                                rt.ptr() + static_cast<DevPtr>(2 * H * esize), G * H, 1, G * H * H,
                                                hh.ptr()));
        args.ptr(gru_two ? hh.ptr() : hr.ptr()).i64(gru_two ? H : hr_cols).i64(gru_two ? 0 : 2 * H);
        args.ptr(bias).ptr(lens).ptr(h_in).ptr(zr.ptr()).ptr(h_out).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
      }
      case Cell::kLstm:
        args.ptr(hr.ptr()).ptr(bias).ptr(input_ptr(ctx, 7)).ptr(lens).ptr(h_in).ptr(st.c_at(s & 1)).ptr(h_out);
        args.ptr(st.c_at((s + 1) & 1)).ptr(y).ptr(ctx.error_flag()).pod(p);
        break;
    }
    GK_RETURN_IF_ERROR(ctx.launch(src, cell_name, grid, args));
  }
  return ok_status();
}

Status run_cell(KernelContext& ctx) {
  const auto& r = ctx.attrs<RnnAttrs>();
  const TensorRef& x = ctx.in(0);
  const DType t = x.dtype;
  const char* tn = kernel_type_name(t);
  if (!tn || !dtype_is_float(t)) return unsupported_dtype(ctx.node(), t);
  RnnParams p;
  p.seq = x.shape[r.layout ? 1 : 0];
  p.batch = x.shape[r.layout ? 0 : 1];
  p.input = x.shape[2];
  p.hidden = r.hidden > 0 ? r.hidden : ctx.in(2).shape[2];
  p.dirs = r.dirs;
  p.layout = r.layout;
  p.has_clip = r.has_clip;
  p.clip = r.clip;
  p.lbr = r.lbr;
  p.input_forget = r.input_forget;
  p.reverse_mask = r.reverse_mask;
  p.act_kind = r.act_kind;
  p.act_alpha = r.act_alpha;
  p.act_beta = r.act_beta;
  const int64_t n = p.dirs * p.batch * p.hidden;
  if (n == 0) return ok_status();
  const bool lstm = r.cell == Cell::kLstm;

  // Ping-pong state buffers: [2][dirs, batch, hidden] for h (and c).
  GK_TRY(GkBuf hbuf, ctx.scratch(t, 2 * n));
  GkBuf cbuf;
  if (lstm) {
    GK_TRY(cbuf, ctx.scratch(t, 2 * n));
  }
  const int64_t esize = dtype_storage_bytes(t, 1);
  const CellState st{hbuf, cbuf, n, esize};
  const LaunchConfig grid = grid_for(n);
  const KernelSource& src = kernel_sources::rnn;
  const KernelName io = KernelName::format("gk_rnn_state_io<{}>", {tn});
  {
    KernelArgs args;
    args.ptr(input_ptr(ctx, 5)).ptr(st.h_at(0)).i32(1).pod(p);
    GK_RETURN_IF_ERROR(ctx.launch(src, io, grid, args));
  }
  if (lstm) {
    KernelArgs args;
    args.ptr(input_ptr(ctx, 6)).ptr(st.c_at(0)).i32(1).pod(p);
    GK_RETURN_IF_ERROR(ctx.launch(src, io, grid, args));
  }

  if (t == DType::kF32 || t == DType::kF64) {
    GK_RETURN_IF_ERROR(run_gemm_steps(ctx, r, p, tn, st));
  } else {
    GK_RETURN_IF_ERROR(run_direct_steps(ctx, r, p, tn, st));
  }
  const int64_t last = p.seq & 1;
  if (DevPtr yh = output_ptr(ctx, 1)) {
    KernelArgs args;
    args.ptr(st.h_at(last)).ptr(yh).i32(0).pod(p);
    GK_RETURN_IF_ERROR(ctx.launch(src, io, grid, args));
  }
  if (DevPtr yc = lstm ? output_ptr(ctx, 2) : 0) {
    KernelArgs args;
    args.ptr(st.c_at(last)).ptr(yc).i32(0).pod(p);
    GK_RETURN_IF_ERROR(ctx.launch(src, io, grid, args));
  }
  return ok_status();
}

const OpImpl kRnn{&parse_rnn, &infer_cell, &run_cell};
const OpImpl kGru{&parse_gru, &infer_cell, &run_cell};
const OpImpl kLstm{&parse_lstm, &infer_cell, &run_cell};

// Opsets 7, 14 (layout) and 22 (bf16) share one implementation: `layout` is read
// when present and defaults to 0, and every float type is accepted.
const OpSchema kRnnOps[] = {
    {"", "RNN", 7, kOpsetCurrent, &kRnn, {}},
    {"", "GRU", 7, kOpsetCurrent, &kGru, {}},
    {"", "LSTM", 7, kOpsetCurrent, &kLstm, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> rnn_ops() { return kRnnOps; }
}  // namespace families

}  // namespace gk

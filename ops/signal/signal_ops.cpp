// HannWindow, HammingWindow, BlackmanWindow and MelWeightMatrix (opset 17): outputs
// generated from host-known scalars. Each element is computed on the device from
// a few doubles passed as launch arguments, so nothing is uploaded during a run
// (uploads are not allowed while a CUDA Graph is being captured); with all
// inputs constant the executor evaluates these nodes once at plan time.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

#include <cmath>

namespace gk {
namespace {

// The windows and MelWeightMatrix accept every numeric output type but bool.
constexpr TypeSet kOutputTypes = kNumericTypes;

Result<DType> output_datatype(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(int64_t code, attrs.get_int("output_datatype", 1));
  auto t = dtype_from_code(code);
  if (!t.ok()) return t.status().with_context(node.describe() + ": attribute output_datatype");
  if (!type_in(*t, kOutputTypes))
    return unimplemented("{}: output_datatype {} is not supported (allowed: {})", node.describe(), dtype_name(*t),
                         type_set_names(kOutputTypes));
  return *t;
}

Result<int64_t> host_int(const InferContext& ctx, size_t i, const char* what) {
  GK_TRY(const HostTensor* v, ctx.value(i));
  if (!dtype_is_integer(v->dtype()) || v->numel() != 1)
    return ctx.fail(fmt::format("{} must be one integer, got {} {}", what, dtype_name(v->dtype()),
                                shape_str(v->shape())));
  return v->as_i64(0);
}

// ---- windows ------------------------------------------------------------------

// w[k] = a0 - a1 cos(2 pi k / N) + a2 cos(4 pi k / N) (Operators.md).
struct WindowCoeffs {
  double a0, a1, a2;
};
constexpr WindowCoeffs kHann{0.5, 0.5, 0.0};
constexpr WindowCoeffs kHamming{25.0 / 46.0, 21.0 / 46.0, 0.0};
constexpr WindowCoeffs kBlackman{0.42, 0.5, 0.08};

struct WindowAttrs {
  DType out = DType::kF32;
  bool periodic = true;
  WindowCoeffs coeffs{};
};

template <const WindowCoeffs& C>
Result<ParsedAttrs> parse_window(const AttrMap& attrs, const NodeView& node) {
  WindowAttrs a;
  GK_TRY(a.out, output_datatype(attrs, node));
  GK_TRY(int64_t periodic, attrs.get_int("periodic", 1));
  a.periodic = periodic != 0;
  a.coeffs = C;
  return dm::make_attrs(a);
}

Status infer_window(InferContext& ctx) {
  GK_TRY(int64_t size, host_int(ctx, 0, "size"));
  if (size < 0) return ctx.fail(fmt::format("size {} is negative", size));
  ctx.outputs[0] = {attrs_as<WindowAttrs>(ctx.attrs).out, {size}};
  return ok_status();
}

Status run_window(KernelContext& ctx) {
  const auto& a = ctx.attrs<WindowAttrs>();
  const TensorRef& y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  const double denom = static_cast<double>(a.periodic ? n : n - 1);
  return ctx.launch(kernel_sources::signal, dm::entry("gk_window", kernel_type_name(y.dtype)), grid_for(n),
                    KernelArgs().ptr(y.ptr).i64(n).f64(denom).f64(a.coeffs.a0).f64(a.coeffs.a1).f64(a.coeffs.a2));
}

// ---- MelWeightMatrix ----------------------------------------------------------

// Mirrors gk_mel_params in ops/signal/signal.cuh.
struct MelParams {
  int64_t spectrogram_bins;
  int64_t mel_bins;
  double low_mel;
  double mel_step;
  double dft_scale;
  double sample_rate;
};
static_assert(sizeof(MelParams) == 48);

struct MelAttrs {
  DType out = DType::kF32;
};

Result<ParsedAttrs> parse_mel(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(DType out, output_datatype(attrs, node));
  return dm::make_attrs(MelAttrs{out});
}

double hz_to_mel(double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); }

Result<MelParams> mel_params(const InferContext& ctx) {
  GK_TRY(int64_t mel_bins, host_int(ctx, 0, "num_mel_bins"));
  GK_TRY(int64_t dft_length, host_int(ctx, 1, "dft_length"));
  GK_TRY(int64_t sample_rate, host_int(ctx, 2, "sample_rate"));
  GK_TRY(const HostTensor* lower, ctx.value(3));
  GK_TRY(const HostTensor* upper, ctx.value(4));
  if (mel_bins < 0) return ctx.fail(fmt::format("num_mel_bins {} is negative", mel_bins));
  if (dft_length <= 0) return ctx.fail(fmt::format("dft_length {} must be positive", dft_length));
  if (sample_rate <= 0) return ctx.fail(fmt::format("sample_rate {} must be positive", sample_rate));
  for (const HostTensor* t : {lower, upper})
    if (!dtype_is_float(t->dtype()) || t->numel() != 1)
      return ctx.fail(fmt::format("lower_edge_hertz/upper_edge_hertz must be one float, got {} {}",
                                  dtype_name(t->dtype()), shape_str(t->shape())));
  const double lo = lower->as_f64(0), hi = upper->as_f64(0);
  if (!(lo >= 0) || !(hi >= lo))
    return ctx.fail(fmt::format("edges [{}, {}] Hz must satisfy 0 <= lower <= upper", lo, hi));
  MelParams p{};
  p.spectrogram_bins = dft_length / 2 + 1;
  p.mel_bins = mel_bins;
  p.low_mel = hz_to_mel(lo);
  p.mel_step = (hz_to_mel(hi) - p.low_mel) / static_cast<double>(mel_bins + 2);
  p.dft_scale = static_cast<double>(dft_length + 1);
  p.sample_rate = static_cast<double>(sample_rate);
  return p;
}

Status infer_mel(InferContext& ctx) {
  GK_TRY(MelParams p, mel_params(ctx));
  ctx.outputs[0] = {attrs_as<MelAttrs>(ctx.attrs).out, {p.spectrogram_bins, p.mel_bins}};
  return ok_status();
}

Status run_mel(KernelContext& ctx) {
  // run() sees the host values through TensorRef::host; rebuild the parameters
  // with the same rule infer() checked.
  InferContext ictx{ctx.node(), ctx.raw_attrs(), {}, {}, {}, false, {}};
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    ictx.inputs.push_back({ctx.in(i).dtype, ctx.in(i).shape});
    ictx.values.push_back(ctx.in(i).host);
  }
  GK_TRY(MelParams p, mel_params(ictx));
  const TensorRef& y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  return ctx.launch(kernel_sources::signal, dm::entry("gk_mel_weight_matrix", kernel_type_name(y.dtype)),
                    grid_for(n), KernelArgs().ptr(y.ptr).pod(p));
}

const OpImpl kHannWindow{&parse_window<kHann>, &infer_window, &run_window};
const OpImpl kHammingWindow{&parse_window<kHamming>, &infer_window, &run_window};
const OpImpl kBlackmanWindow{&parse_window<kBlackman>, &infer_window, &run_window};
const OpImpl kMelWeightMatrix{&parse_mel, &infer_mel, &run_mel};

const OpSchema kSignalSchemas[] = {
    {"", "HannWindow", 17, kOpsetCurrent, &kHannWindow, {.host_inputs = 0x1}},
    {"", "HammingWindow", 17, kOpsetCurrent, &kHammingWindow, {.host_inputs = 0x1}},
    {"", "BlackmanWindow", 17, kOpsetCurrent, &kBlackmanWindow, {.host_inputs = 0x1}},
    {"", "MelWeightMatrix", 17, kOpsetCurrent, &kMelWeightMatrix, {.host_inputs = 0x1f}},
};

}  // namespace

namespace families {
std::span<const OpSchema> signal_ops() { return kSignalSchemas; }
}  // namespace families

}  // namespace gk

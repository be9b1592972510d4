// DFT (opset 17: axis attribute; opset 20: axis input, default -2) and STFT (17).
// Both are one kernel (ops/dft/dft.cuh) over a strided view of the input: DFT
// transforms along `axis` of [..., L, ..., 1|2]; STFT along frames of [B, L, 1|2]
// taken every frame_step samples and weighted by the window. The lengths
// (dft_length, axis, frame_step, frame_length) fix the output shape, so they are
// host inputs; the executor knows them at plan time.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"

#include <algorithm>

namespace gk {
namespace {

// Mirrors gk_dft_params in ops/dft/dft.cuh.
struct DftParams {
  int64_t outer = 1, frames = 1, bins = 0, inner = 1, n = 0, used = 0;
  int64_t in_batch = 0, in_frame = 0, in_step = 0;
  int32_t in_c = 1, out_c = 2, inverse = 0, irfft = 0;
};
static_assert(sizeof(DftParams) == 9 * 8 + 4 * 4);

struct DftPlan {
  DftParams p;
  Shape out_shape;
};

struct DftAttrs {
  bool stft = false;
  bool axis_input = false;  // DFT-20
  int64_t axis = 1;         // DFT-17's attribute
  bool onesided = false;
  bool inverse = false;
};

template <bool kStft, bool kAxisInput>
Result<ParsedAttrs> parse_dft(const AttrMap& attrs, const NodeView& node) {
  DftAttrs a;
  a.stft = kStft;
  a.axis_input = kAxisInput;
  GK_TRY(int64_t onesided, attrs.get_int("onesided", kStft ? 1 : 0));
  a.onesided = onesided != 0;
  if (!kStft) {
    GK_TRY(int64_t inverse, attrs.get_int("inverse", 0));
    a.inverse = inverse != 0;
  }
  if (!kStft && !kAxisInput) {
    GK_TRY(a.axis, attrs.get_int("axis", 1));
  }
  (void)node;
  return dm::make_attrs(a);
}

// What infer() and run() both read: input types and the host-known values.
struct DftInputs {
  const NodeView& node;
  std::vector<TensorType> types;
  std::vector<const HostTensor*> values;

  bool present(size_t i) const { return i < types.size() && types[i].dtype != DType::kUndefined; }
  Status fail(const std::string& what) const { return invalid_model("{}: {}", node.describe(), what); }

  // An optional integer scalar input: nullopt when absent (or given as an empty tensor).
  Result<std::optional<int64_t>> scalar(size_t i, const char* what) const {
    if (!present(i)) return std::optional<int64_t>{};
    const HostTensor* v = i < values.size() ? values[i] : nullptr;
    if (v == nullptr) return fail(fmt::format("{} (input {}) must be known when the model is planned", what, i));
    if (v->numel() == 0) return std::optional<int64_t>{};
    if (!dtype_is_integer(v->dtype()) || v->numel() != 1)
      return fail(fmt::format("{} must be one integer, got {} {}", what, dtype_name(v->dtype()), shape_str(v->shape())));
    return std::optional<int64_t>{v->as_i64(0)};
  }
};

Status check_signal_type(const DftInputs& in, DType t) {
  if (!type_in(t, kFloatTypes))
    return unimplemented("{}: input type {} is not supported (allowed: {})", in.node.describe(), dtype_name(t),
                         type_set_names(kFloatTypes));
  return ok_status();
}

Result<DftPlan> plan_dft(const DftInputs& in, const DftAttrs& a) {
  const TensorType& x = in.types[0];
  GK_RETURN_IF_ERROR(check_signal_type(in, x.dtype));
  const int64_t r = static_cast<int64_t>(x.shape.size());
  if (r < 2 || (x.shape.back() != 1 && x.shape.back() != 2))
    return in.fail(fmt::format("input shape {} must be [..., n, 1] (real) or [..., n, 2] (complex)", shape_str(x.shape)));
  int64_t axis = a.axis;
  if (a.axis_input) {
    GK_TRY(std::optional<int64_t> given, in.scalar(2, "axis"));
    axis = given.value_or(-2);
  }
  // The complex dim is not an axis: the range is [-r, -2] U [0, r - 2].
  if (axis < -r || axis > r - 2 || axis == -1)
    return in.fail(fmt::format("axis {} is out of range [{}, -2] U [0, {}] for rank {}", axis, -r, r - 2, r));
  if (axis < 0) axis += r;

  DftParams p;
  const int64_t len = x.shape[static_cast<size_t>(axis)];
  p.in_c = static_cast<int32_t>(x.shape.back());
  p.inverse = a.inverse;
  p.irfft = a.onesided && a.inverse;
  if (p.irfft && p.in_c != 2)
    return in.fail("an inverse one-sided DFT (IRFFT) takes a complex input ([..., 2])");
  GK_TRY(std::optional<int64_t> dft_length, in.scalar(1, "dft_length"));
  p.n = dft_length.value_or(p.irfft ? 2 * (len - 1) : len);
  if (p.n <= 0)
    return in.fail(fmt::format("dft_length {} must be positive (signal length {} along axis {})", p.n, len, axis));
  for (int64_t d = 0; d < axis; ++d) p.outer *= x.shape[d];
  for (int64_t d = axis + 1; d < r - 1; ++d) p.inner *= x.shape[d];
  p.in_step = p.inner * p.in_c;
  p.in_batch = len * p.in_step;
  if (p.irfft) {
    p.bins = p.n;
    p.out_c = 1;
    p.used = std::min(len, p.n / 2 + 1);
  } else {
    p.bins = a.onesided ? p.n / 2 + 1 : p.n;
    p.used = std::min(len, p.n);
  }
  DftPlan plan{p, x.shape};
  plan.out_shape[static_cast<size_t>(axis)] = p.bins;
  plan.out_shape.back() = p.out_c;
  return plan;
}

Result<DftPlan> plan_stft(const DftInputs& in, const DftAttrs& a) {
  const TensorType& x = in.types[0];
  GK_RETURN_IF_ERROR(check_signal_type(in, x.dtype));
  if (x.shape.size() != 3 || (x.shape[2] != 1 && x.shape[2] != 2))
    return in.fail(fmt::format("signal shape {} must be [batch, length, 1] or [batch, length, 2]", shape_str(x.shape)));
  const int64_t len = x.shape[1];
  GK_TRY(std::optional<int64_t> step, in.scalar(1, "frame_step"));
  if (!step || *step <= 0) return in.fail(fmt::format("frame_step must be a positive integer, got {}", step.value_or(0)));
  int64_t window = -1;
  if (in.present(2)) {
    const TensorType& w = in.types[2];
    if (w.dtype != x.dtype || w.shape.size() != 1)
      return in.fail(fmt::format("window must be a 1-D {} tensor, got {} {}", dtype_name(x.dtype), dtype_name(w.dtype),
                                 shape_str(w.shape)));
    window = w.shape[0];
  }
  GK_TRY(std::optional<int64_t> frame_length, in.scalar(3, "frame_length"));
  DftParams p;
  p.n = frame_length.value_or(window >= 0 ? window : len);
  if (p.n <= 0 || p.n > len)
    return in.fail(fmt::format("frame_length {} must be in [1, {}] (the signal length)", p.n, len));
  // A window shorter than the frame zero-pads it; a longer one is cut (the spec's
  // reference frames window-length slices and transforms them at frame_length),
  // so no frame reads past the signal: f * step + frame_length <= length.
  p.used = window >= 0 ? std::min(window, p.n) : p.n;
  p.in_c = static_cast<int32_t>(x.shape[2]);
  p.outer = x.shape[0];
  p.frames = (len - p.n) / *step + 1;
  p.bins = a.onesided ? p.n / 2 + 1 : p.n;
  p.in_batch = len * p.in_c;
  p.in_frame = *step * p.in_c;
  p.in_step = p.in_c;
  return DftPlan{p, Shape{p.outer, p.frames, p.bins, 2}};
}

Result<DftPlan> plan(const DftInputs& in, const DftAttrs& a) { return a.stft ? plan_stft(in, a) : plan_dft(in, a); }

Status infer_dft(InferContext& ctx) {
  const DftInputs in{ctx.node, ctx.inputs, ctx.values};
  GK_TRY(DftPlan pl, plan(in, attrs_as<DftAttrs>(ctx.attrs)));
  ctx.outputs[0] = {ctx.in(0).dtype, pl.out_shape};
  return ok_status();
}

Status run_dft(KernelContext& ctx) {
  DftInputs in{ctx.node(), {}, {}};
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    in.types.push_back({ctx.in(i).dtype, ctx.in(i).shape});
    in.values.push_back(ctx.in(i).host);
  }
  GK_TRY(DftPlan pl, plan(in, ctx.attrs<DftAttrs>()));
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  const DType t = y.dtype;
  const DType acc = t == DType::kF64 ? DType::kF64 : DType::kF32;
  GK_TRY(GkBuf tw, ctx.scratch(acc, 2 * pl.p.n));
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::dft, dm::entry("gk_dft_twiddles", kernel_type_name(acc)),
                                grid_for(pl.p.n), KernelArgs().ptr(tw.ptr()).i64(pl.p.n)));
  // An empty input axis (ptr 0) reads no samples: used is 0 and every bin is 0.
  const DevPtr window = ctx.attrs<DftAttrs>().stft && ctx.num_inputs() > 2 && ctx.in(2).present() ? ctx.in(2).ptr : 0;
  const int64_t rows = pl.p.outer * pl.p.frames * pl.p.bins * pl.p.inner;
  return ctx.launch(kernel_sources::dft, dm::entry("gk_dft", kernel_type_name(t)), grid_for(rows),
                    KernelArgs().ptr(ctx.in(0).ptr).ptr(window).ptr(tw.ptr()).ptr(y.ptr).pod(pl.p));
}

const OpImpl kDft17{&parse_dft<false, false>, &infer_dft, &run_dft};
const OpImpl kDft20{&parse_dft<false, true>, &infer_dft, &run_dft};
const OpImpl kStft{&parse_dft<true, false>, &infer_dft, &run_dft};

const OpSchema kDftSchemas[] = {
    {"", "DFT", 17, 19, &kDft17, {.host_inputs = 0x2}},
    {"", "DFT", 20, kOpsetCurrent, &kDft20, {.host_inputs = 0x6}},
    {"", "STFT", 17, kOpsetCurrent, &kStft, {.host_inputs = 0xa}},
};

}  // namespace

namespace families {
std::span<const OpSchema> dft_ops() { return kDftSchemas; }
}  // namespace families

}  // namespace gk

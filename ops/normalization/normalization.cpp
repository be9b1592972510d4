// InstanceNormalization, LayerNormalization, GroupNormalization,
// MeanVarianceNormalization (all gk_norm_rows with their own rows and affine
// indexing) and BatchNormalization in its inference form. LRN and LpNormalization
// live in ops/normalization/normalization_local.cpp.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

// Must match gk_norm_params in ops/normalization/normalization.cuh.
struct NormParams {
  RowGeometry g;
  double eps = 0;
  int32_t mvn = 0;
  int32_t pad_ = 0;
  int64_t a_mod = 1, a_mul = 0, a_div = 1;
};
static_assert(sizeof(NormParams) == sizeof(RowGeometry) + 8 + 8 + 24);

struct NormAttrs {
  float epsilon = 1e-5f;
  int64_t axis = -1;             // LayerNormalization
  DType stash = DType::kF32;     // LayerNormalization/GroupNormalization(21): Mean/InvStdDev type
  int64_t num_groups = 0;        // GroupNormalization
  bool per_channel_affine = true;  // GroupNormalization 21 (scale [C]) vs 18 (scale [G])
  std::vector<int64_t> axes;     // MeanVarianceNormalization
  bool spatial = true;           // BatchNormalization before opset 9
  bool training = false;         // BatchNormalization 14+: batch statistics, running-statistics outputs
  float momentum = 0.9f;
};

Status require_float(const InferContext& ctx, DType t) {
  if (!dtype_is_float(t))
    return unimplemented("{}: element type {} is not supported (float types only)", ctx.node.describe(),
                         dtype_name(t));
  return ok_status();
}

Status require_param(const InferContext& ctx, size_t i, int64_t count, const char* what) {
  const TensorType& p = ctx.in(i);
  if (p.dtype != ctx.in(0).dtype)
    return ctx.fail(fmt::format("{} has type {}, the input {}", what, dtype_name(p.dtype), dtype_name(ctx.in(0).dtype)));
  if (numel(p.shape) != count)
    return ctx.fail(fmt::format("{} has shape {}, expected {} elements", what, shape_str(p.shape), count));
  return ok_status();
}

Status launch_norm(KernelContext& ctx, const NormParams& p, DevPtr scale, DevPtr bias, DevPtr mean_out,
                   DevPtr inv_out, DType stash) {
  const TensorRef& x = ctx.in(0);
  if (p.g.rows == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(scale).ptr(bias).ptr(ctx.out(0).ptr).ptr(mean_out).ptr(inv_out).pod(p);
  return ctx.launch(kernel_sources::normalization,
                    KernelName::format("gk_norm_rows<{}, {}>", {kernel_type_name(x.dtype), kernel_type_name(stash)}),
                    rows_launch(p.g.rows, p.g.len), args);
}

DevPtr optional_ptr(const KernelContext& ctx, size_t i) {
  return i < ctx.num_inputs() && ctx.in(i).present() ? ctx.in(i).ptr : 0;
}

// ---- InstanceNormalization: rows are (n, c), scale/bias per channel.

Result<ParsedAttrs> parse_instance(const AttrMap& a, const NodeView&) {
  auto r = std::make_shared<NormAttrs>();
  GK_TRY(r->epsilon, a.get_float("epsilon", 1e-5f));
  return ParsedAttrs(std::move(r));
}

Status infer_instance(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(require_float(ctx, x.dtype));
  if (x.shape.size() < 2) return ctx.fail("the input must have rank >= 2 (N, C, ...)");
  GK_RETURN_IF_ERROR(require_param(ctx, 1, x.shape[1], "scale"));
  GK_RETURN_IF_ERROR(require_param(ctx, 2, x.shape[1], "B"));
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_instance(KernelContext& ctx) {
  const auto& r = ctx.attrs<NormAttrs>();
  const Shape& s = ctx.in(0).shape;
  NormParams p;
  p.g.rows = s[0] * s[1];
  p.g.len = numel(s) / std::max<int64_t>(p.g.rows, 1);
  if (p.g.rows == 0) p.g.len = 0;
  p.eps = r.epsilon;
  p.a_mod = std::max<int64_t>(s[1], 1), p.a_mul = 1, p.a_div = std::max<int64_t>(p.g.len, 1);
  return launch_norm(ctx, p, ctx.in(1).ptr, ctx.in(2).ptr, 0, 0, DType::kF32);
}

// ---- LayerNormalization (17): rows are shape[:axis], normalised over shape[axis:].

Result<ParsedAttrs> parse_layer(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<NormAttrs>();
  GK_TRY(r->epsilon, a.get_float("epsilon", 1e-5f));
  GK_TRY(r->axis, a.get_int("axis", -1));
  GK_TRY(int64_t stash, a.get_int("stash_type", 1));
  if (stash != 1 && stash != 11)
    return unimplemented("{}: stash_type {} is not supported (1 = float32, 11 = float64)", node.describe(), stash);
  r->stash = stash == 11 ? DType::kF64 : DType::kF32;
  return ParsedAttrs(std::move(r));
}

Status infer_layer(InferContext& ctx) {
  const auto& r = attrs_as<NormAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(require_float(ctx, x.dtype));
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  GK_TRY(int64_t axis, normalize_axis(r.axis, rank, ctx.node.describe()));
  int64_t len = 1;
  for (int64_t d = axis; d < rank; ++d) len *= x.shape[d];
  const int64_t n_scale = numel(ctx.in(1).shape);
  if (n_scale != len && n_scale != 1)
    return unimplemented("{}: Scale of shape {} must have the normalised shape's {} elements (or one)",
                         ctx.node.describe(), shape_str(ctx.in(1).shape), len);
  GK_RETURN_IF_ERROR(require_param(ctx, 1, n_scale, "Scale"));
  if (ctx.node.has_input(2)) GK_RETURN_IF_ERROR(require_param(ctx, 2, n_scale, "B"));
  ctx.outputs[0] = x;
  Shape stat = x.shape;
  for (int64_t d = axis; d < rank; ++d) stat[d] = 1;
  for (size_t i = 1; i < ctx.outputs.size(); ++i) ctx.outputs[i] = {r.stash, stat};
  return ok_status();
}

Status run_layer(KernelContext& ctx) {
  const auto& r = ctx.attrs<NormAttrs>();
  const Shape& s = ctx.in(0).shape;
  const int64_t rank = static_cast<int64_t>(s.size());
  GK_TRY(int64_t axis, normalize_axis(r.axis, rank, ctx.node().describe()));
  NormParams p;
  p.g.rows = 1;
  for (int64_t d = 0; d < axis; ++d) p.g.rows *= s[d];
  for (int64_t d = axis; d < rank; ++d) p.g.len *= s[d];
  p.eps = r.epsilon;
  const bool one = ctx.in(1).numel() == 1 && p.g.len != 1;
  p.a_mod = 1, p.a_mul = 0, p.a_div = one ? std::max<int64_t>(p.g.len, 1) : 1;
  auto out_ptr = [&](size_t i) { return ctx.node().has_output(i) && i < ctx.num_outputs() ? ctx.out(i).ptr : DevPtr{0}; };
  return launch_norm(ctx, p, ctx.in(1).ptr, optional_ptr(ctx, 2), out_ptr(1), out_ptr(2), r.stash);
}

// ---- GroupNormalization: rows are (n, group). Opset 18 scales per group, 21 per channel.

Result<ParsedAttrs> parse_group(const AttrMap& a, const NodeView& node, bool per_channel) {
  auto r = std::make_shared<NormAttrs>();
  GK_TRY(r->epsilon, a.get_float("epsilon", 1e-5f));
  GK_TRY(r->num_groups, a.require_int("num_groups"));
  GK_TRY(int64_t stash, a.get_int("stash_type", 1));
  if (stash != 1)
    return unimplemented("{}: stash_type {} is not supported (1 = float32)", node.describe(), stash);
  if (r->num_groups <= 0) return invalid_model("{}: num_groups must be positive, got {}", node.describe(), r->num_groups);
  r->per_channel_affine = per_channel;
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_group18(const AttrMap& a, const NodeView& n) { return parse_group(a, n, false); }
Result<ParsedAttrs> parse_group21(const AttrMap& a, const NodeView& n) { return parse_group(a, n, true); }

Status infer_group(InferContext& ctx) {
  const auto& r = attrs_as<NormAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(require_float(ctx, x.dtype));
  if (x.shape.size() < 2) return ctx.fail("the input must have rank >= 2 (N, C, ...)");
  if (x.shape[1] % r.num_groups != 0)
    return ctx.fail(fmt::format("{} channels do not split into num_groups = {}", x.shape[1], r.num_groups));
  const int64_t n = r.per_channel_affine ? x.shape[1] : r.num_groups;
  GK_RETURN_IF_ERROR(require_param(ctx, 1, n, "scale"));
  GK_RETURN_IF_ERROR(require_param(ctx, 2, n, "bias"));
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_group(KernelContext& ctx) {
  const auto& r = ctx.attrs<NormAttrs>();
  const Shape& s = ctx.in(0).shape;
  const int64_t groups = r.num_groups, per_group = s[1] / groups;
  int64_t spatial = 1;
  for (size_t d = 2; d < s.size(); ++d) spatial *= s[d];
  NormParams p;
  p.g.rows = s[0] * groups;
  p.g.len = per_group * spatial;
  p.eps = r.epsilon;
  p.a_mod = groups;
  if (r.per_channel_affine) p.a_mul = per_group, p.a_div = std::max<int64_t>(spatial, 1);
  else p.a_mul = 1, p.a_div = std::max<int64_t>(p.g.len, 1);
  return launch_norm(ctx, p, ctx.in(1).ptr, ctx.in(2).ptr, 0, 0, DType::kF32);
}

// ---- MeanVarianceNormalization: (x - mean) / (sqrt(var) + 1e-9) over `axes`.

Result<ParsedAttrs> parse_mvn(const AttrMap& a, const NodeView&) {
  auto r = std::make_shared<NormAttrs>();
  GK_TRY(r->axes, a.get_ints("axes", {0, 2, 3}));
  return ParsedAttrs(std::move(r));
}

Status infer_mvn(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(require_float(ctx, x.dtype));
  GK_RETURN_IF_ERROR(normalize_axes(attrs_as<NormAttrs>(ctx.attrs).axes, x.shape.size(), ctx.node.describe()).status());
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_mvn(KernelContext& ctx) {
  const Shape& s = ctx.in(0).shape;
  GK_TRY(auto axes, normalize_axes(ctx.attrs<NormAttrs>().axes, s.size(), ctx.node().describe()));
  NormParams p;
  GK_TRY(p.g, row_geometry(s, axes));
  p.eps = 1e-9;  // the ONNX function body's constant
  p.mvn = 1;
  return launch_norm(ctx, p, 0, 0, 0, 0, DType::kF32);
}

// ---- BatchNormalization: inference, and the training form of opset 14+.

Result<ParsedAttrs> parse_batch(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<NormAttrs>();
  GK_TRY(r->epsilon, a.get_float("epsilon", 1e-5f));
  GK_TRY(int64_t training, a.get_int("training_mode", 0));
  GK_TRY(int64_t spatial, a.get_int("spatial", 1));
  GK_TRY(r->momentum, a.get_float("momentum", 0.9f));
  GK_TRY(int64_t is_test, a.get_int("is_test", 0));  // opsets 1-6
  if (node.opset < 7 && is_test == 0)
    return unimplemented("{}: BatchNormalization-{} with is_test=0 is its training form; only is_test=1 "
                         "(inference) is supported",
                         node.describe(), node.opset);
  r->spatial = node.opset >= 9 || spatial != 0;
  r->training = training != 0;
  // Before opset 14 the extra outputs were the training outputs of another form
  // (saved mean and variance for a backward pass), which only training runs use.
  if (node.opset < 14 && node.num_outputs > 1)
    return unimplemented("{}: the training outputs of BatchNormalization-{} (mean, var, saved_mean, saved_var) "
                         "are not supported; opset 14+ training mode is",
                         node.describe(), node.opset);
  if (node.num_outputs > 1 && !r->training)
    return invalid_model("{}: running_mean/running_var outputs require training_mode=1", node.describe());
  return ParsedAttrs(std::move(r));
}

// [N, channels, inner]: per channel, or per element of [C, D...] without spatial.
std::pair<int64_t, int64_t> batch_layout(const NormAttrs& r, const Shape& s) {
  int64_t rest = 1;
  for (size_t d = 2; d < s.size(); ++d) rest *= s[d];
  if (r.spatial) return {s[1], rest};
  return {s[1] * rest, 1};
}

bool batch_types_ok(DType x, DType p) { return p == x || p == DType::kF32; }

Status infer_batch(InferContext& ctx) {
  const auto& r = attrs_as<NormAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(require_float(ctx, x.dtype));
  if (x.shape.size() < 2) return ctx.fail("the input must have rank >= 2 (N, C, ...)");
  const int64_t channels = batch_layout(r, x.shape).first;
  const char* names[] = {"scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i <= 4; ++i) {
    if (numel(ctx.in(i).shape) != channels)
      return ctx.fail(fmt::format("{} has shape {}, expected {} elements", names[i - 1], shape_str(ctx.in(i).shape), channels));
    if (!batch_types_ok(x.dtype, ctx.in(i).dtype))
      return unimplemented("{}: {} of type {} with input {} is not supported", ctx.node.describe(), names[i - 1],
                           dtype_name(ctx.in(i).dtype), dtype_name(x.dtype));
  }
  if (ctx.in(1).dtype != ctx.in(2).dtype || ctx.in(3).dtype != ctx.in(4).dtype)
    return ctx.fail("scale and B, and input_mean and input_var, must share a type");
  ctx.outputs[0] = x;
  for (size_t o = 1; o < ctx.outputs.size(); ++o) ctx.outputs[o] = {ctx.in(3).dtype, {channels}};
  return ok_status();
}

Status run_batch(KernelContext& ctx) {
  const auto& r = ctx.attrs<NormAttrs>();
  const TensorRef& x = ctx.in(0);
  const int64_t n = x.numel();
  if (n == 0) return ok_status();
  auto [channels, inner] = batch_layout(r, x.shape);
  const DType q = ctx.in(3).dtype;
  DevPtr mean = ctx.in(3).ptr, var = ctx.in(4).ptr;
  if (r.training) {
    GK_TRY(GkBuf batch_mean, ctx.scratch(q, channels));
    GK_TRY(GkBuf batch_var, ctx.scratch(q, channels));
    auto output = [&](size_t o) { return o < ctx.num_outputs() && ctx.node().has_output(o) ? ctx.out(o).ptr : DevPtr{0}; };
    KernelArgs stats;
    stats.ptr(x.ptr).ptr(mean).ptr(var).ptr(batch_mean.ptr()).ptr(batch_var.ptr()).ptr(output(1)).ptr(output(2));
    stats.i64(x.shape[0]).i64(channels).i64(std::max<int64_t>(inner, 1)).f64(r.momentum);
    GK_RETURN_IF_ERROR(
        ctx.launch(kernel_sources::normalization,
                   KernelName::format("gk_batchnorm_stats<{}, {}>", {kernel_type_name(x.dtype), kernel_type_name(q)}),
                   grid_for(channels), stats));
    mean = batch_mean.ptr();
    var = batch_var.ptr();
  }
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.in(1).ptr).ptr(ctx.in(2).ptr).ptr(mean).ptr(var).ptr(ctx.out(0).ptr);
  args.i64(n).i64(channels).i64(std::max<int64_t>(inner, 1)).f64(r.epsilon);
  return ctx.launch(
      kernel_sources::normalization,
      KernelName::format("gk_batchnorm<{}, {}, {}>", {kernel_type_name(x.dtype), kernel_type_name(ctx.in(1).dtype),
                                                      kernel_type_name(ctx.in(3).dtype)}),
      grid_for(n), args);
}

const OpImpl kInstance{&parse_instance, &infer_instance, &run_instance};
const OpImpl kLayer{&parse_layer, &infer_layer, &run_layer};
const OpImpl kGroup18{&parse_group18, &infer_group, &run_group};
const OpImpl kGroup21{&parse_group21, &infer_group, &run_group};
const OpImpl kMvn{&parse_mvn, &infer_mvn, &run_mvn};
const OpImpl kBatch{&parse_batch, &infer_batch, &run_batch};

}  // namespace

namespace families {

std::span<const OpSchema> normalization_ops() {
  static const OpSchema table[] = {
      {"", "BatchNormalization", 1, kOpsetCurrent, &kBatch, {}},
      {"", "InstanceNormalization", 1, kOpsetCurrent, &kInstance, {}},
      // Not in ai.onnx before 17, but ONNX Runtime registers it there from opset 1
      // (with 17's signature) and older exporters emit it; the loader warns (the
      // spec table has no LayerNormalization below 17).
      {"", "LayerNormalization", 1, 16, &kLayer, {}},
      {"", "LayerNormalization", 17, kOpsetCurrent, &kLayer, {}},
      {"", "GroupNormalization", 18, 20, &kGroup18, {}},
      {"", "GroupNormalization", 21, kOpsetCurrent, &kGroup21, {}},
      {"", "MeanVarianceNormalization", 9, kOpsetCurrent, &kMvn, {}},
  };
  return table;
}

}  // namespace families
}  // namespace gk

// Shape and constant ops: Reshape, Flatten, Squeeze, Unsqueeze, Identity, Dropout
// (inference), Constant, Shape, Size, ConstantOfShape, Range, EyeLike.
//
// The view ops (Reshape .. Dropout) declare alias_input = 0: the planner gives the
// output the input's bytes and run() then copies nothing; when it did not alias
// them, run() copies.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <cmath>
#include <set>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

// ---- view ops -------------------------------------------------------------------

Status run_view(KernelContext& ctx) { return copy_input(ctx, 0, 0); }

struct ReshapeAttrs {
  bool allowzero = false;
};
Result<ParsedAttrs> parse_reshape(const AttrMap& a, const NodeView&) {
  // allowzero was added in opset 14; absent, it defaults to 0.
  GK_TRY(int64_t allowzero, a.get_int("allowzero", 0));
  return make_attrs(ReshapeAttrs{allowzero != 0});
}
Status infer_reshape(InferContext& ctx) {
  const auto& attrs = attrs_as<ReshapeAttrs>(ctx.attrs);
  const Shape& in = ctx.in(0).shape;
  GK_TRY(std::vector<int64_t> spec, host_ints(ctx, 1));
  Shape out(spec.size());
  int infer_at = -1;
  int64_t known = 1;
  for (size_t d = 0; d < spec.size(); ++d) {
    int64_t v = spec[d];
    if (v == -1) {
      if (infer_at >= 0) return ctx.fail("shape has more than one -1");
      infer_at = static_cast<int>(d);
      continue;
    }
    if (v == 0 && !attrs.allowzero) {
      if (d >= in.size())
        return ctx.fail(fmt::format("shape[{}] = 0 copies an input dim, but the input {} has rank {}", d,
                                    shape_str(in), in.size()));
      v = in[d];
    } else if (v < 0) {
      return ctx.fail(fmt::format("shape[{}] = {} is invalid (allowed: -1, 0 or positive)", d, v));
    }
    out[d] = v;
    // A product past int64 cannot equal the input's element count (signed
    // overflow is undefined; the run fuzzer's finding).
    if (__builtin_mul_overflow(known, v, &known))
      return ctx.fail(fmt::format("cannot reshape {} to {}: the target's element count overflows int64",
                                  shape_str(in), shape_str(spec)));
  }
  const int64_t total = numel(in);
  if (infer_at >= 0) {
    if (known == 0)
      return ctx.fail(fmt::format("cannot infer the -1 dim of {} with a zero dim elsewhere", shape_str(spec)));
    if (total % known != 0)
      return ctx.fail(fmt::format("cannot reshape {} to {}", shape_str(in), shape_str(spec)));
    out[infer_at] = total / known;
  } else if (known != total) {
    return ctx.fail(fmt::format("cannot reshape {} ({} elements) to {} ({} elements)", shape_str(in), total,
                                shape_str(out), known));
  }
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

struct AxisAttrs {
  int64_t axis = 1;
};
Result<ParsedAttrs> parse_flatten(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t axis, a.get_int("axis", 1));
  return make_attrs(AxisAttrs{axis});
}
Status infer_flatten(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  const int64_t r = static_cast<int64_t>(in.size());
  int64_t axis = attrs_as<AxisAttrs>(ctx.attrs).axis;
  if (axis < -r || axis > r) return ctx.fail(fmt::format("axis {} is out of range [{}, {}]", axis, -r, r));
  if (axis < 0) axis += r;
  int64_t outer = numel(std::span(in).first(axis)), inner = numel(std::span(in).subspan(axis));
  ctx.outputs[0] = {ctx.in(0).dtype, {outer, inner}};
  return ok_status();
}

// Squeeze/Unsqueeze: axes from the attribute (before opset 13) or input 1.
struct AxesAttrs {
  bool from_input = false;
  std::optional<std::vector<int64_t>> axes;
};
Result<ParsedAttrs> parse_axes_attr(const AttrMap& a, const NodeView&) {
  AxesAttrs attrs;
  if (a.has("axes")) {
    GK_TRY(attrs.axes, a.get_ints("axes"));
  }
  return make_attrs(std::move(attrs));
}
Result<ParsedAttrs> parse_axes_input(const AttrMap&, const NodeView&) { return make_attrs(AxesAttrs{true, {}}); }

Result<std::optional<std::vector<int64_t>>> axes_of(const InferContext& ctx) {
  const auto& attrs = attrs_as<AxesAttrs>(ctx.attrs);
  if (!attrs.from_input) return attrs.axes;
  if (!ctx.node.has_input(1)) return std::optional<std::vector<int64_t>>{};
  GK_TRY(std::vector<int64_t> axes, host_ints(ctx, 1));
  return std::optional<std::vector<int64_t>>(std::move(axes));
}

Status infer_squeeze(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  GK_TRY(auto axes, axes_of(ctx));
  std::vector<bool> drop(in.size(), false);
  if (!axes) {
    for (size_t d = 0; d < in.size(); ++d) drop[d] = in[d] == 1;
  } else {
    for (int64_t a : *axes) {
      GK_TRY(int64_t d, normalize_axis(ctx.node, a, static_cast<int64_t>(in.size()), "axes entry"));
      if (in[d] != 1)
        return ctx.fail(fmt::format("cannot squeeze axis {} of {}: its dim is {}, not 1", a, shape_str(in), in[d]));
      drop[d] = true;
    }
  }
  Shape out;
  for (size_t d = 0; d < in.size(); ++d)
    if (!drop[d]) out.push_back(in[d]);
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status infer_unsqueeze(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  GK_TRY(auto axes, axes_of(ctx));
  if (!axes) return ctx.fail("axes are required");
  const int64_t r = static_cast<int64_t>(in.size() + axes->size());
  std::vector<bool> inserted(r, false);
  for (int64_t a : *axes) {
    GK_TRY(int64_t d, normalize_axis(ctx.node, a, r, "axes entry"));
    if (inserted[d]) return ctx.fail(fmt::format("axes entry {} is repeated", a));
    inserted[d] = true;
  }
  Shape out;
  size_t next = 0;
  for (int64_t d = 0; d < r; ++d) out.push_back(inserted[d] ? 1 : in[next++]);
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status infer_identity(InferContext& ctx) {
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

// Dropout in inference: a copy, and a mask of ones (T before opset 10, bool after).
struct DropoutAttrs {
  DType mask_dtype = DType::kBool;  // kUndefined: the data's type
  bool inputs = false;              // ratio/training_mode are inputs (opset 12+)
};
Result<ParsedAttrs> parse_dropout(const AttrMap&, const NodeView& node) {
  return make_attrs(DropoutAttrs{node.opset < 10 ? DType::kUndefined : DType::kBool, node.opset >= 12});
}
Status infer_dropout(InferContext& ctx) {
  const auto& attrs = attrs_as<DropoutAttrs>(ctx.attrs);
  if (attrs.inputs && ctx.node.has_input(2)) {
    GK_TRY(const HostTensor* training, ctx.value(2));
    if (training->numel() != 1) return ctx.fail("training_mode must be a scalar");
    double ratio = 0.5;
    if (ctx.node.has_input(1) && ctx.has_value(1)) ratio = ctx.values[1]->as_f64(0);
    if (training->as_i64(0) != 0 && ratio != 0)
      return unimplemented("{}: training-mode Dropout (random masks) is not supported; ratio {}",
                           ctx.node.describe(), ratio);
  }
  ctx.outputs[0] = ctx.in(0);
  if (ctx.outputs.size() > 1)
    ctx.outputs[1] = {attrs.mask_dtype == DType::kUndefined ? ctx.in(0).dtype : attrs.mask_dtype, ctx.in(0).shape};
  return ok_status();
}
Status run_dropout(KernelContext& ctx) {
  GK_RETURN_IF_ERROR(copy_input(ctx, 0, 0));
  if (ctx.num_outputs() > 1 && ctx.node().has_output(1)) {
    const TensorRef& mask = ctx.out(1);
    GK_TRY(size_t esize, element_bytes(ctx.node(), mask.dtype));
    GK_TRY(uint64_t one, one_bits(ctx.node(), mask.dtype));
    GK_RETURN_IF_ERROR(fill(ctx, mask.ptr, esize, mask.numel(), one));
  }
  return ok_status();
}

// ---- constants ------------------------------------------------------------------

struct ConstantAttrs {
  std::shared_ptr<const HostTensor> value;
};
Result<ParsedAttrs> parse_constant(const AttrMap& a, const NodeView& node) {
  if (a.all().size() != 1)
    return invalid_model("{}: exactly one value attribute is required, got {}", node.describe(), a.all().size());
  const auto& [name, attr] = *a.all().begin();
  HostTensor t;
  if (name == "value") {
    GK_TRY(auto v, a.require_tensor("value"));
    return make_attrs(ConstantAttrs{std::move(v)});
  } else if (name == "value_float") {
    GK_TRY(float v, a.get_float(name, 0));
    t = HostTensor::from_vector(DType::kF32, {}, std::vector<float>{v});
  } else if (name == "value_floats") {
    GK_TRY(auto v, a.get_floats(name));
    t = HostTensor::from_vector(DType::kF32, {static_cast<int64_t>(v.size())}, v);
  } else if (name == "value_int") {
    GK_TRY(int64_t v, a.get_int(name, 0));
    t = HostTensor::from_vector(DType::kI64, {}, std::vector<int64_t>{v});
  } else if (name == "value_ints") {
    GK_TRY(auto v, a.get_ints(name));
    t = HostTensor::from_vector(DType::kI64, {static_cast<int64_t>(v.size())}, v);
  } else if (name == "value_string") {
    t = HostTensor::strings({}, {attr.s});
  } else if (name == "value_strings") {
    t = HostTensor::strings({static_cast<int64_t>(attr.strings.size())}, attr.strings);
  } else {
    return unimplemented("{}: Constant attribute '{}' is not supported (value, value_float(s), value_int(s), "
                         "value_string(s))",
                         node.describe(), name);
  }
  return make_attrs(ConstantAttrs{std::make_shared<const HostTensor>(std::move(t))});
}
Status infer_constant(InferContext& ctx) {
  const HostTensor& v = *attrs_as<ConstantAttrs>(ctx.attrs).value;
  ctx.outputs[0] = {v.dtype(), v.shape()};
  return ok_status();
}
Status run_constant(KernelContext& ctx) {
  const HostTensor& v = *ctx.attrs<ConstantAttrs>().value;
  GK_TRY(size_t esize, element_bytes(ctx.node(), v.dtype()));
  (void)esize;
  // Small values travel as launch parameters (stream-ordered); larger ones are
  // uploaded. The executor folds Constant outputs at plan time in any case.
  constexpr size_t kKernelWriteMax = 256;  // 4 launches of 64 bytes
  if (v.bytes() <= kKernelWriteMax) return write_bytes(ctx, ctx.out(0).ptr, v.raw(), v.bytes());
  return ctx.kit().device().upload(ctx.out(0).ptr, v.raw(), v.bytes());
}

struct ShapeAttrs {
  int64_t start = 0;
  std::optional<int64_t> end;
};
Result<ParsedAttrs> parse_shape(const AttrMap& a, const NodeView&) {
  ShapeAttrs attrs;
  GK_TRY(attrs.start, a.get_int("start", 0));
  if (a.has("end")) {
    GK_TRY(attrs.end, a.get_int("end", 0));
  }
  return make_attrs(attrs);
}
std::vector<int64_t> shape_slice(const ShapeAttrs& attrs, const Shape& in) {
  const int64_t r = static_cast<int64_t>(in.size());
  auto clamp = [r](int64_t v) { return std::clamp(v < 0 ? v + r : v, int64_t{0}, r); };
  int64_t start = clamp(attrs.start), end = clamp(attrs.end.value_or(r));
  if (end < start) end = start;
  return std::vector<int64_t>(in.begin() + start, in.begin() + end);
}
Status infer_shape(InferContext& ctx) {
  auto dims = shape_slice(attrs_as<ShapeAttrs>(ctx.attrs), ctx.in(0).shape);
  ctx.outputs[0] = {DType::kI64, {static_cast<int64_t>(dims.size())}};
  ctx.output_values = {std::make_shared<HostTensor>(
      HostTensor::from_vector(DType::kI64, {static_cast<int64_t>(dims.size())}, dims))};
  return ok_status();
}
Status run_shape(KernelContext& ctx) {
  auto dims = shape_slice(ctx.attrs<ShapeAttrs>(), ctx.in(0).shape);
  return write_bytes(ctx, ctx.out(0).ptr, dims.data(), dims.size() * sizeof(int64_t));
}

Status infer_size(InferContext& ctx) {
  ctx.outputs[0] = {DType::kI64, {}};
  ctx.output_values = {std::make_shared<HostTensor>(
      HostTensor::from_vector(DType::kI64, {}, std::vector<int64_t>{gk::numel(ctx.in(0).shape)}))};
  return ok_status();
}
Status run_size(KernelContext& ctx) {
  int64_t n = ctx.in(0).numel();
  return write_bytes(ctx, ctx.out(0).ptr, &n, sizeof(n));
}

struct ConstantOfShapeAttrs {
  std::shared_ptr<const HostTensor> value;  // null: float 0
};
Result<ParsedAttrs> parse_constant_of_shape(const AttrMap& a, const NodeView& node) {
  ConstantOfShapeAttrs attrs;
  if (a.has("value")) {
    GK_TRY(attrs.value, a.require_tensor("value"));
    if (attrs.value->numel() != 1)
      return invalid_model("{}: value must hold one element, got {}", node.describe(), attrs.value->numel());
  }
  return make_attrs(std::move(attrs));
}
Status infer_constant_of_shape(InferContext& ctx) {
  const auto& attrs = attrs_as<ConstantOfShapeAttrs>(ctx.attrs);
  GK_TRY(std::vector<int64_t> shape, host_ints(ctx, 0));
  for (int64_t d : shape)
    if (d < 0) return ctx.fail(fmt::format("shape {} has a negative dim", shape_str(shape)));
  ctx.outputs[0] = {attrs.value ? attrs.value->dtype() : DType::kF32, shape};
  return ok_status();
}
Status run_constant_of_shape(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<ConstantOfShapeAttrs>();
  const TensorRef& out = ctx.out(0);
  GK_TRY(size_t esize, element_bytes(ctx.node(), out.dtype));
  return fill(ctx, out.ptr, esize, out.numel(), attrs.value ? element_bits(*attrs.value, 0) : 0);
}

Status infer_range(InferContext& ctx) {
  const DType t = ctx.in(0).dtype;
  for (size_t i = 0; i < 3; ++i) {
    if (ctx.in(i).dtype != t) return ctx.fail("start, limit and delta must have one type");
    if (numel(ctx.in(i).shape) != 1) return ctx.fail(fmt::format("input {} must be a scalar", i));
  }
  GK_TRY(const HostTensor* s, ctx.value(0));
  GK_TRY(const HostTensor* l, ctx.value(1));
  GK_TRY(const HostTensor* d, ctx.value(2));
  int64_t n = 0;
  if (dtype_is_integer(t)) {
    int64_t start = s->as_i64(0), limit = l->as_i64(0), delta = d->as_i64(0);
    if (delta == 0) return ctx.fail("delta is 0");
    __int128 span = static_cast<__int128>(limit) - start;
    __int128 q = span / delta;
    if (q * delta != span && ((span > 0) == (delta > 0))) ++q;  // ceil
    if (q > INT64_MAX) return ctx.fail(fmt::format("range({}, {}, {}) has more than 2^63 values", start, limit, delta));
    n = q > 0 ? static_cast<int64_t>(q) : 0;
  } else {
    double start = s->as_f64(0), limit = l->as_f64(0), delta = d->as_f64(0);
    if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return ctx.fail(fmt::format("range({}, {}, {}) has no finite length", start, limit, delta));
    double len = std::ceil((limit - start) / delta);
    if (len > 9.0e15) return ctx.fail(fmt::format("range length {} is too large", len));
    n = len > 0 ? static_cast<int64_t>(len) : 0;
  }
  ctx.outputs[0] = {t, {n}};
  return ok_status();
}
Status run_range(KernelContext& ctx) {
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const HostTensor* s = ctx.in(0).host;
  const HostTensor* d = ctx.in(2).host;
  if (!s || !d) return ctx.fail("start and delta must be known before the run");
  GK_TRY(const char* tn, type_name(ctx.node(), out.dtype, "Range"));
  KernelArgs args;
  args.ptr(out.ptr);
  KernelName name("");
  switch (out.dtype) {
    case DType::kI16:
    case DType::kI32:
    case DType::kI64:
      name = entry("gk_dm_range_int", tn);
      args.i64(s->as_i64(0)).i64(d->as_i64(0));
      break;
    case DType::kF32:
    case DType::kF64:
    case DType::kF16:
    case DType::kBF16:
      name = entry("gk_dm_range_float", tn);
      args.f64(s->as_f64(0)).f64(d->as_f64(0));
      break;
    default:
      return unimplemented("{}: Range of type {} is not supported", ctx.node().describe(), dtype_name(out.dtype));
  }
  return ctx.launch(kernel_sources::data_movement, name, grid_for(n), args.i64(n));
}

struct EyeLikeAttrs {
  std::optional<DType> dtype;
  int64_t k = 0;
};
Result<ParsedAttrs> parse_eye_like(const AttrMap& a, const NodeView&) {
  EyeLikeAttrs attrs;
  GK_TRY(attrs.k, a.get_int("k", 0));
  if (a.has("dtype")) {
    GK_TRY(int64_t code, a.get_int("dtype", 0));
    GK_TRY(attrs.dtype, dtype_from_code(code));
  }
  return make_attrs(attrs);
}
Status infer_eye_like(InferContext& ctx) {
  if (ctx.in(0).shape.size() != 2)
    return ctx.fail(fmt::format("input must be 2-D, got {}", shape_str(ctx.in(0).shape)));
  const auto& attrs = attrs_as<EyeLikeAttrs>(ctx.attrs);
  ctx.outputs[0] = {attrs.dtype.value_or(ctx.in(0).dtype), ctx.in(0).shape};
  return ok_status();
}
Status run_eye_like(KernelContext& ctx) {
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  GK_TRY(size_t esize, element_bytes(ctx.node(), out.dtype));
  GK_TRY(uint64_t one, one_bits(ctx.node(), out.dtype));
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_eye", width_name(esize)), grid_for(n),
                    KernelArgs().ptr(out.ptr).i64(out.shape[1]).i64(ctx.attrs<EyeLikeAttrs>().k).i64(
                        static_cast<int64_t>(one)).i64(n));
}

constexpr OpImpl kReshape{&parse_reshape, &infer_reshape, &run_view};
constexpr OpImpl kFlatten{&parse_flatten, &infer_flatten, &run_view};
constexpr OpImpl kSqueezeAttr{&parse_axes_attr, &infer_squeeze, &run_view};
constexpr OpImpl kSqueezeInput{&parse_axes_input, &infer_squeeze, &run_view};
constexpr OpImpl kUnsqueezeAttr{&parse_axes_attr, &infer_unsqueeze, &run_view};
constexpr OpImpl kUnsqueezeInput{&parse_axes_input, &infer_unsqueeze, &run_view};
constexpr OpImpl kIdentity{nullptr, &infer_identity, &run_view};
constexpr OpImpl kDropout{&parse_dropout, &infer_dropout, &run_dropout};
constexpr OpImpl kConstant{&parse_constant, &infer_constant, &run_constant};
constexpr OpImpl kShape{&parse_shape, &infer_shape, &run_shape};
constexpr OpImpl kSize{nullptr, &infer_size, &run_size};
constexpr OpImpl kConstantOfShape{&parse_constant_of_shape, &infer_constant_of_shape, &run_constant_of_shape};
constexpr OpImpl kRange{nullptr, &infer_range, &run_range};
constexpr OpImpl kEyeLike{&parse_eye_like, &infer_eye_like, &run_eye_like};

constexpr OpTraits kView{.alias_input = 0};
constexpr OpTraits kViewHost1{.alias_input = 0, .host_inputs = 1u << 1};

const OpSchema kShapeOps[] = {
    {"", "Reshape", 5, kOpsetCurrent, &kReshape, kViewHost1},
    {"", "Flatten", 1, kOpsetCurrent, &kFlatten, kView},
    {"", "Squeeze", 1, 12, &kSqueezeAttr, kView},
    {"", "Squeeze", 13, kOpsetCurrent, &kSqueezeInput, kViewHost1},
    {"", "Unsqueeze", 1, 12, &kUnsqueezeAttr, kView},
    {"", "Unsqueeze", 13, kOpsetCurrent, &kUnsqueezeInput, kViewHost1},
    {"", "Identity", 1, kOpsetCurrent, &kIdentity, {.alias_input = 0, .passes_containers = true}},
    {"", "Dropout", 7, kOpsetCurrent, &kDropout, {.alias_input = 0, .host_inputs = (1u << 1) | (1u << 2)}},
    {"", "Constant", 1, kOpsetCurrent, &kConstant, {}},
    {"", "Shape", 1, kOpsetCurrent, &kShape, {.reads_shape_only = true}},
    {"", "Size", 1, kOpsetCurrent, &kSize, {.reads_shape_only = true}},
    {"", "ConstantOfShape", 9, kOpsetCurrent, &kConstantOfShape, {.host_inputs = 1u}},
    {"", "Range", 11, kOpsetCurrent, &kRange, {.host_inputs = 0b111u}},
    {"", "EyeLike", 9, kOpsetCurrent, &kEyeLike, {}},
};

}  // namespace

std::span<const OpSchema> shape_ops() { return kShapeOps; }

}  // namespace gk::families

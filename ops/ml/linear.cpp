// ai.onnx.ml LinearClassifier-1, LinearRegressor-1, Scaler-1 and Normalizer-1, as
// ONNX Runtime computes them (ops/ml/ml_ops.cuh); and ZipMap, DictVectorizer and
// CastMap refused by name: they take or make maps, which gkrun's values are not.
// LinearClassifier's string labels are computed on the host from X's value (the
// executor reads X back when the run computes it), with the kernel's row function.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/ml/ml_ops.cuh"
#include "ops/common/ml_labels.h"
#include "ops/common/ml_tables.h"
#include "ops/string/string_ops.h"

#include <string>
#include <vector>

namespace gk {
namespace {

const char* numeric_input_type(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF64: return "double";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    default: return nullptr;
  }
}

// X is float, double, int32 or int64, [N, F] or [F] (one row); returns N.
Result<int64_t> numeric_rows(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  if (!numeric_input_type(x.dtype))
    return unimplemented("{}: input type {}; {} takes float32, float64, int32, int64", ctx.node.describe(),
                         dtype_name(x.dtype), ctx.node.op_type);
  if (x.shape.empty() || x.shape.size() > 2)
    return ctx.fail(fmt::format("X must be [N, F] (or [F]), got {}", shape_str(x.shape)));
  return x.shape.size() == 2 ? x.shape[0] : 1;
}

Result<int32_t> post_transform(const AttrMap& a, const NodeView& node) {
  GK_TRY(std::string s, a.get_string("post_transform", "NONE"));
  const char* names[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  for (int32_t k = 0; k < 5; ++k)
    if (s == names[k]) return k;
  return invalid_model("{}: post_transform '{}' is not one of NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT",
                       node.describe(), s);
}

// ---- LinearClassifier / LinearRegressor ------------------------------------------------

struct LinearAttrs {
  std::vector<float> coef, intercepts;
  int64_t targets = 0;
  int32_t post = GK_TREE_NONE;
  // LinearClassifier only.
  bool classifier = false;
  std::vector<int64_t> labels;
  std::vector<std::string> string_labels;
  bool second_class = false;  // one coefficient row (and two labels)
  ml::DeviceTables device;    // coef, intercepts, labels
};

Result<ParsedAttrs> parse_linear_classifier(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<LinearAttrs>();
  LinearAttrs& l = *attrs;
  l.classifier = true;
  GK_TRY(l.coef, a.get_floats("coefficients"));
  GK_TRY(l.intercepts, a.get_floats("intercepts"));
  GK_TRY(l.post, post_transform(a, node));
  GK_TRY(l.labels, a.get_ints("classlabels_ints"));
  if (const Attribute* at = a.find("classlabels_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute classlabels_strings must be strings, got {}", node.describe(),
                           attribute_kind_name(at->kind));
    l.string_labels = at->strings;
  }
  if (l.labels.empty() == l.string_labels.empty())
    return invalid_model("{}: exactly one of classlabels_ints and classlabels_strings must be set", node.describe());
  // ORT takes the class count from intercepts.
  l.targets = static_cast<int64_t>(l.intercepts.size());
  const int64_t labels = static_cast<int64_t>(l.labels.empty() ? l.string_labels.size() : l.labels.size());
  if (l.targets == 0) return invalid_model("{}: intercepts is empty (it gives the class count)", node.describe());
  if (l.targets > 1 && labels < l.targets)
    return invalid_model("{}: {} class labels for {} intercepts", node.describe(), labels, l.targets);
  // One coefficient row is binary: ORT 1.30 refuses any other label count.
  if (l.targets == 1 && labels != 2)
    return invalid_model("{}: one coefficient row (binary) needs 2 class labels, got {}", node.describe(), labels);
  l.second_class = l.targets == 1;
  if (l.second_class && l.post == GK_TREE_PROBIT)
    return unimplemented("{}: PROBIT with one coefficient row and two labels (ORT writes its scores unpaired)",
                         node.describe());
  l.device.add(DType::kF32, l.coef);
  l.device.add(DType::kF32, l.intercepts);
  l.device.add(DType::kI64, l.labels);
  return ParsedAttrs(std::move(attrs));
}

Result<ParsedAttrs> parse_linear_regressor(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<LinearAttrs>();
  LinearAttrs& l = *attrs;
  GK_TRY(l.coef, a.get_floats("coefficients"));
  GK_TRY(l.intercepts, a.get_floats("intercepts"));
  GK_TRY(l.post, post_transform(a, node));
  GK_TRY(l.targets, a.get_int("targets", 1));
  if (l.targets <= 0) return invalid_model("{}: targets must be positive, got {}", node.describe(), l.targets);
  if (!l.intercepts.empty() && static_cast<int64_t>(l.intercepts.size()) != l.targets)
    return invalid_model("{}: {} intercepts for {} targets", node.describe(), l.intercepts.size(), l.targets);
  l.device.add(DType::kF32, l.coef);
  l.device.add(DType::kF32, l.intercepts);
  return ParsedAttrs(std::move(attrs));
}

gk_linear_params linear_params(const LinearAttrs& l, int64_t rows, int64_t features) {
  return {rows, features, l.targets, l.post, l.second_class ? 1 : 0};
}

Status check_coefficients(const InferContext& ctx, const LinearAttrs& l) {
  const int64_t features = ctx.in(0).shape.back();
  if (static_cast<int64_t>(l.coef.size()) != l.targets * features)
    return invalid_argument("{}: {} coefficients for {} rows of X's {} features", ctx.node.describe(), l.coef.size(),
                            l.targets, features);
  return ok_status();
}

// String labels: the classifier on the host, from X's value.
Status classify_strings(InferContext& ctx, const LinearAttrs& l, int64_t rows) {
  const std::vector<double> x = ctx.values[0]->to_f64_vector();
  const gk_linear_params p = linear_params(l, rows, ctx.in(0).shape.back());
  const int64_t width = l.second_class ? 2 : l.targets;
  GK_TRY(HostTensor z, HostTensor::allocate(DType::kF32, Shape{rows, width}));
  std::vector<std::string> y(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t k = gk_linear_classify(x.data() + r * p.features, l.coef.data(),
                                         l.intercepts.data(), z.mutable_data<float>() + r * width, p);
    y[static_cast<size_t>(r)] = l.string_labels[static_cast<size_t>(k)];
  }
  return ml::set_string_label_outputs(ctx, std::move(y), std::move(z));
}

Status infer_linear(InferContext& ctx) {
  const auto& l = attrs_as<LinearAttrs>(ctx.attrs);
  GK_TRY(int64_t rows, numeric_rows(ctx));
  GK_RETURN_IF_ERROR(check_coefficients(ctx, l));
  if (!l.classifier) {
    ctx.outputs[0] = {DType::kF32, Shape{rows, l.targets}};
    return ok_status();
  }
  const bool strings = !l.string_labels.empty();
  ctx.outputs[0] = {strings ? DType::kString : DType::kI64, Shape{rows}};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {DType::kF32, Shape{rows, l.second_class ? 2 : l.targets}};
  if (strings && ctx.has_value(0)) return classify_strings(ctx, l, rows);
  return ok_status();
}

Status run_linear(KernelContext& ctx) {
  const auto& l = ctx.attrs<LinearAttrs>();
  const TensorRef& x = ctx.in(0);
  const int64_t rows = x.shape.size() == 2 ? x.shape[0] : 1;
  if (rows == 0) return ok_status();
  const gk_linear_params p = linear_params(l, rows, x.shape.back());
  GK_TRY(std::vector<DevPtr> d, l.device.get(ctx));
  const char* in = numeric_input_type(x.dtype);
  if (!l.classifier) {
    KernelArgs args;
    args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(d[0]).ptr(d[1]).pod(p);
    return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_linear_regressor<{}>", {in}), grid_for(rows),
                      args);
  }
  if (ctx.out(0).dtype == DType::kString) return strings::run_host_only(ctx);
  DevPtr y = ctx.out(0).ptr, z = ctx.num_outputs() > 1 ? ctx.out(1).ptr : 0;
  if (!y) {
    GK_TRY(GkBuf b, ctx.scratch(DType::kI64, rows));
    y = b.ptr();
  }
  if (!z) {
    GK_TRY(GkBuf b, ctx.scratch(DType::kF32, rows * (l.second_class ? 2 : l.targets)));
    z = b.ptr();
  }
  KernelArgs args;
  args.ptr(x.ptr).ptr(y).ptr(z).ptr(d[0]).ptr(d[1]).ptr(d[2]).pod(p);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_linear_classifier<{}>", {in}), grid_for(rows),
                    args);
}

// ---- Scaler -------------------------------------------------------------------------

struct ScalerAttrs {
  std::vector<float> offset, scale;
  ml::DeviceTables device;
};

Result<ParsedAttrs> parse_scaler(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<ScalerAttrs>();
  GK_TRY(attrs->offset, a.get_floats("offset"));
  GK_TRY(attrs->scale, a.get_floats("scale"));
  if (attrs->offset.empty() || attrs->scale.empty())
    return invalid_model("{}: offset and scale must both be set (got {} and {} values)", node.describe(),
                         attrs->offset.size(), attrs->scale.size());
  attrs->device.add(DType::kF32, attrs->offset);
  attrs->device.add(DType::kF32, attrs->scale);
  return ParsedAttrs(std::move(attrs));
}

Status infer_scaler(InferContext& ctx) {
  const auto& s = attrs_as<ScalerAttrs>(ctx.attrs);
  GK_RETURN_IF_ERROR(numeric_rows(ctx).status());
  const int64_t c = ctx.in(0).shape.back();
  for (const auto* v : {&s.offset, &s.scale})
    if (v->size() != 1 && static_cast<int64_t>(v->size()) != c)
      return invalid_argument("{}: {} {} values for X's last dimension {} (1 or {} expected)", ctx.node.describe(),
                              v->size(), v == &s.offset ? "offset" : "scale", c, c);
  ctx.outputs[0] = {DType::kF32, ctx.in(0).shape};
  return ok_status();
}

Status run_scaler(KernelContext& ctx) {
  const auto& s = ctx.attrs<ScalerAttrs>();
  const TensorRef& x = ctx.in(0);
  const int64_t n = x.numel();
  if (n == 0) return ok_status();
  GK_TRY(std::vector<DevPtr> d, s.device.get(ctx));
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(d[0]).ptr(d[1]).i64(n).i64(x.shape.back());
  args.i64(static_cast<int64_t>(s.offset.size())).i64(static_cast<int64_t>(s.scale.size()));
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_scaler<{}>", {numeric_input_type(x.dtype)}),
                    grid_for(n), args);
}

// ---- Normalizer ---------------------------------------------------------------------

struct NormalizerAttrs {
  int32_t norm = GK_NORM_MAX;
};

Result<ParsedAttrs> parse_normalizer(const AttrMap& a, const NodeView& node) {
  GK_TRY(std::string s, a.get_string("norm", "MAX"));
  NormalizerAttrs attrs;
  if (s == "MAX") attrs.norm = GK_NORM_MAX;
  else if (s == "L1") attrs.norm = GK_NORM_L1;
  else if (s == "L2") attrs.norm = GK_NORM_L2;
  else return invalid_model("{}: norm '{}' is not one of MAX, L1, L2", node.describe(), s);
  return strings::make_attrs(attrs);
}

Status infer_normalizer(InferContext& ctx) {
  GK_RETURN_IF_ERROR(numeric_rows(ctx).status());
  ctx.outputs[0] = {DType::kF32, ctx.in(0).shape};
  return ok_status();
}

Status run_normalizer(KernelContext& ctx) {
  const TensorRef& x = ctx.in(0);
  if (x.numel() == 0) return ok_status();
  const int64_t c = x.shape.back(), rows = x.numel() / c;
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).i64(rows).i64(c).i32(ctx.attrs<NormalizerAttrs>().norm);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_normalizer<{}>", {numeric_input_type(x.dtype)}),
                    grid_for(rows), args);
}

// ---- map ops, refused ------------------------------------------------------------------

Result<ParsedAttrs> refuse_map_op(const AttrMap&, const NodeView& node) {
  const std::string& op = node.op_type;
  const char* what = op == "ZipMap" ? "makes a sequence of maps (seq(map(string or int64, float)))"
                     : op == "DictVectorizer" ? "reads a map (map(string or int64, numeric))"
                                              : "reads and makes maps (map(int64, string or float))";
  return unimplemented("{}: {} {}, and gkrun has no map values", node.describe(), op, what);
}

// Never reached: the parse above refuses every such node.
Status infer_map_op(InferContext& ctx) { return refuse_map_op(AttrMap{}, ctx.node).status(); }
Status run_map_op(KernelContext& ctx) {
  return internal_error("{}: a map op reached run(); its parse refuses it", ctx.node().describe());
}

const OpImpl kLinearClassifier{&parse_linear_classifier, &infer_linear, &run_linear};
const OpImpl kLinearRegressor{&parse_linear_regressor, &infer_linear, &run_linear};
const OpImpl kScaler{&parse_scaler, &infer_scaler, &run_scaler};
const OpImpl kNormalizer{&parse_normalizer, &infer_normalizer, &run_normalizer};
const OpImpl kMapOp{&refuse_map_op, &infer_map_op, &run_map_op};

const OpSchema kLinearSchemas[] = {
    {"ai.onnx.ml", "LinearClassifier", 1, kOpsetCurrent, &kLinearClassifier, {}},
    {"ai.onnx.ml", "LinearRegressor", 1, kOpsetCurrent, &kLinearRegressor, {}},
    {"ai.onnx.ml", "Scaler", 1, kOpsetCurrent, &kScaler, {}},
    {"ai.onnx.ml", "Normalizer", 1, kOpsetCurrent, &kNormalizer, {}},
    {"ai.onnx.ml", "ZipMap", 1, kOpsetCurrent, &kMapOp, {}},
    {"ai.onnx.ml", "DictVectorizer", 1, kOpsetCurrent, &kMapOp, {}},
    {"ai.onnx.ml", "CastMap", 1, kOpsetCurrent, &kMapOp, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> linear_ops() { return kLinearSchemas; }
}  // namespace families

}  // namespace gk

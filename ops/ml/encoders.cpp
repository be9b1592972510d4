// ai.onnx.ml Imputer-1, OneHotEncoder-1 and FeatureVectorizer-1 (ops/ml/ml_ops.cuh),
// as ONNX Runtime computes them. OneHotEncoder on strings runs on the host from
// the input's value, as the string ops do (ops/string/string_ops.h).
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/common/ml_tables.h"
#include "ops/string/string_ops.h"

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

namespace gk {
namespace {

const char* numeric_type(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF64: return "double";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    default: return nullptr;
  }
}

Status check_numeric(const InferContext& ctx, size_t i) {
  if (!numeric_type(ctx.in(i).dtype))
    return unimplemented("{}: input {} is {}; {} takes float32, float64, int32, int64", ctx.node.describe(), i,
                         dtype_name(ctx.in(i).dtype), ctx.node.op_type);
  return ok_status();
}

// ---- Imputer ------------------------------------------------------------------------

struct ImputerAttrs {
  std::vector<double> floats, ints;  // imputed_value_floats / imputed_value_int64s (as double)
  double replaced_float = 0, replaced_int = 0;
  ml::DeviceTables device;  // floats, ints
};

Result<ParsedAttrs> parse_imputer(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<ImputerAttrs>();
  GK_TRY(std::vector<float> f, a.get_floats("imputed_value_floats"));
  GK_TRY(std::vector<int64_t> i, a.get_ints("imputed_value_int64s"));
  if (f.empty() == i.empty())
    return invalid_model("{}: exactly one of imputed_value_floats and imputed_value_int64s must be set",
                         node.describe());
  attrs->floats.assign(f.begin(), f.end());
  attrs->ints.assign(i.begin(), i.end());
  GK_TRY(float rf, a.get_float("replaced_value_float", 0.0f));
  GK_TRY(int64_t ri, a.get_int("replaced_value_int64", 0));
  attrs->replaced_float = rf;
  attrs->replaced_int = static_cast<double>(ri);
  attrs->device.add(DType::kF64, attrs->floats);
  attrs->device.add(DType::kF64, attrs->ints);
  return ParsedAttrs(std::move(attrs));
}

bool is_float_type(DType t) { return t == DType::kF32 || t == DType::kF64; }

Status infer_imputer(InferContext& ctx) {
  const auto& im = attrs_as<ImputerAttrs>(ctx.attrs);
  GK_RETURN_IF_ERROR(check_numeric(ctx, 0));
  const TensorType& x = ctx.in(0);
  const std::vector<double>& values = is_float_type(x.dtype) ? im.floats : im.ints;
  if (values.empty())
    return invalid_model("{}: X is {}, but only imputed_value_{} is set", ctx.node.describe(), dtype_name(x.dtype),
                         im.floats.empty() ? "int64s" : "floats");
  const int64_t c = x.shape.empty() ? 1 : x.shape.back();
  if (values.size() != 1 && static_cast<int64_t>(values.size()) != c)
    return invalid_argument("{}: {} imputed values for X's last dimension {} (1 or {} expected)", ctx.node.describe(),
                            values.size(), c, c);
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_imputer(KernelContext& ctx) {
  const auto& im = ctx.attrs<ImputerAttrs>();
  const TensorRef& x = ctx.in(0);
  const int64_t n = x.numel();
  if (n == 0) return ok_status();
  const bool floats = is_float_type(x.dtype);
  GK_TRY(std::vector<DevPtr> d, im.device.get(ctx));
  const double replaced = floats ? im.replaced_float : im.replaced_int;
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(d[floats ? 0 : 1]).i64(n).i64(x.shape.empty() ? 1 : x.shape.back());
  args.i64(static_cast<int64_t>((floats ? im.floats : im.ints).size())).f64(replaced);
  args.i32(floats && std::isnan(replaced) ? 1 : 0);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_imputer<{}>", {numeric_type(x.dtype)}),
                    grid_for(n), args);
}

// ---- OneHotEncoder --------------------------------------------------------------------

struct OneHotAttrs {
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  bool zeros = true;
  ml::DeviceTables device;  // ints
};

Result<ParsedAttrs> parse_one_hot(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<OneHotAttrs>();
  GK_TRY(attrs->ints, a.get_ints("cats_int64s"));
  if (const Attribute* at = a.find("cats_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute cats_strings must be strings, got {}", node.describe(),
                           attribute_kind_name(at->kind));
    attrs->strings = at->strings;
  }
  if (attrs->ints.empty() == attrs->strings.empty())
    return invalid_model("{}: exactly one of cats_int64s and cats_strings must be set", node.describe());
  GK_TRY(int64_t zeros, a.get_int("zeros", 1));
  attrs->zeros = zeros != 0;
  attrs->device.add(DType::kI64, attrs->ints);
  return ParsedAttrs(std::move(attrs));
}

Status infer_one_hot(InferContext& ctx) {
  const auto& oh = attrs_as<OneHotAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  const bool strings = x.dtype == DType::kString;
  if (strings != !oh.strings.empty())
    return ctx.fail(fmt::format("input is {}, but the categories are {}", dtype_name(x.dtype),
                                oh.strings.empty() ? "cats_int64s" : "cats_strings"));
  if (!strings) GK_RETURN_IF_ERROR(check_numeric(ctx, 0));
  const int64_t c = static_cast<int64_t>(strings ? oh.strings.size() : oh.ints.size());
  Shape y = x.shape;
  y.push_back(c);
  ctx.outputs[0] = {DType::kF32, y};
  if (!strings) return ok_status();
  GK_TRY(const HostTensor* in, strings::host_input(ctx, 0, DType::kString));
  std::unordered_map<std::string, int64_t> at;
  for (int64_t k = c - 1; k >= 0; --k) at[oh.strings[static_cast<size_t>(k)]] = k;  // the first of duplicates
  GK_TRY(HostTensor out, HostTensor::allocate(DType::kF32, y));
  float* o = out.mutable_data<float>();
  std::fill(o, o + numel(y), 0.0f);
  const auto& v = in->string_values();
  for (size_t e = 0; e < v.size(); ++e) {
    auto it = at.find(v[e]);
    if (it != at.end()) o[static_cast<int64_t>(e) * c + it->second] = 1.0f;
    else if (!oh.zeros)
      return invalid_argument("{}: '{}' is not a category, and zeros is 0", ctx.node.describe(), v[e]);
  }
  strings::set_output(ctx, 0, std::move(out));
  return ok_status();
}

Status run_one_hot(KernelContext& ctx) {
  const auto& oh = ctx.attrs<OneHotAttrs>();
  const TensorRef& x = ctx.in(0);
  if (x.dtype == DType::kString) return strings::run_host_only(ctx);
  const int64_t n = x.numel(), c = static_cast<int64_t>(oh.ints.size());
  if (n == 0) return ok_status();
  GK_TRY(std::vector<DevPtr> d, oh.device.get(ctx));
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(d[0]).ptr(ctx.error_flag()).i64(n).i64(c).i32(oh.zeros ? 1 : 0);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_one_hot_encode<{}>", {numeric_type(x.dtype)}),
                    grid_for(n), args);
}

// ---- FeatureVectorizer ------------------------------------------------------------------

struct VectorizerAttrs {
  std::vector<int64_t> dims;
};

Result<ParsedAttrs> parse_vectorizer(const AttrMap& a, const NodeView& node) {
  VectorizerAttrs attrs;
  GK_TRY(attrs.dims, a.get_ints("inputdimensions"));
  for (int64_t d : attrs.dims)
    if (d < 0) return invalid_model("{}: inputdimensions holds {}", node.describe(), d);
  return strings::make_attrs(std::move(attrs));
}

// Each input is [N, C] (or [C], one row); Y is [N, sum(inputdimensions)].
Status infer_vectorizer(InferContext& ctx) {
  const auto& v = attrs_as<VectorizerAttrs>(ctx.attrs);
  if (ctx.inputs.size() != v.dims.size())
    return ctx.fail(fmt::format("{} inputs for {} inputdimensions", ctx.inputs.size(), v.dims.size()));
  int64_t rows = -1, width = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    GK_RETURN_IF_ERROR(check_numeric(ctx, i));
    if (ctx.in(i).dtype != ctx.in(0).dtype)
      return ctx.fail(fmt::format("input {} is {}, input 0 {}; the inputs share one type (T1)", i,
                                  dtype_name(ctx.in(i).dtype), dtype_name(ctx.in(0).dtype)));
    const Shape& s = ctx.in(i).shape;
    if (s.empty() || s.size() > 2) return ctx.fail(fmt::format("input {} must be [N, C] or [C], got {}", i, shape_str(s)));
    const int64_t r = s.size() == 2 ? s[0] : 1;
    if (rows >= 0 && r != rows) return ctx.fail(fmt::format("input {} has {} rows, input 0 {}", i, r, rows));
    rows = r;
    width += v.dims[i];
  }
  ctx.outputs[0] = {DType::kF32, Shape{std::max<int64_t>(rows, 0), width}};
  return ok_status();
}

Status run_vectorizer(KernelContext& ctx) {
  const auto& v = ctx.attrs<VectorizerAttrs>();
  const TensorRef& y = ctx.out(0);
  if (y.numel() == 0) return ok_status();
  const int64_t rows = y.shape[0], out_cols = y.shape[1];
  int64_t at = 0;
  for (size_t i = 0; i < v.dims.size(); ++i) {
    const TensorRef& x = ctx.in(i);
    const int64_t width = v.dims[i];
    if (width > 0) {
      KernelArgs args;
      args.ptr(x.ptr).ptr(y.ptr).i64(rows).i64(x.shape.back()).i64(out_cols).i64(at).i64(width);
      GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::ml_ops,
                                    KernelName::format("gk_feature_place<{}>", {numeric_type(x.dtype)}),
                                    grid_for(rows * width), args));
    }
    at += width;
  }
  return ok_status();
}

const OpImpl kImputer{&parse_imputer, &infer_imputer, &run_imputer};
const OpImpl kOneHotEncoder{&parse_one_hot, &infer_one_hot, &run_one_hot};
const OpImpl kFeatureVectorizer{&parse_vectorizer, &infer_vectorizer, &run_vectorizer};

const OpSchema kEncoderSchemas[] = {
    {"ai.onnx.ml", "Imputer", 1, kOpsetCurrent, &kImputer, {}},
    {"ai.onnx.ml", "OneHotEncoder", 1, kOpsetCurrent, &kOneHotEncoder, {}},
    {"ai.onnx.ml", "FeatureVectorizer", 1, kOpsetCurrent, &kFeatureVectorizer, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> encoder_ops() { return kEncoderSchemas; }
}  // namespace families

}  // namespace gk

// ai.onnx.ml SVMRegressor-1 as ONNX Runtime computes it (ops/ml/ml_ops.cuh,
// gk_svm_regressor): support vectors with their coefficients (n_supports > 0), or
// one weight row (the liblinear mode), a LINEAR, POLY, RBF or SIGMOID kernel.
#include "ops/ml/family.h"
#include "ops/kernel_sources.h"
#include "ops/ml/ml_ops.cuh"
#include "ops/common/ml_tables.h"

#include <string>
#include <vector>

namespace gk {
namespace {

struct SvmAttrs {
  gk_svm_params p{};
  std::vector<float> sv, coef;
  ml::DeviceTables device;  // sv, coef
};

Result<int32_t> kernel_type(const AttrMap& a, const NodeView& node) {
  GK_TRY(std::string k, a.get_string("kernel_type", "LINEAR"));
  const char* names[] = {"LINEAR", "POLY", "RBF", "SIGMOID"};
  for (int32_t i = 0; i < 4; ++i)
    if (k == names[i]) return i;
  return invalid_model("{}: kernel_type '{}' is not one of LINEAR, POLY, RBF, SIGMOID", node.describe(), k);
}

Result<ParsedAttrs> parse_svm_regressor(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<SvmAttrs>();
  gk_svm_params& p = attrs->p;
  GK_TRY(attrs->sv, a.get_floats("support_vectors"));
  GK_TRY(attrs->coef, a.get_floats("coefficients"));
  GK_TRY(std::vector<float> kp, a.get_floats("kernel_params"));
  GK_TRY(std::vector<float> rho, a.get_floats("rho"));
  GK_TRY(p.vectors, a.get_int("n_supports", 0));
  GK_TRY(int64_t one_class, a.get_int("one_class", 0));
  GK_TRY(p.kernel, kernel_type(a, node));
  GK_TRY(std::string post, a.get_string("post_transform", "NONE"));
  if (post != "NONE")
    return unimplemented("{}: post_transform '{}' (ONNX Runtime's SVMRegressor applies none)", node.describe(), post);
  if (!kp.empty() && kp.size() != 3)
    return invalid_model("{}: kernel_params holds {} values (gamma, coef0, degree expected)", node.describe(),
                         kp.size());
  if (rho.size() != 1) return invalid_model("{}: rho must hold 1 value, got {}", node.describe(), rho.size());
  p.gamma = kp.empty() ? 0.0f : kp[0];
  p.coef0 = kp.empty() ? 0.0f : kp[1];
  p.degree = kp.empty() ? 0.0f : kp[2];
  p.rho = rho[0];
  p.one_class = one_class != 0;
  if (p.vectors < 0) return invalid_model("{}: n_supports is {}", node.describe(), p.vectors);
  if (p.vectors > 0) {
    if (attrs->sv.empty() || attrs->sv.size() % static_cast<size_t>(p.vectors) != 0)
      return invalid_model("{}: {} support_vectors values do not split into {} vectors", node.describe(),
                           attrs->sv.size(), p.vectors);
    if (static_cast<int64_t>(attrs->coef.size()) != p.vectors)
      return invalid_model("{}: {} coefficients for {} support vectors", node.describe(), attrs->coef.size(),
                           p.vectors);
    p.features = static_cast<int64_t>(attrs->sv.size()) / p.vectors;
  } else {
    if (attrs->coef.empty()) return invalid_model("{}: coefficients is empty", node.describe());
    p.features = static_cast<int64_t>(attrs->coef.size());
  }
  attrs->device.add(DType::kF32, attrs->sv);
  attrs->device.add(DType::kF32, attrs->coef);
  return ParsedAttrs(std::move(attrs));
}

const char* svm_input_type(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF64: return "double";
    case DType::kI32: return "int32_t";
    case DType::kI64: return "int64_t";
    default: return nullptr;
  }
}

Status infer_svm_regressor(InferContext& ctx) {
  const auto& s = attrs_as<SvmAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!svm_input_type(x.dtype))
    return unimplemented("{}: input type {}; SVMRegressor takes float32, float64, int32, int64", ctx.node.describe(),
                         dtype_name(x.dtype));
  if (x.shape.empty() || x.shape.size() > 2)
    return ctx.fail(fmt::format("X must be [N, F] (or [F]), got {}", shape_str(x.shape)));
  if (x.shape.back() != s.p.features)
    return invalid_argument("{}: X has {} features, the model {}", ctx.node.describe(), x.shape.back(),
                            s.p.features);
  ctx.outputs[0] = {DType::kF32, Shape{x.shape.size() == 2 ? x.shape[0] : 1, 1}};
  return ok_status();
}

Status run_svm_regressor(KernelContext& ctx) {
  const auto& s = ctx.attrs<SvmAttrs>();
  const TensorRef& x = ctx.in(0);
  gk_svm_params p = s.p;
  p.rows = x.shape.size() == 2 ? x.shape[0] : 1;
  if (p.rows == 0) return ok_status();
  GK_TRY(std::vector<DevPtr> d, s.device.get(ctx));
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).ptr(d[0]).ptr(d[1]).pod(p);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_svm_regressor<{}>", {svm_input_type(x.dtype)}),
                    grid_for(p.rows), args);
}

const OpImpl kSvmRegressor{&parse_svm_regressor, &infer_svm_regressor, &run_svm_regressor};

const OpSchema kSvmSchemas[] = {
    {"ai.onnx.ml", "SVMRegressor", 1, kOpsetCurrent, &kSvmRegressor, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> svm_ops() { return kSvmSchemas; }
}  // namespace families

}  // namespace gk

// ai.onnx.ml SVMRegressor-1 and SVMClassifier-1 as ONNX Runtime computes them
// (ops/ml/ml_ops.cuh): support vectors with their coefficients, or weight rows (the
// liblinear mode), a LINEAR, POLY, RBF or SIGMOID kernel; SVMClassifier's Platt
// probabilities (prob_a, prob_b) coupled as libsvm does. String labels are computed
// on the host from X's value with the kernel's row function.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/ml/ml_ops.cuh"
#include "ops/common/ml_labels.h"
#include "ops/common/ml_tables.h"
#include "ops/string/string_ops.h"

#include <algorithm>

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

// ---- SVMClassifier ---------------------------------------------------------------------

struct SvmClassAttrs {
  gk_svm_params p{};
  std::vector<float> sv, coef, rho, prob_a, prob_b;
  std::vector<int64_t> start, count, labels;
  std::vector<std::string> string_labels;
  int64_t classes = 0, width = 0;
  int32_t post = GK_TREE_NONE;
  bool all_positive = true;
  ml::DeviceTables device;  // sv, coef, rho, start, count, labels

  gk_svm_tables tables(const float* s, const float* c, const float* r, const int64_t* st, const int64_t* n,
                       const int64_t* l, const float* pa, const float* pb) const {
    return {s, c, r, st, n, l, prob_a.empty() ? nullptr : pa, prob_a.empty() ? nullptr : pb, classes, post,
            all_positive ? 1 : 0};
  }
  int64_t work() const { return p.vectors + classes * (2 * classes + 2); }
};

Result<ParsedAttrs> parse_svm_classifier(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<SvmClassAttrs>();
  SvmClassAttrs& s = *attrs;
  const auto bad = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  GK_TRY(s.prob_a, a.get_floats("prob_a"));
  GK_TRY(s.prob_b, a.get_floats("prob_b"));
  if (s.prob_a.size() != s.prob_b.size())
    return bad(fmt::format("{} prob_a but {} prob_b values", s.prob_a.size(), s.prob_b.size()));
  GK_TRY(s.sv, a.get_floats("support_vectors"));
  GK_TRY(s.coef, a.get_floats("coefficients"));
  GK_TRY(s.rho, a.get_floats("rho"));
  GK_TRY(s.count, a.get_ints("vectors_per_class"));
  GK_TRY(std::vector<float> kp, a.get_floats("kernel_params"));
  GK_TRY(s.p.kernel, kernel_type(a, node));
  GK_TRY(std::string post, a.get_string("post_transform", "NONE"));
  const char* posts[] = {"NONE", "SOFTMAX", "LOGISTIC", "SOFTMAX_ZERO", "PROBIT"};
  const auto* found = std::find(std::begin(posts), std::end(posts), post);
  if (found == std::end(posts)) return bad(fmt::format("post_transform '{}' is not recognised", post));
  s.post = static_cast<int32_t>(found - std::begin(posts));
  GK_TRY(s.labels, a.get_ints("classlabels_ints"));
  if (const Attribute* at = a.find("classlabels_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return bad(fmt::format("attribute classlabels_strings must be strings, got {}", attribute_kind_name(at->kind)));
    s.string_labels = at->strings;
  }
  if (s.labels.empty() == s.string_labels.empty())
    return bad("exactly one of classlabels_ints and classlabels_strings must be set");
  s.classes = static_cast<int64_t>(s.labels.empty() ? s.string_labels.size() : s.labels.size());
  if (s.classes < 2) return bad(fmt::format("{} class label; SVMClassifier needs at least 2", s.classes));
  if (!kp.empty() && kp.size() != 3)
    return bad(fmt::format("kernel_params holds {} values (gamma, coef0, degree expected)", kp.size()));
  s.p.gamma = kp.empty() ? 0.0f : kp[0];
  s.p.coef0 = kp.empty() ? 0.0f : kp[1];
  s.p.degree = kp.empty() ? 0.0f : kp[2];
  int64_t vectors = 0;
  for (int64_t n : s.count) {
    if (n < 0) return bad(fmt::format("vectors_per_class holds {}", n));
    s.start.push_back(vectors);
    vectors += n;
  }
  s.p.vectors = vectors;
  const int64_t pairs = s.classes * (s.classes - 1) / 2;
  if (vectors > 0) {
    if (static_cast<int64_t>(s.count.size()) != s.classes)
      return bad(fmt::format("vectors_per_class has {} entries for {} classes", s.count.size(), s.classes));
    if (s.sv.empty() || s.sv.size() % static_cast<size_t>(vectors) != 0)
      return bad(fmt::format("{} support_vectors values do not split into {} vectors", s.sv.size(), vectors));
    s.p.features = static_cast<int64_t>(s.sv.size()) / vectors;
    if (static_cast<int64_t>(s.coef.size()) != (s.classes - 1) * vectors)
      return bad(fmt::format("{} coefficients; the SVC mode takes (classes - 1) * vectors = {}", s.coef.size(),
                             (s.classes - 1) * vectors));
    if (static_cast<int64_t>(s.rho.size()) != pairs)
      return bad(fmt::format("{} rho values for {} class pairs", s.rho.size(), pairs));
    if (!s.prob_a.empty() && static_cast<int64_t>(s.prob_a.size()) != pairs)
      return bad(fmt::format("{} prob_a values for {} class pairs", s.prob_a.size(), pairs));
    s.width = !s.prob_a.empty() ? s.classes : s.classes > 2 ? pairs : 2;
  } else {
    s.p.kernel = GK_SVM_LINEAR;  // the liblinear mode, as ORT sets it
    if (s.coef.empty() || s.coef.size() % static_cast<size_t>(s.classes) != 0)
      return bad(fmt::format("{} coefficients do not split into {} class rows", s.coef.size(), s.classes));
    if (s.rho.empty()) return bad("rho is empty");
    s.p.features = static_cast<int64_t>(s.coef.size()) / s.classes;
    s.width = s.classes;
  }
  s.all_positive = std::none_of(s.coef.begin(), s.coef.end(), [](float w) { return w < 0; });
  s.device.add(DType::kF32, s.sv);
  s.device.add(DType::kF32, s.coef);
  s.device.add(DType::kF32, s.rho);
  s.device.add(DType::kI64, s.start);
  s.device.add(DType::kI64, s.count);
  s.device.add(DType::kI64, s.labels);
  s.device.add(DType::kF32, s.prob_a);
  s.device.add(DType::kF32, s.prob_b);
  return ParsedAttrs(std::move(attrs));
}

Status infer_svm_classifier(InferContext& ctx) {
  const auto& s = attrs_as<SvmClassAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  if (!svm_input_type(x.dtype))
    return unimplemented("{}: input type {}; SVMClassifier takes float32, float64, int32, int64", ctx.node.describe(),
                         dtype_name(x.dtype));
  if (x.shape.empty() || x.shape.size() > 2)
    return ctx.fail(fmt::format("X must be [N, F] (or [F]), got {}", shape_str(x.shape)));
  if (x.shape.back() != s.p.features)
    return invalid_argument("{}: X has {} features, the model {}", ctx.node.describe(), x.shape.back(),
                            s.p.features);
  const int64_t rows = x.shape.size() == 2 ? x.shape[0] : 1;
  const bool strings = !s.string_labels.empty();
  ctx.outputs[0] = {strings ? DType::kString : DType::kI64, Shape{rows}};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {DType::kF32, Shape{rows, s.width}};
  if (!strings || !ctx.has_value(0)) return ok_status();
  const std::vector<double> xv = ctx.values[0]->to_f64_vector();
  const gk_svm_tables t = s.tables(s.sv.data(), s.coef.data(), s.rho.data(), s.start.data(), s.count.data(), nullptr,
                                   s.prob_a.data(), s.prob_b.data());
  GK_TRY(HostTensor z, HostTensor::allocate(DType::kF32, Shape{rows, s.width}));
  std::vector<float> work(static_cast<size_t>(s.work()));
  std::vector<std::string> y(static_cast<size_t>(rows));
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t k = gk_svm_classify(xv.data() + r * s.p.features, z.mutable_data<float>() + r * s.width,
                                      work.data(), t, s.p);
    y[static_cast<size_t>(r)] = s.string_labels[static_cast<size_t>(k)];
  }
  return ml::set_string_label_outputs(ctx, std::move(y), std::move(z));
}

Status run_svm_classifier(KernelContext& ctx) {
  const auto& s = ctx.attrs<SvmClassAttrs>();
  const TensorRef& x = ctx.in(0);
  if (ctx.out(0).dtype == DType::kString) return strings::run_host_only(ctx);
  gk_svm_params p = s.p;
  p.rows = x.shape.size() == 2 ? x.shape[0] : 1;
  if (p.rows == 0) return ok_status();
  GK_TRY(std::vector<DevPtr> d, s.device.get(ctx));
  const auto f = [&](size_t i) { return reinterpret_cast<const float*>(static_cast<uintptr_t>(d[i])); };
  const auto n = [&](size_t i) { return reinterpret_cast<const int64_t*>(static_cast<uintptr_t>(d[i])); };
  const gk_svm_tables t = s.tables(f(0), f(1), f(2), n(3), n(4), n(5), f(6), f(7));
  DevPtr y = ctx.out(0).ptr, z = ctx.num_outputs() > 1 ? ctx.out(1).ptr : 0;
  if (!y) {
    GK_TRY(GkBuf b, ctx.scratch(DType::kI64, p.rows));
    y = b.ptr();
  }
  if (!z) {
    GK_TRY(GkBuf b, ctx.scratch(DType::kF32, p.rows * s.width));
    z = b.ptr();
  }
  GK_TRY(GkBuf work, ctx.scratch(DType::kF32, p.rows * s.work()));
  KernelArgs args;
  args.ptr(x.ptr).ptr(y).ptr(z).ptr(work.ptr()).pod(t).pod(p).i64(s.width);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_svm_classifier<{}>", {svm_input_type(x.dtype)}),
                    grid_for(p.rows), args);
}

const OpImpl kSvmRegressor{&parse_svm_regressor, &infer_svm_regressor, &run_svm_regressor};
const OpImpl kSvmClassifier{&parse_svm_classifier, &infer_svm_classifier, &run_svm_classifier};

const OpSchema kSvmSchemas[] = {
    {"ai.onnx.ml", "SVMRegressor", 1, kOpsetCurrent, &kSvmRegressor, {}},
    {"ai.onnx.ml", "SVMClassifier", 1, kOpsetCurrent, &kSvmClassifier, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> svm_ops() { return kSvmSchemas; }
}  // namespace families

}  // namespace gk

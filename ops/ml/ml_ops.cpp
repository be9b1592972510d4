// ai.onnx.ml Binarizer-1 and ArrayFeatureExtractor-1 (ops/ml/ml_ops.cuh).
// ArrayFeatureExtractor on strings runs on the host at plan time, as the string
// ops do (ops/string/string_ops.h).
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/string/string_ops.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gk {
namespace {

// ---- Binarizer ------------------------------------------------------------------

struct BinarizerAttrs {
  float threshold = 0;
};

Result<ParsedAttrs> parse_binarizer(const AttrMap& a, const NodeView&) {
  BinarizerAttrs attrs;
  GK_TRY(attrs.threshold, a.get_float("threshold", 0.0f));
  return strings::make_attrs(attrs);
}

constexpr TypeSet kBinarizerTypes =
    type_bit(DType::kF32) | type_bit(DType::kF64) | type_bit(DType::kI32) | type_bit(DType::kI64);

Status infer_binarizer(InferContext& ctx) {
  const TensorType& x = ctx.in(0);
  if (!type_in(x.dtype, kBinarizerTypes))
    return unimplemented("{}: input type {}; Binarizer takes {}", ctx.node.describe(), dtype_name(x.dtype),
                         type_set_names(kBinarizerTypes));
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_binarizer(KernelContext& ctx) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).i64(n).f64(ctx.attrs<BinarizerAttrs>().threshold);
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_binarizer<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(n), args);
}

// ---- ArrayFeatureExtractor ----------------------------------------------------------

// Z takes X's shape with the last axis replaced by the count of indices (Y is
// read flattened, as the reference does); a 1-D X gives [1, count].
Result<Shape> extracted_shape(const InferContext& ctx) {
  const Shape& x = ctx.in(0).shape;
  if (ctx.in(1).dtype != DType::kI64)
    return ctx.fail(fmt::format("indices Y must be int64, got {}", dtype_name(ctx.in(1).dtype)));
  if (x.empty()) return ctx.fail("X must have at least one dimension");
  const int64_t k = numel(ctx.in(1).shape);
  Shape z = x.size() == 1 ? Shape{1, k} : x;
  z.back() = k;
  if (x.back() == 0 && numel(z) > 0)
    return out_of_range("{}: X's last dimension is 0, so no index in Y is valid", ctx.node.describe());
  return z;
}

Status infer_array_feature_extractor(InferContext& ctx) {
  GK_TRY(Shape z, extracted_shape(ctx));
  const DType t = ctx.in(0).dtype;
  if (t == DType::kString) {
    GK_TRY(const HostTensor* x, strings::host_input(ctx, 0, DType::kString));
    GK_TRY(const HostTensor* y, strings::host_input(ctx, 1, DType::kI64));
    const std::vector<int64_t> idx = y->to_i64_vector();
    const int64_t d = x->shape().back(), k = static_cast<int64_t>(idx.size()), rows = numel(z) / std::max<int64_t>(k, 1);
    for (int64_t c : idx)
      if (c < 0 || c >= d)
        return out_of_range("{}: index {} in Y is outside [0, {}) (X's last dimension)", ctx.node.describe(), c, d);
    std::vector<std::string> out;
    out.reserve(static_cast<size_t>(numel(z)));
    for (int64_t r = 0; r < rows && k > 0; ++r)
      for (int64_t c : idx) out.push_back(x->string_values()[static_cast<size_t>(r * d + c)]);
    strings::set_output(ctx, 0, HostTensor::strings(std::move(z), std::move(out)));
    return ok_status();
  }
  if (!kernel_type_name(t))
    return unimplemented("{}: input type {} is not supported by ArrayFeatureExtractor", ctx.node.describe(),
                         dtype_name(t));
  ctx.outputs[0] = {t, std::move(z)};
  return ok_status();
}

Status run_array_feature_extractor(KernelContext& ctx) {
  const TensorRef &x = ctx.in(0), &idx = ctx.in(1), &z = ctx.out(0);
  if (x.dtype == DType::kString) return strings::run_host_only(ctx);
  const int64_t n = z.numel();
  if (n == 0) return ok_status();
  const char* storage = nullptr;
  switch (dtype_storage_bytes(x.dtype, 1)) {
    case 1: storage = "uint8_t"; break;
    case 2: storage = "uint16_t"; break;
    case 4: storage = "uint32_t"; break;
    case 8: storage = "uint64_t"; break;
    default: return internal_error("{}: element type {} has no storage width", ctx.node().describe(), dtype_name(x.dtype));
  }
  KernelArgs args;
  args.ptr(x.ptr).ptr(idx.ptr).ptr(z.ptr).ptr(ctx.error_flag()).i64(n).i64(idx.numel()).i64(x.shape.back());
  return ctx.launch(kernel_sources::ml_ops, KernelName::format("gk_array_feature_extract<{}>", {storage}), grid_for(n),
                    args);
}

const OpImpl kBinarizer{&parse_binarizer, &infer_binarizer, &run_binarizer};
const OpImpl kArrayFeatureExtractor{nullptr, &infer_array_feature_extractor, &run_array_feature_extractor};

const OpSchema kMlSchemas[] = {
    {"ai.onnx.ml", "Binarizer", 1, kOpsetCurrent, &kBinarizer, {.inplace_input = 0, .elementwise = false}},
    {"ai.onnx.ml", "ArrayFeatureExtractor", 1, kOpsetCurrent, &kArrayFeatureExtractor, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> ml_ops() { return kMlSchemas; }
}  // namespace families

}  // namespace gk

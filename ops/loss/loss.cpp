// NegativeLogLikelihoodLoss (12, 13, 22) and SoftmaxCrossEntropyLoss (12, 13).
// The versions differ only in element types: bfloat16 arrives with NLL 22 and
// SCE 13. SCE is the log-softmax of its scores along C (ops/softmax/softmax.cuh,
// written to the optional log_prob output or to scratch) followed by the NLL
// kernel of ops/loss/loss.cuh.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

namespace gk {
namespace {

enum Reduction : int32_t { kNone = 0, kSum = 1, kMean = 2 };  // GK_LOSS_* in ops/loss/loss.cuh

// Must match gk_loss_params in ops/loss/loss.cuh.
struct LossParams {
  int64_t m = 0;
  int64_t classes = 0;
  int64_t inner = 1;
  int64_t ignore_index = 0;
  int32_t has_ignore = 0;
  int32_t reduction = kMean;
};
static_assert(sizeof(LossParams) == 40);

struct LossAttrs {
  int32_t reduction = kMean;
  bool has_ignore = false;
  int64_t ignore_index = 0;
  bool allow_bf16 = false;
};

Result<ParsedAttrs> parse_impl(const AttrMap& a, const NodeView& node, bool allow_bf16) {
  auto r = std::make_shared<LossAttrs>();
  GK_TRY(std::string red, a.get_string("reduction", "mean"));
  if (red == "none") r->reduction = kNone;
  else if (red == "sum") r->reduction = kSum;
  else if (red == "mean") r->reduction = kMean;
  else return invalid_model("{}: reduction '{}' is not one of none, sum, mean", node.describe(), red);
  r->has_ignore = a.has("ignore_index");
  GK_TRY(r->ignore_index, a.get_int("ignore_index", 0));
  r->allow_bf16 = allow_bf16;
  return ParsedAttrs(std::move(r));
}
Result<ParsedAttrs> parse_no_bf16(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, false); }
Result<ParsedAttrs> parse_bf16(const AttrMap& a, const NodeView& node) { return parse_impl(a, node, true); }

// input [N, C, d1..dk], target [N, d1..dk], weight [C]: the loss type and shape.
Status infer(InferContext& ctx) {
  const auto& r = attrs_as<LossAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  const TensorType& target = ctx.in(1);
  const bool type_ok = dtype_is_float(x.dtype) && (r.allow_bf16 || x.dtype != DType::kBF16);
  if (!type_ok)
    return unimplemented("{}: element type {} is not supported ({})", ctx.node.describe(), dtype_name(x.dtype),
                         r.allow_bf16 ? "float16, bfloat16, float32, float64"
                                      : "float16, float32, float64 at this opset");
  if (target.dtype != DType::kI32 && target.dtype != DType::kI64)
    return ctx.fail(fmt::format("the target has type {}, expected int32 or int64", dtype_name(target.dtype)));
  if (x.shape.size() < 2) return ctx.fail(fmt::format("the input has shape {}, expected (N, C, ...)", shape_str(x.shape)));
  Shape want = x.shape;
  want.erase(want.begin() + 1);
  if (target.shape != want)
    return ctx.fail(fmt::format("the target has shape {}, expected {} (the input's {} without C)",
                                shape_str(target.shape), shape_str(want), shape_str(x.shape)));
  if (ctx.node.has_input(2)) {
    const TensorType& w = ctx.in(2);
    if (w.dtype != x.dtype)
      return ctx.fail(fmt::format("the weight has type {}, the input {}", dtype_name(w.dtype), dtype_name(x.dtype)));
    if (w.shape != Shape{x.shape[1]})
      return ctx.fail(fmt::format("the weight has shape {}, expected [C] = {}", shape_str(w.shape), x.shape[1]));
  }
  ctx.outputs[0] = {x.dtype, r.reduction == kNone ? target.shape : Shape{}};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = x;  // SCE's log_prob
  return ok_status();
}

// The NLL kernel on log-probabilities `x` (of input 0's type and shape).
Status launch_nll(KernelContext& ctx, DevPtr x) {
  const auto& r = ctx.attrs<LossAttrs>();
  const TensorRef& in = ctx.in(0);
  const TensorRef& target = ctx.in(1);
  TensorRef& y = ctx.out(0);
  LossParams p;
  p.m = target.numel();
  p.classes = in.shape[1];
  p.inner = p.m / std::max<int64_t>(in.shape[0], 1);
  p.ignore_index = r.ignore_index;
  p.has_ignore = r.has_ignore ? 1 : 0;
  p.reduction = r.reduction;
  const DevPtr weight = ctx.num_inputs() > 2 && ctx.in(2).present() ? ctx.in(2).ptr : 0;
  KernelArgs args;
  args.ptr(x).ptr(target.ptr).ptr(weight).ptr(y.ptr).ptr(ctx.error_flag()).pod(p);
  const char* value_type = kernel_type_name(in.dtype);
  const char* target_type = target.dtype == DType::kI32 ? "int32_t" : "int64_t";
  if (r.reduction == kNone) {
    if (p.m == 0) return ok_status();
    return ctx.launch(kernel_sources::loss, KernelName::format("gk_loss_none<{}, {}>", {value_type, target_type}),
                      grid_for(p.m), args);
  }
  // Block size: a power of two up to GK_ROWS_BLOCK (gk_block_reduce).
  const LaunchConfig one_block{{1, 1, 1}, {256, 1, 1}};
  return ctx.launch(kernel_sources::loss, KernelName::format("gk_loss_reduce<{}, {}>", {value_type, target_type}),
                    one_block, args);
}

Status run_nll(KernelContext& ctx) { return launch_nll(ctx, ctx.in(0).ptr); }

Status run_sce(KernelContext& ctx) {
  const TensorRef& scores = ctx.in(0);
  DevPtr log_prob = 0;
  if (scores.numel() > 0) {
    if (ctx.node().has_output(1) && ctx.num_outputs() > 1) {
      log_prob = ctx.out(1).ptr;
    } else {
      GK_TRY(GkBuf buf, ctx.scratch(scores.dtype, scores.numel()));
      log_prob = buf.ptr();
    }
    // ops/softmax/softmax.cpp's launch rule: a block per row once rows are long, unless
    // they are strided columns (here rows are (n, d), C elements D apart).
    const RowGeometry g = axis_geometry(scores.shape, 1);
    const bool block = g.len > 64 && (g.inner == 1 || g.rows < 2048);
    KernelArgs args;
    args.ptr(scores.ptr).ptr(log_prob).pod(g);
    GK_RETURN_IF_ERROR(ctx.launch(
        kernel_sources::softmax,
        KernelName::format("gk_softmax_{}<{}, 1>", {block ? "block" : "thread", kernel_type_name(scores.dtype)}),
        block ? rows_launch(g.rows, g.len) : grid_for(g.rows), args));
  }
  return launch_nll(ctx, log_prob);
}

const OpImpl kNll12{&parse_no_bf16, &infer, &run_nll};
const OpImpl kNll22{&parse_bf16, &infer, &run_nll};
const OpImpl kSce12{&parse_no_bf16, &infer, &run_sce};
const OpImpl kSce13{&parse_bf16, &infer, &run_sce};

const OpSchema kLossSchemas[] = {
    {"", "NegativeLogLikelihoodLoss", 12, 21, &kNll12, {}},
    {"", "NegativeLogLikelihoodLoss", 22, kOpsetCurrent, &kNll22, {}},
    {"", "SoftmaxCrossEntropyLoss", 12, 12, &kSce12, {}},
    {"", "SoftmaxCrossEntropyLoss", 13, kOpsetCurrent, &kSce13, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> loss_ops() { return kLossSchemas; }
}  // namespace families

}  // namespace gk

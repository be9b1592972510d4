// Variadic elementwise ops (Sum, Mean, Max, Min: 1..N inputs, broadcast) and the
// three-way broadcasting Where. Kernels: ops/elementwise/elementwise.cuh.
#include "ops/common/broadcast_plan.h"
#include "ops/elementwise/elementwise.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <memory>

namespace gk {
namespace {

// Kernels that only move bits are instantiated per element size.
const char* bits_type_name(DType t) {
  switch (dtype_bits(t)) {
    case 8: return "uint8_t";
    case 16: return "uint16_t";
    case 32: return "uint32_t";
    case 64: return "uint64_t";
    default: return nullptr;
  }
}

struct VariadicOp {
  const char* functor;
  TypeSet types;
  bool mean;
};

// Sum/Max/Min take the numeric types their newest versions list; Mean floats only
// (it divides). Version 6 (opset 6-7) requires equal shapes, a case of broadcasting.
constexpr VariadicOp kSumOp{"gk_op_add", kNumericTypes, false};
constexpr VariadicOp kMeanOp{"gk_op_add", kFloatTypes, true};
constexpr VariadicOp kMaxOp{"gk_op_max", kNumericTypes, false};
constexpr VariadicOp kMinOp{"gk_op_min", kNumericTypes, false};

template <const VariadicOp* Op>
Status infer_variadic(InferContext& ctx) {
  if (ctx.inputs.empty()) return ctx.fail("takes at least one input");
  const DType t = ctx.in(0).dtype;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (ctx.in(i).dtype == DType::kUndefined) return ctx.fail(fmt::format("input {} is missing", i));
    if (ctx.in(i).dtype != t)
      return ctx.fail(fmt::format("input {} has element type {}, input 0 has {}", i,
                                  dtype_name(ctx.in(i).dtype), dtype_name(t)));
  }
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, t, Op->types));
  GK_TRY(Shape shape, infer_broadcast(ctx, ctx.inputs));
  ctx.outputs[0] = {t, std::move(shape)};
  return ok_status();
}

Status launch_copy(KernelContext& ctx, const TensorRef& in, const TensorRef& out) {
  const int64_t n = out.numel();
  const Shape shapes[] = {in.shape};
  auto plan = plan_broadcast(out.shape, shapes, false);
  if (!plan.ok()) return ctx.fail(plan.status().message());
  KernelArgs args;
  args.ptr(in.ptr).ptr(out.ptr).i64(n).i32(plan->layout).pod(plan->maps[0]);
  return ctx.launch(kernel_sources::elementwise, KernelName::format("gk_ew_copy<{}>", {bits_type_name(in.dtype)}),
                    grid_for(n), args);
}

// Folds left: out = op(in0, in1), then out = op(out, in_k) in place. Each step
// reads out[i] before writing it, so in0 may share out's buffer.
template <const VariadicOp* Op>
Status run_variadic(KernelContext& ctx) {
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const DType t = out.dtype;
  if (ctx.num_inputs() == 1) {
    GK_RETURN_IF_ERROR(launch_copy(ctx, ctx.in(0), out));
  } else {
    GK_RETURN_IF_ERROR(launch_binary(ctx, Op->functor, t, ctx.in(0), ctx.in(1), out));
    for (size_t k = 2; k < ctx.num_inputs(); ++k)
      GK_RETURN_IF_ERROR(launch_binary(ctx, Op->functor, t, out, ctx.in(k), out));
  }
  if (!Op->mean || ctx.num_inputs() == 1) return ok_status();
  KernelArgs args;
  args.ptr(out.ptr).i64(n).f64(static_cast<double>(ctx.num_inputs()));
  return ctx.launch(kernel_sources::elementwise, KernelName::format("gk_ew_divide_by<{}>", {kernel_type_name(t)}),
                    grid_for(n), args);
}

Status infer_where(InferContext& ctx) {
  if (ctx.inputs.size() != 3) return ctx.fail(fmt::format("takes 3 inputs, got {}", ctx.inputs.size()));
  for (size_t i = 0; i < 3; ++i)
    if (ctx.in(i).dtype == DType::kUndefined) return ctx.fail(fmt::format("input {} is missing", i));
  if (ctx.in(0).dtype != DType::kBool)
    return ctx.fail(fmt::format("condition has element type {}; must be bool", dtype_name(ctx.in(0).dtype)));
  const DType t = ctx.in(1).dtype;
  if (ctx.in(2).dtype != t)
    return ctx.fail(fmt::format("X and Y have different element types ({} and {})", dtype_name(t),
                                dtype_name(ctx.in(2).dtype)));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 1, t, kNumericTypes | kBoolType));
  GK_TRY(Shape shape, infer_broadcast(ctx, ctx.inputs));
  ctx.outputs[0] = {t, std::move(shape)};
  return ok_status();
}

Status run_where(KernelContext& ctx) {
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const Shape shapes[] = {ctx.in(0).shape, ctx.in(1).shape, ctx.in(2).shape};
  auto plan = plan_broadcast(out.shape, shapes, false);
  if (!plan.ok()) return ctx.fail(plan.status().message());
  KernelArgs args;
  args.ptr(ctx.in(0).ptr).ptr(ctx.in(1).ptr).ptr(ctx.in(2).ptr).ptr(out.ptr).i64(n).i32(plan->layout);
  for (const IndexMap& m : plan->maps) args.pod(m);
  return ctx.launch(kernel_sources::elementwise, KernelName::format("gk_where<{}>", {bits_type_name(out.dtype)}),
                    grid_for(n), args);
}

constexpr OpImpl kSum{nullptr, &infer_variadic<&kSumOp>, &run_variadic<&kSumOp>};
constexpr OpImpl kMean{nullptr, &infer_variadic<&kMeanOp>, &run_variadic<&kMeanOp>};
constexpr OpImpl kMax{nullptr, &infer_variadic<&kMaxOp>, &run_variadic<&kMaxOp>};
constexpr OpImpl kMin{nullptr, &infer_variadic<&kMinOp>, &run_variadic<&kMinOp>};
constexpr OpImpl kWhere{nullptr, &infer_where, &run_where};

constexpr OpTraits kSameType{.inplace_input = 0, .elementwise = true};

const OpSchema kOps[] = {
    {"", "Sum", 6, kOpsetCurrent, &kSum, kSameType},
    {"", "Mean", 6, kOpsetCurrent, &kMean, kSameType},
    {"", "Max", 6, kOpsetCurrent, &kMax, kSameType},
    {"", "Min", 6, kOpsetCurrent, &kMin, kSameType},
    {"", "Where", 9, kOpsetCurrent, &kWhere, {.inplace_input = 1, .elementwise = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> variadic_ops() { return kOps; }
}  // namespace families

}  // namespace gk

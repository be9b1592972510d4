// Unary math ops, IsNaN/IsInf, Not/BitwiseNot and Clip. Kernels:
// ops/unary/unary.cuh; activations are in ops/unary/activations.cpp.
#include "ops/unary/unary.h"

#include "ops/cast/cast.h"
#include "ops/elementwise/elementwise.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <cstring>
#include <limits>
#include <memory>

namespace gk {

ParsedAttrs make_unary_attrs(const UnaryKind& kind, UnaryParams params) {
  return std::make_shared<UnaryAttrs>(UnaryAttrs{kind, params});
}

Status infer_unary(InferContext& ctx) {
  const UnaryKind& kind = attrs_as<UnaryAttrs>(ctx.attrs).kind;
  if (ctx.inputs.size() != 1 || ctx.in(0).dtype == DType::kUndefined)
    return ctx.fail(fmt::format("takes 1 input, got {}", ctx.inputs.size()));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, ctx.in(0).dtype, kind.types));
  ctx.outputs[0] = {kind.bool_out ? DType::kBool : ctx.in(0).dtype, ctx.in(0).shape};
  return ok_status();
}

Status run_unary(KernelContext& ctx) {
  const UnaryAttrs& a = ctx.attrs<UnaryAttrs>();
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).i64(n).pod(a.params);
  return ctx.launch(kernel_sources::unary,
                    KernelName::format("gk_unary<{}, {}>", {a.kind.functor, kernel_type_name(x.dtype)}), grid_for(n),
                    args);
}

namespace {

constexpr TypeSet kAbsTypes = kNumericTypes;
constexpr TypeSet kNegTypes = kFloatTypes | kSignedIntTypes;

#define KIND(name, functor, types) constexpr UnaryKind name{functor, types, false};
KIND(kAbsK, "gk_un_abs", kAbsTypes)
KIND(kNegK, "gk_un_negate", kNegTypes)
KIND(kSignK, "gk_un_sign", kNumericTypes)
KIND(kCeilK, "gk_un_ceil", kFloatTypes)
KIND(kFloorK, "gk_un_floor", kFloatTypes)
KIND(kRoundK, "gk_un_round", kFloatTypes)
KIND(kReciprocalK, "gk_un_reciprocal", kFloatTypes)
KIND(kSqrtK, "gk_un_sqrt", kFloatTypes)
KIND(kExpK, "gk_un_exp", kFloatTypes)
KIND(kLogK, "gk_un_log", kFloatTypes)
KIND(kErfK, "gk_un_erf", kFloatTypes)
KIND(kSinK, "gk_un_sin", kFloatTypes)
KIND(kCosK, "gk_un_cos", kFloatTypes)
KIND(kTanK, "gk_un_tan", kFloatTypes)
KIND(kAsinK, "gk_un_asin", kFloatTypes)
KIND(kAcosK, "gk_un_acos", kFloatTypes)
KIND(kAtanK, "gk_un_atan", kFloatTypes)
KIND(kSinhK, "gk_un_sinh", kFloatTypes)
KIND(kCoshK, "gk_un_cosh", kFloatTypes)
KIND(kAsinhK, "gk_un_asinh", kFloatTypes)
KIND(kAcoshK, "gk_un_acosh", kFloatTypes)
KIND(kAtanhK, "gk_un_atanh", kFloatTypes)
KIND(kTanhK, "gk_un_tanh", kFloatTypes)
KIND(kNotK, "gk_un_not", kBoolType)
KIND(kBitwiseNotK, "gk_un_bitnot", kIntTypes)
#undef KIND
constexpr UnaryKind kIsNaNK{"gk_un_isnan", kFloatTypes, true};
constexpr UnaryKind kIsInfK{"gk_un_isinf", kFloatTypes, true};

Result<ParsedAttrs> parse_isinf(const AttrMap& attrs, const NodeView&) {
  GK_TRY(int64_t neg, attrs.get_int("detect_negative", 1));
  GK_TRY(int64_t pos, attrs.get_int("detect_positive", 1));
  UnaryParams p;
  p.flags = (neg ? 1 : 0) | (pos ? 2 : 0);
  return make_unary_attrs(kIsInfK, p);
}

// Clip-6 has min/max attributes (float types); Clip-11 takes them as optional
// inputs, Clip-12 widens the types to all numeric ones.
constexpr TypeSet kClip6Types = kFloatTypes;
struct ClipAttrs {
  bool from_attributes = false;
  float min = -std::numeric_limits<float>::infinity();
  float max = std::numeric_limits<float>::infinity();
};

Result<ParsedAttrs> parse_clip6(const AttrMap& attrs, const NodeView&) {
  auto a = std::make_shared<ClipAttrs>();
  a->from_attributes = true;  // absent: the float range, as Clip-6 specifies
  GK_TRY(a->min, attrs.get_float("min", std::numeric_limits<float>::lowest()));
  GK_TRY(a->max, attrs.get_float("max", std::numeric_limits<float>::max()));
  return ParsedAttrs(a);
}

Result<ParsedAttrs> parse_clip11(const AttrMap&, const NodeView&) {
  return ParsedAttrs(std::make_shared<ClipAttrs>());
}

Status infer_clip(InferContext& ctx) {
  const ClipAttrs& a = attrs_as<ClipAttrs>(ctx.attrs);
  if (ctx.inputs.empty() || ctx.in(0).dtype == DType::kUndefined) return ctx.fail("input 0 is missing");
  const DType t = ctx.in(0).dtype;
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, t, a.from_attributes ? kClip6Types : kNumericTypes));
  if (ctx.inputs.size() > 3) return ctx.fail(fmt::format("takes at most 3 inputs, got {}", ctx.inputs.size()));
  for (size_t i = 1; i < ctx.inputs.size(); ++i) {
    if (ctx.in(i).dtype == DType::kUndefined) continue;
    if (ctx.in(i).dtype != t)
      return ctx.fail(fmt::format("{} has element type {}, input has {}", i == 1 ? "min" : "max",
                                  dtype_name(ctx.in(i).dtype), dtype_name(t)));
    if (numel(ctx.in(i).shape) != 1)
      return ctx.fail(fmt::format("{} must be a scalar, has shape {}", i == 1 ? "min" : "max",
                                  shape_str(ctx.in(i).shape)));
  }
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

// A bound reaches the kernel as its device pointer when only known at run time,
// else as a value (host-known input, Clip-6 attribute, or the type's limit when
// absent) with a null pointer.
struct Bound {
  DevPtr ptr = 0;
  alignas(8) unsigned char bytes[8] = {};
};

Bound make_bound(DType t, const TensorRef* input, double fallback) {
  Bound b;
  if (input && input->present() && input->host)
    std::memcpy(b.bytes, input->host->raw(), dtype_storage_bytes(t, 1));
  else if (input && input->present())
    b.ptr = input->ptr;
  else
    encode_scalar(t, fallback, b.bytes);
  return b;
}

Status run_clip(KernelContext& ctx) {
  const ClipAttrs& a = ctx.attrs<ClipAttrs>();
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  const double inf = std::numeric_limits<double>::infinity();
  const TensorRef* lo_in = !a.from_attributes && ctx.num_inputs() > 1 ? &ctx.in(1) : nullptr;
  const TensorRef* hi_in = !a.from_attributes && ctx.num_inputs() > 2 ? &ctx.in(2) : nullptr;
  const Bound lo = make_bound(x.dtype, lo_in, a.from_attributes ? a.min : -inf);
  const Bound hi = make_bound(x.dtype, hi_in, a.from_attributes ? a.max : inf);
  KernelArgs args;
  args.ptr(x.ptr).ptr(y.ptr).i64(n).ptr(lo.ptr).ptr(hi.ptr);
  push_element(args, x.dtype, lo.bytes);
  push_element(args, x.dtype, hi.bytes);
  return ctx.launch(kernel_sources::unary, KernelName::format("gk_clip<{}>", {kernel_type_name(x.dtype)}), grid_for(n),
                    args);
}

#define IMPL(name, kind) constexpr OpImpl name{&parse_unary<&kind>, &infer_unary, &run_unary};
IMPL(kAbs, kAbsK)
IMPL(kNeg, kNegK)
IMPL(kSign, kSignK)
IMPL(kCeil, kCeilK)
IMPL(kFloor, kFloorK)
IMPL(kRound, kRoundK)
IMPL(kReciprocal, kReciprocalK)
IMPL(kSqrt, kSqrtK)
IMPL(kExp, kExpK)
IMPL(kLog, kLogK)
IMPL(kErf, kErfK)
IMPL(kSin, kSinK)
IMPL(kCos, kCosK)
IMPL(kTan, kTanK)
IMPL(kAsin, kAsinK)
IMPL(kAcos, kAcosK)
IMPL(kAtan, kAtanK)
IMPL(kSinh, kSinhK)
IMPL(kCosh, kCoshK)
IMPL(kAsinh, kAsinhK)
IMPL(kAcosh, kAcoshK)
IMPL(kAtanh, kAtanhK)
IMPL(kTanh, kTanhK)
IMPL(kNot, kNotK)
IMPL(kBitwiseNot, kBitwiseNotK)
IMPL(kIsNaN, kIsNaNK)
#undef IMPL
constexpr OpImpl kIsInf{&parse_isinf, &infer_unary, &run_unary};
constexpr OpImpl kClip6{&parse_clip6, &infer_clip, &run_clip};
constexpr OpImpl kClip11{&parse_clip11, &infer_clip, &run_clip};

constexpr OpTraits kSameType{.inplace_input = 0, .elementwise = true};
constexpr OpTraits kToBool{.elementwise = true};

// Later versions of these ops (Abs-13, Sin-22, IsNaN-20, ...) only added types.
const OpSchema kOps[] = {
    {"", "Abs", 6, kOpsetCurrent, &kAbs, kSameType},
    {"", "Neg", 6, kOpsetCurrent, &kNeg, kSameType},
    {"", "Sign", 9, kOpsetCurrent, &kSign, kSameType},
    {"", "Ceil", 6, kOpsetCurrent, &kCeil, kSameType},
    {"", "Floor", 6, kOpsetCurrent, &kFloor, kSameType},
    {"", "Round", 11, kOpsetCurrent, &kRound, kSameType},
    {"", "Reciprocal", 6, kOpsetCurrent, &kReciprocal, kSameType},
    {"", "Sqrt", 6, kOpsetCurrent, &kSqrt, kSameType},
    {"", "Exp", 6, kOpsetCurrent, &kExp, kSameType},
    {"", "Log", 6, kOpsetCurrent, &kLog, kSameType},
    {"", "Erf", 9, kOpsetCurrent, &kErf, kSameType},
    {"", "Sin", 7, kOpsetCurrent, &kSin, kSameType},
    {"", "Cos", 7, kOpsetCurrent, &kCos, kSameType},
    {"", "Tan", 7, kOpsetCurrent, &kTan, kSameType},
    {"", "Asin", 7, kOpsetCurrent, &kAsin, kSameType},
    {"", "Acos", 7, kOpsetCurrent, &kAcos, kSameType},
    {"", "Atan", 7, kOpsetCurrent, &kAtan, kSameType},
    {"", "Sinh", 9, kOpsetCurrent, &kSinh, kSameType},
    {"", "Cosh", 9, kOpsetCurrent, &kCosh, kSameType},
    {"", "Asinh", 9, kOpsetCurrent, &kAsinh, kSameType},
    {"", "Acosh", 9, kOpsetCurrent, &kAcosh, kSameType},
    {"", "Atanh", 9, kOpsetCurrent, &kAtanh, kSameType},
    {"", "Tanh", 6, kOpsetCurrent, &kTanh, kSameType},
    {"", "Not", 1, kOpsetCurrent, &kNot, kSameType},
    {"", "BitwiseNot", 18, kOpsetCurrent, &kBitwiseNot, kSameType},
    {"", "IsNaN", 9, kOpsetCurrent, &kIsNaN, kToBool},
    {"", "IsInf", 10, kOpsetCurrent, &kIsInf, kToBool},
    {"", "Clip", 6, 10, &kClip6, kSameType},
    {"", "Clip", 11, kOpsetCurrent, &kClip11, kSameType},
};

}  // namespace

namespace families {
std::span<const OpSchema> unary_ops() { return kOps; }
}  // namespace families

}  // namespace gk

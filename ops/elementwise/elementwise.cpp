// Binary elementwise ops with multidirectional broadcasting: arithmetic (Add, Sub,
// Mul, Div, Mod, Pow), comparisons, logical and bitwise ops, PRelu. Kernels:
// ops/elementwise/elementwise.cuh; the variadic ops and Where are in ops/elementwise/variadic.cpp.
#include "ops/elementwise/elementwise.h"

#include "ops/common/broadcast_plan.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <memory>
#include <optional>
#include <vector>

namespace gk {

Status check_type(const NodeView& node, size_t input, DType t, TypeSet allowed) {
  if (type_in(t, allowed)) return ok_status();
  return unimplemented("{}: input {} has element type {}; supported: {}", node.describe(), input,
                       dtype_name(t), type_set_names(allowed));
}

Result<Shape> infer_broadcast(const InferContext& ctx, std::span<const TensorType> inputs) {
  std::vector<Shape> shapes;
  for (const TensorType& t : inputs)
    if (t.dtype != DType::kUndefined) shapes.push_back(t.shape);
  auto out = broadcast_all(shapes);
  if (!out.ok()) return ctx.fail(out.status().message());
  return out;
}

Status launch_binary(KernelContext& ctx, const char* functor, DType t, const TensorRef& a,
                     const TensorRef& b, const TensorRef& out) {
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const char* type = kernel_type_name(t);
  if (!type) return check_type(ctx.node(), 0, t, 0);
  const Shape* shapes[] = {&a.shape, &b.shape};
  IndexMap maps[2] = {};
  auto layout = plan_broadcast_into(out.shape, shapes, /*scalar_layouts=*/true, maps);
  if (!layout.ok()) return ctx.fail(layout.status().message());
  KernelArgs args;
  args.ptr(a.ptr).ptr(b.ptr).ptr(out.ptr).i64(n).i32(*layout).pod(maps[0]).pod(maps[1]);
  return ctx.launch(kernel_sources::elementwise, KernelName::format("gk_binary<{}, {}>", {functor, type}), grid_for(n),
                    args);
}

namespace {

struct BinaryOp {
  const char* functor;
  TypeSet types;
  bool bool_out;
};

constexpr TypeSet kPowBaseTypes = kFloatTypes | type_bit(DType::kI32) | type_bit(DType::kI64);
// Pow-12 also allows int8/int16/uint8/uint16 exponents; refused by name (rare).
constexpr TypeSet kPowExponentTypes = kPowBaseTypes | type_bit(DType::kU32) | type_bit(DType::kU64);
constexpr TypeSet kPReluTypes = kFloatTypes | type_bit(DType::kI32) | type_bit(DType::kI64) |
                                type_bit(DType::kU32) | type_bit(DType::kU64);
constexpr TypeSet kShiftTypes =
    type_bit(DType::kU8) | type_bit(DType::kU16) | type_bit(DType::kU32) | type_bit(DType::kU64);

constexpr BinaryOp kAddOp{"gk_op_add", kNumericTypes, false};
constexpr BinaryOp kSubOp{"gk_op_sub", kNumericTypes, false};
constexpr BinaryOp kMulOp{"gk_op_mul", kNumericTypes, false};
constexpr BinaryOp kDivOp{"gk_op_div", kNumericTypes, false};
constexpr BinaryOp kModOp{"gk_op_mod", kNumericTypes, false};
constexpr BinaryOp kFModOp{"gk_op_fmod", kNumericTypes, false};
constexpr BinaryOp kEqOp{"gk_op_eq", kNumericTypes | kBoolType | type_bit(DType::kString), true};
constexpr BinaryOp kLtOp{"gk_op_lt", kNumericTypes, true};
constexpr BinaryOp kLeOp{"gk_op_le", kNumericTypes, true};
constexpr BinaryOp kGtOp{"gk_op_gt", kNumericTypes, true};
constexpr BinaryOp kGeOp{"gk_op_ge", kNumericTypes, true};
constexpr BinaryOp kAndOp{"gk_op_and", kBoolType, true};
constexpr BinaryOp kOrOp{"gk_op_or", kBoolType, true};
constexpr BinaryOp kXorOp{"gk_op_xor", kBoolType, true};
constexpr BinaryOp kBitAndOp{"gk_op_bitand", kIntTypes, false};
constexpr BinaryOp kBitOrOp{"gk_op_bitor", kIntTypes, false};
constexpr BinaryOp kBitXorOp{"gk_op_bitxor", kIntTypes, false};
constexpr BinaryOp kShlOp{"gk_op_shl", kShiftTypes, false};
constexpr BinaryOp kShrOp{"gk_op_shr", kShiftTypes, false};

// Opsets 1-6: B broadcasts to A only when broadcast=1, either as a scalar or with
// its shape matching a contiguous run of A's dims from `axis` (suffix when unset).
struct LegacyBroadcast {
  bool on = false;      // the op is a 1-6 version
  bool broadcast = false;
  std::optional<int64_t> axis;
};

struct BinaryAttrs {
  BinaryOp op;
  LegacyBroadcast legacy;
};

template <const BinaryOp* Op>
Result<ParsedAttrs> parse_fixed(const AttrMap&, const NodeView&) {
  return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{*Op, {}}));
}

Result<LegacyBroadcast> parse_legacy_broadcast(const AttrMap& attrs, const NodeView& node) {
  LegacyBroadcast l{true, false, std::nullopt};
  GK_TRY(int64_t broadcast, attrs.get_int("broadcast", 0));
  l.broadcast = broadcast != 0;
  if (attrs.has("axis")) {
    GK_TRY(int64_t axis, attrs.get_int("axis", 0));
    l.axis = axis;
  }
  return l;
}

template <const BinaryOp* Op>
Result<ParsedAttrs> parse_legacy(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(LegacyBroadcast l, parse_legacy_broadcast(attrs, node));
  return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{*Op, l}));
}

// B's shape with trailing 1s, so numpy broadcasting against A gives the legacy
// alignment; an error names both shapes when B does not fit.
Result<Shape> legacy_b_shape(const LegacyBroadcast& l, const Shape& a, const Shape& b, const NodeView& node) {
  if (!l.broadcast) {
    if (a != b)
      return invalid_model("{}: shapes {} and {} differ and broadcast=0 (opset {} broadcasts only on request)",
                           node.describe(), shape_str(a), shape_str(b), node.opset);
    return b;
  }
  if (numel(b) == 1) return Shape{};
  const int64_t rank = static_cast<int64_t>(a.size()), brank = static_cast<int64_t>(b.size());
  int64_t axis = l.axis ? *l.axis : rank - brank;
  if (axis < 0) axis += rank;
  if (brank > rank || axis < 0 || axis + brank > rank)
    return invalid_model("{}: B of shape {} does not fit A of shape {} at axis {}", node.describe(), shape_str(b),
                         shape_str(a), axis);
  // The spec says 1-dim expansion "doesn't work yet", but converters of the time
  // emitted it (a 2x1 B on a 2x3 A) meaning numpy's; accept that reading.
  for (int64_t d = 0; d < brank; ++d)
    if (b[d] != a[axis + d] && b[d] != 1)
      return invalid_model("{}: B of shape {} does not match A of shape {} from axis {}", node.describe(),
                           shape_str(b), shape_str(a), axis);
  Shape aligned = b;
  aligned.resize(rank - axis, 1);
  return aligned;
}

// Mod: fmod=0 takes the divisor's sign (Python), fmod=1 the dividend's (C fmod).
// The spec asks fmod=1 for floats; fmod=0 on floats computes numpy.mod anyway.
Result<ParsedAttrs> parse_mod(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(int64_t fmod, attrs.get_int("fmod", 0));
  if (fmod != 0 && fmod != 1)
    return invalid_model("{}: attribute fmod is {}; allowed: 0 or 1", node.describe(), fmod);
  return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{fmod ? kFModOp : kModOp, {}}));
}

Result<ParsedAttrs> parse_bitshift(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(std::string direction, attrs.get_string("direction", ""));
  if (direction == "LEFT") return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{kShlOp, {}}));
  if (direction == "RIGHT") return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{kShrOp, {}}));
  return invalid_model("{}: attribute direction is '{}'; allowed: LEFT or RIGHT", node.describe(),
                       direction);
}

Status check_inputs(const InferContext& ctx, size_t count) {
  if (ctx.inputs.size() != count)
    return ctx.fail(fmt::format("takes {} inputs, got {}", count, ctx.inputs.size()));
  for (size_t i = 0; i < count; ++i)
    if (ctx.in(i).dtype == DType::kUndefined) return ctx.fail(fmt::format("input {} is missing", i));
  return ok_status();
}

Status infer_binary(InferContext& ctx) {
  const BinaryOp& op = attrs_as<BinaryAttrs>(ctx.attrs).op;
  GK_RETURN_IF_ERROR(check_inputs(ctx, 2));
  const DType t = ctx.in(0).dtype;
  if (ctx.in(1).dtype != t)
    return ctx.fail(fmt::format("inputs have different element types ({} and {})", dtype_name(t),
                                dtype_name(ctx.in(1).dtype)));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, t, op.types));
  if (t == DType::kString && !(ctx.has_value(0) && ctx.has_value(1)))
    return unimplemented("{}: comparing strings needs both values before the run (constants); "
                         "strings cannot live on the device",
                         ctx.node.describe());
  const LegacyBroadcast& legacy = attrs_as<BinaryAttrs>(ctx.attrs).legacy;
  if (legacy.on) {
    GK_RETURN_IF_ERROR(legacy_b_shape(legacy, ctx.in(0).shape, ctx.in(1).shape, ctx.node).status());
    ctx.outputs[0] = {op.bool_out ? DType::kBool : t, ctx.in(0).shape};
    return ok_status();
  }
  GK_TRY(Shape shape, infer_broadcast(ctx, ctx.inputs));
  ctx.outputs[0] = {op.bool_out ? DType::kBool : t, std::move(shape)};
  return ok_status();
}

// Equal-19 on strings: both values are host-known (infer checks), so compare on
// the host and upload the bools.
Status run_string_equal(KernelContext& ctx) {
  const TensorRef &a = ctx.in(0), &b = ctx.in(1), &out = ctx.out(0);
  if (!a.host || !b.host) return unimplemented("{}: string inputs must be host-known", ctx.node().describe());
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const Shape shapes[] = {a.shape, b.shape};
  auto plan = plan_broadcast(out.shape, shapes, false);
  if (!plan.ok()) return ctx.fail(plan.status().message());
  auto offset = [](const IndexMap& m, int64_t linear) {
    int64_t off = 0;
    for (int d = m.rank - 1; d >= 0; --d) {
      off += (linear % m.dims[d]) * m.strides[d];
      linear /= m.dims[d];
    }
    return off;
  };
  const auto &sa = a.host->string_values(), &sb = b.host->string_values();
  std::vector<uint8_t> result(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const size_t ia = static_cast<size_t>(offset(plan->maps[0], i));
    const size_t ib = static_cast<size_t>(offset(plan->maps[1], i));
    if (ia >= sa.size() || ib >= sb.size())
      return internal_error("{}: string tensor holds fewer values than its shape", ctx.node().describe());
    result[i] = sa[ia] == sb[ib];
  }
  return ctx.kit().device().upload(out.ptr, result.data(), result.size());
}

Status run_binary(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<BinaryAttrs>();
  if (ctx.in(0).dtype == DType::kString) return run_string_equal(ctx);
  TensorRef b = ctx.in(1);
  if (attrs.legacy.on) {
    GK_TRY(b.shape, legacy_b_shape(attrs.legacy, ctx.in(0).shape, b.shape, ctx.node()));
  }
  return launch_binary(ctx, attrs.op.functor, ctx.in(0).dtype, ctx.in(0), b, ctx.out(0));
}

// Pow-7 has one type for base and exponent; Pow-12 lets the exponent differ. The
// output takes the base's type either way.
Status infer_pow(InferContext& ctx) {
  GK_RETURN_IF_ERROR(check_inputs(ctx, 2));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, ctx.in(0).dtype, kPowBaseTypes));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 1, ctx.in(1).dtype, kPowExponentTypes));
  if (ctx.attrs) {  // Pow-1: legacy broadcast
    const LegacyBroadcast& legacy = attrs_as<BinaryAttrs>(ctx.attrs).legacy;
    GK_RETURN_IF_ERROR(legacy_b_shape(legacy, ctx.in(0).shape, ctx.in(1).shape, ctx.node).status());
    ctx.outputs[0] = ctx.in(0);
    return ok_status();
  }
  GK_TRY(Shape shape, infer_broadcast(ctx, ctx.inputs));
  ctx.outputs[0] = {ctx.in(0).dtype, std::move(shape)};
  return ok_status();
}

Status run_pow(KernelContext& ctx) {
  const TensorRef &a = ctx.in(0), &out = ctx.out(0);
  TensorRef b = ctx.in(1);
  if (ctx.raw_attrs()) {
    const LegacyBroadcast& legacy = ctx.attrs<BinaryAttrs>().legacy;
    GK_TRY(b.shape, legacy_b_shape(legacy, a.shape, b.shape, ctx.node()));
  }
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  const Shape* shapes[] = {&a.shape, &b.shape};
  IndexMap maps[2] = {};
  auto layout = plan_broadcast_into(out.shape, shapes, /*scalar_layouts=*/true, maps);
  if (!layout.ok()) return ctx.fail(layout.status().message());
  KernelArgs args;
  args.ptr(a.ptr).ptr(b.ptr).ptr(out.ptr).i64(n).i32(*layout).pod(maps[0]).pod(maps[1]);
  return ctx.launch(kernel_sources::elementwise,
                    KernelName::format("gk_binary_pow<{}, {}>", {kernel_type_name(a.dtype), kernel_type_name(b.dtype)}),
                    grid_for(n), args);
}

// PRelu broadcasts slope to X only (unidirectional, opset 7+): Y has X's shape.
// PRelu 1-6: a one-element slope is shared; otherwise it holds one value per channel
// (dim 1), as the converters of the time wrote it.
Shape legacy_slope_shape(const Shape& x, const Shape& slope) {
  if (numel(slope) == 1) return {};
  if (slope.size() == 1 && x.size() >= 2 && slope[0] == x[1]) {
    Shape aligned(x.size() - 1, 1);
    aligned[0] = slope[0];
    return aligned;
  }
  return slope;
}

Result<ParsedAttrs> parse_prelu_legacy(const AttrMap&, const NodeView&) {
  return ParsedAttrs(std::make_shared<BinaryAttrs>(BinaryAttrs{{"gk_op_prelu", kPReluTypes, false}, {true, true, {}}}));
}

Status infer_prelu(InferContext& ctx) {
  GK_RETURN_IF_ERROR(check_inputs(ctx, 2));
  const DType t = ctx.in(0).dtype;
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, t, kPReluTypes));
  if (ctx.in(1).dtype != t)
    return ctx.fail(fmt::format("slope has element type {}, X has {}", dtype_name(ctx.in(1).dtype),
                                dtype_name(t)));
  const Shape slope = ctx.attrs ? legacy_slope_shape(ctx.in(0).shape, ctx.in(1).shape) : ctx.in(1).shape;
  auto map = broadcast_map(ctx.in(0).shape, slope);
  if (!map.ok())
    return ctx.fail(fmt::format("slope shape {} does not broadcast to X shape {}",
                                shape_str(ctx.in(1).shape), shape_str(ctx.in(0).shape)));
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}

Status run_prelu(KernelContext& ctx) {
  TensorRef slope = ctx.in(1);
  if (ctx.raw_attrs()) slope.shape = legacy_slope_shape(ctx.in(0).shape, slope.shape);
  return launch_binary(ctx, "gk_op_prelu", ctx.in(0).dtype, ctx.in(0), slope, ctx.out(0));
}

#define FIXED(name, op) constexpr OpImpl name{&parse_fixed<&op>, &infer_binary, &run_binary};
FIXED(kAdd, kAddOp)
FIXED(kSub, kSubOp)
FIXED(kMul, kMulOp)
FIXED(kDiv, kDivOp)
FIXED(kEqual, kEqOp)
FIXED(kLess, kLtOp)
FIXED(kLessOrEqual, kLeOp)
FIXED(kGreater, kGtOp)
FIXED(kGreaterOrEqual, kGeOp)
FIXED(kAnd, kAndOp)
FIXED(kOr, kOrOp)
FIXED(kXor, kXorOp)
FIXED(kBitwiseAnd, kBitAndOp)
FIXED(kBitwiseOr, kBitOrOp)
FIXED(kBitwiseXor, kBitXorOp)
#undef FIXED
#define LEGACY(name, op) constexpr OpImpl name{&parse_legacy<&op>, &infer_binary, &run_binary};
LEGACY(kAdd1, kAddOp)
LEGACY(kSub1, kSubOp)
LEGACY(kMul1, kMulOp)
LEGACY(kDiv1, kDivOp)
LEGACY(kEqual1, kEqOp)
LEGACY(kLess1, kLtOp)
LEGACY(kGreater1, kGtOp)
LEGACY(kAnd1, kAndOp)
LEGACY(kOr1, kOrOp)
LEGACY(kXor1, kXorOp)
#undef LEGACY
// Pow-1 reads only the broadcast attributes (the functor is Pow's own launcher's).
constexpr OpImpl kPow1{&parse_legacy<&kAddOp>, &infer_pow, &run_pow};
constexpr OpImpl kPRelu1{&parse_prelu_legacy, &infer_prelu, &run_prelu};
constexpr OpImpl kMod{&parse_mod, &infer_binary, &run_binary};
constexpr OpImpl kBitShift{&parse_bitshift, &infer_binary, &run_binary};
constexpr OpImpl kPow{nullptr, &infer_pow, &run_pow};
constexpr OpImpl kPRelu{nullptr, &infer_prelu, &run_prelu};

constexpr OpTraits kSameType{.inplace_input = 0, .elementwise = true};
constexpr OpTraits kToBool{.elementwise = true};

// Versions after the first listed here changed only the accepted types (Add-13/14,
// Equal-11/13/19, Less-9/13, Pow-12/13/15, PRelu-9/16, Mod-13), which the type
// checks cover, except where noted.
const OpSchema kOps[] = {
    {"", "Add", 1, 6, &kAdd1, kSameType},
    {"", "Sub", 1, 6, &kSub1, kSameType},
    {"", "Mul", 1, 6, &kMul1, kSameType},
    {"", "Div", 1, 6, &kDiv1, kSameType},
    {"", "Pow", 1, 6, &kPow1, kSameType},
    {"", "PRelu", 1, 6, &kPRelu1, kSameType},
    {"", "Equal", 1, 6, &kEqual1, kToBool},
    {"", "Less", 1, 6, &kLess1, kToBool},
    {"", "Greater", 1, 6, &kGreater1, kToBool},
    {"", "And", 1, 6, &kAnd1, kSameType},
    {"", "Or", 1, 6, &kOr1, kSameType},
    {"", "Xor", 1, 6, &kXor1, kSameType},
    {"", "Add", 7, kOpsetCurrent, &kAdd, kSameType},
    {"", "Sub", 7, kOpsetCurrent, &kSub, kSameType},
    {"", "Mul", 7, kOpsetCurrent, &kMul, kSameType},
    {"", "Div", 7, kOpsetCurrent, &kDiv, kSameType},
    {"", "Mod", 10, kOpsetCurrent, &kMod, kSameType},
    {"", "Pow", 7, kOpsetCurrent, &kPow, kSameType},  // Pow-12: mixed exponent type
    {"", "PRelu", 7, kOpsetCurrent, &kPRelu, kSameType},
    {"", "Equal", 7, kOpsetCurrent, &kEqual, kToBool},  // Equal-19 strings: host-known only
    {"", "Less", 7, kOpsetCurrent, &kLess, kToBool},
    {"", "LessOrEqual", 12, kOpsetCurrent, &kLessOrEqual, kToBool},
    {"", "Greater", 7, kOpsetCurrent, &kGreater, kToBool},
    {"", "GreaterOrEqual", 12, kOpsetCurrent, &kGreaterOrEqual, kToBool},
    {"", "And", 7, kOpsetCurrent, &kAnd, kSameType},
    {"", "Or", 7, kOpsetCurrent, &kOr, kSameType},
    {"", "Xor", 7, kOpsetCurrent, &kXor, kSameType},
    {"", "BitShift", 11, kOpsetCurrent, &kBitShift, kSameType},
    {"", "BitwiseAnd", 18, kOpsetCurrent, &kBitwiseAnd, kSameType},
    {"", "BitwiseOr", 18, kOpsetCurrent, &kBitwiseOr, kSameType},
    {"", "BitwiseXor", 18, kOpsetCurrent, &kBitwiseXor, kSameType},
};

}  // namespace

namespace families {
std::span<const OpSchema> elementwise_ops() { return kOps; }
}  // namespace families

}  // namespace gk

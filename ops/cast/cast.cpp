// Cast and CastLike between every numeric element type: the computable ones and
// the storage-only float8/float4/e8m0 and packed 4-/2-bit integers (kernels:
// ops/cast/cast.cuh). Strings live on the host only: a Cast from string runs
// when the input is host-known (parsed here, then converted on the device); a
// Cast to string is computed in infer() from the input's host value, which the
// executor reads back when the input comes from the run (runtime/executor.cpp).
#include "ops/cast/cast.h"

#include "backends/minifloat.cuh"  // the mode word shared with the kernels

#include "ops/elementwise/elementwise.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"

#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace gk {
namespace {

struct CastAttrs {
  DType to = DType::kUndefined;  // Cast only; CastLike takes input 1's type
  int32_t mode = GK_CAST_MODE(true, GK_ROUND_UP);  // saturate (19+), round_mode (24+)
};

// saturate (Cast-19+, float8 and e8m0 targets) and round_mode (Cast-24+, e8m0
// targets); absent in older versions, where their defaults are the only behaviour.
Status parse_common(const AttrMap& attrs, const NodeView& node, CastAttrs& a) {
  GK_TRY(int64_t saturate, attrs.get_int("saturate", 1));
  GK_TRY(std::string round_mode, attrs.get_string("round_mode", "up"));
  int round = GK_ROUND_UP;
  if (round_mode == "down") round = GK_ROUND_DOWN;
  else if (round_mode == "nearest") round = GK_ROUND_NEAREST;
  else if (round_mode != "up")
    return invalid_model("{}: attribute round_mode is '{}', must be 'up', 'down' or 'nearest'", node.describe(),
                         round_mode);
  a.mode = GK_CAST_MODE(saturate != 0, round);
  return ok_status();
}

Result<ParsedAttrs> parse_cast(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<CastAttrs>();
  GK_TRY(int64_t to, attrs.require_int("to"));
  auto t = dtype_from_code(to);
  // Keep the code: a type we cannot hold is unsupported (Unimplemented), not invalid.
  if (!t.ok()) return t.status().with_context(node.describe() + ": attribute to");
  a->to = t.value();
  GK_RETURN_IF_ERROR(parse_common(attrs, node, *a));
  return ParsedAttrs(a);
}

Result<ParsedAttrs> parse_castlike(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<CastAttrs>();
  GK_RETURN_IF_ERROR(parse_common(attrs, node, *a));
  return ParsedAttrs(a);
}

Status check_castable(const NodeView& node, DType from, DType to, bool from_host_known) {
  if (from == DType::kString && !from_host_known)
    return unimplemented("{}: Cast from string needs the input's value before the run (a constant); "
                         "strings cannot live on the device",
                         node.describe());
  for (DType t : {from, to}) {
    if (t == DType::kBool && to == DType::kString) continue;
    if (t != DType::kString && !storage_kernel_type_name(t))
      return unimplemented("{}: Cast {} -> {}: element type {} is not supported", node.describe(),
                           dtype_name(from), dtype_name(to), dtype_name(t));
  }
  return ok_status();
}

// The text ONNX Runtime writes for each number (its cast_op.cc, checked against
// onnxruntime-node 1.30 in tests/ops/cast_string_test.cpp): every float type as
// "%.8g" of its value ("0.33333334", "1e+10", "-0"), NaN as "NaN", infinities as
// "INF" / "-INF"; integers in decimal, exact to 64 bits; bool as "1" / "0".
Result<HostTensor> format_as_strings(const NodeView& node, const HostTensor& x) {
  const DType from = x.dtype();
  const auto n = static_cast<size_t>(x.numel());
  std::vector<std::string> out(n);
  char text[32];
  if (from == DType::kU64) {
    const auto* v = static_cast<const uint64_t*>(x.raw());
    for (size_t i = 0; i < n; ++i) std::snprintf(text, sizeof text, "%" PRIu64, v[i]), out[i] = text;
  } else if (from == DType::kI64) {
    const std::vector<int64_t> v = x.to_i64_vector();
    for (size_t i = 0; i < n; ++i) std::snprintf(text, sizeof text, "%" PRId64, v[i]), out[i] = text;
  } else if (from == DType::kBool || storage_kernel_type_name(from)) {
    // Every type below 64 bits converts to double exactly (integers, bool, the
    // float and storage-only float types).
    const std::vector<double> v = x.to_f64_vector();
    const bool integral = dtype_is_integer(from) || from == DType::kBool;
    for (size_t i = 0; i < n; ++i) {
      if (integral) std::snprintf(text, sizeof text, "%" PRId64, static_cast<int64_t>(v[i]));
      else if (std::isnan(v[i])) std::snprintf(text, sizeof text, "NaN");
      else if (std::isinf(v[i])) std::snprintf(text, sizeof text, "%s", v[i] < 0 ? "-INF" : "INF");
      else std::snprintf(text, sizeof text, "%.8g", v[i]);
      out[i] = text;
    }
  } else {
    return unimplemented("{}: Cast {} -> string is not supported", node.describe(), dtype_name(from));
  }
  return HostTensor::strings(x.shape(), std::move(out));
}

Status infer_cast_to(InferContext& ctx, DType to) {
  if (ctx.inputs.empty() || ctx.in(0).dtype == DType::kUndefined) return ctx.fail("input 0 is missing");
  GK_RETURN_IF_ERROR(check_castable(ctx.node, ctx.in(0).dtype, to, ctx.has_value(0)));
  ctx.outputs[0] = {to, ctx.in(0).shape};
  // To string: the value when the input's is known here; otherwise the output
  // is a string of unknown value, which the executor plans for the run (it reads
  // the input back, then infers again).
  if (to == DType::kString && ctx.has_value(0)) {
    const HostTensor& x = *ctx.values[0];
    ctx.output_values.assign(ctx.outputs.size(), nullptr);
    if (x.dtype() == DType::kString) {
      ctx.output_values[0] = std::make_shared<const HostTensor>(x);
      return ok_status();
    }
    GK_TRY(HostTensor y, format_as_strings(ctx.node, x));
    ctx.output_values[0] = std::make_shared<const HostTensor>(std::move(y));
  }
  return ok_status();
}

Status infer_cast(InferContext& ctx) { return infer_cast_to(ctx, attrs_as<CastAttrs>(ctx.attrs).to); }

Status infer_castlike(InferContext& ctx) {
  if (ctx.inputs.size() != 2 || ctx.in(1).dtype == DType::kUndefined)
    return ctx.fail("takes 2 inputs (input, target_type)");
  return infer_cast_to(ctx, ctx.in(1).dtype);
}

// Strings parse as numbers (strtod: plain and scientific forms, "INF"/"-INF"/"NaN"
// in any case); integer targets parse as int64 first so large values stay exact.
Result<GkBuf> parse_strings(KernelContext& ctx, const HostTensor& in, DType to) {
  const auto& strings = in.string_values();
  const int64_t n = in.numel();
  if (static_cast<int64_t>(strings.size()) != n)
    return internal_error("{}: string tensor holds {} values for {} elements", ctx.node().describe(),
                          strings.size(), n);
  const bool as_int = dtype_is_integer(to);
  GK_TRY(GkBuf buf, ctx.scratch(as_int ? DType::kI64 : DType::kF64, n));
  std::vector<int64_t> ints(as_int ? n : 0);
  std::vector<double> reals(as_int ? 0 : n);
  for (int64_t i = 0; i < n; ++i) {
    const char* s = strings[i].c_str();
    char* end = nullptr;
    errno = 0;
    if (as_int) {
      long long v = std::strtoll(s, &end, 10);
      if (end == s || *end != '\0' || errno == ERANGE) {
        end = nullptr;
        double d = std::strtod(s, &end);
        if (end == s)
          return invalid_argument("{}: element {} ('{}') is not a number", ctx.node().describe(), i, strings[i]);
        ints[i] = static_cast<int64_t>(d);
      } else {
        ints[i] = v;
      }
    } else {
      reals[i] = std::strtod(s, &end);
      if (end == s)
        return invalid_argument("{}: element {} ('{}') is not a number", ctx.node().describe(), i, strings[i]);
    }
  }
  if (as_int)
    GK_RETURN_IF_ERROR(buf.upload_raw(ints.data(), ints.size() * sizeof(int64_t)));
  else
    GK_RETURN_IF_ERROR(buf.upload_raw(reals.data(), reals.size() * sizeof(double)));
  return buf;
}

// One launch from `from` at src to `to` at dst; a packed type on either side
// takes gk_cast_packed, whose output threads each write one whole byte.
Status launch_cast(KernelContext& ctx, DType from, DevPtr src, DType to, DevPtr dst, int64_t n, int32_t mode) {
  const bool packed = dtype_bits(from) < 8 || dtype_bits(to) < 8;
  const int64_t per_unit = dtype_bits(to) < 8 ? 8 / dtype_bits(to) : 1;
  const int64_t units = (n + per_unit - 1) / per_unit;
  KernelArgs args;
  args.ptr(src).ptr(dst).i64(n).i32(mode);
  return ctx.launch(kernel_sources::cast,
                    KernelName::templated(packed ? "gk_cast_packed" : "gk_cast",
                                          {storage_kernel_type_name(from), storage_kernel_type_name(to)}),
                    grid_for(units), args);
}

Status run_cast(KernelContext& ctx) {
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  DevPtr src = x.ptr;
  DType from = x.dtype;
  if (y.dtype == DType::kString)
    return internal_error("{}: a Cast to string reached run(); infer() computes it from the input's host value",
                          ctx.node().describe());
  if (from == DType::kString) {
    if (!x.host)
      return check_castable(ctx.node(), from, y.dtype, false);
    GK_TRY(GkBuf parsed, parse_strings(ctx, *x.host, y.dtype));
    src = parsed.ptr();
    from = parsed.dtype();
  }
  GK_RETURN_IF_ERROR(check_castable(ctx.node(), from, y.dtype, true));
  const int32_t mode = ctx.attrs<CastAttrs>().mode;
  if (!dtype_is_computable(from) && !dtype_is_computable(y.dtype)) {
    // Storage-only to storage-only: float holds every value of these types
    // exactly, so the two steps give what one conversion would.
    GK_TRY(GkBuf wide, ctx.scratch(DType::kF32, n));
    GK_RETURN_IF_ERROR(launch_cast(ctx, from, src, DType::kF32, wide.ptr(), n, mode));
    return launch_cast(ctx, DType::kF32, wide.ptr(), y.dtype, y.ptr, n, mode);
  }
  return launch_cast(ctx, from, src, y.dtype, y.ptr, n, mode);
}

constexpr OpImpl kCast{&parse_cast, &infer_cast, &run_cast};
constexpr OpImpl kCastLike{&parse_castlike, &infer_castlike, &run_cast};

constexpr OpTraits kCastTraits{.elementwise = true};

// Cast-6 took `to` as an int (Cast-1's string form predates opset 7). Later
// versions added types and attributes (string 9, bf16 13, float8 + saturate 19,
// int4 21, float4 23, e8m0 + round_mode 24, int2 25), each meaningful only for
// its new types, so one implementation serves every version.
const OpSchema kOps[] = {
    {"", "Cast", 6, kOpsetCurrent, &kCast, kCastTraits},
    {"", "CastLike", 15, kOpsetCurrent, &kCastLike, {.type_only_inputs = 1u << 1, .elementwise = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> cast_ops() { return kOps; }
}  // namespace families

}  // namespace gk

// MaxPool (with Indices), AveragePool, LpPool, GlobalAveragePool, GlobalMaxPool,
// GlobalLpPool and MaxUnpool. Attributes added by later opsets (storage_order 8, ceil_mode 10,
// dilations 10/19/18, count_include_pad 7) default to the older behaviour when
// absent, so one entry per op covers every version.
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/pool/pool.cuh"
#include "ops/common/spatial.h"

namespace gk {
namespace {

enum class PoolKind { kMax, kAverage, kLp };

struct PoolAttrs {
  PoolKind kind;
  WindowAttrs window;
  int64_t storage_order = 0;
  int64_t count_include_pad = 0;
  float p = 2;
};

template <PoolKind K>
Result<ParsedAttrs> parse_pool(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<PoolAttrs>();
  a->kind = K;
  GK_TRY(a->window, parse_window(attrs, node, true));
  if (a->window.kernel.empty()) return invalid_model("{}: kernel_shape is required", node.describe());
  GK_TRY(a->storage_order, attrs.get_int("storage_order", 0));
  GK_TRY(a->count_include_pad, attrs.get_int("count_include_pad", 0));
  if (const Attribute* p = attrs.find("p")) {  // LpPool-1 has a float p, later an int
    a->p = p->kind == Attribute::Kind::kFloat ? p->f : static_cast<float>(p->i);
    if (p->kind != Attribute::Kind::kFloat && p->kind != Attribute::Kind::kInt)
      return invalid_model("{}: attribute 'p' must be an int", node.describe());
  }
  return ParsedAttrs(a);
}

bool pool_dtype_ok(PoolKind kind, DType t) {
  const bool f = t == DType::kF32 || t == DType::kF64 || t == DType::kF16 || t == DType::kBF16;
  return f || (kind == PoolKind::kMax && (t == DType::kI8 || t == DType::kU8));
}

// GlobalLpPool: LpPool over the whole spatial extent. It parses no window, so its
// kernel is empty and pool_window takes the input's spatial dims.
Result<ParsedAttrs> parse_global_lppool(const AttrMap& attrs, const NodeView& node) {
  auto a = std::make_shared<PoolAttrs>();
  a->kind = PoolKind::kLp;
  if (const Attribute* p = attrs.find("p")) {  // GlobalLpPool-1 has a float p, 2 an int
    if (p->kind != Attribute::Kind::kFloat && p->kind != Attribute::Kind::kInt)
      return invalid_model("{}: attribute 'p' must be an int", node.describe());
    a->p = p->kind == Attribute::Kind::kFloat ? p->f : static_cast<float>(p->i);
  }
  return ParsedAttrs(a);
}

Result<Window> pool_window(const NodeView& node, const PoolAttrs& at, const Shape& x) {
  if (x.size() < 3) return invalid_model("{}: input is {}; pooling needs rank >= 3", node.describe(), shape_str(x));
  const Shape spatial(x.begin() + 2, x.end());
  return make_window(node, at.window, spatial, at.window.kernel.empty() ? spatial : at.window.kernel);
}

Status infer_pool(InferContext& ctx) {
  const auto& at = attrs_as<PoolAttrs>(ctx.attrs);
  const Shape& x = ctx.in(0).shape;
  GK_TRY(Window w, pool_window(ctx.node, at, x));
  ctx.outputs[0] = {ctx.in(0).dtype, window_output_shape(x[0], x[1], w)};
  if (ctx.outputs.size() > 1) {
    if (at.kind != PoolKind::kMax) return ctx.fail("only MaxPool has a second output");
    ctx.outputs[1] = {DType::kI64, ctx.outputs[0].shape};
  }
  return ok_status();
}

gk_pool_args pool_args(const Window& w, const PoolAttrs& at) {
  gk_pool_args a{};
  for (int d = 0; d < kMaxSpatial; ++d) {
    a.in[d] = w.in[d], a.out[d] = w.out[d], a.k[d] = w.k[d], a.s[d] = w.s[d], a.dil[d] = w.dil[d];
    a.pad[d] = w.pad_begin[d], a.pad_end[d] = w.pad_end[d];
  }
  a.storage_order = static_cast<int32_t>(at.storage_order);
  a.count_include_pad = static_cast<int32_t>(at.count_include_pad);
  return a;
}

Status run_pool(KernelContext& ctx) {
  const auto& at = ctx.attrs<PoolAttrs>();
  const TensorRef& x = ctx.in(0);
  if (!pool_dtype_ok(at.kind, x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  GK_TRY(Window w, pool_window(ctx.node(), at, x.shape));
  const TensorRef& y = ctx.out(0);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  const gk_pool_args a = pool_args(w, at);
  const char* tn = kernel_type_name(x.dtype);
  KernelArgs args;
  switch (at.kind) {
    case PoolKind::kMax: {
      const bool with_indices = ctx.num_outputs() > 1 && ctx.out(1).ptr != 0;
      args.ptr(x.ptr).ptr(y.ptr).ptr(with_indices ? ctx.out(1).ptr : DevPtr{0}).pod(a).i64(n);
      return ctx.launch(kernel_sources::pool, KernelName::format("gk_maxpool<{}>", {tn}), grid_for(n), args);
    }
    case PoolKind::kAverage:
      args.ptr(x.ptr).ptr(y.ptr).pod(a).i64(n);
      return ctx.launch(kernel_sources::pool, KernelName::format("gk_avgpool<{}>", {tn}), grid_for(n), args);
    case PoolKind::kLp:
      args.ptr(x.ptr).ptr(y.ptr).pod(a).f32(at.p).i64(n);
      return ctx.launch(kernel_sources::pool, KernelName::format("gk_lppool<{}>", {tn}), grid_for(n), args);
  }
  return internal_error("{}: unknown pool kind", ctx.node().describe());
}

template <bool IsMax>
Status infer_global_pool(InferContext& ctx) {
  const Shape& x = ctx.in(0).shape;
  if (x.size() < 2) return ctx.fail("input needs rank >= 2");
  Shape out{x[0], x[1]};
  out.resize(x.size(), 1);
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

template <bool IsMax>
Status run_global_pool(KernelContext& ctx) {
  const TensorRef& x = ctx.in(0);
  if (!pool_dtype_ok(PoolKind::kAverage, x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const int64_t n = ctx.out(0).numel();
  if (n == 0) return ok_status();
  const int64_t plane = x.numel() / n;
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.out(0).ptr).i64(plane).i32(IsMax ? 1 : 0).i64(n);
  return ctx.launch(kernel_sources::pool, KernelName::format("gk_global_pool<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(n), args);
}

// MaxUnpool: the natural output is (in - 1) * stride + kernel - pads per axis; an
// output_shape input (host-known) may enlarge it (the extra is at the end).
Result<Shape> natural_unpool_shape(const NodeView& node, const PoolAttrs& at, const Shape& x) {
  if (x.size() < 3 || x.size() > 2 + kMaxSpatial)
    return invalid_model("{}: input is {}; MaxUnpool needs rank 3 to {}", node.describe(), shape_str(x),
                         2 + kMaxSpatial);
  const size_t nd = x.size() - 2;
  const auto& wa = at.window;
  if (wa.kernel.size() != nd || (!wa.strides.empty() && wa.strides.size() != nd) ||
      (!wa.pads.empty() && wa.pads.size() != 2 * nd))
    return invalid_model("{}: kernel_shape, strides, pads do not match {} spatial dims", node.describe(), nd);
  Shape s{x[0], x[1]};
  for (size_t i = 0; i < nd; ++i) {
    const int64_t st = wa.strides.empty() ? 1 : wa.strides[i];
    const int64_t pads = wa.pads.empty() ? 0 : wa.pads[i] + wa.pads[nd + i];
    const int64_t d = (x[2 + i] - 1) * st + wa.kernel[i] - pads;
    if (d < 0) return invalid_model("{}: MaxUnpool output dim {} would be {}", node.describe(), i, d);
    s.push_back(d);
  }
  return s;
}

Result<Shape> unpool_shape(const NodeView& node, const PoolAttrs& at, const Shape& x, const HostTensor* out_shape) {
  GK_TRY(Shape natural, natural_unpool_shape(node, at, x));
  if (!out_shape) return natural;
  Shape s = out_shape->to_i64_vector();
  bool ok = s.size() == x.size() && s[0] == x[0] && s[1] == x[1];
  for (size_t i = 2; ok && i < s.size(); ++i) ok = s[i] >= natural[i];
  if (!ok)
    return invalid_model("{}: output_shape {} does not fit input {} (natural output {})", node.describe(),
                         shape_str(s), shape_str(x), shape_str(natural));
  GK_RETURN_IF_ERROR(checked_numel(s).status());
  return s;
}

Status infer_maxunpool(InferContext& ctx) {
  const auto& at = attrs_as<PoolAttrs>(ctx.attrs);
  if (ctx.in(1).dtype != DType::kI64) return ctx.fail("I must be int64");
  if (ctx.in(1).shape != ctx.in(0).shape) return ctx.fail("I and X shapes differ");
  const HostTensor* os = nullptr;
  if (ctx.node.has_input(2)) {
    GK_TRY(os, ctx.value(2));
  }
  GK_TRY(Shape s, unpool_shape(ctx.node, at, ctx.in(0).shape, os));
  ctx.outputs[0] = {ctx.in(0).dtype, s};
  return ok_status();
}

Status run_maxunpool(KernelContext& ctx) {
  const auto& at = ctx.attrs<PoolAttrs>();
  const TensorRef &x = ctx.in(0), &idx = ctx.in(1), &y = ctx.out(0);
  if (!pool_dtype_ok(PoolKind::kAverage, x.dtype)) return unsupported_dtype(ctx.node(), x.dtype);
  const int64_t ny = y.numel(), nx = x.numel();
  if (ny == 0) return ok_status();
  GK_TRY(Shape natural, natural_unpool_shape(ctx.node(), at, x.shape));
  gk_pool_args a{};
  const size_t nd = x.shape.size() - 2, lead = kMaxSpatial - nd;
  for (int d = 0; d < kMaxSpatial; ++d) a.in[d] = a.out[d] = 1;
  for (size_t i = 0; i < nd; ++i) a.in[lead + i] = natural[2 + i], a.out[lead + i] = y.shape[2 + i];
  const char* tn = kernel_type_name(x.dtype);
  KernelArgs zero;
  zero.ptr(y.ptr).i64(ny);
  GK_RETURN_IF_ERROR(
      ctx.launch(kernel_sources::pool, KernelName::format("gk_pool_zero<{}>", {tn}), grid_for(ny), zero));
  if (nx == 0) return ok_status();
  KernelArgs args;
  args.ptr(x.ptr).ptr(idx.ptr).ptr(y.ptr).pod(a).i64(x.shape[0] * x.shape[1]).ptr(ctx.error_flag()).i64(nx);
  return ctx.launch(kernel_sources::pool, KernelName::format("gk_maxunpool<{}>", {tn}), grid_for(nx), args);
}

const OpImpl kMaxPool{&parse_pool<PoolKind::kMax>, &infer_pool, &run_pool};
const OpImpl kAveragePool{&parse_pool<PoolKind::kAverage>, &infer_pool, &run_pool};
const OpImpl kLpPool{&parse_pool<PoolKind::kLp>, &infer_pool, &run_pool};
const OpImpl kGlobalAveragePool{nullptr, &infer_global_pool<false>, &run_global_pool<false>};
const OpImpl kGlobalMaxPool{nullptr, &infer_global_pool<true>, &run_global_pool<true>};
const OpImpl kMaxUnpool{&parse_pool<PoolKind::kMax>, &infer_maxunpool, &run_maxunpool};
const OpImpl kGlobalLpPool{&parse_global_lppool, &infer_pool, &run_pool};

const OpSchema kPoolOps[] = {
    {"", "MaxPool", 1, kOpsetCurrent, &kMaxPool, {}},
    {"", "AveragePool", 1, kOpsetCurrent, &kAveragePool, {}},
    {"", "LpPool", 1, kOpsetCurrent, &kLpPool, {}},
    {"", "GlobalAveragePool", 1, kOpsetCurrent, &kGlobalAveragePool, {}},
    {"", "GlobalMaxPool", 1, kOpsetCurrent, &kGlobalMaxPool, {}},
    {"", "GlobalLpPool", 1, kOpsetCurrent, &kGlobalLpPool, {}},
    {"", "MaxUnpool", 9, kOpsetCurrent, &kMaxUnpool, {.host_inputs = 1u << 2}},
};

}  // namespace

namespace families {
std::span<const OpSchema> pool_ops() { return kPoolOps; }
}  // namespace families

}  // namespace gk

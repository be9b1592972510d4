// RMSNormalization (23) and RotaryEmbedding (23), kernels in
// ops/attention/attention.cuh. Attention itself is ops/attention/attention.cpp.
#include "ops/elementwise/elementwise.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

#include <algorithm>

namespace gk {
namespace {

// ---- RMSNormalization: rows are X's dims before `axis`, normalised over the rest.

// Must match gk_rms_params in ops/attention/attention.cuh.
struct RmsParams {
  int64_t rows = 0, len = 1;
  double eps = 0;
  int32_t scale_general = 0, pad_ = 0;
  IndexMap smap;
};
static_assert(sizeof(RmsParams) == 32 + sizeof(IndexMap));

struct RmsAttrs {
  int64_t axis = -1;
  float epsilon = 1e-5f;
  DType stash = DType::kF32;
};

Result<ParsedAttrs> parse_rms(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<RmsAttrs>();
  GK_TRY(r->axis, a.get_int("axis", -1));
  GK_TRY(r->epsilon, a.get_float("epsilon", 1e-5f));
  GK_TRY(int64_t stash, a.get_int("stash_type", 1));
  if (stash != 1 && stash != 11)
    return unimplemented("{}: stash_type {} is not supported (1 = float32, 11 = float64)", node.describe(), stash);
  r->stash = stash == 11 ? DType::kF64 : DType::kF32;
  return ParsedAttrs(std::move(r));
}

Status infer_rms(InferContext& ctx) {
  const auto& r = attrs_as<RmsAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  const TensorType& scale = ctx.in(1);
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, x.dtype, kFloatTypes));
  GK_RETURN_IF_ERROR(check_type(ctx.node, 1, scale.dtype, kFloatTypes));
  GK_RETURN_IF_ERROR(normalize_axis(r.axis, static_cast<int64_t>(x.shape.size()), ctx.node.describe()).status());
  // Unidirectional broadcast: scale must broadcast to X without changing X's shape.
  auto b = broadcast_shapes(x.shape, scale.shape);
  if (!b.ok() || *b != x.shape)
    return ctx.fail(fmt::format("scale of shape {} does not broadcast to X's shape {}", shape_str(scale.shape),
                                shape_str(x.shape)));
  ctx.outputs[0] = {scale.dtype, x.shape};
  return ok_status();
}

Status run_rms(KernelContext& ctx) {
  const auto& r = ctx.attrs<RmsAttrs>();
  const TensorRef& x = ctx.in(0);
  const TensorRef& scale = ctx.in(1);
  const Shape& s = x.shape;
  GK_TRY(int64_t axis, normalize_axis(r.axis, static_cast<int64_t>(s.size()), ctx.node().describe()));
  RmsParams p;
  p.rows = 1;
  for (int64_t d = 0; d < axis; ++d) p.rows *= s[d];
  for (size_t d = axis; d < s.size(); ++d) p.len *= s[d];
  if (p.rows == 0 || p.len == 0) return ok_status();
  p.eps = r.epsilon;
  // The common case, scale shaped like the normalised dims (leading 1s aside),
  // indexes by position in the row; anything else goes through the broadcast map.
  Shape tail(s.begin() + axis, s.end());
  Shape sc = scale.shape;
  while (!sc.empty() && sc.front() == 1 && sc.size() > tail.size()) sc.erase(sc.begin());
  if (sc != tail) {
    p.scale_general = 1;
    GK_TRY(p.smap, broadcast_map(s, scale.shape));
  }
  KernelArgs args;
  args.ptr(x.ptr).ptr(scale.ptr).ptr(ctx.out(0).ptr).pod(p);
  return ctx.launch(
      kernel_sources::attention,
      KernelName::format("gk_rms_rows<{}, {}, {}>",
                         {kernel_type_name(x.dtype), kernel_type_name(scale.dtype), kernel_type_name(r.stash)}),
      rows_launch(p.rows, p.len), args);
}

// ---- RotaryEmbedding: X [B, H, S, D] or [B, S, H*D] (num_heads given).

// Must match gk_rope_params in ops/attention/attention.cuh.
struct RopeParams {
  int64_t n = 0, seq = 0, head = 0, s_div = 1, b_div = 1, half = 0, positions = 0;
  int32_t interleaved = 0, has_pos = 0;
};
static_assert(sizeof(RopeParams) == 64);

struct RopeAttrs {
  bool interleaved = false;
  int64_t num_heads = 0;
  int64_t rotary_dim = 0;
};

constexpr TypeSet kRopeTypes = type_bit(DType::kF32) | type_bit(DType::kF16) | type_bit(DType::kBF16);

Result<ParsedAttrs> parse_rope(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<RopeAttrs>();
  GK_TRY(int64_t interleaved, a.get_int("interleaved", 0));
  r->interleaved = interleaved != 0;
  GK_TRY(r->num_heads, a.get_int("num_heads", 0));
  GK_TRY(r->rotary_dim, a.get_int("rotary_embedding_dim", 0));
  if (r->num_heads < 0 || r->rotary_dim < 0)
    return invalid_model("{}: num_heads ({}) and rotary_embedding_dim ({}) must not be negative", node.describe(),
                         r->num_heads, r->rotary_dim);
  return ParsedAttrs(std::move(r));
}

// [batch, seq, heads, head_size] of X, and the rotated width.
struct RopeDims {
  int64_t batch, seq, heads, head, rotary;
};

Result<RopeDims> rope_dims(const NodeView& node, const RopeAttrs& r, const Shape& x) {
  RopeDims d{};
  if (x.size() == 4) {
    d = {x[0], x[2], x[1], x[3], 0};
  } else if (x.size() == 3) {
    if (r.num_heads == 0)
      return invalid_model("{}: a 3-D input needs the num_heads attribute", node.describe());
    if (x[2] % r.num_heads != 0)
      return invalid_model("{}: hidden size {} is not a multiple of num_heads {}", node.describe(), x[2], r.num_heads);
    d = {x[0], x[1], r.num_heads, x[2] / r.num_heads, 0};
  } else {
    return invalid_model("{}: input of shape {} must be 3-D or 4-D", node.describe(), shape_str(x));
  }
  d.rotary = r.rotary_dim == 0 ? d.head : r.rotary_dim;
  if (d.rotary % 2 != 0 || d.rotary > d.head)
    return invalid_model("{}: rotary dimension {} must be even and at most the head size {}", node.describe(),
                         d.rotary, d.head);
  return d;
}

Status infer_rope(InferContext& ctx) {
  const auto& r = attrs_as<RopeAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  GK_RETURN_IF_ERROR(check_type(ctx.node, 0, x.dtype, kRopeTypes));
  GK_TRY(RopeDims d, rope_dims(ctx.node, r, x.shape));
  const bool has_pos = ctx.node.has_input(3);
  for (size_t i = 1; i <= 2; ++i) {
    const TensorType& c = ctx.in(i);
    const char* name = i == 1 ? "cos_cache" : "sin_cache";
    if (c.dtype != x.dtype)
      return ctx.fail(fmt::format("{} has type {}, X {}", name, dtype_name(c.dtype), dtype_name(x.dtype)));
    const bool ok = has_pos ? c.shape.size() == 2 && c.shape[1] == d.rotary / 2
                            : c.shape == Shape{d.batch, d.seq, d.rotary / 2};
    if (!ok)
      return ctx.fail(fmt::format("{} has shape {}, expected {}", name, shape_str(c.shape),
                                  has_pos ? fmt::format("[max_position, {}]", d.rotary / 2)
                                          : shape_str(Shape{d.batch, d.seq, d.rotary / 2})));
  }
  if (ctx.in(1).shape != ctx.in(2).shape) return ctx.fail("cos_cache and sin_cache shapes differ");
  if (has_pos) {
    const TensorType& p = ctx.in(3);
    if (p.dtype != DType::kI64) return ctx.fail(fmt::format("position_ids has type {}, expected int64", dtype_name(p.dtype)));
    if (p.shape != Shape{d.batch, d.seq})
      return ctx.fail(fmt::format("position_ids has shape {}, expected [{}, {}]", shape_str(p.shape), d.batch, d.seq));
  }
  ctx.outputs[0] = x;
  return ok_status();
}

Status run_rope(KernelContext& ctx) {
  const auto& r = ctx.attrs<RopeAttrs>();
  const TensorRef& x = ctx.in(0);
  GK_TRY(RopeDims d, rope_dims(ctx.node(), r, x.shape));
  RopeParams p;
  p.n = x.numel();
  if (p.n == 0) return ok_status();
  p.seq = d.seq, p.head = d.head, p.half = d.rotary / 2;
  p.s_div = x.shape.size() == 4 ? d.head : d.heads * d.head;
  p.b_div = d.seq * d.heads * d.head;
  p.interleaved = r.interleaved ? 1 : 0;
  const bool has_pos = ctx.node().has_input(3);
  p.has_pos = has_pos ? 1 : 0;
  p.positions = has_pos ? ctx.in(1).shape[0] : 0;
  if (has_pos && p.positions == 0) return ctx.fail("cos_cache has no positions for position_ids to index");
  KernelArgs args;
  args.ptr(x.ptr).ptr(ctx.in(1).ptr).ptr(ctx.in(2).ptr).ptr(has_pos ? ctx.in(3).ptr : DevPtr{0});
  args.ptr(ctx.out(0).ptr).pod(p).ptr(ctx.error_flag());
  return ctx.launch(kernel_sources::attention, KernelName::format("gk_rope<{}>", {kernel_type_name(x.dtype)}),
                    grid_for(p.n), args);
}

const OpImpl kRms{&parse_rms, &infer_rms, &run_rms};
const OpImpl kRope{&parse_rope, &infer_rope, &run_rope};

}  // namespace

namespace families {
std::span<const OpSchema> rms_rope_ops() {
  static const OpSchema table[] = {
      {"", "RMSNormalization", 23, kOpsetCurrent, &kRms, {}},
      {"", "RotaryEmbedding", 23, kOpsetCurrent, &kRope, {}},
  };
  return table;
}
}  // namespace families

}  // namespace gk

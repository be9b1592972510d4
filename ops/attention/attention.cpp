// Attention (23, 24): scaled dot-product attention with 3-D or 4-D Q/K/V, grouped
// KV heads, a KV cache, causal/bool/additive/padding masks and softcap. Per (batch,
// q head): scores = scale * Q K^T (batched GEMM, ops/matmul/gemm_launch.h), then one pass
// per score row (gk_attn_softmax: softcap, bias, softmax in f32 or f64), then
// probs V (batched GEMM). RMSNormalization and RotaryEmbedding live in
// ops/attention/rms_rope.cpp.
#include "ops/data_movement/data_movement.h"
#include "ops/elementwise/elementwise.h"
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/row_geometry.h"

#include <cmath>

namespace gk {
namespace {

// Must match gk_attn_params in ops/attention/attention.cuh.
struct AttnParams {
  int64_t rows = 0, total = 0, q_len = 0, per_batch = 1, past = -1, mask_len = 0;
  float softcap = 0;
  int32_t causal = 0, mask_kind = 0, qk_mode = -1, has_nonpad = 0, pad_ = 0;
  IndexMap mask_rows;
};
static_assert(sizeof(AttnParams) == 72 + sizeof(IndexMap));

struct AttnAttrs {
  bool causal = false;
  int64_t q_heads = 0, kv_heads = 0;  // 0: not given
  int64_t qk_mode = 0;
  bool has_scale = false;
  float scale = 0;
  float softcap = 0;
};

enum Input { kQ = 0, kK, kV, kMask, kPastK, kPastV, kNonpad };

Result<ParsedAttrs> parse_attention(const AttrMap& a, const NodeView& node) {
  auto r = std::make_shared<AttnAttrs>();
  GK_TRY(int64_t causal, a.get_int("is_causal", 0));
  r->causal = causal != 0;
  GK_TRY(r->q_heads, a.get_int("q_num_heads", 0));
  GK_TRY(r->kv_heads, a.get_int("kv_num_heads", 0));
  GK_TRY(r->qk_mode, a.get_int("qk_matmul_output_mode", 0));
  if (r->qk_mode < 0 || r->qk_mode > 3)
    return invalid_model("{}: qk_matmul_output_mode {} is outside [0, 3]", node.describe(), r->qk_mode);
  r->has_scale = a.has("scale");
  GK_TRY(r->scale, a.get_float("scale", 0.f));
  GK_TRY(r->softcap, a.get_float("softcap", 0.f));
  // Scores are always reduced in float32 (float64 for double inputs), at least the
  // precision any allowed softmax_precision asks for, so it only needs checking.
  GK_TRY(int64_t precision, a.get_int("softmax_precision", 1));
  if (precision != 1 && precision != 10 && precision != 11 && precision != 16)
    return invalid_model("{}: softmax_precision {} is not a float type (1, 10, 11 or 16)", node.describe(), precision);
  if (r->q_heads < 0 || r->kv_heads < 0)
    return invalid_model("{}: q_num_heads and kv_num_heads must be positive", node.describe());
  if (node.opset < 24 && node.has_input(kNonpad))
    return invalid_model("{}: nonpad_kv_seqlen is an Attention-24 input (model opset {})", node.describe(), node.opset);
  return ParsedAttrs(std::move(r));
}

// Q/K/V as [batch, heads, seq, head_size] with element strides, whatever the layout.
struct Operand {
  int64_t batch = 0, heads = 0, seq = 0, dim = 0;
  int64_t sb = 0, sh = 0, ss = 0;
};

Operand operand(const Shape& s, int64_t heads_3d) {
  Operand o;
  if (s.size() == 4) {
    o = {s[0], s[1], s[2], s[3], 0, 0, 0};
    o.ss = o.dim, o.sh = o.seq * o.dim, o.sb = o.heads * o.sh;
  } else {
    o = {s[0], heads_3d, s[1], s[2] / heads_3d, 0, 0, 0};
    o.sh = o.dim, o.ss = s[2], o.sb = s[1] * s[2];
  }
  return o;
}

struct AttnDims {
  Operand q, k, v;
  int64_t past = 0, total = 0;
  bool three_d = false;
};

Result<AttnDims> attention_dims(const NodeView& node, const AttnAttrs& r, std::span<const TensorType> in) {
  auto fail = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  const Shape &qs = in[kQ].shape, &ks = in[kK].shape, &vs = in[kV].shape;
  AttnDims d;
  if (qs.size() != ks.size() || qs.size() != vs.size() || (qs.size() != 3 && qs.size() != 4))
    return fail(fmt::format("Q {}, K {} and V {} must all be 3-D or all 4-D", shape_str(qs), shape_str(ks),
                            shape_str(vs)));
  d.three_d = qs.size() == 3;
  if (d.three_d) {
    if (r.q_heads == 0 || r.kv_heads == 0) return fail("3-D inputs need q_num_heads and kv_num_heads");
    if (qs[2] % r.q_heads || ks[2] % r.kv_heads || vs[2] % r.kv_heads)
      return fail(fmt::format("hidden sizes Q {}, K {}, V {} must be multiples of q_num_heads {} / kv_num_heads {}",
                              qs[2], ks[2], vs[2], r.q_heads, r.kv_heads));
  }
  d.q = operand(qs, r.q_heads);
  d.k = operand(ks, r.kv_heads);
  d.v = operand(vs, r.kv_heads);
  if (d.k.batch != d.q.batch || d.v.batch != d.q.batch || d.k.dim != d.q.dim || d.v.seq != d.k.seq ||
      d.v.heads != d.k.heads)
    return fail(fmt::format("Q {}, K {} and V {} disagree on batch, heads, sequence or head size", shape_str(qs),
                            shape_str(ks), shape_str(vs)));
  if (d.k.heads == 0 || d.q.heads % d.k.heads != 0)
    return fail(fmt::format("{} query heads are not a multiple of {} kv heads", d.q.heads, d.k.heads));
  const bool pk = node.has_input(kPastK), pv = node.has_input(kPastV);
  if (pk != pv) return fail("past_key and past_value must be given together");
  if (pk) {
    const Shape &a = in[kPastK].shape, &b = in[kPastV].shape;
    const int64_t len = a.size() == 4 ? a[2] : 0;
    if (a != Shape{d.k.batch, d.k.heads, len, d.k.dim} || b != Shape{d.k.batch, d.k.heads, len, d.v.dim})
      return fail(fmt::format("past_key {} / past_value {} must be [{}, {}, past, {}] / [.., {}]", shape_str(a),
                              shape_str(b), d.k.batch, d.k.heads, d.k.dim, d.v.dim));
    d.past = len;
  }
  d.total = d.past + d.k.seq;
  return d;
}

Status infer_attention(InferContext& ctx) {
  const auto& r = attrs_as<AttnAttrs>(ctx.attrs);
  const DType t = ctx.in(kQ).dtype;
  GK_RETURN_IF_ERROR(check_type(ctx.node, kQ, t, kFloatTypes));
  for (size_t i : {kK, kV, kPastK, kPastV})
    if (ctx.node.has_input(i) && ctx.in(i).dtype != t)
      return unimplemented("{}: input {} has type {}, Q {}; mixed types are not supported", ctx.node.describe(), i,
                           dtype_name(ctx.in(i).dtype), dtype_name(t));
  GK_TRY(AttnDims d, attention_dims(ctx.node, r, ctx.inputs));
  const int64_t B = d.q.batch, Hq = d.q.heads, Sq = d.q.seq;
  if (ctx.node.has_input(kMask)) {
    const TensorType& m = ctx.in(kMask);
    if (m.dtype != DType::kBool && m.dtype != t)
      return unimplemented("{}: attn_mask of type {} is not supported (bool or Q's type {})", ctx.node.describe(),
                           dtype_name(m.dtype), dtype_name(t));
    const Shape full{B, Hq, Sq};
    bool ok = !m.shape.empty() && m.shape.size() <= 4 && m.shape.back() <= d.total;
    for (size_t i = 0; ok && i + 1 < m.shape.size(); ++i) {
      const int64_t dim = m.shape[m.shape.size() - 2 - i], want = full[2 - i];
      ok = dim == 1 || dim == want;
    }
    if (!ok)
      return ctx.fail(fmt::format("attn_mask of shape {} does not broadcast to [{}, {}, {}, <= {}]",
                                  shape_str(m.shape), B, Hq, Sq, d.total));
  }
  if (ctx.node.has_input(kNonpad)) {
    const TensorType& n = ctx.in(kNonpad);
    if (n.dtype != DType::kI64 || n.shape != Shape{B})
      return ctx.fail(fmt::format("nonpad_kv_seqlen must be int64 [{}], got {} {}", B, dtype_name(n.dtype),
                                  shape_str(n.shape)));
  }
  ctx.outputs[0] = {t, d.three_d ? Shape{B, Sq, Hq * d.v.dim} : Shape{B, Hq, Sq, d.v.dim}};
  if (ctx.outputs.size() > 1) ctx.outputs[1] = {t, Shape{B, d.k.heads, d.total, d.k.dim}};
  if (ctx.outputs.size() > 2) ctx.outputs[2] = {t, Shape{B, d.k.heads, d.total, d.v.dim}};
  if (ctx.outputs.size() > 3) ctx.outputs[3] = {t, Shape{B, Hq, Sq, d.total}};
  return ok_status();
}

DevPtr output_ptr(const KernelContext& ctx, size_t i) {
  return i < ctx.num_outputs() && ctx.node().has_output(i) ? ctx.out(i).ptr : DevPtr{0};
}

// present = concat(past, cur) along the sequence, into output `out` or scratch;
// returns the operand now read from it (4-D contiguous).
Result<Operand> build_present(KernelContext& ctx, const Operand& cur, DevPtr cur_ptr, size_t past_input, size_t out,
                              int64_t past, DevPtr* ptr) {
  const DType t = ctx.in(kQ).dtype;
  Operand p = cur;
  p.seq = past + cur.seq;
  p.ss = p.dim, p.sh = p.seq * p.dim, p.sb = p.heads * p.sh;
  const int64_t n = p.batch * p.heads * p.seq * p.dim;
  *ptr = output_ptr(ctx, out);
  if (*ptr == 0 && n > 0) {
    GK_TRY(GkBuf buf, ctx.scratch(t, n));
    *ptr = buf.ptr();
  }
  if (n == 0) return p;
  const DevPtr past_ptr = ctx.node().has_input(past_input) ? ctx.in(past_input).ptr : DevPtr{0};
  KernelArgs args;
  args.ptr(past_ptr).ptr(cur_ptr).ptr(*ptr).i64(n).i64(p.heads).i64(past).i64(p.seq).i64(p.dim);
  args.i64(cur.sb).i64(cur.sh).i64(cur.ss);
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::attention,
                                KernelName::format("gk_kv_concat<{}>", {kernel_type_name(t)}), grid_for(n), args));
  return p;
}

// Batch index (b, q head) -> offset of the kv head it reads: q head h uses kv head
// h / (Hq / Hkv) (each kv head repeated for a run of query heads).
IndexMap kv_map(const Operand& q, const Operand& kv) {
  IndexMap m;
  m.rank = 3;
  m.dims[0] = q.batch, m.dims[1] = kv.heads, m.dims[2] = q.heads / kv.heads;
  m.strides[0] = kv.sb, m.strides[1] = kv.sh, m.strides[2] = 0;
  return m;
}

Status run_attention(KernelContext& ctx) {
  const auto& r = ctx.attrs<AttnAttrs>();
  const DType t = ctx.in(kQ).dtype;
  std::vector<TensorType> types;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) types.push_back({ctx.in(i).dtype, ctx.in(i).shape});
  GK_TRY(AttnDims d, attention_dims(ctx.node(), r, types));
  const int64_t B = d.q.batch, Hq = d.q.heads, Sq = d.q.seq, T = d.total;
  const bool has_past = ctx.node().has_input(kPastK);

  Operand k = d.k, v = d.v;
  DevPtr k_ptr = ctx.in(kK).ptr, v_ptr = ctx.in(kV).ptr;
  if (has_past || output_ptr(ctx, 1)) {
    GK_TRY(k, build_present(ctx, d.k, ctx.in(kK).ptr, kPastK, 1, d.past, &k_ptr));
  }
  if (has_past || output_ptr(ctx, 2)) {
    GK_TRY(v, build_present(ctx, d.v, ctx.in(kV).ptr, kPastV, 2, d.past, &v_ptr));
  }

  const int64_t rows = B * Hq * Sq;
  if (rows == 0 || ctx.out(0).numel() == 0) return ok_status();
  GK_TRY(GkBuf scores, ctx.scratch(t, std::max<int64_t>(rows * T, 1)));

  // scores[b, h] (Sq x T) = scale * Q[b, h] K[b, h / group]^T
  GemmCall qk;
  qk.dtype = t;
  qk.M = Sq, qk.N = T, qk.K = d.q.dim, qk.batch = B * Hq;
  qk.a = ctx.in(kQ).ptr, qk.b = k_ptr, qk.y = scores.ptr();
  qk.a_sm = d.q.ss, qk.a_sk = 1, qk.b_sk = 1, qk.b_sn = k.ss;
  qk.amap.rank = 2, qk.amap.dims[0] = B, qk.amap.dims[1] = Hq, qk.amap.strides[0] = d.q.sb, qk.amap.strides[1] = d.q.sh;
  qk.bmap = kv_map(d.q, k);
  qk.alpha = r.has_scale ? r.scale : static_cast<float>(1.0 / std::sqrt(static_cast<double>(d.q.dim)));
  qk.beta = 0;
  GK_RETURN_IF_ERROR(launch_gemm(ctx, qk));

  AttnParams p;
  p.rows = rows, p.total = T, p.q_len = Sq, p.per_batch = Hq * Sq;
  p.past = has_past ? d.past : -1;
  p.softcap = r.softcap;
  p.causal = r.causal ? 1 : 0;
  const DevPtr qk_out = output_ptr(ctx, 3);
  p.qk_mode = qk_out ? static_cast<int32_t>(r.qk_mode) : -1;
  p.has_nonpad = ctx.node().has_input(kNonpad) ? 1 : 0;
  const char* mask_type = kernel_type_name(t);
  DevPtr mask_ptr = 0;
  if (ctx.node().has_input(kMask)) {
    const TensorRef& m = ctx.in(kMask);
    p.mask_kind = m.dtype == DType::kBool ? 1 : 2;
    if (m.dtype == DType::kBool) mask_type = "bool";
    p.mask_len = m.shape.back();
    const Shape lead(m.shape.begin(), m.shape.end() - 1);
    GK_TRY(p.mask_rows, broadcast_map(Shape{B, Hq, Sq}, lead));
    for (int32_t i = 0; i < p.mask_rows.rank; ++i) p.mask_rows.strides[i] *= p.mask_len;
    mask_ptr = m.ptr;
  }
  KernelArgs args;
  args.ptr(scores.ptr()).ptr(mask_ptr).ptr(p.has_nonpad ? ctx.in(kNonpad).ptr : DevPtr{0}).ptr(qk_out).pod(p);
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::attention,
                                KernelName::format("gk_attn_softmax<{}, {}>", {kernel_type_name(t), mask_type}),
                                rows_launch(rows, T), args));

  // Y[b, h] (Sq x Dv) = probs[b, h] V[b, h / group]; 3-D output through a transpose.
  GemmCall pv;
  pv.dtype = t;
  pv.M = Sq, pv.N = v.dim, pv.K = T, pv.batch = B * Hq;
  pv.a = scores.ptr(), pv.b = v_ptr;
  pv.a_sm = T, pv.a_sk = 1, pv.b_sk = v.ss, pv.b_sn = 1;
  pv.amap.rank = 1, pv.amap.dims[0] = B * Hq, pv.amap.strides[0] = Sq * T;
  pv.bmap = kv_map(d.q, v);
  pv.beta = 0;
  if (!d.three_d) {
    pv.y = ctx.out(0).ptr;
    return launch_gemm(ctx, pv);
  }
  GK_TRY(GkBuf heads, ctx.scratch(t, rows * v.dim));
  pv.y = heads.ptr();
  GK_RETURN_IF_ERROR(launch_gemm(ctx, pv));
  const int64_t Dv = v.dim;
  return dm::strided_copy(ctx, dtype_storage_bytes(t, 1), heads.ptr(), Shape{B, Sq, Hq, Dv},
                          {Hq * Sq * Dv, Dv, Sq * Dv, 1}, ctx.out(0).ptr);
}

const OpImpl kAttention{&parse_attention, &infer_attention, &run_attention};

}  // namespace

namespace families {

std::span<const OpSchema> attention_ops() {
  // Attention-24 only added the nonpad_kv_seqlen input (parse rejects it before 24).
  static const OpSchema table[] = {{"", "Attention", 23, kOpsetCurrent, &kAttention, {}}};
  return table;
}

}  // namespace families
}  // namespace gk

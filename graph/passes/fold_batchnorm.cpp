// Conv/ConvTranspose/Gemm followed by an inference-form BatchNormalization: the
// normalisation is a per-output-channel affine map, so it folds into the weights
// and bias:
//   s = gamma / sqrt(var + eps),  W' = W * s,  b' = (b - mean) * s + beta.
// Computed in double, stored in the weight's element type. First, a bias-free
// Conv/ConvTranspose followed by Add of a per-channel constant takes the constant
// as its bias: Paddle exports ConvTranspose that way, and the Add stood between it
// and its BatchNormalization (PaddleOCR's detector head: a standalone BN over a
// 1x24x320x320 tensor, 6% of the run).
#include "graph/passes/pass_util.h"

// The kernels' own f16/bf16 rounding (round to nearest even), so a folded f16
// weight is what the device would have produced from the same float.
#include "backends/kernel_prelude.cuh"

#include <cmath>

namespace gk::passes {
namespace {

bool float_type(DType t) { return t == DType::kF32 || t == DType::kF16 || t == DType::kBF16 || t == DType::kF64; }

void store(HostTensor& t, int64_t i, double x) {
  switch (t.dtype()) {
    case DType::kF32: t.mutable_data<float>()[i] = static_cast<float>(x); break;
    case DType::kF64: t.mutable_data<double>()[i] = x; break;
    case DType::kF16: t.mutable_data<uint16_t>()[i] = gk_float_to_half_bits(static_cast<float>(x)); break;
    case DType::kBF16: t.mutable_data<uint16_t>()[i] = gk_float_to_bf16_bits(static_cast<float>(x)); break;
    default: break;  // callers checked float_type
  }
}

// A per-channel vector of `c` floats.
const HostTensor* channel_vector(const Graph& g, ValueId v, int64_t c) {
  const HostTensor* t = constant(g, v);
  return t && float_type(t->dtype()) && t->numel() == c ? t : nullptr;
}

struct BnParams {
  std::vector<double> scale, shift;  // y = x * scale + shift per channel
};

// The BN node's folded form, or nullopt when it is not the inference form.
std::optional<BnParams> bn_params(const Graph& g, const Node& bn, const std::vector<bool>& outside, int64_t c) {
  for (size_t k = 1; k < bn.outputs.size(); ++k) {
    const ValueId v = bn.outputs[k];
    if (v != kNoValue && (outside[v] || !g.values[v].consumers.empty())) return std::nullopt;
  }
  auto eps = bn.attrs.get_float("epsilon", 1e-5f);
  auto spatial = bn.attrs.get_int("spatial", 1);           // opset < 9
  auto training = bn.attrs.get_int("training_mode", 0);    // opset 14+
  if (!eps.ok() || !spatial.ok() || !training.ok() || *spatial != 1 || *training != 0) return std::nullopt;
  const HostTensor* gamma = channel_vector(g, input_of(bn, 1), c);
  const HostTensor* beta = channel_vector(g, input_of(bn, 2), c);
  const HostTensor* mean = channel_vector(g, input_of(bn, 3), c);
  const HostTensor* var = channel_vector(g, input_of(bn, 4), c);
  if (!gamma || !beta || !mean || !var) return std::nullopt;
  BnParams p;
  for (int64_t i = 0; i < c; ++i) {
    const double s = gamma->as_f64(i) / std::sqrt(var->as_f64(i) + static_cast<double>(*eps));
    p.scale.push_back(s);
    p.shift.push_back(beta->as_f64(i) - mean->as_f64(i) * s);
  }
  return p;
}

// Output channels of the producer's weight and the stride pattern to reach them:
// channel of element e = (e / inner) % per_group + (e / group_block) * per_group
// (group_block 0: one group). ConvTranspose's W is [C_in, C_out / group, k...], so
// its output channels run along dim 1 within each group's block of input channels.
struct WeightLayout {
  int64_t channels = 0, inner = 1, per_group = 0, group_block = 0;
  int64_t channel_of(int64_t e) const {
    return (e / inner) % per_group + (group_block ? (e / group_block) * per_group : 0);
  }
};

std::optional<WeightLayout> weight_layout(const Node& p, const HostTensor& w) {
  const Shape& s = w.shape();
  if (is_op(p, "Conv")) {
    if (s.empty()) return std::nullopt;
    return WeightLayout{s[0], w.numel() / std::max<int64_t>(s[0], 1), s[0]};
  }
  if (is_op(p, "ConvTranspose")) {
    auto group = p.attrs.get_int("group", 1);
    if (!group.ok() || *group < 1 || s.size() < 3 || s[0] % *group != 0) return std::nullopt;
    const int64_t inner = w.numel() / std::max<int64_t>(s[0] * s[1], 1);
    const int64_t block = *group > 1 ? (s[0] / *group) * s[1] * inner : 0;
    return WeightLayout{s[1] * *group, inner, s[1], block};
  }
  auto trans_b = p.attrs.get_int("transB", 0);
  if (!trans_b.ok() || s.size() != 2) return std::nullopt;
  return *trans_b ? WeightLayout{s[0], s[1], s[0]} : WeightLayout{s[1], 1, s[1]};
}

Result<bool> fold_one(Graph& g, int bn_index, const std::vector<bool>& outside) {
  const Node& bn = g.nodes[bn_index];
  const ValueId x = input_of(bn, 0);
  if (x == kNoValue || bn.outputs.empty() || bn.outputs[0] == kNoValue) return false;
  const int pi = g.values[x].producer;
  if (pi < 0 || sole_consumer(g, outside, x) != bn_index) return false;
  const Node& p = g.nodes[pi];
  const bool conv = is_op(p, "Conv") || is_op(p, "ConvTranspose");
  if ((!conv && !is_op(p, "Gemm")) || p.outputs.empty() || p.outputs[0] != x ||
      p.view.epilogue.kind != Epilogue::Kind::kNone)
    return false;
  const HostTensor* w = constant(g, input_of(p, 1));
  if (!w || !float_type(w->dtype())) return false;
  const auto layout = weight_layout(p, *w);
  if (!layout || layout->channels <= 0) return false;
  const int64_t c = layout->channels;
  const auto bn_p = bn_params(g, bn, outside, c);
  if (!bn_p) return false;

  // Bias: Conv's B [C]; Gemm's C scaled by beta, a scalar or [C]/[1, C].
  const ValueId bias_v = input_of(p, 2);
  const HostTensor* bias = bias_v == kNoValue ? nullptr : constant(g, bias_v);
  if (bias_v != kNoValue && (!bias || !float_type(bias->dtype()))) return false;
  double bias_scale = 1.0;
  if (!conv) {
    auto beta = p.attrs.get_float("beta", 1.0f);
    if (!beta.ok()) return false;
    bias_scale = *beta;
    if (bias && bias->numel() != 1 && !(bias->numel() == c && bias->shape().back() == c)) return false;
  } else if (bias && bias->numel() != c) {
    return false;
  }

  GK_TRY(HostTensor new_w, HostTensor::allocate(w->dtype(), w->shape()));
  for (int64_t e = 0; e < w->numel(); ++e)
    store(new_w, e, w->as_f64(e) * bn_p->scale[layout->channel_of(e)]);
  GK_TRY(HostTensor new_b, HostTensor::allocate(w->dtype(), Shape{c}));
  for (int64_t ch = 0; ch < c; ++ch) {
    const double b = bias ? bias_scale * bias->as_f64(bias->numel() == 1 ? 0 : ch) : 0.0;
    store(new_b, ch, b * bn_p->scale[ch] + bn_p->shift[ch]);
  }

  const ValueId z = bn.outputs[0];
  std::vector<std::string> bn_covers = bn.covers;
  Node& bn_mut = g.nodes[bn_index];
  bn_mut.inputs.clear();
  bn_mut.outputs.clear();
  set_node_constant(g, pi, 1, "_bnfold", std::move(new_w));
  set_node_constant(g, pi, 2, "_bnfold", std::move(new_b));
  Node& prod = g.nodes[pi];
  prod.outputs[0] = z;
  prod.covers.insert(prod.covers.end(), bn_covers.begin(), bn_covers.end());
  if (!conv) {
    Attribute one;
    one.kind = Attribute::Kind::kFloat;
    one.f = 1.0f;
    GK_RETURN_IF_ERROR(set_attribute(prod, "beta", one));
  }
  return true;
}

// Conv/ConvTranspose (no activation fused, constant float weight and bias if any)
// whose output only feeds Add(y, k) or Add(k, y), k a constant that varies at most
// along the channel axis of y (rank <= y's, right-aligned, every other dim 1): k
// joins the bias. The Add's output stays, now produced by the conv.
Result<bool> fold_bias_add(Graph& g, int add_index, const std::vector<bool>& outside) {
  const Node& add = g.nodes[add_index];
  if (add.inputs.size() != 2 || add.outputs.size() != 1 || add.outputs[0] == kNoValue || add.attrs.has("broadcast") ||
      add.attrs.has("axis"))
    return false;
  for (int side = 0; side < 2; ++side) {
    const ValueId y = add.inputs[side], kv = add.inputs[1 - side];
    if (y == kNoValue || kv == kNoValue) continue;
    const int pi = g.values[y].producer;
    if (pi < 0 || sole_consumer(g, outside, y) != add_index) continue;
    const Node& p = g.nodes[pi];
    if ((!is_op(p, "Conv") && !is_op(p, "ConvTranspose")) || p.outputs.empty() || p.outputs[0] != y ||
        p.view.epilogue.kind != Epilogue::Kind::kNone)
      continue;
    const HostTensor* w = constant(g, input_of(p, 1));
    const HostTensor* k = constant(g, kv);
    if (!w || !k || !float_type(w->dtype()) || k->dtype() != w->dtype() || w->shape().size() < 3) continue;
    const auto layout = weight_layout(p, *w);
    if (!layout || layout->channels <= 0) continue;
    const int64_t c = layout->channels, rank = static_cast<int64_t>(w->shape().size());
    const Shape& ks = k->shape();
    const int64_t lead = rank - static_cast<int64_t>(ks.size());  // k's dim d is y's dim d + lead
    bool per_channel = lead >= 0;
    for (size_t d = 0; per_channel && d < ks.size(); ++d)
      per_channel = ks[d] == 1 || (static_cast<int64_t>(d) + lead == 1 && ks[d] == c);
    if (!per_channel) continue;
    const ValueId bias_v = input_of(p, 2);
    const HostTensor* bias = bias_v == kNoValue ? nullptr : constant(g, bias_v);
    if (bias_v != kNoValue && (!bias || bias->dtype() != w->dtype() || bias->numel() != c)) continue;
    GK_TRY(HostTensor new_b, HostTensor::allocate(w->dtype(), Shape{c}));
    for (int64_t ch = 0; ch < c; ++ch)
      store(new_b, ch, (bias ? bias->as_f64(ch) : 0.0) + k->as_f64(k->numel() == 1 ? 0 : ch));
    const ValueId z = add.outputs[0];
    std::vector<std::string> add_covers = add.covers;
    Node& add_mut = g.nodes[add_index];
    add_mut.inputs.clear();
    add_mut.outputs.clear();
    set_node_constant(g, pi, 2, "_biasadd", std::move(new_b));
    Node& prod = g.nodes[pi];
    prod.outputs[0] = z;
    prod.covers.insert(prod.covers.end(), add_covers.begin(), add_covers.end());
    return true;
  }
  return false;
}

}  // namespace

Status fold_batchnorm(Graph& g) {
  std::vector<bool> dead(g.nodes.size(), false);
  const std::vector<bool> outside = named_from_outside(g);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!is_op(g.nodes[i], "Add")) continue;
    GK_TRY(bool folded, fold_bias_add(g, static_cast<int>(i), outside));
    if (!folded) continue;
    dead[i] = true;
    g.rebuild_uses();
  }
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!is_op(g.nodes[i], "BatchNormalization")) continue;
    GK_TRY(bool folded, fold_one(g, static_cast<int>(i), outside));
    if (!folded) continue;
    dead[i] = true;
    g.rebuild_uses();
  }
  erase_nodes(g, dead);
  return ok_status();
}

}  // namespace gk::passes

// Conv/Gemm followed by an inference-form BatchNormalization: the normalisation is
// a per-output-channel affine map, so it folds into the weights and bias:
//   s = gamma / sqrt(var + eps),  W' = W * s,  b' = (b - mean) * s + beta.
// Computed in double, stored in the weight's element type.
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
// channel of element e = (e / inner) % channels.
struct WeightLayout {
  int64_t channels = 0, inner = 1;
};

std::optional<WeightLayout> weight_layout(const Node& p, const HostTensor& w) {
  const Shape& s = w.shape();
  if (is_op(p, "Conv")) {
    if (s.empty()) return std::nullopt;
    return WeightLayout{s[0], w.numel() / std::max<int64_t>(s[0], 1)};
  }
  auto trans_b = p.attrs.get_int("transB", 0);
  if (!trans_b.ok() || s.size() != 2) return std::nullopt;
  return *trans_b ? WeightLayout{s[0], s[1]} : WeightLayout{s[1], 1};
}

Result<bool> fold_one(Graph& g, int bn_index, const std::vector<bool>& outside) {
  const Node& bn = g.nodes[bn_index];
  const ValueId x = input_of(bn, 0);
  if (x == kNoValue || bn.outputs.empty() || bn.outputs[0] == kNoValue) return false;
  const int pi = g.values[x].producer;
  if (pi < 0 || sole_consumer(g, outside, x) != bn_index) return false;
  const Node& p = g.nodes[pi];
  const bool conv = is_op(p, "Conv");
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
    store(new_w, e, w->as_f64(e) * bn_p->scale[(e / layout->inner) % c]);
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
    prod.attrs.set("beta", one);
    if (prod.schema && prod.schema->impl && prod.schema->impl->parse) {
      GK_TRY(prod.parsed, prod.schema->impl->parse(prod.attrs, prod.view));
    }
  }
  return true;
}

}  // namespace

Status fold_batchnorm(Graph& g) {
  std::vector<bool> dead(g.nodes.size(), false);
  const std::vector<bool> outside = named_from_outside(g);
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

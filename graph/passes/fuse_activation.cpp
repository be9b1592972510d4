// An activation reading only a Conv/Gemm/MatMul output becomes that node's
// epilogue (applied to each output element before the store), saving a launch and a
// round trip of the tensor through memory.
#include "graph/passes/pass_util.h"

#include <limits>

namespace gk::passes {
namespace {

// The op's registered traits decide; nodes without a schema (inspection loads)
// fall back to the three ops the epilogue was designed for.
bool accepts_epilogue(const Node& n) {
  if (n.schema) return n.schema->traits.accepts_epilogue;
  return is_op(n, "Conv") || is_op(n, "Gemm") || is_op(n, "MatMul");
}

// The epilogue equivalent to `act` applied to its input 0, or nullopt.
std::optional<Epilogue> as_epilogue(const Graph& g, const Node& act) {
  using K = Epilogue::Kind;
  if (is_op(act, "Relu")) return Epilogue{K::kRelu, 0, 0};
  if (is_op(act, "Sigmoid")) return Epilogue{K::kSigmoid, 0, 0};
  if (is_op(act, "Tanh")) return Epilogue{K::kTanh, 0, 0};
  if (is_op(act, "HardSwish")) return Epilogue{K::kHardSwish, 0, 0};
  if (is_op(act, "LeakyRelu")) {
    auto alpha = act.attrs.get_float("alpha", 0.01f);
    if (alpha.ok()) return Epilogue{K::kLeakyRelu, *alpha, 0};
  }
  if (is_op(act, "HardSigmoid")) {
    auto alpha = act.attrs.get_float("alpha", 0.2f);
    auto beta = act.attrs.get_float("beta", 0.5f);
    if (alpha.ok() && beta.ok()) return Epilogue{K::kHardSigmoid, *alpha, *beta};
  }
  if (is_op(act, "Clip")) {
    float lo = std::numeric_limits<float>::lowest(), hi = std::numeric_limits<float>::max();
    if (act.view.opset < 11) {  // min/max were attributes before opset 11
      auto a = act.attrs.get_float("min", lo);
      auto b = act.attrs.get_float("max", hi);
      if (!a.ok() || !b.ok()) return std::nullopt;
      lo = *a;
      hi = *b;
    } else {  // since opset 11: optional scalar inputs 1 and 2, which must be constant
      for (size_t k : {size_t{1}, size_t{2}}) {
        const ValueId v = input_of(act, k);
        if (v == kNoValue) continue;
        const HostTensor* t = constant(g, v);
        if (!t || t->numel() != 1 || !dtype_is_float(t->dtype())) return std::nullopt;
        (k == 1 ? lo : hi) = static_cast<float>(t->as_f64(0));
      }
    }
    return Epilogue{K::kClip, lo, hi};
  }
  return std::nullopt;
}

// y's readers are exactly Sigmoid(y) and Mul(y, that) in either order: SiLU.
// Returns {sigmoid node, mul node} or {-1, -1}.
std::pair<int, int> silu_pattern(const Graph& g, const std::vector<bool>& outside, ValueId y) {
  const std::vector<int>& c = g.values[y].consumers;
  if (c.size() != 2) return {-1, -1};
  for (int k = 0; k < 2; ++k) {
    const int si = c[k], mi = c[1 - k];
    const Node &s = g.nodes[si], &m = g.nodes[mi];
    if (!is_op(s, "Sigmoid") || !is_op(m, "Mul") || input_of(s, 0) != y || s.outputs.size() != 1 ||
        m.inputs.size() != 2 || !m.implicit_inputs.empty() || m.outputs.empty())
      continue;
    const ValueId sv = s.outputs[0];
    if (sole_consumer(g, outside, sv) != mi) continue;
    if ((m.inputs[0] == y && m.inputs[1] == sv) || (m.inputs[0] == sv && m.inputs[1] == y)) return {si, mi};
  }
  return {-1, -1};
}

}  // namespace

Status fuse_activation(Graph& g) {
  const std::vector<bool> outside = named_from_outside(g);
  std::vector<bool> dead(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& p = g.nodes[i];
    if (dead[i] || !accepts_epilogue(p) || p.outputs.empty() || p.outputs[0] == kNoValue ||
        p.view.epilogue.kind != Epilogue::Kind::kNone)
      continue;
    const ValueId y = p.outputs[0];
    if (outside[y]) continue;
    std::vector<int> absorbed;
    std::optional<Epilogue> ep;
    if (const int a = sole_consumer(g, outside, y); a >= 0) {
      if (input_of(g.nodes[a], 0) == y && g.nodes[a].outputs.size() == 1) {
        ep = as_epilogue(g, g.nodes[a]);
        // Clip's bounds are inputs: y must not also be one of them.
        if (ep && (input_of(g.nodes[a], 1) == y || input_of(g.nodes[a], 2) == y)) ep.reset();
        absorbed = {a};
      }
    } else if (auto [si, mi] = silu_pattern(g, outside, y); si >= 0) {
      ep = Epilogue{Epilogue::Kind::kSilu, 0, 0};
      absorbed = {si, mi};
    }
    if (!ep || g.nodes[absorbed.back()].outputs[0] == kNoValue) continue;
    Node& last = g.nodes[absorbed.back()];
    p.outputs[0] = last.outputs[0];
    p.view.epilogue = *ep;
    for (int a : absorbed) {
      Node& n = g.nodes[a];
      p.covers.insert(p.covers.end(), n.covers.begin(), n.covers.end());
      n.inputs.clear();
      n.outputs.clear();
      dead[a] = true;
    }
    g.rebuild_uses();
  }
  erase_nodes(g, dead);
  return ok_status();
}

}  // namespace gk::passes

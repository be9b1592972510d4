#include "graph/passes/pass_util.h"

#include <string_view>

namespace gk::passes {
namespace {

// Random generators give a new value per run; folding would freeze one draw.
bool nondeterministic(const Node& n) {
  for (std::string_view op : {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike",
                              "Multinomial", "Bernoulli", "Dropout"})
    if (is_op(n, op)) return true;
  return false;
}

// Subgraphs and sequence values are the executor's (If/Loop/Scan, the sequence ops):
// no single-op evaluation folds them.
bool has_subgraph(const Node& n) {
  if (n.schema && n.schema->traits.runs_in_executor()) return true;
  for (const auto& [name, a] : n.attrs.all())
    if (a.kind == Attribute::Kind::kGraph) return true;
  return !n.implicit_inputs.empty();
}

// When the op's shape rule can tell from the constant inputs, the size of its
// largest output, so an oversized fold is skipped before it is computed.
std::optional<size_t> inferred_bytes(const Graph& g, const Node& n) {
  if (!n.schema || !n.schema->impl || !n.schema->impl->infer) return std::nullopt;
  InferContext ctx{n.view, n.parsed, {}, {}, {}, false, {}};
  for (ValueId v : n.inputs) {
    const HostTensor* t = constant(g, v);
    ctx.inputs.push_back(t ? TensorType{t->dtype(), t->shape()} : TensorType{});
    ctx.values.push_back(t);
  }
  ctx.outputs.resize(static_cast<size_t>(n.view.num_outputs));
  if (!n.schema->impl->infer(ctx).ok() || ctx.dynamic_shape) return std::nullopt;
  size_t most = 0;
  for (const TensorType& t : ctx.outputs) {
    auto count = checked_numel(t.shape);
    if (!count.ok()) return std::nullopt;
    most = std::max(most, dtype_storage_bytes(t.dtype, *count));
  }
  return most;
}

}  // namespace

// A node whose present inputs are all constants (initializers, or outputs folded
// just before it) is evaluated once on the host and its outputs become constants.
// Nodes producing graph outputs stay, so every output is still written by a node.
Status fold_constants(Graph& g, HostEvaluator& eval, size_t max_bytes) {
  const std::vector<bool> outside = named_from_outside(g);
  std::vector<bool> dead(g.nodes.size(), false);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.outputs.empty() || nondeterministic(n) || has_subgraph(n)) continue;
    bool foldable = true;
    std::vector<const HostTensor*> inputs;
    for (ValueId v : n.inputs) {
      const HostTensor* t = v == kNoValue ? nullptr : constant(g, v);
      foldable = foldable && (v == kNoValue || t != nullptr);
      inputs.push_back(t);
    }
    for (ValueId v : n.outputs) foldable = foldable && (v == kNoValue || !outside[v]);
    if (!foldable) continue;
    if (auto bytes = inferred_bytes(g, n); bytes && *bytes > max_bytes) continue;
    auto result = eval.evaluate(n, inputs);
    if (!result.ok()) {
      if (result.status().code() == StatusCode::kUnimplemented) continue;
      return result.status().with_context("folding " + n.view.describe());
    }
    std::vector<HostTensor>& outs = *result;
    if (outs.size() != n.outputs.size())
      return internal_error("folding {}: the evaluator returned {} outputs for {}", n.view.describe(), outs.size(),
                            n.outputs.size());
    bool fits = true;
    for (size_t k = 0; k < outs.size(); ++k) fits = fits && (n.outputs[k] == kNoValue || outs[k].bytes() <= max_bytes);
    if (!fits) continue;
    for (size_t k = 0; k < outs.size(); ++k) {
      if (n.outputs[k] == kNoValue) continue;
      Value& v = g.values[n.outputs[k]];
      if (v.dtype != DType::kUndefined && v.dtype != outs[k].dtype())
        return invalid_model("folding {}: output '{}' evaluates to {} but the model declares {}",
                             n.view.describe(), v.name, dtype_name(outs[k].dtype()), dtype_name(v.dtype));
      v.dtype = outs[k].dtype();
      v.has_shape = true;
      v.dims.clear();
      for (int64_t d : outs[k].shape()) v.dims.push_back(Dim{d, {}});
      v.initializer = std::make_shared<const HostTensor>(std::move(outs[k]));
    }
    dead[i] = true;
    n.inputs.clear();
    n.outputs.clear();
  }
  erase_nodes(g, dead);
  return ok_status();
}

}  // namespace gk::passes

#include "runtime/graph_passes.h"

#include "graph/passes/passes.h"
#include "ops/core/op_eval.h"

namespace gk {
namespace {

// Constant folding evaluates nodes with the same kernels the run uses, on the CPU.
class KitEvaluator final : public HostEvaluator {
 public:
  explicit KitEvaluator(Kit& kit) : kit_(kit) {}
  Result<std::vector<HostTensor>> evaluate(const Node& node, std::span<const HostTensor* const> inputs) override {
    if (!node.schema) return unimplemented("{}: op not supported", node.view.describe());
    GK_TRY(OpEvalResult r, evaluate_op(kit_, *node.schema, node.view, node.parsed, inputs));
    return std::move(r.outputs);
  }

 private:
  Kit& kit_;
};

}  // namespace

Status apply_passes(Model& model, const std::set<std::string>& disabled, Kit& host_kit) {
  PassOptions options;
  options.disabled = disabled;
  KitEvaluator eval(host_kit);
  Status s = run_passes(model.graph, options, &eval);
  return s.ok() ? s : s.with_context(model.path.empty() ? "model" : model.path);
}

}  // namespace gk

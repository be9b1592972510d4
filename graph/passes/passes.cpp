#include "graph/passes/passes.h"

#include "graph/passes/pass_util.h"

#include <array>

namespace gk {
namespace {

constexpr std::array<std::string_view, 6> kPassNames = {"eliminate-dead",  "remove-identity",      "fold-constants",
                                                         "fold-batchnorm",  "pretranspose-weights", "fuse-activation"};

std::string known_names() {
  std::string s;
  for (std::string_view n : kPassNames) s += (s.empty() ? "" : ", ") + std::string(n);
  return s;
}

}  // namespace

std::span<const std::string_view> pass_names() { return kPassNames; }

Status run_passes(Graph& graph, const PassOptions& options, HostEvaluator* eval) {
  for (const std::string& name : options.disabled) {
    bool known = false;
    for (std::string_view n : kPassNames) known = known || n == name;
    if (!known) return invalid_argument("unknown pass '{}'; passes are: {}", name, known_names());
  }
  for (Node& n : graph.nodes)
    if (n.covers.empty()) n.covers = {n.view.name};
  graph.rebuild_uses();

  // Folding before BN folding turns Constant-fed BN parameters into initializers;
  // identity removal first exposes Conv -> BN and Conv -> Relu pairs split by an
  // Identity; weights are transposed after BN folding has rewritten them; the final
  // dead-node sweep drops what the others orphaned.
  struct Step {
    std::string_view name;
    Status (*run)(Graph&, const PassOptions&, HostEvaluator*);
  };
  static constexpr Step kSteps[] = {
      {"eliminate-dead", [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::eliminate_dead(g); }},
      {"remove-identity", [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::remove_identity(g); }},
      {"fold-constants",
       [](Graph& g, const PassOptions& o, HostEvaluator* e) {
         return e ? passes::fold_constants(g, *e, o.fold_max_bytes) : ok_status();
       }},
      {"fold-batchnorm", [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::fold_batchnorm(g); }},
      {"pretranspose-weights",
       [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::pretranspose_weights(g); }},
      {"fuse-activation", [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::fuse_activation(g); }},
      {"eliminate-dead", [](Graph& g, const PassOptions&, HostEvaluator*) { return passes::eliminate_dead(g); }},
  };
  for (const Step& step : kSteps) {
    if (!options.enabled(step.name)) continue;
    Status s = step.run(graph, options, eval);
    if (!s.ok()) return s.with_context(fmt::format("graph '{}', pass '{}'", graph.name, step.name));
  }
  return ok_status();
}

}  // namespace gk

#include "runtime/host_eval.h"

#include <vector>

namespace gk {

Result<OpEvalResult> evaluate_on_host(Kit& host_kit, const Node& node,
                                      const std::function<HostInput(ValueId)>& input) {
  std::vector<const HostTensor*> ins;
  std::vector<HostTensor> placeholders;  // type-only inputs: their type, no elements
  placeholders.reserve(node.inputs.size());  // ins points into it
  for (ValueId in : node.inputs) {
    if (in == kNoValue) {
      ins.push_back(nullptr);
      continue;
    }
    const HostInput h = input(in);
    if (h.value) {
      ins.push_back(h.value);
      continue;
    }
    GK_TRY(HostTensor p, HostTensor::allocate(h.dtype, Shape{0}));
    placeholders.push_back(std::move(p));
    ins.push_back(&placeholders.back());
  }
  return evaluate_op(host_kit, *node.schema, node.view, node.parsed, ins);
}

}  // namespace gk

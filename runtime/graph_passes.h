#pragma once

#include "graph/ir.h"
#include "runtime/kit/kit.h"

#include <set>
#include <string>

namespace gk {

// Runs graph/passes on a freshly loaded model, evaluating constant subgraphs on
// `host_kit` (the CPU backend). Passes named in `disabled` are skipped.
Status apply_passes(Model& model, const std::set<std::string>& disabled, Kit& host_kit);

}  // namespace gk

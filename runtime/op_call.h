// Runs one registered op on device buffers, outside any plan: the executor's
// control-flow and sequence steps use it to transpose, slice and concatenate.
#pragma once

#include "ops/op.h"
#include "runtime/session.h"

#include <string>
#include <vector>

namespace gk {

// `inputs` are device buffers (an empty NamedBuf is an absent input); `values`
// are host values for the op's plan-time inputs (null elsewhere). Infers the
// output's shape (single-output ops), allocates it, launches and syncs.
Result<std::vector<NamedBuf>> call_op(Kit& kit, const std::string& op_type, int opset, const AttrMap& attrs,
                                      const std::vector<NamedBuf>& inputs,
                                      const std::vector<const HostTensor*>& values = {});

Attribute ints_attribute(std::vector<int64_t> v);
Attribute int_attribute(int64_t v);

}  // namespace gk

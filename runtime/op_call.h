// Runs one registered op on device buffers, outside any plan: the executor's
// control-flow and sequence steps use it to transpose, slice and concatenate.
#pragma once

#include "ops/core/op.h"
#include "runtime/session.h"

#include <string>
#include <vector>

namespace gk {

// `inputs` are device buffers (an empty NamedBuf is an absent input); `values`
// are host values for the op's plan-time inputs (null elsewhere). Infers the
// output's shape (single-output ops), allocates it, launches and syncs.
// `schema` is null when the registry lacks the op (an internal error). Callers look
// their schema up once (a function-local static), so no run compares op names.
Result<std::vector<NamedBuf>> call_op(Kit& kit, const OpSchema* schema, int opset, const AttrMap& attrs,
                                      const std::vector<NamedBuf>& inputs,
                                      const std::vector<const HostTensor*>& values = {});

// Whether an operand is there: a tensor, a sequence or an empty optional (an
// absent optional input is none of these).
bool present(const NamedBuf& b);

// A fresh device copy of a tensor: a node output must not share bytes with a node
// input, which the plan may reuse once the node has read it. Host strings,
// sequences and empty optionals are immutable and come back as they are.
Result<NamedBuf> copy_buf(Kit& kit, const NamedBuf& b);

// Axis `from` of a tensor moved to position `to` (the registered Transpose); `b`
// itself when from == to.
Result<NamedBuf> move_axis(Kit& kit, const NamedBuf& b, size_t from, size_t to);

// A tensor's elements read on the host as int64 (a sync). Callers check the
// dtype first, naming their node; a type decode_i64 does not know is internal.
Result<std::vector<int64_t>> read_i64(Kit& kit, const NamedBuf& b);

Attribute ints_attribute(std::vector<int64_t> v);
Attribute int_attribute(int64_t v);

}  // namespace gk

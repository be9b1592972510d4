// What the host-only string ops share (ops/string/string_ops.cpp, ops/string/label_encoder.cpp).
// Strings never live on the device, so these ops compute their outputs in infer()
// from host-known inputs and hand them over as InferContext::output_values; the
// plan builder then launches nothing for them and run() is never reached.
#pragma once

#include "ops/core/op.h"

#include <memory>

namespace gk::strings {

// Input i's host value, checked to be present, of `dtype` when given (kUndefined:
// any), and holding as many elements as its shape says. Unimplemented when the
// value is not known before the run.
Result<const HostTensor*> host_input(const InferContext& ctx, size_t i, DType dtype = DType::kUndefined);

// Output i's type and value at once.
void set_output(InferContext& ctx, size_t i, HostTensor value);

// The run() of every host-only op: reaching it means the plan lost the value.
Status run_host_only(KernelContext& ctx);

template <typename T>
Result<ParsedAttrs> make_attrs(T value) {
  return ParsedAttrs(std::make_shared<const T>(std::move(value)));
}

}  // namespace gk::strings

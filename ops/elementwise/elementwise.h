// Shared by the elementwise launchers (ops/elementwise/elementwise.cpp, ops/elementwise/variadic.cpp):
// the binary launch over ops/elementwise/elementwise.cuh and the type checks.
#pragma once

#include "ops/core/kernel_types.h"
#include "ops/core/op.h"

namespace gk {

// out = functor(a, b) with a and b broadcast to out's shape, through
// gk_binary<functor, T>. `a` may be `out` itself (accumulation in place).
Status launch_binary(KernelContext& ctx, const char* functor, DType t, const TensorRef& a,
                     const TensorRef& b, const TensorRef& out);

// Unimplemented naming the node, the input, its dtype and the accepted ones, when
// `t` is not in `allowed`.
Status check_type(const NodeView& node, size_t input, DType t, TypeSet allowed);

// The broadcast of every present input's shape, as an InvalidModel naming the node
// when they do not broadcast.
Result<Shape> infer_broadcast(const InferContext& ctx, std::span<const TensorType> inputs);

}  // namespace gk

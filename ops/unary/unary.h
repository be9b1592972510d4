// Shared by the unary launchers (ops/unary/unary.cpp: math, predicates, Not, Clip;
// ops/unary/activations.cpp): one gk_unary<functor, T> launch per node.
#pragma once

#include "ops/core/kernel_types.h"
#include "ops/core/op.h"

namespace gk {

// Layout matches gk_unary_params in ops/unary/unary.cuh.
struct UnaryParams {
  float alpha = 0;
  float beta = 0;
  float gamma = 0;
  int32_t flags = 0;
};

struct UnaryKind {
  const char* functor;  // gk_un_* in ops/unary/unary.cuh
  TypeSet types;
  bool bool_out;
};

struct UnaryAttrs {
  UnaryKind kind;
  UnaryParams params;
};

ParsedAttrs make_unary_attrs(const UnaryKind& kind, UnaryParams params = {});
template <const UnaryKind* K>
Result<ParsedAttrs> parse_unary(const AttrMap&, const NodeView&) {
  return make_unary_attrs(*K);
}
// One input of a type in kind.types; the output has its shape.
Status infer_unary(InferContext& ctx);
Status run_unary(KernelContext& ctx);

}  // namespace gk

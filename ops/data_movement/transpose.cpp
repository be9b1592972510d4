// Transpose: one strided copy (ops/data_movement/data_movement.h merges dims that stay adjacent).
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

struct TransposeAttrs {
  std::optional<std::vector<int64_t>> perm;  // absent: reverse the dims
};

Result<ParsedAttrs> parse_transpose(const AttrMap& a, const NodeView&) {
  TransposeAttrs attrs;
  if (a.has("perm")) {
    GK_TRY(attrs.perm, a.get_ints("perm"));
  }
  return make_attrs(std::move(attrs));
}

Result<std::vector<int64_t>> perm_of(const NodeView& node, const TransposeAttrs& attrs, size_t rank) {
  std::vector<int64_t> perm(rank);
  if (!attrs.perm) {
    for (size_t d = 0; d < rank; ++d) perm[d] = static_cast<int64_t>(rank - 1 - d);
    return perm;
  }
  if (attrs.perm->size() != rank)
    return invalid_model("{}: perm has {} entries for an input of rank {}", node.describe(), attrs.perm->size(),
                         rank);
  std::vector<bool> seen(rank, false);
  for (size_t d = 0; d < rank; ++d) {
    int64_t p = (*attrs.perm)[d];
    if (p < 0) p += static_cast<int64_t>(rank);
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[p])
      return invalid_model("{}: perm {} is not a permutation of [0, {})", node.describe(),
                           shape_str(*attrs.perm), rank);
    seen[p] = true;
    perm[d] = p;
  }
  return perm;
}

Status infer_transpose(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  GK_TRY(auto perm, perm_of(ctx.node, attrs_as<TransposeAttrs>(ctx.attrs), in.size()));
  Shape out(in.size());
  for (size_t d = 0; d < in.size(); ++d) out[d] = in[perm[d]];
  ctx.outputs[0] = {ctx.in(0).dtype, out};
  return ok_status();
}

Status run_transpose(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  GK_TRY(auto perm, perm_of(ctx.node(), ctx.attrs<TransposeAttrs>(), in.shape.size()));
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  auto in_strides = contiguous_strides(in.shape);
  std::vector<int64_t> strides(perm.size());
  for (size_t d = 0; d < perm.size(); ++d) strides[d] = in_strides[perm[d]];
  return strided_copy(ctx, esize, in.ptr, ctx.out(0).shape, std::move(strides), ctx.out(0).ptr);
}

constexpr OpImpl kTranspose{&parse_transpose, &infer_transpose, &run_transpose};

const OpSchema kTransposeOps[] = {
    {"", "Transpose", 1, kOpsetCurrent, &kTranspose, {}},
};

}  // namespace

std::span<const OpSchema> transpose_ops() { return kTransposeOps; }

}  // namespace gk::families

// BitCast (opset 26): the input's bytes read as another element type of the same
// bit width. Output 0 aliases input 0 (the planner keeps a dtype per value, so the
// view needs no launch); when the planner could not alias it (a graph output, a
// dynamic input), run() copies the bytes.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"

namespace gk {
namespace {

struct BitCastAttrs {
  DType to = DType::kUndefined;
};

Result<ParsedAttrs> parse_bitcast(const AttrMap& attrs, const NodeView& node) {
  GK_TRY(int64_t to, attrs.require_int("to"));
  auto t = dtype_from_code(to);
  if (!t.ok()) return t.status().with_context(node.describe() + ": attribute to");
  if (*t == DType::kString || *t == DType::kUndefined)
    return invalid_model("{}: attribute to = {} ({}) is not a bit-castable type", node.describe(), to,
                         dtype_name(*t));
  return dm::make_attrs(BitCastAttrs{*t});
}

Status infer_bitcast(InferContext& ctx) {
  const DType to = attrs_as<BitCastAttrs>(ctx.attrs).to;
  const DType from = ctx.in(0).dtype;
  if (from == DType::kString || dtype_bits(from) == 0)
    return ctx.fail(fmt::format("input type {} cannot be bit-cast", dtype_name(from)));
  if (dtype_bits(from) != dtype_bits(to))
    return ctx.fail(fmt::format("cannot bit-cast {} ({} bits) to {} ({} bits): widths differ", dtype_name(from),
                                dtype_bits(from), dtype_name(to), dtype_bits(to)));
  ctx.outputs[0] = {to, ctx.in(0).shape};
  return ok_status();
}

Status run_bitcast(KernelContext& ctx) { return dm::copy_input(ctx, 0, 0); }

const OpImpl kBitCast{&parse_bitcast, &infer_bitcast, &run_bitcast};

const OpSchema kBitCastSchemas[] = {
    {"", "BitCast", 26, kOpsetCurrent, &kBitCast, {.alias_input = 0}},
};

}  // namespace

namespace families {
std::span<const OpSchema> bitcast_ops() { return kBitCastSchemas; }
}  // namespace families

}  // namespace gk

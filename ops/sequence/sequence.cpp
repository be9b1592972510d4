// The sequence ops (seq(tensor) values: SequenceEmpty, SequenceConstruct,
// SequenceInsert, SequenceErase, SequenceAt, SequenceLength, SplitToSequence,
// ConcatFromSequence, SequenceMap) and the optional ops (Optional,
// OptionalHasElement, OptionalGetElement). A sequence is a list of device tensors
// the executor holds, an optional is empty or its value; these entries parse the
// attributes and the executor runs the nodes (runtime/sequence_ops.cpp).
#include "ops/sequence/sequence.h"

#include "ops/core/op.h"

namespace gk {
namespace {

ParsedAttrs make(SequenceAttrs a) { return std::make_shared<const SequenceAttrs>(std::move(a)); }

Result<ParsedAttrs> parse_empty(const AttrMap& attrs, const NodeView& node) {
  SequenceAttrs a;
  GK_TRY(int64_t code, attrs.get_int("dtype", 1));  // the spec's default: float
  auto t = dtype_from_code(code);
  if (!t.ok()) return t.status().with_context(node.describe() + ": attribute dtype");
  a.dtype = *t;
  return make(a);
}

Result<ParsedAttrs> parse_split(const AttrMap& attrs, const NodeView&) {
  SequenceAttrs a;
  GK_TRY(a.axis, attrs.get_int("axis", 0));
  GK_TRY(int64_t keep, attrs.get_int("keepdims", 1));
  a.flag = keep != 0;
  return make(a);
}

Result<ParsedAttrs> parse_concat(const AttrMap& attrs, const NodeView&) {
  SequenceAttrs a;
  GK_TRY(a.axis, attrs.require_int("axis"));
  GK_TRY(int64_t new_axis, attrs.get_int("new_axis", 0));
  a.flag = new_axis != 0;
  return make(a);
}

Result<ParsedAttrs> parse_map(const AttrMap& attrs, const NodeView& node) {
  const Attribute* body = attrs.find("body");
  if (!body || body->kind != Attribute::Kind::kGraph)
    return invalid_model("{}: attribute 'body' (a graph) is missing", node.describe());
  return make(SequenceAttrs{});
}

Status infer_by_executor(InferContext& ctx) {
  return internal_error("{}: sequence ops are planned by the executor, not by infer()", ctx.node.describe());
}
Status run_by_executor(KernelContext& ctx) {
  return internal_error("{}: sequence ops are run by the executor, not by a launcher", ctx.node().describe());
}

const OpImpl kPlain{nullptr, &infer_by_executor, &run_by_executor};
const OpImpl kEmpty{&parse_empty, &infer_by_executor, &run_by_executor};
const OpImpl kSplit{&parse_split, &infer_by_executor, &run_by_executor};
const OpImpl kConcat{&parse_concat, &infer_by_executor, &run_by_executor};
const OpImpl kMap{&parse_map, &infer_by_executor, &run_by_executor};

constexpr OpTraits executor_op(ExecutorOp op) { return OpTraits{.executor_op = op}; }

const OpSchema kSchemas[] = {
    {"", "SequenceEmpty", 11, kOpsetCurrent, &kEmpty, executor_op(ExecutorOp::kSequenceEmpty)},
    {"", "SequenceConstruct", 11, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kSequenceConstruct)},
    {"", "SequenceInsert", 11, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kSequenceInsert)},
    {"", "SequenceErase", 11, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kSequenceErase)},
    {"", "SequenceAt", 11, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kSequenceAt)},
    {"", "SequenceLength", 11, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kSequenceLength)},
    {"", "SplitToSequence", 11, kOpsetCurrent, &kSplit, executor_op(ExecutorOp::kSplitToSequence)},
    {"", "ConcatFromSequence", 11, kOpsetCurrent, &kConcat, executor_op(ExecutorOp::kConcatFromSequence)},
    {"", "SequenceMap", 17, kOpsetCurrent, &kMap, executor_op(ExecutorOp::kSequenceMap)},
    {"", "Optional", 15, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kOptional)},
    {"", "OptionalHasElement", 15, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kOptionalHasElement)},
    {"", "OptionalGetElement", 15, kOpsetCurrent, &kPlain, executor_op(ExecutorOp::kOptionalGetElement)},
};

}  // namespace

namespace families {
std::span<const OpSchema> sequence_ops() { return kSchemas; }
}  // namespace families

}  // namespace gk

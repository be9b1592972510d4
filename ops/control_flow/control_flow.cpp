// Control flow: If (a branch per condition), Loop (a body run while a trip count
// and a condition allow), Scan (a body run per slice of its scan inputs).
#include "ops/control_flow/control_flow.h"

#include "ops/core/op.h"

namespace gk {
namespace {

Status require_graph(const AttrMap& attrs, const NodeView& node, const char* name) {
  const Attribute* a = attrs.find(name);
  if (!a) return invalid_model("{}: attribute '{}' (a graph) is missing", node.describe(), name);
  if (a->kind != Attribute::Kind::kGraph || !a->graph)
    return invalid_model("{}: attribute '{}' must be a graph, got {}", node.describe(), name,
                         attribute_kind_name(a->kind));
  return ok_status();
}

Result<ParsedAttrs> parse_if(const AttrMap& attrs, const NodeView& node) {
  GK_RETURN_IF_ERROR(require_graph(attrs, node, "then_branch"));
  GK_RETURN_IF_ERROR(require_graph(attrs, node, "else_branch"));
  return ParsedAttrs();
}

Result<ParsedAttrs> parse_loop(const AttrMap& attrs, const NodeView& node) {
  GK_RETURN_IF_ERROR(require_graph(attrs, node, "body"));
  return ParsedAttrs();
}

// A per-tensor list attribute: absent → `count` copies of `dflt`; else exactly
// `count` entries.
Result<std::vector<int64_t>> per_tensor(const AttrMap& attrs, const NodeView& node, const char* name,
                                        size_t count, int64_t dflt) {
  GK_TRY(std::vector<int64_t> v, attrs.get_ints(name, std::vector<int64_t>(count, dflt)));
  if (v.size() != count)
    return invalid_model("{}: attribute {} has {} entries, one per tensor ({}) expected", node.describe(), name,
                         v.size(), count);
  return v;
}

Result<ParsedAttrs> parse_scan(const AttrMap& attrs, const NodeView& node, bool batched) {
  GK_RETURN_IF_ERROR(require_graph(attrs, node, "body"));
  ScanAttrs s;
  s.batched = batched;
  GK_TRY(s.num_scan_inputs, attrs.require_int("num_scan_inputs"));
  const int64_t inputs = static_cast<int64_t>(node.input_present.size()) - (batched ? 1 : 0);
  if (s.num_scan_inputs < 1 || s.num_scan_inputs > inputs)
    return invalid_model("{}: num_scan_inputs = {} must be in [1, {}] (the node has {} state and scan inputs)",
                         node.describe(), s.num_scan_inputs, inputs, inputs);
  const size_t m = static_cast<size_t>(s.num_scan_inputs);
  if (batched) {
    GK_TRY(s.input_reverse, per_tensor(attrs, node, "directions", m, 0));
    s.input_axes.assign(m, 0);
  } else {
    GK_TRY(s.input_axes, per_tensor(attrs, node, "scan_input_axes", m, 0));
    GK_TRY(s.input_reverse, per_tensor(attrs, node, "scan_input_directions", m, 0));
    // Scan outputs follow the states among the node's outputs; the body tells how
    // many states there are (inputs minus scan inputs).
    const int64_t k = static_cast<int64_t>(node.num_outputs) - (inputs - s.num_scan_inputs);
    if (k < 0)
      return invalid_model("{}: {} outputs, fewer than its {} loop states", node.describe(), node.num_outputs,
                           inputs - s.num_scan_inputs);
    GK_TRY(s.output_axes, per_tensor(attrs, node, "scan_output_axes", static_cast<size_t>(k), 0));
    GK_TRY(s.output_reverse, per_tensor(attrs, node, "scan_output_directions", static_cast<size_t>(k), 0));
  }
  for (int64_t d : s.input_reverse)
    if (d != 0 && d != 1) return invalid_model("{}: a scan direction is {}, expected 0 or 1", node.describe(), d);
  for (int64_t d : s.output_reverse)
    if (d != 0 && d != 1) return invalid_model("{}: a scan direction is {}, expected 0 or 1", node.describe(), d);
  return ParsedAttrs(std::make_shared<const ScanAttrs>(std::move(s)));
}

Result<ParsedAttrs> parse_scan8(const AttrMap& attrs, const NodeView& node) { return parse_scan(attrs, node, true); }
Result<ParsedAttrs> parse_scan9(const AttrMap& attrs, const NodeView& node) {
  return parse_scan(attrs, node, false);
}

Status infer_by_executor(InferContext& ctx) {
  return internal_error("{}: control flow is planned by the executor, not by infer()", ctx.node.describe());
}
Status run_by_executor(KernelContext& ctx) {
  return internal_error("{}: control flow is run by the executor, not by a launcher", ctx.node().describe());
}

const OpImpl kIf{&parse_if, &infer_by_executor, &run_by_executor};
const OpImpl kLoop{&parse_loop, &infer_by_executor, &run_by_executor};
const OpImpl kScan8{&parse_scan8, &infer_by_executor, &run_by_executor};
const OpImpl kScan9{&parse_scan9, &infer_by_executor, &run_by_executor};

constexpr OpTraits executor_op(ExecutorOp op) { return OpTraits{.executor_op = op}; }

// Later versions widen the types (sequences, optionals, new element types); the
// semantics for tensors are those of If-1, Loop-1 and Scan-9.
const OpSchema kSchemas[] = {
    {"", "If", 1, kOpsetCurrent, &kIf, executor_op(ExecutorOp::kIf)},
    {"", "Loop", 1, kOpsetCurrent, &kLoop, executor_op(ExecutorOp::kLoop)},
    {"", "Scan", 8, 8, &kScan8, executor_op(ExecutorOp::kScan)},
    {"", "Scan", 9, kOpsetCurrent, &kScan9, executor_op(ExecutorOp::kScan)},
};

}  // namespace

namespace families {
std::span<const OpSchema> control_flow_ops() { return kSchemas; }
}  // namespace families

}  // namespace gk

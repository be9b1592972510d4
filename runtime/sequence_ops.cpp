#include "runtime/sequence_ops.h"

#include "ops/sequence/sequence.h"
#include "runtime/op_call.h"

namespace gk {
namespace {

using Elements = std::vector<NamedBuf>;

NamedBuf make_sequence(Elements elements) {
  NamedBuf b;
  b.sequence = std::make_shared<const Elements>(std::move(elements));
  return b;
}

Result<const Elements*> sequence_input(const Node& node, const std::vector<NamedBuf>& inputs, size_t i) {
  if (i >= inputs.size() || !inputs[i].sequence)
    return invalid_argument("{}: input {} must be a sequence", node.view.describe(), i);
  return inputs[i].sequence.get();
}

Result<NamedBuf> tensor_input(const Node& node, const std::vector<NamedBuf>& inputs, size_t i) {
  if (i >= inputs.size() || inputs[i].sequence || inputs[i].dtype() == DType::kUndefined)
    return invalid_argument("{}: input {} must be a tensor", node.view.describe(), i);
  return inputs[i];
}

// A position input (one int32/int64 element), read on the host (a sync); `dflt`
// when absent. Valid positions are [-n, n - 1], or [-n, n] with `end_ok`.
Result<int64_t> position(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs, size_t i, int64_t n,
                         int64_t dflt, bool end_ok) {
  if (i >= inputs.size() || !present(inputs[i])) return dflt;
  const NamedBuf& b = inputs[i];
  if (b.sequence || (b.dtype() != DType::kI64 && b.dtype() != DType::kI32) || b.count() != 1)
    return invalid_argument("{}: the position must be one int32 or int64 element", node.view.describe());
  GK_TRY(std::vector<int64_t> v, read_i64(kit, b));
  const int64_t p = v[0];
  const int64_t hi = end_ok ? n : n - 1;
  if (p < -n || p > hi)
    return out_of_range("{}: position {} is outside [{}, {}] for a sequence of {}", node.view.describe(), p, -n, hi,
                        n);
  return p < 0 ? p + n : p;
}

Result<std::vector<NamedBuf>> split_to_sequence(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs) {
  const auto& attrs = attrs_as<SequenceAttrs>(node.parsed);
  GK_TRY(NamedBuf x, tensor_input(node, inputs, 0));
  if (x.host) return unimplemented("{}: splitting string tensors is not supported", node.view.describe());
  const int64_t rank = static_cast<int64_t>(x.shape.size());
  if (attrs.axis < -rank || attrs.axis >= rank)
    return invalid_argument("{}: axis {} is outside [{}, {}]", node.view.describe(), attrs.axis, -rank, rank - 1);
  const size_t axis = static_cast<size_t>(attrs.axis < 0 ? attrs.axis + rank : attrs.axis);
  const int64_t dim = x.shape[axis];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (inputs.size() < 2 || !present(inputs[1])) {
    sizes.assign(static_cast<size_t>(dim), 1);
    squeeze = !attrs.flag;
  } else {
    const NamedBuf& s = inputs[1];
    if (s.sequence || (s.dtype() != DType::kI64 && s.dtype() != DType::kI32) || s.shape.size() > 1)
      return invalid_argument("{}: split must be an int32/int64 scalar or 1-D tensor", node.view.describe());
    GK_TRY(std::vector<int64_t> v, read_i64(kit, s));
    if (s.shape.empty()) {
      if (v[0] <= 0) return invalid_argument("{}: split {} must be positive", node.view.describe(), v[0]);
      for (int64_t at = 0; at < dim; at += v[0]) sizes.push_back(std::min(v[0], dim - at));
    } else {
      int64_t total = 0;
      for (int64_t n : v) {
        if (n < 0) return invalid_argument("{}: a split size {} is negative", node.view.describe(), n);
        total += n;
      }
      if (total != dim)
        return invalid_argument("{}: split sizes add up to {}, the axis has {}", node.view.describe(), total, dim);
      sizes = std::move(v);
    }
  }
  NamedBuf front = x;
  if (axis != 0) {
    GK_TRY(front, move_axis(kit, x, axis, 0));
  }
  const int64_t inner = dim ? numel(front.shape) / dim : 0;
  Elements elements;
  int64_t at = 0;
  for (int64_t len : sizes) {
    Shape shape = front.shape;
    shape[0] = len;
    GK_TRY(GkBuf view, front.buf.view(at * inner, len * inner));
    NamedBuf piece{"", std::move(view), shape};
    if (axis != 0) {
      GK_TRY(piece, move_axis(kit, piece, 0, axis));
    } else {
      GK_TRY(piece, copy_buf(kit, piece));
    }
    if (squeeze) piece.shape.erase(piece.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    elements.push_back(std::move(piece));
    at += len;
  }
  GK_RETURN_IF_ERROR(kit.sync());  // the transposed input dies here
  return std::vector<NamedBuf>{make_sequence(std::move(elements))};
}

Result<std::vector<NamedBuf>> concat_from_sequence(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs) {
  const auto& attrs = attrs_as<SequenceAttrs>(node.parsed);
  GK_TRY(const Elements* s, sequence_input(node, inputs, 0));
  if (s->empty()) return invalid_argument("{}: the sequence is empty", node.view.describe());
  std::vector<NamedBuf> parts(s->begin(), s->end());
  int64_t axis = attrs.axis;
  if (attrs.flag) {  // new_axis: stack, each element gaining a dim of 1 at axis
    const int64_t r = static_cast<int64_t>(parts[0].shape.size()) + 1;
    if (axis < -r || axis >= r)
      return invalid_argument("{}: axis {} is outside [{}, {}]", node.view.describe(), axis, -r, r - 1);
    if (axis < 0) axis += r;
    for (NamedBuf& p : parts) p.shape.insert(p.shape.begin() + axis, 1);
  }
  for (const NamedBuf& p : parts)
    if (p.host) return unimplemented("{}: concatenating string tensors is not supported", node.view.describe());
  AttrMap a;
  a.set("axis", int_attribute(axis));
  static const OpSchema* const concat = find_op("", "Concat", 13);
  auto out = call_op(kit, concat, 13, a, parts);
  if (!out.ok()) return out.status().with_context(node.view.describe());
  return out;
}

Result<std::vector<NamedBuf>> sequence_map(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                           const RunSubgraph& run) {
  const Graph& body = *subgraph_of(*node.attrs.find("body"));
  if (body.inputs.size() != inputs.size())
    return invalid_model("{}: the body takes {} inputs, the node has {}", node.view.describe(), body.inputs.size(),
                         inputs.size());
  // Without this a body with fewer outputs left the node's extra outputs empty sequences.
  if (body.outputs.size() != node.outputs.size())
    return invalid_model("{}: the body makes {} outputs, the node has {}", node.view.describe(), body.outputs.size(),
                         node.outputs.size());
  GK_TRY(const Elements* first, sequence_input(node, inputs, 0));
  const size_t n = first->size();
  for (const NamedBuf& in : inputs)
    if (in.sequence && in.sequence->size() != n)
      return invalid_argument("{}: input sequences have {} and {} elements", node.view.describe(), n,
                              in.sequence->size());
  std::vector<Elements> outs(node.outputs.size());
  for (size_t i = 0; i < n; ++i) {
    std::vector<NamedBuf> formal;
    for (size_t j = 0; j < inputs.size(); ++j) {
      NamedBuf b = inputs[j].sequence ? (*inputs[j].sequence)[i] : inputs[j];
      b.name = body.values[body.inputs[j]].name;
      formal.push_back(std::move(b));
    }
    GK_TRY(std::vector<NamedBuf> results, run(body, std::move(formal)));
    for (size_t k = 0; k < outs.size() && k < results.size(); ++k) {
      results[k].name.clear();
      outs[k].push_back(std::move(results[k]));
    }
  }
  std::vector<NamedBuf> result;
  for (Elements& e : outs) result.push_back(make_sequence(std::move(e)));
  return result;
}

}  // namespace

Result<std::vector<NamedBuf>> run_sequence_op(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                              const RunSubgraph& run) {
  switch (node.schema->traits.executor_op) {
    case ExecutorOp::kSequenceEmpty:
      return std::vector<NamedBuf>{make_sequence({})};
    case ExecutorOp::kSequenceConstruct: {
      Elements elements;
      for (size_t i = 0; i < inputs.size(); ++i) {
        GK_TRY(NamedBuf t, tensor_input(node, inputs, i));
        GK_TRY(NamedBuf copy, copy_buf(kit, t));
        elements.push_back(std::move(copy));
      }
      return std::vector<NamedBuf>{make_sequence(std::move(elements))};
    }
    case ExecutorOp::kSequenceInsert: {
      GK_TRY(const Elements* s, sequence_input(node, inputs, 0));
      GK_TRY(NamedBuf t, tensor_input(node, inputs, 1));
      const int64_t n = static_cast<int64_t>(s->size());
      GK_TRY(int64_t at, position(kit, node, inputs, 2, n, n, true));
      Elements elements(*s);
      GK_TRY(NamedBuf copy, copy_buf(kit, t));
      elements.insert(elements.begin() + at, std::move(copy));
      return std::vector<NamedBuf>{make_sequence(std::move(elements))};
    }
    case ExecutorOp::kSequenceErase: {
      GK_TRY(const Elements* s, sequence_input(node, inputs, 0));
      const int64_t n = static_cast<int64_t>(s->size());
      if (n == 0) return invalid_argument("{}: the sequence is empty", node.view.describe());
      GK_TRY(int64_t at, position(kit, node, inputs, 1, n, n - 1, false));
      Elements elements(*s);
      elements.erase(elements.begin() + at);
      return std::vector<NamedBuf>{make_sequence(std::move(elements))};
    }
    case ExecutorOp::kSequenceAt: {
      GK_TRY(const Elements* s, sequence_input(node, inputs, 0));
      const int64_t n = static_cast<int64_t>(s->size());
      GK_TRY(int64_t at, position(kit, node, inputs, 1, n, -1, false));
      if (at < 0) return invalid_model("{}: the position input is missing", node.view.describe());
      return std::vector<NamedBuf>{(*s)[static_cast<size_t>(at)]};  // elements are never written: shared
    }
    case ExecutorOp::kSequenceLength: {
      GK_TRY(const Elements* s, sequence_input(node, inputs, 0));
      GK_TRY(GkBuf buf, kit.alloc(DType::kI64, 1));
      const int64_t n[] = {static_cast<int64_t>(s->size())};
      GK_RETURN_IF_ERROR(buf.upload_i64(n));
      return std::vector<NamedBuf>{NamedBuf{"", std::move(buf), {}}};
    }
    case ExecutorOp::kSplitToSequence:
      return split_to_sequence(kit, node, inputs);
    case ExecutorOp::kConcatFromSequence:
      return concat_from_sequence(kit, node, inputs);
    case ExecutorOp::kSequenceMap:
      return sequence_map(kit, node, inputs, run);
    case ExecutorOp::kOptional: {
      if (inputs.empty() || !present(inputs[0])) {
        NamedBuf none;
        none.none = true;
        return std::vector<NamedBuf>{none};
      }
      GK_TRY(NamedBuf copy, copy_buf(kit, inputs[0]));
      return std::vector<NamedBuf>{copy};
    }
    case ExecutorOp::kOptionalHasElement: {
      const bool has = !inputs.empty() && present(inputs[0]) && !inputs[0].none;
      GK_TRY(GkBuf buf, kit.alloc(DType::kBool, 1));
      const int64_t v[] = {has ? 1 : 0};
      GK_RETURN_IF_ERROR(buf.upload_i64(v));
      return std::vector<NamedBuf>{NamedBuf{"", std::move(buf), {}}};
    }
    case ExecutorOp::kOptionalGetElement: {
      if (inputs.empty() || !present(inputs[0]) || inputs[0].none)
        return invalid_argument("{}: the optional input is empty", node.view.describe());
      GK_TRY(NamedBuf copy, copy_buf(kit, inputs[0]));  // a plain tensor input may live in the plan's arena
      return std::vector<NamedBuf>{copy};
    }
    default:
      return internal_error("{} is not a sequence op", node.view.describe());
  }
}

}  // namespace gk

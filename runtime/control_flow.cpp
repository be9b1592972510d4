#include "runtime/control_flow.h"

#include "ops/control_flow/control_flow.h"
#include "runtime/kit/element_convert.h"
#include "runtime/op_call.h"

namespace gk {
namespace {

const Graph* graph_attr(const Node& node, const char* name) {
  const Attribute* a = node.attrs.find(name);
  return a ? subgraph_of(*a) : nullptr;
}

// A one-element condition or count, read on the host (a sync).
Result<int64_t> read_scalar(Kit& kit, const Node& node, const NamedBuf& b, const char* what) {
  if (b.count() != 1)
    return invalid_argument("{}: {} must hold one element, it has shape {}", node.view.describe(), what,
                            shape_str(b.shape));
  if (b.host || !kit_detail::decodable(b.dtype()))
    return invalid_argument("{}: {} must be numeric, it is {}", node.view.describe(), what, dtype_name(b.dtype()));
  GK_TRY(std::vector<int64_t> v, read_i64(kit, b));
  return v[0];
}

// The shape a subgraph declares for input or output `v`: its known dims, with a
// scalar for a declared rank 0 (and for an undeclared shape).
Shape declared_scalar_shape(const Value& v) { return v.has_shape && v.dims.size() == 1 ? Shape{1} : Shape{}; }

Result<NamedBuf> scalar_buf(Kit& kit, const Value& decl, DType dtype, int64_t value) {
  GK_TRY(GkBuf buf, kit.alloc(dtype, 1));
  const int64_t values[] = {value};
  GK_RETURN_IF_ERROR(buf.upload_i64(values));
  return NamedBuf{decl.name, std::move(buf), declared_scalar_shape(decl), nullptr};
}

Status check_count(const Node& node, const char* what, size_t got, size_t want) {
  if (got != want)
    return invalid_model("{}: the {} has {} {}, expected {}", node.view.describe(), what, got,
                         got == 1 ? "value" : "values", want);
  return ok_status();
}

// Element `index` along axis 0 of `b` (a view: no copy).
Result<NamedBuf> slice0(const NamedBuf& b, int64_t index, std::string name) {
  Shape shape(b.shape.begin() + 1, b.shape.end());
  const int64_t n = numel(shape);
  GK_TRY(GkBuf view, b.buf.view(index * n, n));
  return NamedBuf{std::move(name), std::move(view), std::move(shape), nullptr};
}

// Stacks same-shaped pieces along a new axis 0 (`rows` of them; the absent ones
// are zeros). `decl` types an empty result.
Result<NamedBuf> stack(Kit& kit, const Node& node, const std::vector<NamedBuf>& pieces, int64_t rows,
                       const Value& decl) {
  const NamedBuf* first = nullptr;
  for (const NamedBuf& p : pieces)
    if (present(p)) {
      first = &p;
      break;
    }
  Shape shape{rows};
  DType dtype = decl.dtype;
  if (first) {
    dtype = first->dtype();
    shape.insert(shape.end(), first->shape.begin(), first->shape.end());
  } else {
    for (const Dim& d : decl.dims) shape.push_back(d.known() ? d.value : 0);
  }
  if (dtype == DType::kString || dtype == DType::kUndefined)
    return unimplemented("{}: scan output '{}' has type {}; only numeric scan outputs are stacked",
                         node.view.describe(), decl.name, dtype_name(dtype));
  GK_TRY(int64_t count, checked_numel(shape));
  GK_TRY(GkBuf out, kit.alloc(dtype, count));
  const size_t piece_bytes = rows ? out.bytes() / static_cast<size_t>(rows) : 0;
  if (pieces.size() < static_cast<size_t>(rows) && out.bytes())
    GK_RETURN_IF_ERROR(kit.device().memset(out.ptr(), 0, out.bytes()));
  for (size_t r = 0; r < pieces.size(); ++r) {
    const NamedBuf& p = pieces[r];
    if (!present(p)) continue;
    if (p.dtype() != dtype || p.shape != Shape(shape.begin() + 1, shape.end()))
      return invalid_argument("{}: scan output '{}' is {} {} in iteration {} but {} {} in the first",
                              node.view.describe(), decl.name, dtype_name(p.dtype()), shape_str(p.shape), r,
                              dtype_name(dtype), shape_str(Shape(shape.begin() + 1, shape.end())));
    if (piece_bytes)
      GK_RETURN_IF_ERROR(kit.device().copy(out.ptr() + static_cast<DevPtr>(r * piece_bytes), p.buf.ptr(),
                                           piece_bytes));
  }
  return NamedBuf{decl.name, std::move(out), std::move(shape), nullptr};
}

Result<int64_t> normalize_axis(const Node& node, int64_t axis, size_t rank, const char* what) {
  const int64_t r = static_cast<int64_t>(rank);
  if (axis < -r || axis >= r)
    return invalid_argument("{}: {} {} is outside [{}, {}]", node.view.describe(), what, axis, -r, r - 1);
  return axis < 0 ? axis + r : axis;
}

// Whether the body's condition output (output 0) is, once the condition starts
// true, true in every iteration: the condition input itself, a view of its bytes
// (Identity, Reshape: the alias_input trait), or a constant true. A graph walk over
// traits, no op names; a chain is at most as long as the body.
bool condition_stays_true(const Graph& body) {
  ValueId v = body.outputs[0];
  for (size_t hops = 0; hops <= body.nodes.size() && v != kNoValue; ++hops) {
    if (v == body.inputs[1]) return true;
    const Value& value = body.values[static_cast<size_t>(v)];
    if (value.initializer)
      return value.initializer->numel() == 1 && kit_detail::decodable(value.initializer->dtype()) &&
             value.initializer->as_i64(0) != 0;
    if (value.producer < 0) return false;
    const Node& producer = body.nodes[static_cast<size_t>(value.producer)];
    const int alias = producer.schema ? producer.schema->traits.alias_input : -1;
    if (alias < 0 || static_cast<size_t>(alias) >= producer.inputs.size() || producer.outputs.empty() ||
        producer.outputs[0] != v)
      return false;
    v = producer.inputs[static_cast<size_t>(alias)];
  }
  return false;
}

Result<std::vector<NamedBuf>> run_if(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                     const RunSubgraph& run) {
  if (inputs.empty() || !present(inputs[0]))
    return invalid_model("{}: the condition input is missing", node.view.describe());
  GK_TRY(int64_t cond, read_scalar(kit, node, inputs[0], "the condition"));
  const Graph* branch = graph_attr(node, cond ? "then_branch" : "else_branch");
  GK_TRY(std::vector<NamedBuf> outs, run(*branch, {}));
  GK_RETURN_IF_ERROR(check_count(node, cond ? "then_branch's outputs" : "else_branch's outputs", outs.size(),
                                 node.outputs.size()));
  return outs;
}

Result<std::vector<NamedBuf>> run_loop(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                       const RunSubgraph& run) {
  const Graph& body = *graph_attr(node, "body");
  if (inputs.size() < 2) return invalid_model("{}: Loop takes at least 2 inputs (M, cond)", node.view.describe());
  const size_t n = inputs.size() - 2;
  GK_RETURN_IF_ERROR(check_count(node, "body's inputs", body.inputs.size(), n + 2));
  if (body.outputs.size() < n + 1)
    return invalid_model("{}: the body has {} outputs, fewer than the condition and {} loop-carried values",
                         node.view.describe(), body.outputs.size(), n);
  const size_t k = body.outputs.size() - 1 - n;
  if (node.outputs.size() > n + k)
    return invalid_model("{}: {} outputs, but the body makes {} loop-carried and {} scan outputs",
                         node.view.describe(), node.outputs.size(), n, k);

  const bool has_trips = present(inputs[0]), has_cond = present(inputs[1]);
  int64_t trips = 0;
  if (has_trips) {
    GK_TRY(trips, read_scalar(kit, node, inputs[0], "the trip count M"));
  }
  int64_t cond = 1;
  if (has_cond) {
    GK_TRY(cond, read_scalar(kit, node, inputs[1], "the condition"));
  }
  // A Loop with no trip count that provably never ends is legal ONNX and would hang
  // the caller (mutation 975 of scripts/mutate_cli.py: test_loop16_seq_none with M
  // given as "" ran until the 60 s timeout, its sequence growing each iteration).
  // Refused when it would start, naming the node; a loop that may end runs as long
  // as the model says (SECURITY.md).
  if (!has_trips && !has_cond)
    return invalid_model("{}: has neither a trip count M nor a condition: the loop would never end",
                         node.view.describe());
  if (!has_trips && cond && condition_stays_true(body))
    return invalid_model("{}: has no trip count M and its body returns the condition unchanged: started true, "
                         "the loop would never end", node.view.describe());
  const Value& iter_decl = body.values[body.inputs[0]];
  const Value& cond_decl = body.values[body.inputs[1]];
  std::vector<NamedBuf> carried(inputs.begin() + 2, inputs.end());
  std::vector<std::vector<NamedBuf>> scans(k);
  int64_t i = 0;
  for (; (!has_trips || i < trips) && cond; ++i) {
    std::vector<NamedBuf> formal;
    GK_TRY(NamedBuf iter, scalar_buf(kit, iter_decl, DType::kI64, i));
    GK_TRY(NamedBuf c, scalar_buf(kit, cond_decl, DType::kBool, cond));
    formal.push_back(std::move(iter));
    formal.push_back(std::move(c));
    for (size_t j = 0; j < n; ++j) {
      carried[j].name = body.values[body.inputs[2 + j]].name;
      formal.push_back(carried[j]);
    }
    GK_TRY(std::vector<NamedBuf> outs, run(body, std::move(formal)));
    // Without a cond input the body's condition output is computed but ignored
    // (the spec's `for (i = 0; i < M; ++i)` form).
    if (has_cond) {
      GK_TRY(cond, read_scalar(kit, node, outs[0], "the body's condition output"));
    }
    for (size_t j = 0; j < n; ++j) carried[j] = std::move(outs[1 + j]);
    for (size_t s = 0; s < k; ++s) scans[s].push_back(std::move(outs[1 + n + s]));
  }

  std::vector<NamedBuf> result(node.outputs.size());
  for (size_t j = 0; j < n && j < result.size(); ++j) {
    if (i > 0) {
      result[j] = std::move(carried[j]);
    } else {
      GK_TRY(result[j], copy_buf(kit, carried[j]));
    }
  }
  for (size_t s = 0; n + s < result.size(); ++s) {
    if (node.outputs[n + s] == kNoValue) continue;
    GK_TRY(result[n + s], stack(kit, node, scans[s], i, body.values[body.outputs[1 + n + s]]));
  }
  GK_RETURN_IF_ERROR(kit.sync());  // the stacked pieces die here
  return result;
}

// Scan-9+: each scan input is sliced along its own axis (moved to the front once),
// and each scan output is stacked along axis 0 and then moved to its axis.
Result<std::vector<NamedBuf>> run_scan(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                       const RunSubgraph& run) {
  const auto& attrs = attrs_as<ScanAttrs>(node.parsed);
  const Graph& body = *graph_attr(node, "body");
  const size_t m = static_cast<size_t>(attrs.num_scan_inputs), n = inputs.size() - m;
  const size_t k = attrs.output_axes.size();
  GK_RETURN_IF_ERROR(check_count(node, "body's inputs", body.inputs.size(), n + m));
  GK_RETURN_IF_ERROR(check_count(node, "body's outputs", body.outputs.size(), n + k));

  std::vector<NamedBuf> scan_in(m);
  int64_t length = -1;
  for (size_t j = 0; j < m; ++j) {
    const NamedBuf& in = inputs[n + j];
    if (!present(in) || in.host || in.sequence || in.none)
      return invalid_argument("{}: scan input {} must be a numeric tensor", node.view.describe(), j);
    if (in.shape.empty())
      return invalid_argument("{}: scan input {} is a scalar; it needs an axis to scan", node.view.describe(), j);
    GK_TRY(int64_t axis, normalize_axis(node, attrs.input_axes[j], in.shape.size(), "scan_input_axes entry"));
    if (length >= 0 && in.shape[static_cast<size_t>(axis)] != length)
      return invalid_argument("{}: scan input {} has {} elements along axis {}, the others {}",
                              node.view.describe(), j, in.shape[static_cast<size_t>(axis)], axis, length);
    length = in.shape[static_cast<size_t>(axis)];
    GK_TRY(scan_in[j], move_axis(kit, in, static_cast<size_t>(axis), 0));
  }

  std::vector<NamedBuf> states(inputs.begin(), inputs.begin() + static_cast<std::ptrdiff_t>(n));
  std::vector<std::vector<NamedBuf>> pieces(k, std::vector<NamedBuf>(static_cast<size_t>(length)));
  for (int64_t t = 0; t < length; ++t) {
    std::vector<NamedBuf> formal;
    for (size_t j = 0; j < n; ++j) {
      states[j].name = body.values[body.inputs[j]].name;
      formal.push_back(states[j]);
    }
    for (size_t j = 0; j < m; ++j) {
      const int64_t at = attrs.input_reverse[j] ? length - 1 - t : t;
      GK_TRY(NamedBuf slice, slice0(scan_in[j], at, body.values[body.inputs[n + j]].name));
      formal.push_back(std::move(slice));
    }
    GK_TRY(std::vector<NamedBuf> outs, run(body, std::move(formal)));
    for (size_t j = 0; j < n; ++j) states[j] = std::move(outs[j]);
    for (size_t s = 0; s < k; ++s) {
      const int64_t at = attrs.output_reverse[s] ? length - 1 - t : t;
      pieces[s][static_cast<size_t>(at)] = std::move(outs[n + s]);
    }
  }

  std::vector<NamedBuf> result(node.outputs.size());
  for (size_t j = 0; j < n && j < result.size(); ++j) {
    if (length > 0) {
      result[j] = std::move(states[j]);
    } else {
      GK_TRY(result[j], copy_buf(kit, states[j]));
    }
  }
  for (size_t s = 0; n + s < result.size(); ++s) {
    if (node.outputs[n + s] == kNoValue) continue;
    GK_TRY(NamedBuf stacked, stack(kit, node, pieces[s], length, body.values[body.outputs[n + s]]));
    GK_TRY(int64_t axis, normalize_axis(node, attrs.output_axes[s], stacked.shape.size(), "scan_output_axes entry"));
    GK_TRY(result[n + s], move_axis(kit, stacked, 0, static_cast<size_t>(axis)));
  }
  GK_RETURN_IF_ERROR(kit.sync());  // the transposed inputs and pieces die here
  return result;
}

// Scan-8: every state and scan tensor has a batch axis 0; each batch entry runs
// its own sequence (of sequence_lens[b] steps, along axis 1), and scan outputs
// are padded with zeros to the longest.
Result<std::vector<NamedBuf>> run_scan8(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                        const RunSubgraph& run) {
  const auto& attrs = attrs_as<ScanAttrs>(node.parsed);
  const Graph& body = *graph_attr(node, "body");
  const size_t m = static_cast<size_t>(attrs.num_scan_inputs), n = inputs.size() - 1 - m;
  GK_RETURN_IF_ERROR(check_count(node, "body's inputs", body.inputs.size(), n + m));
  if (body.outputs.size() < n)
    return invalid_model("{}: the body has {} outputs, fewer than its {} states", node.view.describe(),
                         body.outputs.size(), n);
  const size_t k = body.outputs.size() - n;

  int64_t batch = -1, max_len = -1;
  for (size_t j = 1; j < inputs.size(); ++j) {
    const NamedBuf& in = inputs[j];
    const bool is_scan = j > n;
    if (!present(in) || in.host || in.sequence || in.none || in.shape.size() < (is_scan ? 2u : 1u))
      return invalid_argument("{}: input {} must be a numeric tensor with a batch axis{}", node.view.describe(), j,
                              is_scan ? " and a sequence axis" : "");
    if (batch >= 0 && in.shape[0] != batch)
      return invalid_argument("{}: input {} has batch {}, the others {}", node.view.describe(), j, in.shape[0],
                              batch);
    batch = in.shape[0];
    if (!is_scan) continue;
    if (max_len >= 0 && in.shape[1] != max_len)
      return invalid_argument("{}: scan input {} has sequence length {}, the others {}", node.view.describe(),
                              j - 1 - n, in.shape[1], max_len);
    max_len = in.shape[1];
  }
  std::vector<int64_t> lens(static_cast<size_t>(batch), max_len);
  if (present(inputs[0])) {
    if (inputs[0].host || inputs[0].sequence || inputs[0].none || !kit_detail::decodable(inputs[0].dtype()))
      return invalid_argument("{}: sequence_lens must be int64", node.view.describe());
    GK_TRY(lens, read_i64(kit, inputs[0]));
    if (lens.size() != static_cast<size_t>(batch))
      return invalid_argument("{}: sequence_lens has {} entries for batch {}", node.view.describe(), lens.size(),
                              batch);
    for (int64_t len : lens)
      if (len < 0 || len > max_len)
        return invalid_argument("{}: a sequence length {} is outside [0, {}]", node.view.describe(), len, max_len);
  }

  std::vector<std::vector<NamedBuf>> final_states(n), scan_rows(k);
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<NamedBuf> states(n);
    for (size_t j = 0; j < n; ++j) {
      GK_TRY(states[j], slice0(inputs[1 + j], b, body.values[body.inputs[j]].name));
    }
    std::vector<std::vector<NamedBuf>> pieces(k, std::vector<NamedBuf>(static_cast<size_t>(max_len)));
    const int64_t len = lens[static_cast<size_t>(b)];
    for (int64_t t = 0; t < len; ++t) {
      std::vector<NamedBuf> formal;
      for (size_t j = 0; j < n; ++j) {
        states[j].name = body.values[body.inputs[j]].name;
        formal.push_back(states[j]);
      }
      for (size_t j = 0; j < m; ++j) {
        GK_TRY(NamedBuf row, slice0(inputs[1 + n + j], b, ""));
        const int64_t at = attrs.input_reverse[j] ? len - 1 - t : t;
        GK_TRY(NamedBuf slice, slice0(row, at, body.values[body.inputs[n + j]].name));
        formal.push_back(std::move(slice));
      }
      GK_TRY(std::vector<NamedBuf> outs, run(body, std::move(formal)));
      for (size_t j = 0; j < n; ++j) states[j] = std::move(outs[j]);
      for (size_t s = 0; s < k; ++s) pieces[s][static_cast<size_t>(t)] = std::move(outs[n + s]);
    }
    for (size_t j = 0; j < n; ++j) final_states[j].push_back(std::move(states[j]));
    for (size_t s = 0; s < k; ++s) {
      GK_TRY(NamedBuf rows, stack(kit, node, pieces[s], max_len, body.values[body.outputs[n + s]]));
      scan_rows[s].push_back(std::move(rows));
    }
  }
  std::vector<NamedBuf> result(node.outputs.size());
  for (size_t j = 0; j < n && j < result.size(); ++j)
    if (node.outputs[j] != kNoValue) {
      GK_TRY(result[j], stack(kit, node, final_states[j], batch, body.values[body.outputs[j]]));
    }
  for (size_t s = 0; n + s < result.size(); ++s)
    if (node.outputs[n + s] != kNoValue) {
      GK_TRY(result[n + s], stack(kit, node, scan_rows[s], batch, body.values[body.outputs[n + s]]));
    }
  GK_RETURN_IF_ERROR(kit.sync());  // the per-batch rows die here
  return result;
}

}  // namespace

Result<std::vector<NamedBuf>> run_control_flow(Kit& kit, const Node& node, const std::vector<NamedBuf>& inputs,
                                               const RunSubgraph& run) {
  switch (node.schema->traits.executor_op) {
    case ExecutorOp::kIf:
      return run_if(kit, node, inputs, run);
    case ExecutorOp::kLoop:
      return run_loop(kit, node, inputs, run);
    case ExecutorOp::kScan:
      if (attrs_as<ScanAttrs>(node.parsed).batched) return run_scan8(kit, node, inputs, run);
      return run_scan(kit, node, inputs, run);
    default:
      return internal_error("{} is not a control-flow op", node.view.describe());
  }
}

}  // namespace gk

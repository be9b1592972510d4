#include "graph/validate.h"

#include "graph/loader.h"
#include "ops/core/input_spec.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace gk {
namespace {

// A message listing 100k dangling names helps no one; the count still tells.
constexpr size_t kMaxListed = 40;
constexpr size_t kMaxNodesPerOp = 8;

void merge_op(std::vector<UnsupportedOp>& ops, std::string_view domain, std::string_view op_type,
              int64_t opset, std::string node) {
  std::string dom = domain == "ai.onnx" ? std::string() : std::string(domain);
  for (UnsupportedOp& u : ops)
    if (u.domain == dom && u.op_type == op_type && u.opset == opset) {
      u.nodes.push_back(std::move(node));
      return;
    }
  ops.push_back(UnsupportedOp{dom, std::string(op_type), opset, {std::move(node)}});
}

std::string describe_op(const UnsupportedOp& u) {
  std::string s = fmt::format("{} ({}, opset {}) at node{} ", u.op_type, u.domain.empty() ? "ai.onnx" : u.domain,
                              u.opset, u.nodes.size() == 1 ? "" : "s");
  for (size_t i = 0; i < u.nodes.size() && i < kMaxNodesPerOp; ++i)
    s += fmt::format("{}'{}'", i ? ", " : "", u.nodes[i]);
  if (u.nodes.size() > kMaxNodesPerOp) s += fmt::format(" and {} more", u.nodes.size() - kMaxNodesPerOp);
  return s;
}

void append_list(std::string& msg, const std::vector<std::string>& items) {
  for (size_t i = 0; i < items.size() && i < kMaxListed; ++i) {
    if (!msg.empty()) msg += "; ";
    msg += items[i];
  }
  if (items.size() > kMaxListed) msg += fmt::format("; ... and {} more", items.size() - kMaxListed);
}

}  // namespace

void LoadProblems::add(const Status& s, std::string_view context) {
  if (s.ok()) return;
  std::string what = context.empty() ? s.message() : fmt::format("{}: {}", context, s.message());
  if (s.code() == StatusCode::kUnimplemented)
    add_unsupported(std::move(what));
  else
    add_invalid(std::move(what));
}

void LoadProblems::add_op(std::string_view domain, std::string_view op_type, int64_t opset, std::string node) {
  merge_op(ops, domain, op_type, opset, std::move(node));
}

Status LoadProblems::to_status(std::string_view source, bool allow_unsupported) const {
  bool blocked = !invalid.empty() || (!allow_unsupported && (!unsupported.empty() || !ops.empty()));
  if (!blocked) return ok_status();
  std::string msg;
  append_list(msg, invalid);
  append_list(msg, unsupported);
  if (!ops.empty()) {
    if (!msg.empty()) msg += "; ";
    msg += "unsupported ops: ";
    for (size_t i = 0; i < ops.size(); ++i) {
      if (i) msg += "; ";
      msg += describe_op(ops[i]);
    }
  }
  StatusCode code = invalid.empty() ? StatusCode::kUnimplemented : StatusCode::kInvalidModel;
  return Status(code, fmt::format("{}: {}", source, msg));
}

void sort_topologically(Graph& g, LoadProblems& problems, std::string_view context) {
  const size_t n = g.nodes.size();
  std::vector<int> producer(g.values.size(), -1);
  for (size_t i = 0; i < n; ++i)
    for (ValueId out : g.nodes[i].outputs)
      if (out != kNoValue) producer[static_cast<size_t>(out)] = static_cast<int>(i);

  std::vector<std::vector<int>> succ(n), pred(n);
  for (size_t i = 0; i < n; ++i) {
    auto dep = [&](ValueId v) {
      if (v == kNoValue) return;
      int p = producer[static_cast<size_t>(v)];
      if (p >= 0) pred[i].push_back(p);
    };
    for (ValueId v : g.nodes[i].inputs) dep(v);
    for (ValueId v : g.nodes[i].implicit_inputs) dep(v);
    std::sort(pred[i].begin(), pred[i].end());
    pred[i].erase(std::unique(pred[i].begin(), pred[i].end()), pred[i].end());
    for (int p : pred[i]) succ[static_cast<size_t>(p)].push_back(static_cast<int>(i));
  }

  std::vector<size_t> indeg(n);
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;  // smallest model index first
  for (size_t i = 0; i < n; ++i) {
    indeg[i] = pred[i].size();
    if (indeg[i] == 0) ready.push(static_cast<int>(i));
  }
  std::vector<int> order;
  order.reserve(n);
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int s : succ[static_cast<size_t>(i)])
      if (--indeg[static_cast<size_t>(s)] == 0) ready.push(s);
  }

  if (order.size() < n) {
    // What is left is the cycles plus everything downstream of them; peeling off
    // nodes with no successor left keeps just the nodes on (or between) cycles.
    std::vector<bool> left(n, true);
    for (int i : order) left[static_cast<size_t>(i)] = false;
    std::vector<size_t> outdeg(n, 0);
    for (size_t i = 0; i < n; ++i)
      if (left[i])
        for (int s : succ[i]) outdeg[i] += left[static_cast<size_t>(s)];
    std::vector<int> sinks;
    for (size_t i = 0; i < n; ++i)
      if (left[i] && outdeg[i] == 0) sinks.push_back(static_cast<int>(i));
    std::vector<bool> on_cycle = left;
    while (!sinks.empty()) {
      int i = sinks.back();
      sinks.pop_back();
      on_cycle[static_cast<size_t>(i)] = false;
      for (int p : pred[static_cast<size_t>(i)])
        if (on_cycle[static_cast<size_t>(p)] && --outdeg[static_cast<size_t>(p)] == 0) sinks.push_back(p);
    }
    std::string names;
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!on_cycle[i]) continue;
      if (count < kMaxNodesPerOp) names += fmt::format("{}'{}'", count ? ", " : "", g.nodes[i].view.name);
      ++count;
    }
    if (count > kMaxNodesPerOp) names += fmt::format(" and {} more", count - kMaxNodesPerOp);
    problems.add_invalid(fmt::format("{}the graph has a cycle through nodes {}",
                                     context.empty() ? "" : fmt::format("{}: ", context), names));
    return;  // model order kept; the load fails anyway
  }

  std::vector<Node> sorted;
  sorted.reserve(n);
  for (int i : order) sorted.push_back(std::move(g.nodes[static_cast<size_t>(i)]));
  g.nodes = std::move(sorted);
  g.rebuild_uses();
}

namespace {

// The counts a control-flow node and its subgraphs must agree on (the spec's If,
// Loop, Scan and SequenceMap signatures), checked at load so that a mismatched body
// is refused before a run instead of when the node is reached (a SequenceMap body
// with fewer outputs than the node once gave empty sequences). The executor's own
// checks (runtime/control_flow.cpp, sequence_ops.cpp) stay for graphs built in code.
Status check_subgraph_counts(const Node& node) {
  auto body = [&](const char* name) -> const Graph* {
    const Attribute* a = node.attrs.find(name);
    return a ? subgraph_of(*a) : nullptr;
  };
  const std::string who = node.view.describe();
  const size_t ins = node.inputs.size(), outs = node.outputs.size();
  switch (node.schema->traits.executor_op) {
    case ExecutorOp::kIf:
      for (const char* branch : {"then_branch", "else_branch"})
        if (const Graph* g = body(branch); g && g->outputs.size() != outs)
          return invalid_model("{}: {} makes {} outputs, the node has {}", who, branch, g->outputs.size(), outs);
      return ok_status();
    case ExecutorOp::kLoop: {
      const Graph* g = body("body");
      if (!g || ins < 2) return ok_status();  // the parse and the arity check report these
      const size_t n = ins - 2;
      if (g->inputs.size() != n + 2)
        return invalid_model("{}: the body takes {} inputs, expected {} (iteration, condition and {} loop-carried)",
                             who, g->inputs.size(), n + 2, n);
      if (g->outputs.size() < n + 1)
        return invalid_model("{}: the body has {} outputs, fewer than the condition and {} loop-carried values", who,
                             g->outputs.size(), n);
      if (outs > g->outputs.size() - 1)
        return invalid_model("{}: {} outputs, but the body makes {} loop-carried and {} scan outputs", who, outs, n,
                             g->outputs.size() - 1 - n);
      return ok_status();
    }
    case ExecutorOp::kScan: {
      const Graph* g = body("body");
      auto m = node.attrs.get_int("num_scan_inputs", 0);
      if (!g || !m.ok()) return ok_status();
      const bool batched = node.view.opset < 9;  // Scan-8's first input is sequence_lens
      const size_t scans = static_cast<size_t>(*m), states = ins - (batched ? 1 : 0) - scans;
      if (g->inputs.size() != states + scans)
        return invalid_model("{}: the body takes {} inputs, expected {} ({} states and {} scan inputs)", who,
                             g->inputs.size(), states + scans, states, scans);
      // Scan-9's scan outputs are the node's past its states (the parse counted them).
      const size_t named = static_cast<size_t>(node.view.num_outputs);
      if (batched ? g->outputs.size() < states : g->outputs.size() != named)
        return invalid_model("{}: the body makes {} outputs, the node has {} ({} states)", who, g->outputs.size(),
                             batched ? outs : named, states);
      return ok_status();
    }
    case ExecutorOp::kSequenceMap: {
      const Graph* g = body("body");
      if (!g) return ok_status();
      if (g->inputs.size() != ins)
        return invalid_model("{}: the body takes {} inputs, the node has {}", who, g->inputs.size(), ins);
      if (g->outputs.size() != outs)
        return invalid_model("{}: the body makes {} outputs, the node has {}", who, g->outputs.size(), outs);
      return ok_status();
    }
    default:
      return ok_status();
  }
}

}  // namespace

void resolve_ops(Graph& g, LoadProblems& problems, std::string_view context) {
  std::string prefix = context.empty() ? std::string() : fmt::format("{}: ", context);
  for (Node& node : g.nodes) {
    // A domain missing from opset_import was reported when the node was read.
    if (node.view.opset <= 0) continue;
    node.schema = find_op(node.view.domain, node.view.op_type, node.view.opset);
    if (!node.schema) {
      problems.add_op(node.view.domain, node.view.op_type, node.view.opset, node.view.name);
      continue;
    }
    // Registered where the spec has no such op (LayerNormalization below opset 17,
    // as ONNX Runtime registers it): runs, with a warning naming the node.
    if (!find_input_spec(node.view.domain, node.view.op_type, node.view.opset) &&
        find_input_spec(node.view.domain, node.view.op_type, kOpsetCurrent))
      problems.add_warning(prefix + fmt::format("{}: {} is not in the spec's {} opset {}; run as ONNX Runtime "
                                                "runs it, with the signature of its first standard version",
                                                node.view.describe(), node.view.op_type,
                                                node.view.domain.empty() ? "ai.onnx" : node.view.domain,
                                                node.view.opset));
    // Before anything infers a shape: infer rules and launchers index required
    // inputs and outputs unchecked (a Shape given "" as its input crashed `gkrun
    // check`, a LayerNormalization at opset 10 with one input `gkrun MODEL`).
    if (Status s = check_node_arity(node.view); !s.ok()) {
      problems.add(s, context);
      continue;
    }
    if (node.schema->impl && node.schema->impl->parse) {
      auto parsed = node.schema->impl->parse(node.attrs, node.view);
      if (!parsed.ok()) {
        if (parsed.status().message().find(node.view.describe()) != std::string::npos)
          problems.add(parsed.status(), context);  // the op already named its node
        else
          problems.add(parsed.status(), prefix + node.view.describe());
        continue;
      }
      node.parsed = std::move(parsed).value();
    }
    if (Status s = check_subgraph_counts(node); !s.ok()) problems.add(s, context);
  }
}

void collect_unsupported(const Graph& g, std::vector<UnsupportedOp>& out) {
  for (const Node& node : g.nodes) {
    if (!node.schema && !find_op(node.view.domain, node.view.op_type, node.view.opset))
      merge_op(out, node.view.domain, node.view.op_type, node.view.opset, node.view.name);
    for (const auto& [name, attr] : node.attrs.all())
      if (const Graph* sub = subgraph_of(attr)) collect_unsupported(*sub, out);
  }
}

std::vector<UnsupportedOp> find_unsupported(const Model& model) {
  std::vector<UnsupportedOp> out;
  collect_unsupported(model.graph, out);
  return out;
}

}  // namespace gk

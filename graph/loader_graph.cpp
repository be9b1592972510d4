// GraphProto → gk::Graph: values, nodes, attributes and subgraphs. Problems are
// collected, never returned early, so one load reports all of them.
#include "graph/loader_proto.h"

#include <algorithm>
#include <climits>
#include <map>

namespace gk::loader {
namespace {

// Names visible to a graph: its own values, then those of the graphs enclosing it.
class Scope {
 public:
  Scope(Graph& g, Scope* outer) : g_(g), outer_(outer) {}

  // Where each local value is defined: the index of the node writing it (model
  // order), -1 for inputs and initializers; and the node being converted.
  void set_order(const std::vector<int>* def_node, const int* current) { def_node_ = def_node, current_ = current; }

  // Whether an enclosing graph has `name` (kNoValue if not), and whether it is in
  // ONNX's lexical scope here: an input, an initializer, or the output of a node
  // before the one whose subgraph this is.
  ValueId find_outside(const std::string& name, bool* in_scope) const {
    for (const Scope* s = outer_; s; s = s->outer_)
      if (ValueId id = s->g_.find(name); id != kNoValue) {
        *in_scope = s->defined_before_current(id);
        return id;
      }
    return kNoValue;
  }

  // The local value named `name`; else a capture of an enclosing graph's value
  // (made once, recursively through the graphs between); else kNoValue.
  ValueId resolve(const std::string& name) {
    ValueId id = g_.find(name);
    if (id != kNoValue || !outer_) return id;
    ValueId outer_id = outer_->resolve(name);
    if (outer_id == kNoValue) return kNoValue;
    const Value& src = outer_->g_.values[static_cast<size_t>(outer_id)];
    Value v;
    v.name = name;
    v.kind = src.kind;
    v.dtype = src.dtype;
    v.has_shape = src.has_shape;
    v.dims = src.dims;
    id = g_.add_value(std::move(v));
    g_.captures.push_back(id);
    return id;
  }

  Graph& graph() { return g_; }

 private:
  bool defined_before_current(ValueId id) const {
    if (!def_node_ || !current_) return true;
    const size_t i = static_cast<size_t>(id);
    return i >= def_node_->size() || (*def_node_)[i] < *current_;
  }

  Graph& g_;
  Scope* outer_;
  const std::vector<int>* def_node_ = nullptr;
  const int* current_ = nullptr;
};

std::string normalize_domain(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }

// The attribute's type; old exporters leave it UNDEFINED and set only the field.
onnx::AttributeProto_AttributeType attribute_type(const onnx::AttributeProto& a) {
  if (a.type() != onnx::AttributeProto::UNDEFINED) return a.type();
  if (a.has_f()) return onnx::AttributeProto::FLOAT;
  if (a.has_i()) return onnx::AttributeProto::INT;
  if (a.has_s()) return onnx::AttributeProto::STRING;
  if (a.has_t()) return onnx::AttributeProto::TENSOR;
  if (a.has_g()) return onnx::AttributeProto::GRAPH;
  if (a.has_sparse_tensor()) return onnx::AttributeProto::SPARSE_TENSOR;
  if (a.floats_size()) return onnx::AttributeProto::FLOATS;
  if (a.ints_size()) return onnx::AttributeProto::INTS;
  if (a.strings_size()) return onnx::AttributeProto::STRINGS;
  if (a.tensors_size()) return onnx::AttributeProto::TENSORS;
  if (a.graphs_size()) return onnx::AttributeProto::GRAPHS;
  return onnx::AttributeProto::UNDEFINED;
}

class GraphConverter {
 public:
  GraphConverter(onnx::GraphProto& gp, Graph& g, Scope* outer, LoadContext& ctx, std::string context)
      : gp_(gp), g_(g), scope_(g, outer), ctx_(ctx), context_(std::move(context)),
        prefix_(context_.empty() ? std::string() : context_ + ": ") {
    scope_.set_order(&def_node_, &current_);
  }

  void run() {
    g_.name = gp_.name();
    define_initializers();
    define_inputs();
    read_node_headers();
    for (const auto& vi : gp_.value_info()) {
      ValueId id = g_.find(vi.name());
      // value_info for a name nothing defines describes nothing; ignored like ONNX does.
      if (id != kNoValue && vi.has_type())
        apply_declared_type(value(id), vi.type(), ctx_.problems, context_, shape_is_inferred(id));
    }
    define_outputs();
    for (size_t k = 0; k < nodes_.size(); ++k) {
      current_ = static_cast<int>(k);
      if (!folded_[k]) convert_node(k);
    }

    std::vector<Node> kept;
    for (size_t k = 0; k < nodes_.size(); ++k)
      if (!folded_[k]) kept.push_back(std::move(nodes_[k]));
    g_.nodes = std::move(kept);
    g_.rebuild_uses();
    sort_topologically(g_, ctx_.problems, context_);
    resolve_ops(g_, ctx_.problems, context_);
  }

 private:
  Value& value(ValueId id) { return g_.values[static_cast<size_t>(id)]; }
  // A node's output (a Constant's included): not a graph input, an initializer or
  // a value captured from an enclosing graph.
  bool shape_is_inferred(ValueId id) {
    return !value(id).is_graph_input && !initializer_ids_.count(id) &&
           std::find(g_.captures.begin(), g_.captures.end(), id) == g_.captures.end();
  }
  void invalid(std::string what) { ctx_.problems.add_invalid(prefix_ + what); }

  // A new value named `name`, or kNoValue (reported) when the name is empty or taken.
  ValueId define(const std::string& name, const std::string& what, bool node_output = false) {
    if (name.empty()) {
      invalid(fmt::format("{} has an empty name", what));
      return kNoValue;
    }
    if (ValueId id = g_.find(name); id != kNoValue) {
      invalid(fmt::format("{} '{}' is already defined as {}", what, name, origin_[static_cast<size_t>(id)]));
      return kNoValue;
    }
    // SSA spans the enclosing graphs for node outputs, over the names in lexical
    // scope (ONNX's checker, which ONNX Runtime runs, refuses those too). A name
    // the enclosing graph defines only after this subgraph's node is not in scope
    // there: ONNX Runtime accepts reusing it, and so does gkrun, with a warning;
    // the local value wins everywhere in this graph and the graphs it encloses
    // (resolve() looks locally first), so nothing reads the wrong one.
    bool in_scope = false;
    if (node_output && scope_.find_outside(name, &in_scope) != kNoValue) {
      if (in_scope)
        invalid(fmt::format("{} '{}' shadows a value of an enclosing graph", what, name));
      else
        ctx_.problems.add_warning(prefix_ + fmt::format("{} '{}' reuses the name of a value the enclosing graph "
                                                        "defines after this subgraph's node; this graph reads its "
                                                        "own value",
                                                        what, name));
    }
    Value v;
    v.name = name;
    ValueId id = g_.add_value(std::move(v));
    def_node_.resize(g_.values.size(), -1);
    if (node_output) def_node_[static_cast<size_t>(id)] = header_;
    origin_.resize(g_.values.size());
    origin_[static_cast<size_t>(id)] = fmt::format("{} '{}'", what, name);
    return id;
  }

  // A second Constant node writing a name a Constant already wrote: ONNX Runtime
  // folds Constants into initializers and keeps the last one ("Duplicate
  // initializer ... the model will use the latest encountered"), for every reader.
  // gkrun does the same, with a warning. A clash with any other kind of value is
  // still an error (define() reports it).
  ValueId redefined_constant(const std::string& name, const NodeView& view) {
    ValueId id = name.empty() ? kNoValue : g_.find(name);
    auto it = id == kNoValue ? constant_writer_.end() : constant_writer_.find(id);
    if (it == constant_writer_.end()) return kNoValue;
    ctx_.problems.add_warning(prefix_ + fmt::format("{} writes '{}', which {} also writes; the last one is used, "
                                                    "as ONNX Runtime does",
                                                    view.describe(), name, it->second));
    it->second = view.describe();
    return id;
  }

  void set_initializer(ValueId id, HostTensor t) {
    Value& v = value(id);
    v.dtype = t.dtype();
    v.has_shape = true;
    v.dims.clear();
    for (int64_t d : t.shape()) v.dims.push_back(Dim{d, {}});
    v.initializer = std::make_shared<const HostTensor>(std::move(t));
  }

  void define_initializers() {
    for (auto& t : *gp_.mutable_initializer()) {
      ValueId id = define(t.name(), "initializer");
      if (id == kNoValue) continue;
      initializer_ids_.insert(id);
      auto r = decode_tensor(t, ctx_.files, t.name());
      if (!r.ok())
        ctx_.problems.add(r.status(), context_);
      else
        set_initializer(id, std::move(r).value());
    }
    for (auto& sp : *gp_.mutable_sparse_initializer()) {
      const std::string& name = sp.values().name();
      ValueId id = define(name, "sparse initializer");
      if (id == kNoValue) continue;
      initializer_ids_.insert(id);
      auto r = decode_sparse_tensor(sp, ctx_.files, name);
      if (!r.ok())
        ctx_.problems.add(r.status(), context_);
      else
        set_initializer(id, std::move(r).value());
    }
  }

  void define_inputs() {
    for (const auto& vi : gp_.input()) {
      ValueId id = g_.find(vi.name());
      if (id != kNoValue && initializer_ids_.count(id)) {
        // IR < 4 lists initializers among the inputs. ONNX lets a caller override
        // such an input; gkrun keeps it a constant (so it can be folded) and does
        // not count it among the inputs the caller feeds.
        if (vi.has_type()) apply_declared_type(value(id), vi.type(), ctx_.problems, context_);
        continue;
      }
      id = define(vi.name(), "graph input");
      if (id == kNoValue) continue;
      value(id).is_graph_input = true;
      g_.inputs.push_back(id);
      if (vi.has_type()) apply_declared_type(value(id), vi.type(), ctx_.problems, context_);
    }
  }

  void define_outputs() {
    for (const auto& vi : gp_.output()) {
      ValueId id = scope_.resolve(vi.name());
      if (id == kNoValue) {
        invalid(fmt::format("graph output '{}' is not produced by any node, input or initializer", vi.name()));
        continue;
      }
      value(id).is_graph_output = true;
      g_.outputs.push_back(id);
      if (vi.has_type()) apply_declared_type(value(id), vi.type(), ctx_.problems, context_, shape_is_inferred(id));
    }
  }

  // Names every node, defines its outputs, and folds Constant nodes into
  // initializers: the Constant op only returns its tensor, and as an initializer
  // that tensor is visible to constant folding and the planner with no special case.
  void read_node_headers() {
    const int n = gp_.node_size();
    nodes_.resize(static_cast<size_t>(n));
    folded_.assign(static_cast<size_t>(n), false);
    for (int k = 0; k < n; ++k) {
      onnx::NodeProto& np = *gp_.mutable_node(k);
      header_ = k;
      Node& node = nodes_[static_cast<size_t>(k)];
      NodeView& view = node.view;
      view.op_type = np.op_type();
      view.domain = normalize_domain(np.domain());
      view.name = np.name().empty() ? fmt::format("{}_{}", np.op_type(), k) : np.name();
      int64_t opset = ctx_.opset_for(np, view.domain);
      view.opset = static_cast<int>(std::min<int64_t>(opset, INT_MAX));
      if (opset <= 0 && ctx_.reported_domains.insert(view.domain).second)
        invalid(fmt::format("{}: domain '{}' is not in the model's opset_import", view.describe(),
                            view.domain.empty() ? "ai.onnx" : view.domain));

      int outs = np.output_size();
      while (outs > 0 && np.output(outs - 1).empty()) --outs;  // trailing absent outputs
      view.num_outputs = outs;
      std::string what = fmt::format("output of {}", view.describe());

      if (view.domain.empty() && view.op_type == "Constant") {
        folded_[static_cast<size_t>(k)] = true;
        if (outs != 1) {
          invalid(fmt::format("{} must have exactly one output, has {}", view.describe(), outs));
          continue;
        }
        ValueId id = redefined_constant(np.output(0), view);
        if (id == kNoValue) {
          id = define(np.output(0), what, /*node_output=*/true);
          if (id != kNoValue) constant_writer_[id] = view.describe();
        }
        auto t = constant_value(np, ctx_.files, view.describe());
        if (!t.ok())
          ctx_.problems.add(t.status(), context_);
        else if (id != kNoValue)
          set_initializer(id, std::move(t).value());
        continue;
      }
      for (int j = 0; j < outs; ++j) {
        const std::string& name = np.output(j);
        view.output_present.push_back(!name.empty());
        node.outputs.push_back(name.empty() ? kNoValue : define(name, what, /*node_output=*/true));
      }
    }
  }

  void convert_node(size_t k) {
    onnx::NodeProto& np = *gp_.mutable_node(static_cast<int>(k));
    Node& node = nodes_[k];
    NodeView& view = node.view;
    int ins = np.input_size();
    while (ins > 0 && np.input(ins - 1).empty()) --ins;  // trailing absent inputs
    for (int j = 0; j < ins; ++j) {
      const std::string& name = np.input(j);
      view.input_present.push_back(!name.empty());
      if (name.empty()) {
        node.inputs.push_back(kNoValue);
        continue;
      }
      ValueId id = scope_.resolve(name);
      if (id == kNoValue)
        invalid(fmt::format("{}: input '{}' is not produced by any node and is not a graph input or initializer",
                            view.describe(), name));
      node.inputs.push_back(id);
    }
    for (auto& a : *np.mutable_attribute()) {
      if (node.attrs.has(a.name())) {
        invalid(fmt::format("{}: attribute '{}' is given twice", view.describe(), a.name()));
        continue;
      }
      convert_attribute(node, a);
    }
  }

  void convert_attribute(Node& node, onnx::AttributeProto& a) {
    const std::string where = fmt::format("{} attribute '{}'", node.view.describe(), a.name());
    if (!a.ref_attr_name().empty()) {
      invalid(fmt::format("{} refers to function attribute '{}' outside a function", where, a.ref_attr_name()));
      return;
    }
    Attribute out;
    switch (attribute_type(a)) {
      case onnx::AttributeProto::FLOAT: out.kind = Attribute::Kind::kFloat; out.f = a.f(); break;
      case onnx::AttributeProto::INT: out.kind = Attribute::Kind::kInt; out.i = a.i(); break;
      case onnx::AttributeProto::STRING: out.kind = Attribute::Kind::kString; out.s = a.s(); break;
      case onnx::AttributeProto::FLOATS:
        out.kind = Attribute::Kind::kFloats;
        out.floats.assign(a.floats().begin(), a.floats().end());
        break;
      case onnx::AttributeProto::INTS:
        out.kind = Attribute::Kind::kInts;
        out.ints.assign(a.ints().begin(), a.ints().end());
        break;
      case onnx::AttributeProto::STRINGS:
        out.kind = Attribute::Kind::kStrings;
        out.strings.assign(a.strings().begin(), a.strings().end());
        break;
      case onnx::AttributeProto::TENSOR:
      case onnx::AttributeProto::SPARSE_TENSOR: {
        bool sparse = attribute_type(a) == onnx::AttributeProto::SPARSE_TENSOR;
        auto t = sparse ? decode_sparse_tensor(*a.mutable_sparse_tensor(), ctx_.files, where)
                        : decode_tensor(*a.mutable_t(), ctx_.files, where);
        if (!t.ok()) {
          ctx_.problems.add(t.status(), context_);
          return;
        }
        out.kind = Attribute::Kind::kTensor;
        out.tensor = std::make_shared<const HostTensor>(std::move(t).value());
        break;
      }
      case onnx::AttributeProto::GRAPH: {
        auto sub = std::make_shared<Graph>();
        GraphConverter(*a.mutable_g(), *sub, &scope_, ctx_, prefix_ + fmt::format("graph of {}", where)).run();
        // What the body reads from this graph is read by this node.
        for (ValueId c : sub->captures) {
          ValueId id = scope_.resolve(sub->values[static_cast<size_t>(c)].name);
          if (id != kNoValue && std::find(node.implicit_inputs.begin(), node.implicit_inputs.end(), id) ==
                                    node.implicit_inputs.end())
            node.implicit_inputs.push_back(id);
        }
        out.kind = Attribute::Kind::kGraph;
        out.graph = std::shared_ptr<const void>(std::shared_ptr<const Graph>(std::move(sub)));
        break;
      }
      case onnx::AttributeProto::UNDEFINED:
        invalid(fmt::format("{} has no type and no value", where));
        return;
      default:
        // TENSORS, GRAPHS, SPARSE_TENSORS, TYPE_PROTO(S): no standard op that gkrun
        // runs takes them; kept as kOther so a parser can reject them by name.
        out.kind = Attribute::Kind::kOther;
        break;
    }
    node.attrs.set(a.name(), std::move(out));
  }

  onnx::GraphProto& gp_;
  Graph& g_;
  Scope scope_;
  LoadContext& ctx_;
  std::string context_;
  std::string prefix_;
  std::vector<Node> nodes_;    // in model order, Constant nodes included
  std::vector<bool> folded_;   // Constant nodes turned into initializers
  std::vector<std::string> origin_;  // how each value was defined, for messages
  std::set<ValueId> initializer_ids_;
  std::map<ValueId, std::string> constant_writer_;
  std::vector<int> def_node_;  // per value: the node (model order) writing it, -1 for inputs/initializers
  int header_ = -1;            // the node whose header read_node_headers is reading
  int current_ = -1;           // the node convert_node is converting (its subgraphs are being read)  // values Constant nodes write: the last writer
};

}  // namespace

void convert_main_graph(onnx::GraphProto& gp, Graph& g, LoadContext& ctx) {
  GraphConverter(gp, g, nullptr, ctx, "").run();
}

}  // namespace gk::loader

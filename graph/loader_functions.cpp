// Model-local functions (ModelProto.functions, IR >= 8): every call is inlined
// at load, before the graph is converted, so the rest of gkrun sees plain nodes.
// A call binds the function's formal inputs and outputs to its actual names (a
// trailing input or output the call leaves out is absent, "", which is how a
// variadic op in the body sees fewer operands); every other name of the body is
// made unique per call. Attribute references (ref_attr_name) take the call's
// attribute, else the function's default (attribute_proto, IR 9), else the
// attribute is left out. Calls inside a body (and inside its subgraphs) are
// inlined in turn; a function that reaches itself is an error naming the chain.
// Body nodes use the function's own opset_import, falling back to the model's
// for domains the function does not import.
#include "graph/loader_proto.h"

#include <google/protobuf/unknown_field_set.h>

#include <functional>
#include <map>
#include <memory>
#include <vector>

namespace gk::loader {
namespace {

using Opsets = std::vector<OpsetImport>;
using Nodes = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

// Inlining can multiply (f calls g twice, g calls h twice, ...): a model whose
// expansion passes this many nodes is refused rather than exhausting memory.
constexpr size_t kMaxInlinedNodes = size_t{1} << 20;

std::string normalize(const std::string& d) { return d == "ai.onnx" ? std::string() : d; }
std::string label(const std::string& domain, const std::string& name) {
  return domain.empty() ? name : domain + "." + name;
}

struct Function {
  onnx::FunctionProto* proto = nullptr;
  std::string label;
  std::shared_ptr<const Opsets> opsets;
  std::map<std::string, onnx::AttributeProto> defaults;  // attribute_proto (field 11)
};

// ONNX 1.12's classes predate FunctionProto.attribute_proto (field 11, IR 9): it
// arrives as unknown fields, each a serialized AttributeProto.
std::map<std::string, onnx::AttributeProto> attribute_defaults(const onnx::FunctionProto& fp, LoadProblems& problems,
                                                               const std::string& what) {
  std::map<std::string, onnx::AttributeProto> out;
  const auto& unknown = fp.GetReflection()->GetUnknownFields(fp);
  for (int i = 0; i < unknown.field_count(); ++i) {
    const auto& f = unknown.field(i);
    if (f.number() != 11 || f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED) continue;
    onnx::AttributeProto a;
    if (!a.ParseFromString(f.length_delimited()) || a.name().empty()) {
      problems.add_invalid(fmt::format("{}: an attribute_proto entry does not parse", what));
      continue;
    }
    out[a.name()] = std::move(a);
  }
  return out;
}

// Names inside one inlined call: formal inputs and outputs map to the call's
// names, everything else gets the call's prefix. Subgraphs of body nodes get a
// scope of their own, so a subgraph's local names are made unique too.
class Renamer {
 public:
  Renamer(std::map<std::string, std::string> formals, std::string prefix)
      : formals_(std::move(formals)), prefix_(std::move(prefix)) {}

  std::string operator()(const std::string& name) const {
    if (name.empty()) return name;
    auto it = formals_.find(name);
    return it != formals_.end() ? it->second : prefix_ + name;
  }

  // Renames a subgraph of a body node in place: names it defines get the prefix
  // (plus its depth, so nested subgraphs stay distinct), names it reads from the
  // body are renamed as the body's.
  void rename_subgraph(onnx::GraphProto& g, const std::function<std::string(const std::string&)>& outer,
                       int depth) const {
    std::map<std::string, std::string> local;
    const std::string p = fmt::format("{}g{}/", prefix_, depth);
    auto define = [&](const std::string& n) {
      if (!n.empty()) local[n] = p + n;
    };
    for (const auto& t : g.initializer()) define(t.name());
    for (const auto& s : g.sparse_initializer()) define(s.values().name());
    for (const auto& i : g.input()) define(i.name());
    for (const auto& n : g.node())
      for (const auto& o : n.output()) define(o);
    std::function<std::string(const std::string&)> resolve = [&](const std::string& n) -> std::string {
      if (n.empty()) return n;
      auto it = local.find(n);
      return it != local.end() ? it->second : outer(n);
    };
    for (auto& t : *g.mutable_initializer()) t.set_name(resolve(t.name()));
    for (auto& s : *g.mutable_sparse_initializer()) s.mutable_values()->set_name(resolve(s.values().name()));
    for (auto& i : *g.mutable_input()) i.set_name(resolve(i.name()));
    for (auto& o : *g.mutable_output()) o.set_name(resolve(o.name()));
    for (auto& v : *g.mutable_value_info()) v.set_name(resolve(v.name()));
    for (auto& n : *g.mutable_node()) rename_node(n, resolve, depth + 1);
  }

  void rename_node(onnx::NodeProto& n, const std::function<std::string(const std::string&)>& resolve,
                   int depth) const {
    if (!n.name().empty()) n.set_name(prefix_ + n.name());
    for (auto& i : *n.mutable_input()) i = resolve(i);
    for (auto& o : *n.mutable_output()) o = resolve(o);
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) rename_subgraph(*a.mutable_g(), resolve, depth);
      for (auto& g : *a.mutable_graphs()) rename_subgraph(g, resolve, depth);
    }
  }

 private:
  std::map<std::string, std::string> formals_;
  std::string prefix_;
};

class Inliner {
 public:
  Inliner(onnx::ModelProto& mp, LoadContext& ctx) : ctx_(ctx) {
    for (auto& fp : *mp.mutable_functions()) {
      const std::string domain = normalize(fp.domain());
      const std::string what = fmt::format("function '{}'", label(domain, fp.name()));
      if (fp.name().empty()) {
        ctx_.problems.add_invalid("a model-local function has no name");
        continue;
      }
      Function f;
      f.proto = &fp;
      f.label = label(domain, fp.name());
      auto opsets = std::make_shared<Opsets>();
      for (const auto& o : fp.opset_import()) opsets->push_back(OpsetImport{normalize(o.domain()), o.version()});
      f.opsets = std::move(opsets);
      f.defaults = attribute_defaults(fp, ctx_.problems, what);
      if (!functions_.emplace(std::make_pair(domain, fp.name()), std::move(f)).second)
        ctx_.problems.add_invalid(fmt::format("{} is defined twice", what));
    }
  }

  bool empty() const { return functions_.empty(); }

  // Inlines every call in `g` and its subgraphs; `opsets` is the scope the nodes
  // were written in (nullptr: the model's).
  void expand_graph(onnx::GraphProto& g, const std::shared_ptr<const Opsets>& opsets,
                    std::vector<const Function*>& stack) {
    Nodes out;
    std::vector<std::shared_ptr<const Opsets>> scopes;
    for (auto& n : *g.mutable_node()) expand_node(std::move(n), opsets, stack, out, scopes);
    g.mutable_node()->Swap(&out);
    for (int i = 0; i < g.node_size(); ++i)
      if (scopes[static_cast<size_t>(i)]) ctx_.node_opsets[&g.node(i)] = scopes[static_cast<size_t>(i)];
  }

 private:
  void expand_node(onnx::NodeProto n, const std::shared_ptr<const Opsets>& opsets,
                   std::vector<const Function*>& stack, Nodes& out,
                   std::vector<std::shared_ptr<const Opsets>>& scopes) {
    auto it = functions_.find(std::make_pair(normalize(n.domain()), n.op_type()));
    if (it == functions_.end()) {
      for (auto& a : *n.mutable_attribute()) {
        if (a.has_g()) expand_graph(*a.mutable_g(), opsets, stack);
        for (auto& sub : *a.mutable_graphs()) expand_graph(sub, opsets, stack);
      }
      if (++produced_ > kMaxInlinedNodes) {
        if (!too_many_reported_)
          ctx_.problems.add_invalid(fmt::format("inlining the model's functions makes more than {} nodes",
                                                kMaxInlinedNodes));
        too_many_reported_ = true;
        return;
      }
      *out.Add() = std::move(n);
      scopes.push_back(opsets);
      return;
    }
    const Function& f = it->second;
    const std::string call = fmt::format("node '{}'", n.name().empty() ? n.op_type() : n.name());
    for (size_t k = 0; k < stack.size(); ++k) {
      if (stack[k] != &f) continue;
      std::string chain;
      for (size_t j = k; j < stack.size(); ++j) chain += stack[j]->label + " -> ";
      ctx_.problems.add_invalid(fmt::format("{}: function '{}' calls itself ({}{}); recursion cannot be inlined",
                                            call, f.label, chain, f.label));
      return;
    }
    const onnx::FunctionProto& fp = *f.proto;
    if (n.input_size() > fp.input_size() || n.output_size() > fp.output_size()) {
      ctx_.problems.add_invalid(fmt::format("{} calls function '{}' with {} inputs and {} outputs; it takes at most "
                                            "{} and {}",
                                            call, f.label, n.input_size(), n.output_size(), fp.input_size(),
                                            fp.output_size()));
      return;
    }
    const std::string prefix = fmt::format("{}/{}#{}/", n.name().empty() ? n.op_type() : n.name(), f.label,
                                           ++calls_);
    std::map<std::string, std::string> formals;
    for (int i = 0; i < fp.input_size(); ++i) formals[fp.input(i)] = i < n.input_size() ? n.input(i) : "";
    for (int i = 0; i < fp.output_size(); ++i) {
      const bool bound = i < n.output_size() && !n.output(i).empty();
      formals[fp.output(i)] = bound ? n.output(i) : prefix + fp.output(i);
    }
    std::map<std::string, const onnx::AttributeProto*> given;
    for (const auto& a : n.attribute()) given[a.name()] = &a;
    const Renamer rename(std::move(formals), prefix);
    const std::function<std::string(const std::string&)> resolve = std::cref(rename);

    stack.push_back(&f);
    for (const onnx::NodeProto& body : fp.node()) {
      onnx::NodeProto b = body;
      if (!substitute_attributes(b, f, given, call)) continue;
      rename.rename_node(b, resolve, 0);
      expand_node(std::move(b), f.opsets, stack, out, scopes);
    }
    stack.pop_back();
  }

  // Replaces each attribute reference of `b` (and of nodes in its subgraphs) by
  // the call's attribute or the function's default; one neither gives is left
  // out, as the spec says.
  bool substitute_attributes(onnx::NodeProto& b, const Function& f,
                             const std::map<std::string, const onnx::AttributeProto*>& given,
                             const std::string& call) {
    auto& attrs = *b.mutable_attribute();
    for (int i = 0; i < attrs.size();) {
      onnx::AttributeProto& a = attrs[i];
      if (a.has_g()) substitute_in_graph(*a.mutable_g(), f, given, call);
      for (auto& g : *a.mutable_graphs()) substitute_in_graph(g, f, given, call);
      if (a.ref_attr_name().empty()) {
        ++i;
        continue;
      }
      const onnx::AttributeProto* src = nullptr;
      if (auto g = given.find(a.ref_attr_name()); g != given.end()) src = g->second;
      else if (auto d = f.defaults.find(a.ref_attr_name()); d != f.defaults.end()) src = &d->second;
      if (!src) {
        attrs.DeleteSubrange(i, 1);
        continue;
      }
      if (a.type() != onnx::AttributeProto::UNDEFINED && src->type() != onnx::AttributeProto::UNDEFINED &&
          a.type() != src->type()) {
        ctx_.problems.add_invalid(fmt::format("{}: function '{}' passes attribute '{}' as '{}' of type {}, the "
                                              "call gives type {}",
                                              call, f.label, a.ref_attr_name(), a.name(), static_cast<int>(a.type()),
                                              static_cast<int>(src->type())));
        return false;
      }
      const std::string name = a.name();
      a = *src;
      a.set_name(name);
      a.clear_ref_attr_name();
      ++i;
    }
    return true;
  }

  void substitute_in_graph(onnx::GraphProto& g, const Function& f,
                           const std::map<std::string, const onnx::AttributeProto*>& given, const std::string& call) {
    for (auto& n : *g.mutable_node()) substitute_attributes(n, f, given, call);
  }

  LoadContext& ctx_;
  std::map<std::pair<std::string, std::string>, Function> functions_;
  size_t calls_ = 0;
  size_t produced_ = 0;
  bool too_many_reported_ = false;
};

}  // namespace

void inline_functions(onnx::ModelProto& mp, LoadContext& ctx) {
  if (mp.functions_size() == 0) return;
  Inliner inliner(mp, ctx);
  std::vector<const Function*> stack;
  inliner.expand_graph(*mp.mutable_graph(), nullptr, stack);
}

int64_t LoadContext::opset_for(const onnx::NodeProto& np, const std::string& domain) const {
  if (auto it = node_opsets.find(&np); it != node_opsets.end())
    for (const OpsetImport& o : *it->second)
      if (o.domain == domain) return o.version;
  return model.opset(domain);
}

}  // namespace gk::loader

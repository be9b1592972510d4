#include "tests/fuzz/model_mutator.h"

#include <cstdint>
#include <limits>
#include <vector>

namespace gk::fuzz {
namespace {

using Rng = std::mt19937_64;

size_t pick(Rng& rng, size_t n) { return n == 0 ? 0 : static_cast<size_t>(rng() % n); }

// Dims and integer attributes worth trying: edges, off-by-ones, overflow bait.
int64_t interesting_int(Rng& rng) {
  static const int64_t kValues[] = {-1, 0, 1, 2, 3, 7, 64, -2, -7, 255, 65536, int64_t{1} << 31, int64_t{1} << 32,
                                    int64_t{1} << 62, std::numeric_limits<int64_t>::max(),
                                    std::numeric_limits<int64_t>::min()};
  return kValues[pick(rng, std::size(kValues))];
}

float interesting_float(Rng& rng) {
  static const float kValues[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e30f, -1e30f, 1e-30f,
                                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN()};
  return kValues[pick(rng, std::size(kValues))];
}

// Every graph of the model: the main graph, then each subgraph (If/Loop/Scan
// bodies, attributes of type GRAPH and GRAPHS) at any depth, so every mutation
// below can land in a nested body.
void collect_graphs(onnx::GraphProto* g, std::vector<onnx::GraphProto*>& out, int depth = 0) {
  out.push_back(g);
  if (depth > 32) return;
  for (auto& node : *g->mutable_node())
    for (auto& a : *node.mutable_attribute()) {
      if (a.has_g()) collect_graphs(a.mutable_g(), out, depth + 1);
      for (auto& sub : *a.mutable_graphs()) collect_graphs(&sub, out, depth + 1);
    }
}

onnx::GraphProto* some_graph(onnx::ModelProto& m, Rng& rng) {
  std::vector<onnx::GraphProto*> graphs;
  collect_graphs(m.mutable_graph(), graphs);
  return graphs[pick(rng, graphs.size())];
}

std::vector<onnx::ValueInfoProto*> value_infos(onnx::GraphProto* g) {
  std::vector<onnx::ValueInfoProto*> out;
  for (auto* list : {g->mutable_input(), g->mutable_output(), g->mutable_value_info()})
    for (auto& vi : *list) out.push_back(&vi);
  return out;
}

// Every name a node input could refer to in `g`.
std::vector<std::string> value_names(const onnx::GraphProto& g) {
  std::vector<std::string> out;
  for (const auto& vi : g.input()) out.push_back(vi.name());
  for (const auto& t : g.initializer()) out.push_back(t.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) out.push_back(o);
  return out;
}

bool mutate_dim(onnx::ModelProto& m, Rng& rng) {
  auto infos = value_infos(some_graph(m, rng));
  if (infos.empty()) return false;
  auto* tt = infos[pick(rng, infos.size())]->mutable_type()->mutable_tensor_type();
  auto* shape = tt->mutable_shape();
  switch (rng() % 4) {
    case 0: shape->add_dim()->set_dim_value(interesting_int(rng)); return true;
    case 1:
      if (shape->dim_size() == 0) return false;
      shape->mutable_dim()->RemoveLast();
      return true;
    case 2:
      if (shape->dim_size() == 0) return false;
      shape->mutable_dim(static_cast<int>(pick(rng, shape->dim_size())))->set_dim_param(rng() % 2 ? "n" : "");
      return true;
    default:
      if (shape->dim_size() == 0) return false;
      shape->mutable_dim(static_cast<int>(pick(rng, shape->dim_size())))->set_dim_value(interesting_int(rng));
      return true;
  }
}

bool mutate_initializer_dims(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->initializer_size() == 0) return false;
  auto* t = g->mutable_initializer(static_cast<int>(pick(rng, g->initializer_size())));
  if (t->dims_size() == 0 || rng() % 3 == 0) {
    t->add_dims(interesting_int(rng));
  } else if (rng() % 2) {
    t->set_dims(static_cast<int>(pick(rng, t->dims_size())), interesting_int(rng));
  } else {
    t->mutable_dims()->RemoveLast();
  }
  return true;
}

bool mutate_attribute(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  auto* n = g->mutable_node(static_cast<int>(pick(rng, g->node_size())));
  if (n->attribute_size() == 0 || rng() % 4 == 0) {
    // A new attribute of a name ops read, with a wild value.
    static const char* kNames[] = {"axis", "axes", "perm", "kernel_shape", "strides", "pads", "dilations", "group",
                                   "to", "keepdims", "k", "num_heads", "q_num_heads", "kv_num_heads", "is_causal",
                                   "scale", "epsilon", "mode", "blocksize", "batch_dims", "direction",
                                   "hidden_size", "softcap"};
    auto* a = n->add_attribute();
    a->set_name(kNames[pick(rng, std::size(kNames))]);
    if (rng() % 2) {
      a->set_type(onnx::AttributeProto::INT);
      a->set_i(interesting_int(rng));
    } else {
      a->set_type(onnx::AttributeProto::INTS);
      for (size_t i = 0, k = pick(rng, 6); i < k; ++i) a->add_ints(interesting_int(rng));
    }
    return true;
  }
  auto* a = n->mutable_attribute(static_cast<int>(pick(rng, n->attribute_size())));
  switch (rng() % 6) {
    case 0: a->set_i(interesting_int(rng)); break;
    case 1:
      if (a->ints_size() > 0) a->set_ints(static_cast<int>(pick(rng, a->ints_size())), interesting_int(rng));
      else a->add_ints(interesting_int(rng));
      break;
    case 2: a->set_f(interesting_float(rng)); break;
    case 3: a->mutable_ints()->Clear(); a->mutable_floats()->Clear(); break;
    case 4: a->set_type(static_cast<onnx::AttributeProto::AttributeType>(pick(rng, 15))); break;
    default: n->mutable_attribute()->DeleteSubrange(static_cast<int>(pick(rng, n->attribute_size())), 1); break;
  }
  return true;
}

bool mutate_dtype(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  const int32_t type = rng() % 8 == 0 ? 99 : static_cast<int32_t>(pick(rng, 27));
  if (g->initializer_size() > 0 && rng() % 2) {
    g->mutable_initializer(static_cast<int>(pick(rng, g->initializer_size())))->set_data_type(type);
    return true;
  }
  auto infos = value_infos(g);
  if (infos.empty()) return false;
  infos[pick(rng, infos.size())]->mutable_type()->mutable_tensor_type()->set_elem_type(type);
  return true;
}

bool mutate_edge(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  auto* n = g->mutable_node(static_cast<int>(pick(rng, g->node_size())));
  auto names = value_names(*g);
  if (names.empty()) return false;
  const std::string& to = names[pick(rng, names.size())];
  if (n->input_size() > 0 && rng() % 3) {
    n->set_input(static_cast<int>(pick(rng, n->input_size())), to);
  } else if (n->output_size() > 0) {
    n->set_output(static_cast<int>(pick(rng, n->output_size())), to);  // a duplicate or a cycle
  } else {
    return false;
  }
  return true;
}

bool mutate_empty_input(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  auto* n = g->mutable_node(static_cast<int>(pick(rng, g->node_size())));
  if (n->input_size() == 0) return false;
  n->set_input(static_cast<int>(pick(rng, n->input_size())), "");
  return true;
}

bool mutate_input_count(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  auto* n = g->mutable_node(static_cast<int>(pick(rng, g->node_size())));
  if (n->input_size() > 0 && rng() % 2) {
    n->mutable_input()->RemoveLast();
  } else if (rng() % 2 && n->output_size() > 0) {
    n->mutable_output()->RemoveLast();
  } else {
    auto names = value_names(*g);
    n->add_input(names.empty() || rng() % 3 == 0 ? std::string() : names[pick(rng, names.size())]);
  }
  return true;
}

bool mutate_initializer_size(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->initializer_size() == 0) return false;
  auto* t = g->mutable_initializer(static_cast<int>(pick(rng, g->initializer_size())));
  switch (rng() % 5) {
    case 0:
      if (t->raw_data().empty()) return false;
      t->mutable_raw_data()->resize(pick(rng, t->raw_data().size()));
      break;
    case 1: t->mutable_raw_data()->append(1 + pick(rng, 16), '\x7f'); break;
    case 2: t->add_float_data(interesting_float(rng)); break;
    case 3: t->add_int64_data(interesting_int(rng)); break;
    default: t->clear_raw_data(); t->clear_float_data(); t->clear_int64_data(); t->clear_int32_data(); break;
  }
  return true;
}

bool mutate_external_data(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->initializer_size() == 0) return false;
  auto* t = g->mutable_initializer(static_cast<int>(pick(rng, g->initializer_size())));
  static const char* kLocations[] = {"../../../../etc/passwd", "/etc/passwd", "w.bin", "", "sub/../w.bin",
                                     "/proc/self/mem", "a\\..\\b", "."};
  static const char* kNumbers[] = {"0", "-1", "4096", "18446744073709551615", "9223372036854775807", "x", "",
                                   "1e3"};
  t->set_data_location(rng() % 4 ? onnx::TensorProto::EXTERNAL : onnx::TensorProto::DEFAULT);
  auto* e = t->add_external_data();
  switch (rng() % 4) {
    case 0: e->set_key("location"); e->set_value(kLocations[pick(rng, std::size(kLocations))]); break;
    case 1: e->set_key("offset"); e->set_value(kNumbers[pick(rng, std::size(kNumbers))]); break;
    case 2: e->set_key("length"); e->set_value(kNumbers[pick(rng, std::size(kNumbers))]); break;
    default: e->set_key("checksum"); e->set_value("?"); break;
  }
  return true;
}

// Moves a node into a new If whose two branches both hold it: nesting the
// validator, the planner and the executor did not see in the seed.
bool mutate_nest(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0 || g->node_size() > 256) return false;
  const int at = static_cast<int>(pick(rng, g->node_size()));
  onnx::NodeProto inner = g->node(at);
  if (inner.output_size() == 0) return false;
  onnx::GraphProto body;
  body.set_name("nested");
  *body.add_node() = inner;
  for (const auto& o : inner.output()) {
    auto* vi = body.add_output();
    vi->set_name(o);
  }
  onnx::NodeProto wrapper;
  wrapper.set_op_type("If");
  wrapper.set_name("fuzz_if");
  wrapper.add_input(g->input_size() > 0 ? g->input(0).name() : std::string("cond"));
  for (const auto& o : inner.output()) wrapper.add_output(o);
  for (const char* branch : {"then_branch", "else_branch"}) {
    auto* a = wrapper.add_attribute();
    a->set_name(branch);
    a->set_type(onnx::AttributeProto::GRAPH);
    *a->mutable_g() = body;
  }
  *g->mutable_node(at) = wrapper;
  return true;
}

bool mutate_op_type(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  static const char* kOps[] = {"Gather", "Reshape", "Concat", "Slice", "Transpose", "Conv", "MatMul", "Attention",
                               "Expand", "Tile", "Pad", "Resize", "TopK", "ScatterND", "Loop", "If", "Split",
                               "Squeeze", "Unsqueeze", "Cast", "Softmax", "LayerNormalization", "Range", "OneHot"};
  g->mutable_node(static_cast<int>(pick(rng, g->node_size())))->set_op_type(kOps[pick(rng, std::size(kOps))]);
  return true;
}

bool mutate_node_list(onnx::ModelProto& m, Rng& rng) {
  auto* g = some_graph(m, rng);
  if (g->node_size() == 0) return false;
  const int at = static_cast<int>(pick(rng, g->node_size()));
  if (rng() % 2) {
    g->mutable_node()->DeleteSubrange(at, 1);
  } else if (g->node_size() < 512) {
    *g->add_node() = g->node(at);  // a duplicate producer
  }
  return true;
}

bool mutate_opset(onnx::ModelProto& m, Rng& rng) {
  if (m.opset_import_size() == 0) return false;
  static const int64_t kVersions[] = {1, 6, 7, 9, 11, 13, 17, 21, 23, 24, 27, 28, 0, -1};
  m.mutable_opset_import(static_cast<int>(pick(rng, m.opset_import_size())))
      ->set_version(kVersions[pick(rng, std::size(kVersions))]);
  return true;
}

}  // namespace

const char* mutation_name(int kind) {
  static const char* kNames[kMutationKinds] = {"dim", "initializer_dims", "attribute", "dtype", "edge",
                                               "empty_input", "input_count", "initializer_size", "external_data",
                                               "nest", "op_type", "node_list", "opset"};
  return kind >= 0 && kind < kMutationKinds ? kNames[kind] : "?";
}

bool apply_mutation(onnx::ModelProto& m, int kind, std::mt19937_64& rng) {
  if (!m.has_graph()) return false;
  switch (kind) {
    case 0: return mutate_dim(m, rng);
    case 1: return mutate_initializer_dims(m, rng);
    case 2: return mutate_attribute(m, rng);
    case 3: return mutate_dtype(m, rng);
    case 4: return mutate_edge(m, rng);
    case 5: return mutate_empty_input(m, rng);
    case 6: return mutate_input_count(m, rng);
    case 7: return mutate_initializer_size(m, rng);
    case 8: return mutate_external_data(m, rng);
    case 9: return mutate_nest(m, rng);
    case 10: return mutate_op_type(m, rng);
    case 11: return mutate_node_list(m, rng);
    case 12: return mutate_opset(m, rng);
    default: return false;
  }
}

bool mutate_model(onnx::ModelProto& m, std::mt19937_64& rng) {
  bool any = false;
  const int count = 1 + static_cast<int>(rng() % 3);
  for (int i = 0, tries = 0; i < count && tries < 16; ++tries)
    if (apply_mutation(m, static_cast<int>(rng() % kMutationKinds), rng)) {
      any = true;
      ++i;
    }
  return any;
}

}  // namespace gk::fuzz

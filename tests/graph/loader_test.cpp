// The loader on hand-built models whose decoded values are known exactly.
#include "graph/loader.h"
#include "onnx_builders.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

using namespace gk;
using namespace gk::test;

namespace {

template <typename T>
std::vector<T> elements(const HostTensor& t) {
  std::vector<T> out(static_cast<size_t>(t.numel()));
  std::memcpy(out.data(), t.raw(), out.size() * sizeof(T));
  return out;
}

const HostTensor& init(const Model& m, const std::string& name) {
  const Value& v = value_named(m, name);
  if (!v.initializer) throw std::runtime_error("no initializer " + name);
  return *v.initializer;
}

}  // namespace

TEST_CASE("loader: initializers in every storage form decode to their values", "[loader]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();

  add_initializer(g, "raw_f32", onnx::TensorProto::FLOAT, {2, 3})
      ->set_raw_data(bytes_of(std::vector<float>{1, 2, 3, 4, 5, 6}));
  auto* fd = add_initializer(g, "float_data", onnx::TensorProto::FLOAT, {3});
  for (float f : {0.5f, -1.25f, 3.0f}) fd->add_float_data(f);
  auto* dd = add_initializer(g, "double_data", onnx::TensorProto::DOUBLE, {2});
  for (double d : {1e300, -2.5}) dd->add_double_data(d);
  auto* i64 = add_initializer(g, "int64_data", onnx::TensorProto::INT64, {2});
  for (int64_t v : {std::numeric_limits<int64_t>::min(), int64_t{42}}) i64->add_int64_data(v);
  auto int32_field = [&](const std::string& name, int type, std::vector<int64_t> dims, std::vector<int32_t> vals) {
    auto* t = add_initializer(g, name, type, dims);
    for (int32_t v : vals) t->add_int32_data(v);
  };
  int32_field("i32", onnx::TensorProto::INT32, {2}, {-7, 2147483647});
  int32_field("i8", onnx::TensorProto::INT8, {2}, {-128, 127});
  int32_field("u8", onnx::TensorProto::UINT8, {2}, {0, 255});
  int32_field("i16", onnx::TensorProto::INT16, {2}, {-32768, 5});
  int32_field("u16", onnx::TensorProto::UINT16, {2}, {65535, 1});
  int32_field("bool", onnx::TensorProto::BOOL, {3}, {0, 1, 5});
  // raw_data bools may hold any byte (the mutate fuzzer's finding): loaded as 0 or 1.
  add_initializer(g, "raw_bool", onnx::TensorProto::BOOL, {4})->set_raw_data(std::string("\x00\x01\x8b\xff", 4));
  int32_field("f16", onnx::TensorProto::FLOAT16, {2}, {0x3C00, 0xC000});  // 1.0, -2.0
  int32_field("bf16", onnx::TensorProto::BFLOAT16, {1}, {0x3F80});        // 1.0
  int32_field("f8", 17 /*FLOAT8E4M3FN*/, {1}, {0x38});                    // 1.0
  // int4 [1, 2, -1]: two per byte, low nibble first → 0x21, 0x0F.
  int32_field("i4", 22 /*INT4*/, {3}, {0x21, 0x0F});
  auto* u32 = add_initializer(g, "u32", onnx::TensorProto::UINT32, {1});
  u32->add_uint64_data(4000000000u);
  auto* u64 = add_initializer(g, "u64", onnx::TensorProto::UINT64, {1});
  u64->add_uint64_data(std::numeric_limits<uint64_t>::max());
  auto* str = add_initializer(g, "strings", onnx::TensorProto::STRING, {2});
  str->add_string_data("ab");
  str->add_string_data("");
  add_initializer(g, "empty", onnx::TensorProto::FLOAT, {0, 3});
  add_initializer(g, "scalar", onnx::TensorProto::INT64, {})->set_raw_data(bytes_of(std::vector<int64_t>{7}));

  // External data: an aligned tensor at offset 4096 and a misaligned one at 2.
  std::string blob(4096 + 16, '\0');
  std::vector<float> ext_vals{1, 2, 3, 4};
  std::memcpy(blob.data() + 4096, ext_vals.data(), 16);
  std::vector<float> odd_vals{-1.5f, 8};
  std::memcpy(blob.data() + 2, odd_vals.data(), 8);
  write_file(dir / "w.bin", blob);
  auto external = [&](const std::string& name, std::vector<int64_t> dims, std::string offset, std::string length) {
    auto* t = add_initializer(g, name, onnx::TensorProto::FLOAT, dims);
    t->set_data_location(onnx::TensorProto::EXTERNAL);
    auto add = [&](const char* k, const std::string& v) {
      auto* e = t->add_external_data();
      e->set_key(k);
      e->set_value(v);
    };
    add("location", "w.bin");
    add("offset", offset);
    if (!length.empty()) add("length", length);
  };
  external("ext", {4}, "4096", "16");
  external("ext_odd", {2}, "2", "");

  // Sparse: linear indices and [NNZ, rank] coordinates.
  auto* sp = g->add_sparse_initializer();
  sp->add_dims(2);
  sp->add_dims(3);
  sp->mutable_values()->set_name("sparse_lin");
  sp->mutable_values()->set_data_type(onnx::TensorProto::FLOAT);
  sp->mutable_values()->add_dims(2);
  sp->mutable_values()->add_float_data(5);
  sp->mutable_values()->add_float_data(6);
  sp->mutable_indices()->set_data_type(onnx::TensorProto::INT64);
  sp->mutable_indices()->add_dims(2);
  sp->mutable_indices()->add_int64_data(1);
  sp->mutable_indices()->add_int64_data(5);
  auto* sc = g->add_sparse_initializer();
  sc->add_dims(2);
  sc->add_dims(3);
  sc->mutable_values()->set_name("sparse_coo");
  sc->mutable_values()->set_data_type(onnx::TensorProto::FLOAT);
  sc->mutable_values()->add_dims(1);
  sc->mutable_values()->add_float_data(7);
  sc->mutable_indices()->set_data_type(onnx::TensorProto::INT64);
  sc->mutable_indices()->add_dims(1);
  sc->mutable_indices()->add_dims(2);
  sc->mutable_indices()->add_int64_data(1);
  sc->mutable_indices()->add_int64_data(0);

  auto loaded = load_in(dir, m);
  INFO(loaded.status().to_string());
  REQUIRE(loaded.ok());
  const Model& model = *loaded;

  CHECK(init(model, "raw_f32").shape() == Shape{2, 3});
  CHECK(elements<float>(init(model, "raw_f32")) == std::vector<float>{1, 2, 3, 4, 5, 6});
  CHECK(value_named(model, "raw_f32").dtype == DType::kF32);
  CHECK(value_named(model, "raw_f32").dims.size() == 2);
  CHECK(value_named(model, "raw_f32").dims[1].value == 3);
  CHECK(elements<float>(init(model, "float_data")) == std::vector<float>{0.5f, -1.25f, 3.0f});
  CHECK(elements<double>(init(model, "double_data")) == std::vector<double>{1e300, -2.5});
  CHECK(elements<int64_t>(init(model, "int64_data")) ==
        std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 42});
  CHECK(elements<int32_t>(init(model, "i32")) == std::vector<int32_t>{-7, 2147483647});
  CHECK(elements<int8_t>(init(model, "i8")) == std::vector<int8_t>{-128, 127});
  CHECK(elements<uint8_t>(init(model, "u8")) == std::vector<uint8_t>{0, 255});
  CHECK(elements<int16_t>(init(model, "i16")) == std::vector<int16_t>{-32768, 5});
  CHECK(elements<uint16_t>(init(model, "u16")) == std::vector<uint16_t>{65535, 1});
  CHECK(elements<uint8_t>(init(model, "bool")) == std::vector<uint8_t>{0, 1, 1});
  CHECK(elements<uint8_t>(init(model, "raw_bool")) == std::vector<uint8_t>{0, 1, 1, 1});
  CHECK(init(model, "f16").dtype() == DType::kF16);
  CHECK(elements<uint16_t>(init(model, "f16")) == std::vector<uint16_t>{0x3C00, 0xC000});
  CHECK(elements<uint16_t>(init(model, "bf16")) == std::vector<uint16_t>{0x3F80});
  CHECK(init(model, "f8").dtype() == DType::kF8E4M3FN);
  CHECK(*static_cast<const uint8_t*>(init(model, "f8").raw()) == 0x38);
  const HostTensor& i4 = init(model, "i4");
  REQUIRE(i4.bytes() == 2);
  CHECK(static_cast<const uint8_t*>(i4.raw())[0] == 0x21);
  CHECK(static_cast<const uint8_t*>(i4.raw())[1] == 0x0F);
  CHECK(elements<uint32_t>(init(model, "u32")) == std::vector<uint32_t>{4000000000u});
  CHECK(elements<uint64_t>(init(model, "u64")) == std::vector<uint64_t>{std::numeric_limits<uint64_t>::max()});
  CHECK(init(model, "strings").string_values() == std::vector<std::string>{"ab", ""});
  CHECK(init(model, "empty").numel() == 0);
  CHECK(init(model, "scalar").shape().empty());
  CHECK(elements<int64_t>(init(model, "scalar")) == std::vector<int64_t>{7});
  CHECK(elements<float>(init(model, "ext")) == ext_vals);
  CHECK(elements<float>(init(model, "ext_odd")) == odd_vals);
  CHECK(elements<float>(init(model, "sparse_lin")) == std::vector<float>{0, 5, 0, 0, 0, 6});
  CHECK(elements<float>(init(model, "sparse_coo")) == std::vector<float>{0, 0, 0, 7, 0, 0});
  // None of them is an input the caller feeds.
  CHECK(model.graph.inputs.empty());
}

TEST_CASE("loader: Constant nodes in every attribute form become initializers", "[loader]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  auto constant = [&](const std::string& out) { return add_node(g, "Constant", {}, {out}, "const_" + out); };
  auto* t = constant("c_tensor")->add_attribute();
  t->set_name("value");
  t->set_type(onnx::AttributeProto::TENSOR);
  t->mutable_t()->set_data_type(onnx::TensorProto::INT32);
  t->mutable_t()->add_dims(2);
  t->mutable_t()->add_int32_data(3);
  t->mutable_t()->add_int32_data(-4);
  auto* f = constant("c_float")->add_attribute();
  f->set_name("value_float");
  f->set_type(onnx::AttributeProto::FLOAT);
  f->set_f(2.5f);
  auto* fs_ = constant("c_floats")->add_attribute();
  fs_->set_name("value_floats");
  fs_->set_type(onnx::AttributeProto::FLOATS);
  fs_->add_floats(1.5f);
  fs_->add_floats(-3);
  auto* i = constant("c_int")->add_attribute();
  i->set_name("value_int");
  i->set_type(onnx::AttributeProto::INT);
  i->set_i(-9);
  auto* is = constant("c_ints")->add_attribute();
  is->set_name("value_ints");
  is->set_type(onnx::AttributeProto::INTS);
  for (int64_t v : {4, 5, 6}) is->add_ints(v);
  auto* s = constant("c_string")->add_attribute();
  s->set_name("value_string");
  s->set_type(onnx::AttributeProto::STRING);
  s->set_s("hello");
  auto* ss = constant("c_strings")->add_attribute();
  ss->set_name("value_strings");
  ss->set_type(onnx::AttributeProto::STRINGS);
  ss->add_strings("a");
  ss->add_strings("bc");
  auto* sp = constant("c_sparse")->add_attribute();
  sp->set_name("sparse_value");
  sp->set_type(onnx::AttributeProto::SPARSE_TENSOR);
  auto* st = sp->mutable_sparse_tensor();
  st->add_dims(4);
  st->mutable_values()->set_data_type(onnx::TensorProto::INT64);
  st->mutable_values()->add_dims(1);
  st->mutable_values()->add_int64_data(11);
  st->mutable_indices()->set_data_type(onnx::TensorProto::INT64);
  st->mutable_indices()->add_dims(1);
  st->mutable_indices()->add_int64_data(2);
  for (const char* out : {"c_tensor", "c_float", "c_floats", "c_int", "c_ints", "c_string", "c_strings", "c_sparse"})
    g->add_output()->set_name(out);  // no declared type

  auto loaded = load_in(dir, m);
  INFO(loaded.status().to_string());
  REQUIRE(loaded.ok());
  const Model& model = *loaded;
  CHECK(model.graph.nodes.empty());
  CHECK(model.graph.outputs.size() == 8);
  CHECK(elements<int32_t>(init(model, "c_tensor")) == std::vector<int32_t>{3, -4});
  CHECK(init(model, "c_float").shape().empty());
  CHECK(elements<float>(init(model, "c_float")) == std::vector<float>{2.5f});
  CHECK(init(model, "c_floats").shape() == Shape{2});
  CHECK(elements<float>(init(model, "c_floats")) == std::vector<float>{1.5f, -3});
  CHECK(init(model, "c_int").dtype() == DType::kI64);
  CHECK(elements<int64_t>(init(model, "c_int")) == std::vector<int64_t>{-9});
  CHECK(elements<int64_t>(init(model, "c_ints")) == std::vector<int64_t>{4, 5, 6});
  CHECK(init(model, "c_string").string_values() == std::vector<std::string>{"hello"});
  CHECK(init(model, "c_strings").string_values() == std::vector<std::string>{"a", "bc"});
  CHECK(elements<int64_t>(init(model, "c_sparse")) == std::vector<int64_t>{0, 0, 11, 0});
  CHECK(value_named(model, "c_sparse").is_graph_output);
}

TEST_CASE("loader: inputs, symbolic dims, node views, attributes and model fields", "[loader]") {
  TempDir dir;
  auto m = make_model(/*ir_version=*/3, /*opset=*/13);
  import_domain(m, "com.example", 1);
  auto* md = m.add_metadata_props();
  md->set_key("author");
  md->set_value("gk");
  m.set_producer_version("1.2");
  auto* g = m.mutable_graph();
  g->set_doc_string("doc");
  add_info(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {-1, 3, -1}, {"N", "", ""});
  // IR 3 lists initializers among the inputs.
  add_info(g->mutable_input(), "w", onnx::TensorProto::FLOAT, {2});
  add_initializer(g, "w", onnx::TensorProto::FLOAT, {2})->set_raw_data(bytes_of(std::vector<float>{1, 2}));
  auto* n = add_node(g, "Frobnicate", {"x", "", "w", "", ""}, {"y", "", "z", ""}, "", "com.example");
  auto attr = [&](const std::string& name, onnx::AttributeProto_AttributeType type) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(type);
    return a;
  };
  attr("alpha", onnx::AttributeProto::FLOAT)->set_f(0.25f);
  attr("axis", onnx::AttributeProto::INT)->set_i(-1);
  attr("mode", onnx::AttributeProto::STRING)->set_s("linear");
  auto* ints = attr("pads", onnx::AttributeProto::INTS);
  for (int64_t v : {1, 2}) ints->add_ints(v);
  attr("scales", onnx::AttributeProto::FLOATS)->add_floats(2);
  attr("names", onnx::AttributeProto::STRINGS)->add_strings("q");
  auto* ta = attr("table", onnx::AttributeProto::TENSOR)->mutable_t();
  ta->set_data_type(onnx::TensorProto::INT64);
  ta->add_dims(1);
  ta->add_int64_data(99);
  // An untyped attribute, as old exporters wrote them.
  auto* old = n->add_attribute();
  old->set_name("legacy");
  old->set_i(5);
  add_info(g->mutable_value_info(), "y", onnx::TensorProto::FLOAT, {-1, 3, 8}, {"N"});
  add_info(g->mutable_output(), "y", onnx::TensorProto::FLOAT, {-1, 3, 8}, {"N"});

  auto strict = load_in(dir, m);
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.status().code() == StatusCode::kUnimplemented);
  CHECK_THAT(strict.status().message(),
             Catch::Contains("unsupported ops: Frobnicate (com.example, opset 1) at node 'Frobnicate_0'"));

  auto loaded = load_in(dir, m, allow_unsupported());
  INFO(loaded.status().to_string());
  REQUIRE(loaded.ok());
  const Model& model = *loaded;
  CHECK(model.path == (dir / "model.onnx").string());
  CHECK(model.ir_version == 3);
  CHECK(model.producer_name == "gk-loader-test");
  CHECK(model.producer_version == "1.2");
  CHECK(model.graph_doc == "doc");
  CHECK(model.metadata.at("author") == "gk");
  CHECK(model.opset("") == 13);
  CHECK(model.opset("ai.onnx") == 13);
  CHECK(model.opset("com.example") == 1);
  CHECK(model.opset("ai.onnx.ml") == 0);

  REQUIRE(model.graph.inputs.size() == 1);
  const Value& x = model.graph.values[static_cast<size_t>(model.graph.inputs[0])];
  CHECK(x.name == "x");
  CHECK(x.is_graph_input);
  CHECK(x.dtype == DType::kF32);
  REQUIRE(x.dims.size() == 3);
  CHECK((x.dims[0].value == -1 && x.dims[0].symbol == "N"));
  CHECK((x.dims[1].value == 3 && x.dims[1].known()));
  CHECK((x.dims[2].value == -1 && x.dims[2].symbol.empty()));
  const Value& w = value_named(model, "w");
  CHECK_FALSE(w.is_graph_input);
  REQUIRE(w.initializer);
  CHECK(elements<float>(*w.initializer) == std::vector<float>{1, 2});

  REQUIRE(model.graph.nodes.size() == 1);
  const Node& node = model.graph.nodes[0];
  CHECK(node.schema == nullptr);
  CHECK(node.view.name == "Frobnicate_0");
  CHECK(node.view.domain == "com.example");
  CHECK(node.view.opset == 1);
  CHECK(node.view.input_present == std::vector<bool>{true, false, true});
  CHECK(node.inputs == std::vector<ValueId>{model.graph.find("x"), kNoValue, model.graph.find("w")});
  CHECK(node.view.num_outputs == 3);
  CHECK(node.view.output_present == std::vector<bool>{true, false, true});
  CHECK(node.outputs[1] == kNoValue);
  CHECK(*node.attrs.get_float("alpha", 0) == 0.25f);
  CHECK(*node.attrs.get_int("axis", 0) == -1);
  CHECK(*node.attrs.get_string("mode", "") == "linear");
  CHECK(*node.attrs.get_ints("pads") == std::vector<int64_t>{1, 2});
  CHECK(*node.attrs.get_floats("scales") == std::vector<float>{2});
  CHECK(node.attrs.find("names")->strings == std::vector<std::string>{"q"});
  CHECK(elements<int64_t>(**node.attrs.require_tensor("table")) == std::vector<int64_t>{99});
  CHECK(*node.attrs.get_int("legacy", 0) == 5);

  const Value& y = value_named(model, "y");
  CHECK(y.producer == 0);
  CHECK(y.is_graph_output);
  CHECK(y.dims[2].value == 8);
  CHECK(value_named(model, "x").consumers == std::vector<int>{0});

  auto unsupported = find_unsupported(model);
  REQUIRE(unsupported.size() == 1);
  CHECK(unsupported[0].op_type == "Frobnicate");
  CHECK(unsupported[0].domain == "com.example");
  CHECK(unsupported[0].nodes == std::vector<std::string>{"Frobnicate_0"});
}

TEST_CASE("loader: nodes are sorted topologically, model order kept when already sorted", "[loader]") {
  TempDir dir;
  auto m = make_model();
  import_domain(m, "com.example", 1);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {1});
  add_node(g, "F", {"b", "a"}, {"c"}, "third", "com.example");
  add_node(g, "F", {"a"}, {"b"}, "second", "com.example");
  add_node(g, "F", {"x"}, {"a"}, "first", "com.example");
  add_node(g, "F", {"x"}, {"d"}, "independent", "com.example");
  add_info(g->mutable_output(), "c", onnx::TensorProto::FLOAT, {1});
  add_info(g->mutable_output(), "d", onnx::TensorProto::FLOAT, {1});
  auto loaded = load_in(dir, m, allow_unsupported());
  REQUIRE(loaded.ok());
  std::vector<std::string> order;
  for (const Node& n : loaded->graph.nodes) order.push_back(n.view.name);
  // Kahn's algorithm, smallest model index first among ready nodes.
  CHECK(order == std::vector<std::string>{"first", "second", "third", "independent"});
  CHECK(value_named(*loaded, "a").producer == 0);
  CHECK(value_named(*loaded, "a").consumers == std::vector<int>{1, 2});
  CHECK(value_named(*loaded, "x").consumers == std::vector<int>{0, 3});
}

TEST_CASE("loader: subgraphs become nested graphs that capture outer values", "[loader]") {
  TempDir dir;
  auto m = make_model(8, 16);
  import_domain(m, "com.example", 1);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "cond", onnx::TensorProto::BOOL, {});
  add_info(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {2});
  add_info(g->mutable_input(), "z", onnx::TensorProto::FLOAT, {2});
  // Custom-domain ops hold the subgraphs, so no registered If parser judges them.
  auto* if_node = add_node(g, "Branch", {"cond"}, {"y"}, "branch", "com.example");
  auto* then_attr = if_node->add_attribute();
  then_attr->set_name("then_branch");
  then_attr->set_type(onnx::AttributeProto::GRAPH);
  auto* then_g = then_attr->mutable_g();
  then_g->set_name("then");
  // The then branch nests a second If whose branch reads z from two levels up.
  auto* inner = add_node(then_g, "Branch", {"cond"}, {"t_out"}, "inner", "com.example");
  auto* inner_attr = inner->add_attribute();
  inner_attr->set_name("then_branch");
  inner_attr->set_type(onnx::AttributeProto::GRAPH);
  auto* inner_g = inner_attr->mutable_g();
  add_node(inner_g, "Frobnicate", {"x", "z"}, {"deep"}, "deep_frob", "com.example");
  add_info(inner_g->mutable_output(), "deep", onnx::TensorProto::FLOAT, {2});
  add_info(then_g->mutable_output(), "t_out", onnx::TensorProto::FLOAT, {2});
  auto* else_attr = if_node->add_attribute();
  else_attr->set_name("else_branch");
  else_attr->set_type(onnx::AttributeProto::GRAPH);
  auto* else_g = else_attr->mutable_g();
  add_info(else_g->mutable_output(), "x", onnx::TensorProto::FLOAT, {2});  // passes an outer value through
  add_info(g->mutable_output(), "y", onnx::TensorProto::FLOAT, {2});

  auto loaded = load_in(dir, m, allow_unsupported());
  INFO(loaded.status().to_string());
  REQUIRE(loaded.ok());
  const Graph& main = loaded->graph;
  REQUIRE(main.nodes.size() == 1);
  const Node& branch = main.nodes[0];
  std::vector<std::string> implicit;
  for (ValueId id : branch.implicit_inputs) implicit.push_back(main.values[static_cast<size_t>(id)].name);
  std::sort(implicit.begin(), implicit.end());
  CHECK(implicit == std::vector<std::string>{"cond", "x", "z"});
  CHECK(value_named(*loaded, "z").consumers == std::vector<int>{0});

  const Graph* then_graph = subgraph_of(*branch.attrs.find("then_branch"));
  REQUIRE(then_graph);
  CHECK(then_graph->name == "then");
  CHECK(then_graph->captures.size() == 3);  // cond, x, z (x and z for the inner branch)
  REQUIRE(then_graph->nodes.size() == 1);
  const Graph* inner_graph = subgraph_of(*then_graph->nodes[0].attrs.find("then_branch"));
  REQUIRE(inner_graph);
  CHECK(inner_graph->captures.size() == 2);
  const Value& captured_x = inner_graph->values[static_cast<size_t>(inner_graph->find("x"))];
  CHECK(captured_x.dtype == DType::kF32);
  CHECK_FALSE(captured_x.is_graph_input);
  CHECK(captured_x.producer == -1);

  const Graph* else_graph = subgraph_of(*branch.attrs.find("else_branch"));
  REQUIRE(else_graph);
  REQUIRE(else_graph->outputs.size() == 1);
  CHECK(else_graph->outputs[0] == else_graph->captures.at(0));

  bool deep_listed = false;
  for (const UnsupportedOp& u : find_unsupported(*loaded))
    if (u.op_type == "Frobnicate") deep_listed = u.nodes == std::vector<std::string>{"deep_frob"};
  CHECK(deep_listed);
}

TEST_CASE("loader: IR helpers find, add_value and rebuild_uses", "[loader][ir]") {
  Graph g;
  Value a;
  a.name = "a";
  ValueId ia = g.add_value(a);
  Value b;
  b.name = "b";
  ValueId ib = g.add_value(b);
  CHECK(g.find("a") == ia);
  CHECK(g.find("b") == ib);
  CHECK(g.find("nope") == kNoValue);
  Node n;
  n.inputs = {ia, ia};
  n.outputs = {ib};
  g.nodes.push_back(n);
  g.rebuild_uses();
  CHECK(g.values[static_cast<size_t>(ia)].consumers == std::vector<int>{0});  // once per node
  CHECK(g.values[static_cast<size_t>(ib)].producer == 0);
}

TEST_CASE("loader: a model loads from memory, external data then needs a folder", "[loader]") {
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_initializer(g, "w", onnx::TensorProto::FLOAT, {1})->set_raw_data(bytes_of(std::vector<float>{4}));
  add_info(g->mutable_output(), "w", onnx::TensorProto::FLOAT, {1});
  std::string bytes;
  m.SerializeToString(&bytes);
  auto loaded = load_model_from_memory(bytes.data(), bytes.size(), "");
  REQUIRE(loaded.ok());
  CHECK(loaded->path.empty());
  CHECK(elements<float>(init(*loaded, "w")) == std::vector<float>{4});

  auto* t = add_initializer(g, "ext", onnx::TensorProto::FLOAT, {1});
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = t->add_external_data();
  e->set_key("location");
  e->set_value("w.bin");
  m.SerializeToString(&bytes);
  auto refused = load_model_from_memory(bytes.data(), bytes.size(), "");
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kInvalidModel);
  CHECK_THAT(refused.status().message(), Catch::Contains("<memory>") && Catch::Contains("'ext'") &&
                                             Catch::Contains("w.bin") && Catch::Contains("not allowed"));
}

// Hostile and broken models: each is a named error, never a crash or a read
// outside the model's folder.
#include "graph/loader.h"
#include "onnx_builders.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

using namespace gk;
using namespace gk::test;
using Catch::Contains;

namespace {

void require_error(const Result<Model>& r, StatusCode code, const std::vector<std::string>& parts) {
  INFO(r.status().to_string());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == code);
  for (const auto& p : parts) CHECK_THAT(r.status().message(), Contains(p));
}

// A valid model: y = Frobnicate(x, w) with a 64-float initializer.
onnx::ModelProto small_model() {
  auto m = make_model();
  import_domain(m, "com.example", 1);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {64});
  add_initializer(g, "w", onnx::TensorProto::FLOAT, {64})->set_raw_data(bytes_of(std::vector<float>(64, 1.5f)));
  add_node(g, "Frobnicate", {"x", "w"}, {"y"}, "frob", "com.example");
  add_info(g->mutable_output(), "y", onnx::TensorProto::FLOAT, {64});
  return m;
}

// A model whose one initializer "big" is stored externally with these entries.
onnx::ModelProto external_model(const std::string& location, const std::string& offset = "",
                                const std::string& length = "") {
  auto m = make_model();
  auto* g = m.mutable_graph();
  auto* t = add_initializer(g, "big", onnx::TensorProto::FLOAT, {4});
  set_external_data(t, location, offset, length);
  add_info(g->mutable_output(), "big", onnx::TensorProto::FLOAT, {4});
  return m;
}

}  // namespace

TEST_CASE("loader errors: truncated and random files name the file", "[loader]") {
  TempDir dir;
  std::string bytes;
  small_model().SerializeToString(&bytes);
  auto path = dir / "truncated.onnx";
  write_file(path, bytes.substr(0, bytes.size() / 2));
  require_error(load_model(path.string()), StatusCode::kInvalidModel, {path.string()});

  std::mt19937 rng(1234);
  for (int trial = 0; trial < 20; ++trial) {
    std::string noise(64 + 97 * trial, '\0');
    for (char& c : noise) c = static_cast<char>(rng() & 0xFF);
    auto rpath = dir / fmt::format("random_{}.onnx", trial);
    write_file(rpath, noise);
    auto r = load_model(rpath.string());
    INFO(r.status().to_string());
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidModel);
    CHECK_THAT(r.status().message(), Contains(rpath.string()));
  }

  write_file(dir / "empty.onnx", "");
  require_error(load_model((dir / "empty.onnx").string()), StatusCode::kInvalidModel, {"no graph"});
  auto missing = load_model((dir / "missing.onnx").string());
  gk::test::require_error(missing, StatusCode::kInvalidArgument, "missing.onnx");
}

TEST_CASE("loader errors: external data may not leave the model's folder", "[loader][security]") {
  TempDir outside;
  write_file(outside / "secret.bin", std::string(16, 'S'));
  TempDir dir;
  write_file(dir / "ok.bin", std::string(16, '\0'));

  SECTION("absolute path") {
    std::string loc = (outside / "secret.bin").string();
    require_error(load_in(dir, external_model(loc)), StatusCode::kInvalidModel, {"'big'", loc, "absolute"});
  }
  SECTION("a '..' component") {
    std::string loc = fmt::format("../{}/secret.bin", outside.path().filename().string());
    require_error(load_in(dir, external_model(loc)), StatusCode::kInvalidModel, {"'big'", loc, "'..'"});
    require_error(load_in(dir, external_model("sub/../ok.bin")), StatusCode::kInvalidModel, {"'..'"});
  }
  SECTION("a symlink to a file outside") {
    fs::create_symlink(outside / "secret.bin", dir / "link.bin");
    require_error(load_in(dir, external_model("link.bin")), StatusCode::kInvalidModel,
                  {"'big'", "link.bin", "outside the model's folder"});
  }
  SECTION("a symlinked folder leading outside") {
    fs::create_directory_symlink(outside.path(), dir / "sub");
    require_error(load_in(dir, external_model("sub/secret.bin")), StatusCode::kInvalidModel,
                  {"sub/secret.bin", "outside the model's folder"});
  }
  SECTION("a symlink that stays inside is followed") {
    fs::create_symlink(dir / "ok.bin", dir / "alias.bin");
    auto r = load_in(dir, external_model("alias.bin"));
    INFO(r.status().to_string());
    CHECK(r.ok());
  }
  SECTION("offset past the end, length mismatch, short file, bad numbers, missing file") {
    require_error(load_in(dir, external_model("ok.bin", "4096")), StatusCode::kInvalidModel,
                  {"'big'", "ok.bin", "offset 4096 is past the end of the file (16 bytes)"});
    require_error(load_in(dir, external_model("ok.bin", "8")), StatusCode::kInvalidModel,
                  {"16 bytes at offset 8 run past the end"});
    require_error(load_in(dir, external_model("ok.bin", "0", "12")), StatusCode::kInvalidModel,
                  {"length 12 does not match the tensor's 16 bytes"});
    require_error(load_in(dir, external_model("ok.bin", "18446744073709551615", "16")), StatusCode::kInvalidModel,
                  {"past the end"});
    require_error(load_in(dir, external_model("ok.bin", "-4")), StatusCode::kInvalidModel,
                  {"offset '-4' is not a non-negative integer"});
    require_error(load_in(dir, external_model("nothere.bin")), StatusCode::kInvalidModel,
                  {"nothere.bin", "file not found"});
    require_error(load_in(dir, external_model("")), StatusCode::kInvalidModel, {"empty location"});
  }
}

TEST_CASE("loader errors: malformed tensors are named", "[loader]") {
  TempDir dir;
  auto with_tensor = [](auto&& fill) {
    auto m = make_model();
    auto* t = m.mutable_graph()->add_initializer();
    t->set_name("bad");
    fill(*t);
    return m;
  };
  SECTION("dim product overflows int64") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(onnx::TensorProto::FLOAT);
      for (int i = 0; i < 3; ++i) t.add_dims(int64_t{1} << 31);
    });
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'bad'", "overflows int64"});
  }
  SECTION("negative dim") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_dims(-2);
    });
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'bad'", "dimension 0 is -2"});
  }
  SECTION("unknown element type") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(99);
      t.add_dims(1);
      t.set_raw_data("abcd");
    });
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'bad'", "99"});
  }
  SECTION("complex is unsupported, not invalid") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(onnx::TensorProto::COMPLEX64);
      t.add_dims(1);
      t.add_float_data(1);
      t.add_float_data(2);
    });
    require_error(load_in(dir, m), StatusCode::kUnimplemented, {"'bad'", "complex"});
  }
  SECTION("raw_data of the wrong size") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(onnx::TensorProto::FLOAT);
      t.add_dims(3);
      t.set_raw_data(std::string(8, '\0'));
    });
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'bad'", "raw_data has 8 bytes, expected 12"});
  }
  SECTION("typed field of the wrong length") {
    auto m = with_tensor([](onnx::TensorProto& t) {
      t.set_data_type(onnx::TensorProto::INT64);
      t.add_dims(3);
      t.add_int64_data(1);
    });
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'bad'", "int64_data has 1 values, expected 3"});
  }
  SECTION("sparse index out of range") {
    auto m = make_model();
    auto* sp = m.mutable_graph()->add_sparse_initializer();
    sp->add_dims(4);
    sp->mutable_values()->set_name("sp");
    sp->mutable_values()->set_data_type(onnx::TensorProto::FLOAT);
    sp->mutable_values()->add_dims(1);
    sp->mutable_values()->add_float_data(1);
    sp->mutable_indices()->set_data_type(onnx::TensorProto::INT64);
    sp->mutable_indices()->add_dims(1);
    sp->mutable_indices()->add_int64_data(4);
    require_error(load_in(dir, m), StatusCode::kInvalidModel, {"'sp'", "must be in [0, 4)"});
  }
}

TEST_CASE("loader errors: graph structure problems", "[loader]") {
  TempDir dir;
  SECTION("a cycle names the nodes on it, not those downstream") {
    auto m = make_model();
    import_domain(m, "com.example", 1);
    auto* g = m.mutable_graph();
    add_info(g->mutable_input(), "x", onnx::TensorProto::FLOAT, {1});
    add_node(g, "F", {"x", "c"}, {"a"}, "na", "com.example");
    add_node(g, "F", {"a"}, {"b"}, "nb", "com.example");
    add_node(g, "F", {"b"}, {"c"}, "nc", "com.example");
    add_node(g, "F", {"c"}, {"d"}, "downstream", "com.example");
    add_info(g->mutable_output(), "d", onnx::TensorProto::FLOAT, {1});
    auto r = load_in(dir, m, allow_unsupported());
    require_error(r, StatusCode::kInvalidModel, {"the graph has a cycle through nodes 'na', 'nb', 'nc';"});
  }
  SECTION("a node output that shadows an initializer") {
    auto m = small_model();
    add_node(m.mutable_graph(), "Frobnicate", {"x"}, {"w"}, "shadow", "com.example");
    require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel,
                  {"output of node 'shadow'", "'w' is already defined as initializer 'w'"});
  }
  SECTION("two nodes producing the same name") {
    auto m = small_model();
    add_node(m.mutable_graph(), "Frobnicate", {"x"}, {"y"}, "again", "com.example");
    require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel,
                  {"node 'again'", "'y' is already defined as output of node 'frob'"});
  }
  SECTION("a node output shadowing a graph input, and a dangling input") {
    auto m = small_model();
    add_node(m.mutable_graph(), "Frobnicate", {"nowhere"}, {"x"}, "bad", "com.example");
    auto r = load_in(dir, m, allow_unsupported());
    require_error(r, StatusCode::kInvalidModel,
                  {"'x' is already defined as graph input 'x'", "input 'nowhere' is not produced by any node"});
  }
  SECTION("a subgraph value shadowing an outer one") {
    auto m = small_model();
    // A custom op holds the body so no registered parser judges its signature.
    auto* n = add_node(m.mutable_graph(), "WithBody", {}, {"out"}, "loop", "com.example");
    auto* a = n->add_attribute();
    a->set_name("body");
    a->set_type(onnx::AttributeProto::GRAPH);
    add_node(a->mutable_g(), "Frobnicate", {"x"}, {"w"}, "inner", "com.example");
    // 'w' is in scope there (an initializer): refused, as ONNX Runtime refuses it.
    require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel,
                  {"attribute 'body'", "'w' shadows a value of an enclosing graph"});
    // A name the outer graph defines only after the node is not in scope there:
    // ONNX Runtime accepts reusing it, and so does gkrun, with a warning; the
    // body's reader reads the body's own value.
    {
      auto later = small_model();
      auto* outer = later.mutable_graph();
      auto* wb = add_node(outer, "WithBody", {}, {"out"}, "loop", "com.example");
      auto* ba = wb->add_attribute();
      ba->set_name("body");
      ba->set_type(onnx::AttributeProto::GRAPH);
      add_node(ba->mutable_g(), "Frobnicate", {"x"}, {"late"}, "inner", "com.example");
      add_node(ba->mutable_g(), "Frobnicate", {"late"}, {"inner_out"}, "reader", "com.example");
      add_node(outer, "Frobnicate", {"out"}, {"late"}, "after", "com.example");
      auto ok = load_in(dir, later, allow_unsupported());
      INFO(ok.status().to_string());
      REQUIRE(ok.ok());
      REQUIRE(ok->warnings.size() == 1);
      CHECK_THAT(ok->warnings[0], Contains("attribute 'body'") &&
                                      Contains("'late' reuses the name of a value the enclosing graph defines after"));
      const Node& loop = *std::find_if(ok->graph.nodes.begin(), ok->graph.nodes.end(),
                                       [](const Node& n) { return n.view.name == "loop"; });
      const Graph* body = subgraph_of(*loop.attrs.find("body"));
      REQUIRE(body);
      CHECK(body->nodes[1].inputs[0] == body->nodes[0].outputs[0]);
      CHECK(body->captures.size() == 1);  // x only
    }
    // A body input may reuse an outer name; the body then reads its own value.
    auto* body = a->mutable_g();
    body->mutable_node(0)->set_output(0, "inner_out");
    add_info(body->mutable_input(), "x", onnx::TensorProto::INT64, {});
    add_info(body->mutable_output(), "inner_out", onnx::TensorProto::FLOAT, {});
    auto ok = load_in(dir, m, allow_unsupported());
    INFO(ok.status().to_string());
    REQUIRE(ok.ok());
    const Node& loop = ok->graph.nodes.back();
    CHECK(loop.implicit_inputs.empty());
    const Graph* g = subgraph_of(*loop.attrs.find("body"));
    REQUIRE(g);
    CHECK(g->captures.empty());
    CHECK(g->values[static_cast<size_t>(g->find("x"))].dtype == DType::kI64);
  }
  SECTION("an output nothing produces") {
    auto m = small_model();
    add_info(m.mutable_graph()->mutable_output(), "ghost", onnx::TensorProto::FLOAT, {1});
    require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel,
                  {"graph output 'ghost' is not produced"});
  }
  SECTION("declared types that disagree") {
    auto m = small_model();
    add_info(m.mutable_graph()->mutable_value_info(), "y", onnx::TensorProto::INT64, {64});
    add_info(m.mutable_graph()->mutable_input(), "w", onnx::TensorProto::FLOAT, {65});  // an initializer input
    auto r = load_in(dir, m, allow_unsupported());
    require_error(r, StatusCode::kInvalidModel,
                  {"value 'y' is declared float32 but is int64", "value 'w' dimension 0 is declared 65 but is 64"});
  }
  SECTION("a node in a domain the model does not import") {
    auto m = small_model();
    add_node(m.mutable_graph(), "Thing", {"x"}, {"t"}, "stray", "org.unknown");
    require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel,
                  {"node 'stray'", "domain 'org.unknown' is not in the model's opset_import"});
  }
}

TEST_CASE("loader errors: versions outside the supported range give the range", "[loader]") {
  TempDir dir;
  auto m = small_model();
  m.set_ir_version(99);
  require_error(load_in(dir, m), StatusCode::kUnimplemented, {"IR version 99 is outside the supported range [3, 13]"});
  m.set_ir_version(0);
  require_error(load_in(dir, m, allow_unsupported()), StatusCode::kInvalidModel, {"ir_version is 0"});
  m.set_ir_version(8);
  m.mutable_opset_import(0)->set_version(30);
  require_error(load_in(dir, m), StatusCode::kUnimplemented,
                {"opset 30 of domain ai.onnx is outside the supported range [1, 27]"});
  // For inspection, an unsupported version is tolerated like an unsupported op.
  auto inspect = load_in(dir, m, allow_unsupported());
  INFO(inspect.status().to_string());
  CHECK(inspect.ok());
}

TEST_CASE("loader errors: every unsupported op is listed at once", "[loader]") {
  TempDir dir;
  auto m = small_model();
  auto* g = m.mutable_graph();
  add_node(g, "Frobnicate", {"y"}, {"y2"}, "frob2", "com.example");
  add_node(g, "Blorp", {"y2"}, {"y3"}, "blorp", "com.example");
  auto r = load_in(dir, m);
  require_error(r, StatusCode::kUnimplemented,
                {fmt::format("{}: unsupported ops: Frobnicate (com.example, opset 1) at nodes 'frob', 'frob2'; "
                             "Blorp (com.example, opset 1) at node 'blorp'",
                             (dir / "model.onnx").string())});

  // One invalid problem among them makes the whole load InvalidModel, still listing both kinds.
  add_node(g, "Blorp", {"dangling"}, {"y4"}, "blorp2", "com.example");
  require_error(load_in(dir, m), StatusCode::kInvalidModel,
                {"input 'dangling' is not produced", "unsupported ops: Frobnicate", "'blorp', 'blorp2'"});

  auto inspect = load_in(dir, small_model(), allow_unsupported());
  REQUIRE(inspect.ok());
  CHECK(inspect->graph.nodes.at(0).schema == nullptr);
}

TEST_CASE("loader errors: tensor protos from hostile bytes", "[loader]") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 50; ++trial) {
    std::string noise(1 + 13 * trial, '\0');
    for (char& c : noise) c = static_cast<char>(rng() & 0xFF);
    // Whatever decodes must be self-consistent; whatever does not is a message.
    auto t = parse_tensor_proto(noise.data(), noise.size(), "");
    if (t.ok() && t->dtype() != DType::kString)
      CHECK(t->bytes() == dtype_storage_bytes(t->dtype(), t->numel()));
    if (!t.ok()) CHECK_FALSE(t.status().message().empty());
    auto s = parse_sequence_proto(noise.data(), noise.size(), "");
    if (!s.ok()) CHECK_FALSE(s.status().message().empty());
    auto o = parse_optional_proto(noise.data(), noise.size(), "");
    if (o.ok() && !o->has_value) CHECK(o->sequence.empty());
  }
  onnx::TensorProto t;
  t.set_name("ext");
  t.set_data_type(onnx::TensorProto::FLOAT);
  t.add_dims(1);
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = t.add_external_data();
  e->set_key("location");
  e->set_value("/etc/passwd");
  std::string bytes;
  t.SerializeToString(&bytes);
  TempDir dir;
  auto r = parse_tensor_proto(bytes.data(), bytes.size(), dir.path().string());
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kInvalidModel);
  CHECK_THAT(r.status().message(), Contains("'ext'") && Contains("/etc/passwd") && Contains("absolute"));
}

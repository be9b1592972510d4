// The gkrun binary's contract (DESIGN.md): bad input gives one line on stderr and
// the documented exit code; check/bench/profile/info produce their fields.
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <onnx/onnx_pb.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

using gk::test::kData;

struct Result {
  int code = -1;
  std::string out, err;
};

fs::path temp_dir() {
  static fs::path dir = [] {
    fs::path d = fs::temp_directory_path() / ("gkrun_cli_test_" + std::to_string(::getpid()));
    fs::create_directories(d);
    return d;
  }();
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Result gkrun(const std::string& args) {
  const fs::path out = temp_dir() / "stdout.txt", err = temp_dir() / "stderr.txt";
  std::string cmd = std::string(GKRUN_BIN) + " " + args + " >" + out.string() + " 2>" + err.string();
  int status = std::system(cmd.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

// y = Relu(x) with an op nobody implements beside it: the unsupported-op case.
fs::path write_model(const std::string& name, bool with_unsupported) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  if (with_unsupported) {
    auto* o = m.add_opset_import();
    o->set_domain("com.example");
    o->set_version(1);
  }
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto add_io = [](onnx::ValueInfoProto* v, const char* n) {
    v->set_name(n);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(onnx::TensorProto::FLOAT);
    t->mutable_shape()->add_dim()->set_dim_value(2);
    t->mutable_shape()->add_dim()->set_dim_value(3);
  };
  add_io(g->add_input(), "x");
  add_io(g->add_output(), "y");
  auto* n = g->add_node();
  n->set_op_type("Relu");
  n->set_name("relu0");
  n->add_input("x");
  n->add_output(with_unsupported ? "r" : "y");
  if (with_unsupported) {
    for (const char* op_name : {"frob0", "frob1"}) {
      auto* u = g->add_node();
      u->set_op_type(std::string(op_name) == "frob0" ? "Frobnicate" : "Twiddle");
      u->set_domain("com.example");
      u->set_name(op_name);
      u->add_input(std::string(op_name) == "frob0" ? "r" : "f");
      u->add_output(std::string(op_name) == "frob0" ? "f" : "y");
    }
  }
  fs::path p = temp_dir() / name;
  std::ofstream f(p, std::ios::binary);
  m.SerializeToOstream(&f);
  return p;
}

fs::path relu_model() { return write_model("relu.onnx", false); }

// y = Loop(2^62, true, x) whose body doubles x: it would run for centuries.
fs::path endless_loop_model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(16);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto info = [](onnx::ValueInfoProto* v, const char* n, int type, bool scalar) {
    v->set_name(n);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    t->mutable_shape();
    if (!scalar) t->mutable_shape()->add_dim()->set_dim_value(1);
  };
  info(g->add_input(), "x", onnx::TensorProto::FLOAT, false);
  info(g->add_output(), "y", onnx::TensorProto::FLOAT, false);
  auto* trips = g->add_initializer();
  trips->set_name("m");
  trips->set_data_type(onnx::TensorProto::INT64);
  trips->add_int64_data(int64_t{1} << 62);
  auto* cond = g->add_initializer();
  cond->set_name("cond");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  auto* loop = g->add_node();
  loop->set_op_type("Loop");
  loop->set_name("loop");
  for (const char* in : {"m", "cond", "x"}) loop->add_input(in);
  loop->add_output("y");
  auto* attr = loop->add_attribute();
  attr->set_name("body");
  attr->set_type(onnx::AttributeProto::GRAPH);
  auto* body = attr->mutable_g();
  body->set_name("body");
  info(body->add_input(), "i", onnx::TensorProto::INT64, true);
  info(body->add_input(), "cond_in", onnx::TensorProto::BOOL, true);
  info(body->add_input(), "x_in", onnx::TensorProto::FLOAT, false);
  info(body->add_output(), "cond_in", onnx::TensorProto::BOOL, true);
  info(body->add_output(), "x_out", onnx::TensorProto::FLOAT, false);
  auto* add = body->add_node();
  add->set_op_type("Add");
  add->set_name("double");
  add->add_input("x_in");
  add->add_input("x_in");
  add->add_output("x_out");
  fs::path p = temp_dir() / "endless_loop.onnx";
  std::ofstream f(p, std::ios::binary);
  m.SerializeToOstream(&f);
  return p;
}

void write_npy_f32(const fs::path& p, const std::string& shape, size_t count) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::ofstream f(p, std::ios::binary);
  f.write("\x93NUMPY\x01\x00", 8);
  f.put(static_cast<char>(header.size() & 0xff));
  f.put(static_cast<char>(header.size() >> 8));
  f << header;
  std::vector<float> v(count, -1.5f);
  f.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * 4));
}

TEST_CASE("gkrun runs a model and prints outputs and timing", "[cli]") {
  Result r = gkrun(relu_model().string() + " --backend cpu");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("output y  float32  2x3"));
  CHECK_THAT(r.out, Catch::Contains("first run"));
}

// Random inputs of every declared type: found by scripts/mutate_cli.py, where both
// models ended `gkrun MODEL` with SIGSEGV (the random-input maker took the value of
// a failed allocation).
TEST_CASE("gkrun makes random string inputs and refuses an input of undefined type", "[cli][errors]") {
  SECTION("a string input gets random words") {
    const fs::path model = kData / "node" / "test_ai_onnx_ml_label_encoder_string_int_no_default" / "model.onnx";
    gk::test::skip_unless_exists(model, "the ONNX backend test data");
    Result r = gkrun(model.string() + " --backend cpu --seed 28");
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("input  X  string  5"));
    CHECK_THAT(r.out, Catch::Contains("output Y  int64  5"));
  }
  SECTION("an input whose elem_type is 0 (undefined) is an error, not a signal") {
    onnx::ModelProto m;
    {
      std::ifstream f(relu_model(), std::ios::binary);
      REQUIRE(m.ParseFromIstream(&f));
    }
    m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(0);
    const fs::path p = temp_dir() / "undefined_input.onnx";
    {
      std::ofstream f(p, std::ios::binary);
      REQUIRE(m.SerializeToOstream(&f));
    }
    Result r = gkrun(p.string() + " --backend cpu");
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("undefined"));
  }
}

TEST_CASE("gkrun reads an .npy input and saves outputs", "[cli]") {
  fs::path in = temp_dir() / "x.npy";
  write_npy_f32(in, "(2, 3)", 6);
  fs::path out_dir = temp_dir() / "outs";
  Result r = gkrun(relu_model().string() + " --backend cpu --input x=" + in.string() + " --output-dir " +
                   out_dir.string());
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("min 0  max 0"));  // relu(-1.5) everywhere
  CHECK(fs::exists(out_dir / "y.npy"));
}

TEST_CASE("gkrun --memory-limit refuses a plan over it and names the need and the limit", "[cli][errors]") {
  // relu.onnx: x and y are 2x3 float32, so the plan needs its 24-byte output and nothing else.
  Result over = gkrun(relu_model().string() + " --backend cpu --memory-limit 16");
  INFO(over.err);
  CHECK(over.code == 3);
  CHECK(lines(over.err) == 1);
  CHECK_THAT(over.err, Catch::Contains("needs 24 bytes of device memory (arena 0, constants 0, outputs 24), "
                                       "over the memory limit of 16 bytes"));
  Result under = gkrun(relu_model().string() + " --backend cpu --memory-limit 1K");
  INFO(under.err);
  CHECK(under.code == 0);
  Result bad = gkrun(relu_model().string() + " --backend cpu --memory-limit 12Q");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--memory-limit: malformed size '12Q'"));
  Result zero = gkrun(relu_model().string() + " --backend cpu --memory-limit 0");
  CHECK(zero.code == 2);
}

TEST_CASE("gkrun --timeout stops a run that would take centuries", "[cli][errors]") {
  Result r = gkrun(endless_loop_model().string() + " --backend cpu --timeout 0.3");
  INFO(r.err);
  CHECK(r.code == 3);
  CHECK(lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("DeadlineExceeded: ") && Catch::Contains("node 'loop' (Loop)") &&
                        Catch::Contains("the run's deadline passed before node '"));
  Result bad = gkrun(relu_model().string() + " --backend cpu --timeout -1");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--timeout"));
  Result fine = gkrun(relu_model().string() + " --backend cpu --timeout 60");
  INFO(fine.err);
  CHECK(fine.code == 0);
}

TEST_CASE("gkrun: bad input is one line on stderr and the documented exit code", "[cli][errors]") {
  SECTION("missing file") {
    Result r = gkrun((temp_dir() / "no_such_model.onnx").string());
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("no_such_model.onnx"));
  }
  SECTION("not an ONNX file") {
    fs::path p = temp_dir() / "random.onnx";
    std::mt19937 rng(7);
    std::ofstream f(p, std::ios::binary);
    for (int i = 0; i < 4096; ++i) f.put(static_cast<char>(rng()));
    f.close();
    Result r = gkrun(p.string());
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("random.onnx"));
  }
  SECTION("unknown input name") {
    Result r = gkrun(relu_model().string() + " --backend cpu --shape nope=1x2");
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("nope"));
  }
  SECTION("wrong shape in an input file") {
    fs::path in = temp_dir() / "bad_shape.npy";
    write_npy_f32(in, "(4, 3)", 12);
    Result r = gkrun(relu_model().string() + " --backend cpu --input x=" + in.string());
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("dim 0 is 4"));
  }
  SECTION("wrong dtype in an input file") {
    fs::path in = temp_dir() / "bad_dtype.npy";
    std::string header = "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream f(in, std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    f.put(static_cast<char>(header.size()));
    f.put(0);
    f << header << std::string(48, '\0');
    f.close();
    Result r = gkrun(relu_model().string() + " --backend cpu --input x=" + in.string());
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("int64"));
  }
  SECTION("malformed --shape") {
    Result r = gkrun(relu_model().string() + " --backend cpu --shape x=2xbanana");
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("2xbanana"));
  }
  SECTION("unsupported ops are all named") {
    Result r = gkrun(write_model("unsupported.onnx", true).string() + " --backend cpu");
    CHECK(r.code == 2);
    CHECK(lines(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("Frobnicate"));
    CHECK_THAT(r.err, Catch::Contains("Twiddle"));
  }
}

TEST_CASE("gkrun info lists ops, unsupported ops and the memory plan as JSON", "[cli]") {
  Result r = gkrun("info " + write_model("unsupported_info.onnx", true).string() + " --json");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("\"unsupported\":[{\"op_type\":\"Frobnicate\""));
  Result ok = gkrun("info " + relu_model().string() + " --backend cpu --json");
  INFO(ok.err);
  CHECK(ok.code == 0);
  for (const char* key : {"\"inputs\"", "\"outputs\"", "\"ops\":{\"Relu\":1}", "\"planned_peak_bytes\"",
                          "\"naive_bytes\"", "\"lower_bound_bytes\""})
    CHECK_THAT(ok.out, Catch::Contains(key));
}

// The Relu model with a future IR version or default-domain opset.
fs::path future_model(const std::string& name, int64_t ir_version, int64_t opset) {
  onnx::ModelProto m;
  {
    std::ifstream in(relu_model(), std::ios::binary);
    REQUIRE(m.ParseFromIstream(&in));
  }
  m.set_ir_version(ir_version);
  m.mutable_opset_import(0)->set_version(opset);
  fs::path p = temp_dir() / name;
  std::ofstream f(p, std::ios::binary);
  m.SerializeToOstream(&f);
  return p;
}

TEST_CASE("gkrun info exits 2 for a model it cannot run, as gkrun MODEL does", "[cli]") {
  for (const auto& [name, ir, opset] : {std::tuple{"future_ir.onnx", 99, 17}, {"future_opset.onnx", 8, 99}}) {
    const fs::path model = future_model(name, ir, opset);
    Result run = gkrun(model.string() + " --backend cpu");
    Result info = gkrun("info " + model.string() + " --backend cpu");
    Result json = gkrun("info " + model.string() + " --backend cpu --json");
    INFO(name << ": run: " << run.err << " info: " << info.err);
    CHECK(run.code == 2);
    CHECK(info.code == 2);
    CHECK(json.code == 2);
    // The model is still described; the reason it cannot run is one line on stderr.
    CHECK_THAT(info.out, Catch::Contains("ops         Relux1"));
    CHECK(lines(info.err) == 1);
    CHECK_THAT(info.err, Catch::StartsWith("gkrun: "));
    CHECK_THAT(info.err, Catch::Contains(ir == 99 ? "IR version" : "opset"));
  }
}

// y = NonZero(x > 0): one step whose output shape the run decides.
fs::path nonzero_model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* x = g->add_input();
  x->set_name("x");
  x->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  x->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(6);
  g->add_output()->set_name("y");
  g->mutable_output(0)->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  auto* zero = g->add_initializer();
  zero->set_name("zero");
  zero->set_data_type(onnx::TensorProto::FLOAT);
  zero->add_float_data(0.5f);
  auto* gt = g->add_node();
  gt->set_op_type("Greater");
  gt->set_name("gt");
  gt->add_input("x");
  gt->add_input("zero");
  gt->add_output("mask");
  auto* nz = g->add_node();
  nz->set_op_type("NonZero");
  nz->set_name("nz");
  nz->add_input("mask");
  nz->add_output("y");
  fs::path p = temp_dir() / "nonzero.onnx";
  std::ofstream f(p, std::ios::binary);
  m.SerializeToOstream(&f);
  return p;
}

TEST_CASE("gkrun info and profile name the steps with run-time shapes and count the host reads", "[cli]") {
  const std::string model = nonzero_model().string();
  Result info = gkrun("info " + model + " --backend cpu");
  INFO(info.err);
  REQUIRE(info.code == 0);
  CHECK_THAT(info.out, Catch::Contains("1 launched, 0 evaluated at plan time, 1 with run-time shapes"));
  CHECK_THAT(info.out, Catch::Contains("run-time    node 'nz' (NonZero)\n"));
  Result json = gkrun("info " + model + " --backend cpu --json");
  CHECK_THAT(json.out, Catch::Contains("\"runtime_shape_nodes\":1,\"runtime_shape_steps\":[\"node 'nz' (NonZero)\"]"));
  Result profile = gkrun("profile " + model + " --backend cpu --iterations 2");
  INFO(profile.err);
  REQUIRE(profile.code == 0);
  // NonZero reads its count back: one sync a run.
  CHECK_THAT(profile.out, Catch::Contains("run-time shapes: 1 steps planned during each run, 1 host reads (syncs) per run"));
  Result pjson = gkrun("profile " + model + " --backend cpu --iterations 2 --json");
  CHECK_THAT(pjson.out, Catch::Contains("\"runtime_shape_steps\":1,\"host_reads_per_run\":1}"));
}

TEST_CASE("gkrun check on a missing folder is one line on stderr and exit 2", "[cli]") {
  Result r = gkrun("check " + (temp_dir() / "no_such_folder").string() + " --backend cpu");
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(lines(r.err) == 1);
  CHECK_THAT(r.err, Catch::Contains("no_such_folder: not a test folder"));
}

TEST_CASE("gkrun bench --json and profile --trace produce the documented fields", "[cli]") {
  Result b = gkrun("bench " + relu_model().string() + " --backend cpu --iterations 5 --json");
  INFO(b.err);
  REQUIRE(b.code == 0);
  for (const char* key : {"\"median_ms\"", "\"p90_ms\"", "\"min_ms\"", "\"session_ms\"", "\"first_run_ms\"",
                          "\"peak_bytes\""})
    CHECK_THAT(b.out, Catch::Contains(key));
  fs::path trace = temp_dir() / "trace.json";
  Result p = gkrun("profile " + relu_model().string() + " --backend cpu --iterations 3 --trace " + trace.string() +
                   " --json");
  INFO(p.err);
  REQUIRE(p.code == 0);
  CHECK_THAT(p.out, Catch::Contains("\"kernels\""));
  std::string t = slurp(trace);
  CHECK_THAT(t, Catch::StartsWith("{\"traceEvents\":["));
  // One complete event per launch: 3 profiled runs of one Relu.
  size_t events = 0;
  for (size_t pos = 0; (pos = t.find("\"ph\":\"X\"", pos)) != std::string::npos; ++pos) ++events;
  CHECK(events == 3);
}

// A JSON text is well formed as far as brackets and strings go: enough to catch a
// truncated or interleaved trace without a JSON library.
bool balanced_json(const std::string& t) {
  std::string stack;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      stack += c;
    } else if (c == '}' || c == ']') {
      if (stack.empty() || stack.back() != (c == '}' ? '{' : '[')) return false;
      stack.pop_back();
    }
  }
  return stack.empty() && !in_string;
}

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t pos = 0; (pos = s.find(what, pos)) != std::string::npos; pos += what.size()) ++n;
  return n;
}

TEST_CASE("gkrun bench and profile on the PaddleOCR detector: fields, and one trace event per launch", "[cli][ocr]") {
  const fs::path det = fs::path(GK_SOURCE_DIR) / "tools" / "ort" / "node_modules" / "@gutenye" / "ocr-models" /
                       "assets" / "ch_PP-OCRv4_det_infer.onnx";
  gk::test::skip_unless_exists(det, "scripts/setup.sh installs it");
  const std::string model = det.string() + " --shape x=1x3x320x320 --backend cpu";
  Result b = gkrun("bench " + model + " --iterations 2 --warmup 1 --json");
  INFO(b.err);
  REQUIRE(b.code == 0);
  CHECK(balanced_json(b.out));
  for (const char* key : {"\"min_ms\"", "\"median_ms\"", "\"mean_ms\"", "\"p90_ms\"", "\"p99_ms\"", "\"max_ms\"",
                          "\"throughput_per_s\"", "\"session_ms\"", "\"first_run_ms\"", "\"kernel_compiles\"",
                          "\"kernel_cache_hits\"", "\"peak_bytes\""})
    CHECK_THAT(b.out, Catch::Contains(key));

  fs::path trace = temp_dir() / "det_trace.json";
  Result p = gkrun("profile " + model + " --iterations 2 --top 100000 --json --trace " + trace.string());
  INFO(p.err);
  REQUIRE(p.code == 0);
  CHECK(balanced_json(p.out));
  const std::string t = slurp(trace);
  REQUIRE(balanced_json(t));
  // The kernel table's calls add up to the launches, and each launch is one event.
  const size_t begin = p.out.find("\"kernels\":["), end = p.out.find("\"op_types\"");
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::string kernels = p.out.substr(begin, end - begin);
  size_t calls = 0;
  for (size_t pos = 0; (pos = kernels.find("\"calls\":", pos)) != std::string::npos;) {
    pos += 8;
    calls += std::stoul(kernels.substr(pos));
  }
  CHECK(calls > 100);  // a real network, not a stub
  CHECK(count(t, "\"ph\":\"X\"") == calls);
  CHECK(count(t, "\"op_type\":\"ConvTranspose") > 0);  // "ConvTranspose+act" once BN and Relu fold in
  CHECK(count(t, "\"shapes\":\"1x3x320x320") > 0);
  CHECK(count(t, "\"ph\":\"C\"") > 0);  // the planned-memory counter track
}

TEST_CASE("gkrun check passes an ONNX node test folder", "[cli]") {
  const fs::path dir = kData / "node" / "test_relu";
  gk::test::skip_unless_exists(dir);
  Result r = gkrun("check " + dir.string() + " --backend cpu");
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::EndsWith("check: PASS\n"));
}

}  // namespace

// The hostile-input matrix, part 2: what arrives at run time (indices, input
// dtypes, shapes and ranks, empty tensors, NaN/Inf), tensor files (.npy, .pb) and
// the memory limit. One TEST_CASE per named case, the bug class in the comment
// above it; each asserts the code and a message substring (or, for NaN/Inf and
// OneHot, the values the ONNX spec defines).
#include "tests/security/hostile.h"

#include "graph/loader.h"
#include "runtime/tensor_io.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

using namespace gk;
using namespace gk::hostile;
using gk::test::require_error;

namespace {

Status run_status(const Session& s, const std::vector<NamedTensor>& inputs) { return s.run(inputs).status(); }

std::string npy_bytes(const std::string& header_dict, const std::string& payload) {
  std::string header = header_dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  return out + header + payload;
}

// y = ScatterElements(data[3, 2], idx[1, 2], upd[1, 2]) (or ScatterND with idx[1, 1]).
onnx::ModelProto scatter_model(const std::string& op, const std::vector<int64_t>& idx_dims,
                               const std::vector<int64_t>& upd_dims) {
  auto m = make_model(8, 16);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "data", kFloat, {3, 2});
  add_info(g->mutable_input(), "idx", kInt64, idx_dims);
  add_info(g->mutable_input(), "upd", kFloat, upd_dims);
  add_node(g, op, {"data", "idx", "upd"}, {"y"}, "scatter");
  add_info(g->mutable_output(), "y", kFloat, {3, 2});
  return m;
}

// y = Loop(m, cond, x) (m and cond may be "" for absent, and are then not graph
// inputs): the body doubles x and returns its condition through an Identity, as
// test_loop16_seq_none's body does.
onnx::ModelProto doubling_loop(bool with_m, bool with_cond) {
  auto m = make_model(8, 16);
  auto* g = m.mutable_graph();
  if (with_m) add_info(g->mutable_input(), "m", kInt64, {});
  if (with_cond) add_info(g->mutable_input(), "cond", kBool, {});
  add_info(g->mutable_input(), "x", kFloat, {1});
  auto* loop = add_node(g, "Loop", {with_m ? "m" : "", with_cond ? "cond" : "", "x"}, {"y"}, "loop");
  onnx::GraphProto body;
  body.set_name("body");
  add_info(body.mutable_input(), "i", kInt64, {});
  add_info(body.mutable_input(), "cond_in", kBool, {});
  add_info(body.mutable_input(), "x_in", kFloat, {1});
  add_node(&body, "Identity", {"cond_in"}, {"cond_out"}, "pass_cond");
  add_node(&body, "Add", {"x_in", "x_in"}, {"x_out"}, "double");
  add_info(body.mutable_output(), "cond_out", kBool, {});
  add_info(body.mutable_output(), "x_out", kFloat, {1});
  set_graph(loop, "body", body);
  add_info(g->mutable_output(), "y", kFloat, {1});
  return m;
}

HostTensor boolean(bool v) { return HostTensor::from_vector(DType::kBool, {}, std::vector<uint8_t>{v}); }

}  // namespace

// ---- out-of-range indices at run time (one code, OutOfRange, on both backends) ----

// Class: Gather index past the end (the ORT heap read).
TEST_CASE("hostile: Gather index past the end", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, index_model("Gather"));
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({2}, {0, 3})}}), StatusCode::kOutOfRange,
                "idx_node");
}

// Class: Gather negative index below -dim.
TEST_CASE("hostile: Gather index below -dim", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, index_model("Gather"));
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({1}, {-4})}}), StatusCode::kOutOfRange,
                "out of range");
  // In range, negative: counts from the end, and the session still runs.
  auto ok = s->run({{"data", f32({3, 2}, {0, 1, 2, 3, 4, 5})}, {"idx", i64({1}, {-1})}});
  REQUIRE(ok.ok());
  CHECK((*ok)[0].tensor.data<float>()[1] == 5.0f);
}

// Class: Gather of int64 extremes (an index whose negation or offset overflows).
TEST_CASE("hostile: Gather index INT64_MIN and INT64_MAX", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, index_model("Gather"));
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({2}, {lo, hi})}}), StatusCode::kOutOfRange,
                "out of range");
}

// Class: Gather from an empty axis (no index can be valid).
TEST_CASE("hostile: Gather from an empty axis", "[hostile]") {
  TempDir dir;
  auto m = index_model("Gather", 0);
  auto s = must_open(dir, m);
  require_error(run_status(*s, {{"data", zeros({0, 2})}, {"idx", i64({1}, {0})}}), StatusCode::kOutOfRange,
                "empty axis");
}

// Class: GatherElements index out of range.
TEST_CASE("hostile: GatherElements index out of range", "[hostile]") {
  TempDir dir;
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "data", kFloat, {3, 2});
  add_info(g->mutable_input(), "idx", kInt64, {1, 2});
  add_node(g, "GatherElements", {"data", "idx"}, {"y"}, "ge");
  add_info(g->mutable_output(), "y", kFloat, {1, 2});
  auto s = must_open(dir, m);
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({1, 2}, {0, 7})}}), StatusCode::kOutOfRange,
                "ge");
}

// Class: GatherND index tuple out of range.
TEST_CASE("hostile: GatherND index out of range", "[hostile]") {
  TempDir dir;
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "data", kFloat, {3, 2});
  add_info(g->mutable_input(), "idx", kInt64, {1, 2});
  add_node(g, "GatherND", {"data", "idx"}, {"y"}, "gnd");
  add_info(g->mutable_output(), "y", kFloat, {1});
  auto s = must_open(dir, m);
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({1, 2}, {1, 9})}}), StatusCode::kOutOfRange,
                "gnd");
}

// Class: ScatterElements index out of range (an out-of-bounds write).
TEST_CASE("hostile: ScatterElements index out of range", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, scatter_model("ScatterElements", {1, 2}, {1, 2}));
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({1, 2}, {0, 3})}, {"upd", zeros({1, 2})}}),
                StatusCode::kOutOfRange, "scatter");
}

// Class: ScatterND index out of range (an out-of-bounds write).
TEST_CASE("hostile: ScatterND index out of range", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, scatter_model("ScatterND", {1, 1}, {1, 2}));
  require_error(run_status(*s, {{"data", zeros({3, 2})}, {"idx", i64({1, 1}, {-9})}, {"upd", zeros({1, 2})}}),
                StatusCode::kOutOfRange, "scatter");
}

// Class: OneHot index out of range. The spec defines it: the row is all off_value
// (no error), so the case asserts those values and that nothing is written outside.
TEST_CASE("hostile: OneHot index out of range gives off values", "[hostile]") {
  TempDir dir;
  auto m = make_model(8, 11);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "idx", kInt64, {3});
  int64_initializer(g, "depth", {}, {4});
  auto* vals = add_initializer(g, "values", kFloat, {2});
  vals->add_float_data(-1.0f);
  vals->add_float_data(7.0f);
  add_node(g, "OneHot", {"idx", "depth", "values"}, {"y"}, "onehot");
  add_info(g->mutable_output(), "y", kFloat, {3, 4});
  auto s = must_open(dir, m);
  auto out = s->run({{"idx", i64({3}, {1, 99, -99})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  const HostTensor& y = (*out)[0].tensor;
  REQUIRE(y.shape() == Shape{3, 4});
  const std::vector<float> want{-1, 7, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1};
  for (int64_t i = 0; i < 12; ++i) CHECK(y.data<float>()[i] == want[i]);
}

// Class: OneHot with a non-positive depth (a zero or negative allocation).
TEST_CASE("hostile: OneHot with depth 0", "[hostile]") {
  TempDir dir;
  auto m = make_model(8, 11);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "idx", kInt64, {3});
  int64_initializer(g, "depth", {}, {0});
  auto* vals = add_initializer(g, "values", kFloat, {2});
  vals->add_float_data(0.0f);
  vals->add_float_data(1.0f);
  add_node(g, "OneHot", {"idx", "depth", "values"}, {"y"}, "onehot");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = open_in(dir, m);
  Status st = s.ok() ? run_status(**s, {{"idx", i64({3}, {0, 1, 2})}}) : s.status();
  require_error(st, StatusCode::kInvalidModel, "depth 0 must be a positive count");
}

// ---- wrong input dtype, shape, rank; absent inputs ----

// Class: wrong input dtype (a kernel reading int64 as float).
TEST_CASE("hostile: input of the wrong dtype", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, unary_model("Relu", {2, 3}));
  require_error(run_status(*s, {{"x", i64({2, 3}, {1, 2, 3, 4, 5, 6})}}), StatusCode::kInvalidArgument,
                "input 'x' is int64, the model declares float32");
}

// Class: wrong input rank.
TEST_CASE("hostile: input of the wrong rank", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, unary_model("Relu", {2, 3}));
  require_error(run_status(*s, {{"x", zeros({6})}}), StatusCode::kInvalidArgument,
                "input 'x' has rank 1 (shape 6), the model declares rank 2");
}

// Class: wrong input dim (a kernel reading past a short buffer).
TEST_CASE("hostile: input of the wrong shape", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, unary_model("Relu", {2, 3}));
  require_error(run_status(*s, {{"x", zeros({2, 4})}}), StatusCode::kInvalidArgument, "dim 1 is 4");
}

// Class: absent required input at run time.
TEST_CASE("hostile: a required input not given", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, index_model("Gather"));
  require_error(run_status(*s, {{"data", zeros({3, 2})}}), StatusCode::kInvalidArgument, "missing input 'idx'");
}

// Class: an input the model does not have (a name lookup past the table).
TEST_CASE("hostile: an input the model does not have", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, unary_model("Relu", {2}));
  require_error(run_status(*s, {{"x", zeros({2})}, {"nope", zeros({2})}}), StatusCode::kInvalidArgument,
                "unknown input 'nope'");
}

// Class: one symbolic dim bound to two different sizes.
TEST_CASE("hostile: one symbolic dim bound two ways", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "a", kFloat, {-1}, {"n"});
  add_info(g->mutable_input(), "b", kFloat, {-1}, {"n"});
  add_node(g, "Add", {"a", "b"}, {"y"}, "add");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = must_open(dir, m);
  require_error(run_status(*s, {{"a", zeros({2})}, {"b", zeros({3})}}), StatusCode::kInvalidArgument, "'n'");
}

// ---- empty tensors ----

// Class: empty tensors flow through (a zero-size launch, a zero-size allocation).
TEST_CASE("hostile: empty inputs give empty outputs", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {-1, 3}, {"n"});
  add_node(g, "Relu", {"x"}, {"r"}, "relu");
  add_node(g, "ReduceSum", {"r"}, {"y"}, "sum");
  set_int(g->mutable_node(1), "keepdims", 0);
  add_info(g->mutable_output(), "y", kFloat, {});
  add_info(g->mutable_output(), "r", kFloat, {});
  auto s = must_open(dir, m);
  auto out = s->run({{"x", zeros({0, 3})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  CHECK((*out)[0].tensor.numel() == 1);
  CHECK((*out)[0].tensor.data<float>()[0] == 0.0f);  // the empty sum
  CHECK((*out)[1].tensor.shape() == Shape{0, 3});
}

// ---- NaN and Inf propagate, never crash ----

// Class: NaN/Inf inputs (a float-to-int conversion or a comparison that assumes order).
TEST_CASE("hostile: NaN and Inf propagate through arithmetic and reductions", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  add_node(g, "Add", {"x", "x"}, {"a"}, "add");
  add_node(g, "ReduceMax", {"x"}, {"mx"}, "max");
  add_node(g, "Softmax", {"x"}, {"sm"}, "softmax");
  add_info(g->mutable_output(), "a", kFloat, {4});
  add_info(g->mutable_output(), "mx", kFloat, {});
  add_info(g->mutable_output(), "sm", kFloat, {4});
  auto s = must_open(dir, m);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto out = s->run({{"x", f32({4}, {1.0f, nan, inf, -inf})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  const float* a = (*out)[0].tensor.data<float>();
  CHECK(a[0] == 2.0f);
  CHECK(std::isnan(a[1]));
  CHECK(a[2] == inf);
  CHECK(a[3] == -inf);
  CHECK(std::isnan((*out)[1].tensor.data<float>()[0]));  // max with a NaN is NaN (ONNX Runtime agrees)
  for (int i = 0; i < 4; ++i) CHECK(std::isnan((*out)[2].tensor.data<float>()[i]));
}

// Class: NaN/Inf into ops that turn floats into indices or integers (Cast, ArgMax, TopK).
TEST_CASE("hostile: NaN and Inf into Cast and ArgMax and TopK", "[hostile]") {
  TempDir dir;
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  auto* cast = add_node(g, "Cast", {"x"}, {"c"}, "cast");
  set_int(cast, "to", kInt64);
  add_node(g, "ArgMax", {"x"}, {"am"}, "argmax");
  int64_initializer(g, "k", {1}, {2});
  add_node(g, "TopK", {"x", "k"}, {"tv", "ti"}, "topk");
  add_info(g->mutable_output(), "c", kInt64, {4});
  add_info(g->mutable_output(), "am", kInt64, {});
  add_info(g->mutable_output(), "ti", kInt64, {2});
  auto s = must_open(dir, m);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto out = s->run({{"x", f32({4}, {1.0f, nan, inf, -inf})}});
  INFO((out.ok() ? std::string("OK") : out.status().to_string()));
  REQUIRE(out.ok());
  CHECK((*out)[0].tensor.data<int64_t>()[0] == 1);
  const int64_t am = (*out)[1].tensor.data<int64_t>()[0];
  CHECK((am >= 0 && am < 4));
  for (int i = 0; i < 2; ++i) {
    const int64_t idx = (*out)[2].tensor.data<int64_t>()[i];
    CHECK((idx >= 0 && idx < 4));
  }
}

// ---- truncated and malformed tensor files ----

// ---- loops that never end ----

// Class: a Loop with no trip count whose body returns its condition unchanged
// (mutation 975 of scripts/mutate_cli.py: test_loop16_seq_none with M given as ""
// ran past the 60 s timeout). Started true it never ends: refused when it would
// start; started false it runs no iteration, and with M it runs M of them.
TEST_CASE("hostile: a Loop whose condition never changes and no trip count", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, doubling_loop(false, true));
  require_error(run_status(*s, {{"cond", boolean(true)}, {"x", f32({1}, {1.5f})}}), StatusCode::kInvalidModel,
                "node 'loop' (Loop): has no trip count M and its body returns the condition unchanged");
  auto zero = s->run({{"cond", boolean(false)}, {"x", f32({1}, {1.5f})}});
  INFO((zero.ok() ? std::string("OK") : zero.status().to_string()));
  REQUIRE(zero.ok());
  CHECK((*zero)[0].tensor.data<float>()[0] == 1.5f);
  TempDir dir2;
  auto counted = must_open(dir2, doubling_loop(true, true));
  auto three = counted->run({{"m", i64({}, {3})}, {"cond", boolean(true)}, {"x", f32({1}, {1.5f})}});
  INFO((three.ok() ? std::string("OK") : three.status().to_string()));
  REQUIRE(three.ok());
  CHECK((*three)[0].tensor.data<float>()[0] == 12.0f);  // 1.5 doubled 3 times
}

// Class: a Loop with neither a trip count nor a condition (the spec's `for (;;)`).
TEST_CASE("hostile: a Loop with neither a trip count nor a condition", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, doubling_loop(false, false));
  require_error(run_status(*s, {{"x", f32({1}, {1.5f})}}), StatusCode::kInvalidModel,
                "node 'loop' (Loop): has neither a trip count M nor a condition: the loop would never end");
}

// Class: a Loop that would end, but after hours: a trip count of 2^62 from the
// input (as in the mutate fuzzer's finding, Range expanded into a Loop whose trip
// count came from random floats; the CI smoke run timed out on it). Neither can be
// refused up front; RunOptions::deadline stops the run at the next step, and
// RunOptions::cancel, set from another thread, does too. The session then runs
// again as before.
TEST_CASE("hostile: a Loop of 2^62 iterations stops at the run's deadline or when cancelled", "[hostile]") {
  TempDir dir;
  auto s = must_open(dir, doubling_loop(true, true));
  auto inputs = [](int64_t m) {
    return std::vector<NamedTensor>{{"m", i64({}, {m})}, {"cond", boolean(true)}, {"x", f32({1}, {1.5f})}};
  };
  RunOptions soon;
  soon.deadline = RunOptions::deadline_in(0.2);
  require_error(s->run(inputs(int64_t{1} << 62), soon), StatusCode::kDeadlineExceeded,
                "the run's deadline passed before node '");

  std::atomic<bool> stop{false};
  RunOptions stoppable;
  stoppable.cancel = &stop;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop = true;
  });
  auto cancelled = s->run(inputs(int64_t{1} << 62), stoppable);
  canceller.join();
  require_error(cancelled, StatusCode::kCancelled, "the run was cancelled before node '");

  // A deadline already past (or a flag already set) stops the run before its first node.
  RunOptions past;
  past.deadline = RunOptions::deadline_in(0);
  require_error(s->run(inputs(3), past), StatusCode::kDeadlineExceeded,
                "the run's deadline passed before node 'loop' (Loop)");
  require_error(s->run(inputs(3), stoppable), StatusCode::kCancelled, "the run was cancelled before node 'loop'");

  RunOptions ample;
  ample.deadline = RunOptions::deadline_in(600);
  auto three = s->run(inputs(3), ample);
  INFO((three.ok() ? std::string("OK") : three.status().to_string()));
  REQUIRE(three.ok());
  CHECK((*three)[0].tensor.data<float>()[0] == 12.0f);  // 1.5 doubled 3 times
}

// Class: a truncated .npy header (a read past the buffer).
TEST_CASE("hostile: a truncated .npy header", "[hostile]") {
  TempDir dir;
  const std::string full = npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", std::string(8, '\0'));
  write_file(dir / "t.npy", full.substr(0, 20));
  require_error(read_npy((dir / "t.npy").string()), StatusCode::kInvalidArgument, "truncated .npy header");
}

// Class: .npy data shorter than its shape says.
TEST_CASE("hostile: .npy data shorter than its shape", "[hostile]") {
  TempDir dir;
  write_file(dir / "t.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", std::string(8, '\0')));
  require_error(read_npy((dir / "t.npy").string()), StatusCode::kInvalidArgument, ".npy data is 8 bytes");
}

// Class: a .npy shape whose product overflows int64.
TEST_CASE("hostile: .npy shape whose product overflows", "[hostile]") {
  TempDir dir;
  write_file(dir / "t.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", ""));
  require_error(read_npy((dir / "t.npy").string()), StatusCode::kInvalidArgument, "overflows int64");
}

// Class: a .npy with a negative or unparseable dim.
TEST_CASE("hostile: .npy shape with a negative dim", "[hostile]") {
  TempDir dir;
  write_file(dir / "t.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (-3,), }", ""));
  require_error(read_npy((dir / "t.npy").string()), StatusCode::kInvalidArgument, "-3");
  write_file(dir / "u.npy", npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }", ""));
  require_error(read_npy((dir / "u.npy").string()), StatusCode::kInvalidArgument, "malformed .npy shape");
}

// Class: a .npy of an unknown dtype.
TEST_CASE("hostile: .npy of an unknown dtype", "[hostile]") {
  TempDir dir;
  write_file(dir / "t.npy", npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (1,), }", std::string(16, '\0')));
  require_error(read_npy((dir / "t.npy").string()), StatusCode::kUnimplemented, "'<c16' is not supported");
}

// Class: a truncated .pb tensor.
TEST_CASE("hostile: a truncated .pb tensor", "[hostile]") {
  onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(kFloat);
  t.add_dims(16);
  t.set_raw_data(std::string(64, '\1'));
  std::string bytes;
  t.SerializeToString(&bytes);
  require_error(parse_tensor_proto(bytes.data(), bytes.size() - 10, ""), StatusCode::kInvalidModel,
                "corrupt or truncated protobuf");
}

// Class: a .pb tensor whose dims overflow.
TEST_CASE("hostile: a .pb tensor whose dims overflow", "[hostile]") {
  onnx::TensorProto t;
  t.set_name("t");
  t.set_data_type(kFloat);
  for (int i = 0; i < 3; ++i) t.add_dims(int64_t{1} << 31);
  std::string bytes;
  t.SerializeToString(&bytes);
  require_error(parse_tensor_proto(bytes.data(), bytes.size(), ""), StatusCode::kInvalidModel, "overflows int64");
}

// ---- the memory limit ----

// Class: a model larger than the memory budget: its weights alone exceed the limit.
TEST_CASE("hostile: a model whose weights exceed the memory limit", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {1024});
  add_initializer(g, "w", kFloat, {1024})->set_raw_data(std::string(4096, '\0'));
  add_node(g, "Add", {"x", "w"}, {"y"}, "add");
  add_info(g->mutable_output(), "y", kFloat, {1024});
  auto s = must_open(dir, m, cpu(1000));
  require_error(run_status(*s, {{"x", zeros({1024})}}), StatusCode::kResourceExhausted,
                "needs at least 4096 bytes of device constants, over the memory limit of 1000 bytes");
}

// Class: a plan whose intermediates exceed the memory budget (an input shape that
// makes the arena huge).
TEST_CASE("hostile: a plan whose arena exceeds the memory limit", "[hostile]") {
  TempDir dir;
  auto m = make_model();
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {-1}, {"n"});
  add_node(g, "Relu", {"x"}, {"r"}, "relu");
  add_node(g, "Neg", {"r"}, {"y"}, "neg");
  add_info(g->mutable_output(), "y", kFloat, {});
  auto s = must_open(dir, m, cpu(60000));
  auto small = s->run({{"x", zeros({16})}});
  REQUIRE(small.ok());
  require_error(run_status(*s, {{"x", zeros({8192})}}), StatusCode::kResourceExhausted,
                "needs 65536 bytes of device memory (arena 32768, constants 0, outputs 32768), over the memory "
                "limit of 60000 bytes");
}

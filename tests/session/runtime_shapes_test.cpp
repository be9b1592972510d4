// Run-time shapes as an ordinary path: shape-deciding inputs (TopK's K, the shape
// arguments of Range, Expand, ConstantOfShape, Reshape, Slice, Tile) computed from
// the run's data, the way detection post-processing computes them, against a
// reference written out by hand in plain C++.
#include "proto_models.h"

#include "backends/cpu/cpu_device.h"
#include "ops/core/op.h"
#include "tests/support/session_runs.h"

#include <algorithm>
#include <numeric>

namespace gk {
namespace {

using namespace proto_models;

std::map<std::string, HostTensor> by_name(std::vector<NamedTensor> outs) {
  std::map<std::string, HostTensor> r;
  for (auto& t : outs) r.emplace(t.name, std::move(t.tensor));
  return r;
}

std::vector<float> floats_of(const HostTensor& t) { return std::vector<float>(t.data<float>(), t.data<float>() + t.numel()); }

// The reference: indices of sigmoid(logit) > 0.5, the best 3 by score, ties to the
// lower index (ONNX TopK).
struct Expected {
  std::vector<int64_t> index;
  std::vector<float> scores;
};
Expected reference(const std::vector<float>& logits) {
  std::vector<int64_t> kept;
  for (size_t i = 0; i < logits.size(); ++i)
    if (1.0f / (1.0f + std::exp(-logits[i])) > 0.5f) kept.push_back(static_cast<int64_t>(i));
  std::stable_sort(kept.begin(), kept.end(), [&](int64_t a, int64_t b) { return logits[a] > logits[b]; });
  kept.resize(std::min<size_t>(kept.size(), 3));
  Expected e;
  e.index = kept;
  for (int64_t i : kept) e.scores.push_back(1.0f / (1.0f + std::exp(-logits[i])));
  return e;
}

void check_run(Session& s, const std::vector<float>& logits, RunInfo* info = nullptr) {
  const int64_t n = static_cast<int64_t>(logits.size());
  std::vector<float> boxes(n * 4);
  std::iota(boxes.begin(), boxes.end(), 0.0f);
  auto r = s.run({{"logits", floats({n}, logits)}, {"boxes", floats({n, 4}, boxes)}}, {}, info);
  INFO((r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  auto out = by_name(std::move(*r));
  const Expected e = reference(logits);
  const int64_t k = static_cast<int64_t>(e.index.size());
  REQUIRE(out.at("top_scores").shape() == Shape{k});
  for (int64_t i = 0; i < k; ++i) CHECK(out.at("top_scores").data<float>()[i] == Approx(e.scores[i]).epsilon(1e-6));
  REQUIRE(out.at("top_index").shape() == Shape{k});
  for (int64_t i = 0; i < k; ++i) CHECK(out.at("top_index").data<int64_t>()[i] == e.index[i]);
  REQUIRE(out.at("top_boxes").shape() == Shape{k, 4});
  REQUIRE(out.at("corners").shape() == Shape{2 * k, 2});
  for (int64_t i = 0; i < k; ++i)
    for (int64_t c = 0; c < 4; ++c) {
      const float want = static_cast<float>(e.index[i] * 4 + c);
      CHECK(out.at("top_boxes").data<float>()[i * 4 + c] == want);
      CHECK(out.at("corners").data<float>()[i * 4 + c] == want);
    }
  REQUIRE(out.at("grid").shape() == Shape{k, 3});
  for (int64_t i = 0; i < k * 3; ++i) CHECK(out.at("grid").data<int64_t>()[i] == i / 3);
  REQUIRE(out.at("zeros").shape() == Shape{k, 2});
  for (float z : floats_of(out.at("zeros"))) CHECK(z == 0.0f);
  // Slice end K - 1 is -1 when K is 0: all but the last of nothing.
  REQUIRE(out.at("head").shape() == Shape{std::max<int64_t>(k - 1, 0)});
  for (int64_t i = 0; i + 1 < k; ++i) CHECK(out.at("head").data<float>()[i] == Approx(e.scores[i]).epsilon(1e-6));
  REQUIRE(out.at("tiled").shape() == Shape{2, k});
  for (int64_t r2 = 0; r2 < 2; ++r2)
    for (int64_t i = 0; i < k; ++i)
      CHECK(out.at("tiled").data<float>()[r2 * k + i] == Approx(e.scores[i]).epsilon(1e-6));
}

}  // namespace

TEST_CASE("runtime shapes: K, Range, Expand, ConstantOfShape, Reshape, Slice, Tile from a NonZero count",
          "[session][runtime-shapes]") {
  auto s = open(detection_tail_model());
  SECTION("five kept, K capped at 3, a tie broken toward the lower index") {
    check_run(*s, {0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f});
  }
  SECTION("two kept: K is 2") { check_run(*s, {-1.0f, 4.0f, -3.0f, 0.1f}); }
  SECTION("nothing kept: every output is empty") { check_run(*s, {-1.0f, -2.0f, -0.5f}); }
  SECTION("a longer input after a shorter one: one plan per shape signature, both right") {
    check_run(*s, {1.0f, 2.0f});
    check_run(*s, {1.0f, 2.0f, 3.0f, 4.0f, -5.0f, 6.0f, 0.25f, 8.0f});
  }
}

TEST_CASE("runtime shapes: the static prefix stays planned, the tail reads back one count per run",
          "[session][runtime-shapes]") {
  auto s = open(detection_tail_model());
  auto summary = s->plan_summary({{"logits", {7}}, {"boxes", {7, 4}}});
  REQUIRE(summary.ok());
  // Sigmoid and Greater are planned with the arena; everything from NonZero on is
  // planned when the run reaches it.
  CHECK(summary->device_nodes == 2);
  CHECK(summary->dynamic_nodes > 10);
  RunInfo info;
  check_run(*s, {0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f}, &info);
  CHECK(info.runtime_steps == summary->dynamic_nodes);
  // NonZero's count is the only device value the host needs: K, the Range length
  // and every shape argument are computed on the host from it.
  CHECK(info.host_reads == 1);
}

TEST_CASE("runtime shapes: a shape input computed from device data is read back once per value, however many steps use it",
          "[session][runtime-shapes]") {
  // ReduceMax of the data decides the length of two Ranges and a ConstantOfShape.
  // x is longer than the small inputs whose values join the plan signature
  // (executor.cpp, kMaxDerivedValueElements), so its maximum is known only in the run.
  constexpr int64_t kLength = 100;
  auto proto = test::make_model(8, 13);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "x", kInt64, {kLength});
  add_i64_initializer(g, "zero", {}, {0});
  add_i64_initializer(g, "one", {}, {1});
  auto* rmax = add_node(g, "ReduceMax", {"x"}, {"m"}, "max");
  set_int(rmax, "keepdims", 0);
  add_node(g, "Range", {"zero", "m", "one"}, {"r1"}, "range1");
  add_node(g, "Range", {"one", "m", "one"}, {"r2"}, "range2");
  add_i64_initializer(g, "axes0", {1}, {0});
  add_node(g, "Unsqueeze", {"m", "axes0"}, {"m1"}, "unsq");
  add_node(g, "ConstantOfShape", {"m1"}, {"z"}, "cos");
  add_info(g->mutable_output(), "r1", kInt64, {-1});
  add_info(g->mutable_output(), "r2", kInt64, {-1});
  add_info(g->mutable_output(), "z", kFloat, {-1});
  auto s = open(proto);
  for (int64_t top : {5, 0, 9}) {
    RunInfo info;
    std::vector<int64_t> x(kLength, -3);
    x[7] = 2;
    x[41] = top;
    auto r = s->run({{"x", HostTensor::from_vector(DType::kI64, {kLength}, x)}}, {}, &info);
    INFO((r.ok() ? "" : r.status().to_string()));
    REQUIRE(r.ok());
    auto out = by_name(std::move(*r));
    const int64_t m = std::max<int64_t>(top, 2);
    REQUIRE(out.at("r1").shape() == Shape{m});
    REQUIRE(out.at("r2").shape() == Shape{m - 1});
    for (int64_t i = 0; i < m; ++i) CHECK(out.at("r1").data<int64_t>()[i] == i);
    for (int64_t i = 0; i + 1 < m; ++i) CHECK(out.at("r2").data<int64_t>()[i] == i + 1);
    REQUIRE(out.at("z").shape() == Shape{m});
    // m, read by both Ranges, once; m1 (its Unsqueeze, a planned device step) once.
    CHECK(info.host_reads == 2);
  }
  CHECK(s->plans_created() == 1);
}

TEST_CASE("runtime shapes: the static steps are captured and replayed, the run-time tail runs after the replay",
          "[session][runtime-shapes][graphs]") {
  // The CPU backend's recorder takes the capture/rebind/replay path a CUDA Graph takes.
  CpuDeviceOptions d;
  d.threads = 2;
  d.kernel_tables = cpu_kernel_tables();
  d.graphs = true;
  std::string bytes;
  detection_tail_model().SerializeToString(&bytes);
  SessionOptions o;
  o.backend = "cpu";
  o.kit = Kit::adopt(make_cpu_device(std::move(d)));
  auto opened = Session::open_from_memory(bytes.data(), bytes.size(), o);
  REQUIRE(opened.ok());
  Session& s = **opened;
  auto summary = s.plan_summary({{"logits", {7}}, {"boxes", {7, 4}}});
  REQUIRE(summary.ok());
  // Each run a different set kept, so the tail's shapes change while the prefix replays.
  const std::vector<std::vector<float>> runs = {{0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f},
                                                {-1.0f, -1.0f, -2.0f, -0.3f, -1.5f, -2.0f, -0.9f},
                                                {5.0f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f},
                                                {-5.0f, 1.0f, -2.0f, 0.3f, -1.5f, -2.0f, 0.9f}};
  for (size_t run = 0; run < runs.size(); ++run) {
    RunInfo info;
    check_run(s, runs[run], &info);
    INFO("run " << run << ": " << info.graph_fallback);
    CHECK(info.graph_captured == (run == 1));
    CHECK(info.graph_replayed == (run >= 1));
    if (run >= 1) CHECK(info.replayed_steps == summary->device_nodes);
    CHECK(info.runtime_steps == summary->dynamic_nodes);
  }
}

TEST_CASE("runtime shapes: concurrent runs with different kept sets each get their own tail",
          "[session][runtime-shapes][threads]") {
  auto s = open(detection_tail_model());
  const std::vector<std::vector<float>> inputs = {{0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f},
                                                  {-1.0f, -1.0f, -2.0f, -0.3f, -1.5f, -2.0f, -0.9f},
                                                  {5.0f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f},
                                                  {-5.0f, 1.0f, -2.0f, 0.3f, -1.5f, -2.0f, 0.9f}};
  auto run_once = [&](size_t i) {
    std::vector<float> boxes(inputs[i].size() * 4);
    std::iota(boxes.begin(), boxes.end(), 0.0f);
    const int64_t n = static_cast<int64_t>(inputs[i].size());
    return s->run({{"logits", floats({n}, inputs[i])}, {"boxes", floats({n, 4}, boxes)}});
  };
  test::check_threads_match_one_thread(
      inputs.size(), 8, 20, [&](int t, int rep) { return static_cast<size_t>(t + rep) % inputs.size(); }, run_once);
}

}  // namespace gk

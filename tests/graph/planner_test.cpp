#include "graph/planner.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <random>

namespace gk {
namespace {

PlanTensor tensor(std::string name, size_t bytes, int first, int last) {
  PlanTensor t;
  t.name = std::move(name);
  t.bytes = bytes;
  t.first_use = first;
  t.last_use = last;
  return t;
}

MemoryPlan plan_ok(const std::vector<PlanTensor>& t) {
  auto plan = plan_memory(t);
  REQUIRE(plan.ok());
  Status s = verify_plan(t, *plan);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return *plan;
}

// Ops with the traits the planner reads; impl is not needed to plan.
const OpSchema kConvLike{"", "Conv", 1, kOpsetCurrent, nullptr, {}};
const OpSchema kRelu{"", "Relu", 1, kOpsetCurrent, nullptr, {.inplace_input = 0, .elementwise = true}};
const OpSchema kAdd{"", "Add", 1, kOpsetCurrent, nullptr, {.inplace_input = 0, .elementwise = true}};
const OpSchema kReshape{"", "Reshape", 1, kOpsetCurrent, nullptr, {.alias_input = 0}};

struct GraphMaker {
  Graph g;
  std::vector<size_t> bytes;
  ValueId value(const std::string& name, size_t b) {
    Value v;
    v.name = name;
    g.values.push_back(v);
    bytes.push_back(b);
    return static_cast<ValueId>(g.values.size() - 1);
  }
  ValueId input(const std::string& name, size_t b) {
    ValueId v = value(name, b);
    g.values[v].is_graph_input = true;
    g.inputs.push_back(v);
    return v;
  }
  ValueId node(const OpSchema& s, std::vector<ValueId> in, size_t out_bytes) {
    Node n;
    n.view.name = fmt::format("n{}", g.nodes.size());
    n.view.op_type = s.op_type;
    n.schema = &s;
    n.inputs = std::move(in);
    ValueId out = value(fmt::format("v{}", g.values.size()), out_bytes);
    n.outputs = {out};
    g.nodes.push_back(std::move(n));
    return out;
  }
  void output(ValueId v) {
    g.values[v].is_graph_output = true;
    g.outputs.push_back(v);
  }
};

}  // namespace

TEST_CASE("planner: a chain reuses the bytes of a dead tensor", "[planner]") {
  std::vector<PlanTensor> t = {tensor("a", 1000, 0, 1), tensor("b", 1000, 1, 2), tensor("c", 1000, 2, 3)};
  MemoryPlan p = plan_ok(t);
  CHECK(p.offsets == std::vector<int64_t>{0, 1024, 0});
  CHECK(p.arena_bytes == 2024);
  CHECK(p.naive_bytes == 3000);
  CHECK(p.lower_bound_bytes == 2000);
}

TEST_CASE("planner: in-place chain shares one buffer", "[planner]") {
  std::vector<PlanTensor> t = {tensor("a", 4096, 0, 1), tensor("b", 4096, 1, 2), tensor("c", 4096, 2, 3)};
  t[1].inplace_of = 0;
  t[2].inplace_of = 1;
  MemoryPlan p = plan_ok(t);
  CHECK(p.offsets == std::vector<int64_t>{0, 0, 0});
  CHECK(p.arena_bytes == 4096);
  CHECK(p.lower_bound_bytes == 4096);
  CHECK(p.took_inplace == std::vector<bool>{false, true, true});
}

TEST_CASE("planner: in-place is refused while the input lives on or is smaller", "[planner]") {
  // a is read again at step 2, so b (written at step 1) cannot take its bytes.
  std::vector<PlanTensor> t = {tensor("a", 512, 0, 2), tensor("b", 512, 1, 2)};
  t[1].inplace_of = 0;
  MemoryPlan p = plan_ok(t);
  CHECK_FALSE(p.took_inplace[1]);
  CHECK(p.offsets[0] != p.offsets[1]);
  // b larger than a: refused.
  std::vector<PlanTensor> u = {tensor("a", 512, 0, 1), tensor("b", 1024, 1, 2)};
  u[1].inplace_of = 0;
  CHECK_FALSE(plan_ok(u).took_inplace[1]);
  // A view of a keeps it alive past step 1.
  std::vector<PlanTensor> w = {tensor("a", 512, 0, 1), tensor("view", 512, 1, 3), tensor("b", 512, 1, 2)};
  w[1].alias_of = 0;
  w[2].inplace_of = 0;
  MemoryPlan pw = plan_ok(w);
  CHECK_FALSE(pw.took_inplace[2]);
  CHECK(pw.offsets[1] == pw.offsets[0]);
  CHECK(pw.offsets[2] != pw.offsets[0]);
}

TEST_CASE("planner: two outputs of one step cannot both take one input", "[planner]") {
  std::vector<PlanTensor> t = {tensor("a", 512, 0, 1), tensor("b", 512, 1, 1), tensor("c", 512, 1, 2)};
  t[1].inplace_of = 0;
  t[2].inplace_of = 0;
  MemoryPlan p = plan_ok(t);
  CHECK(p.took_inplace[1]);
  CHECK_FALSE(p.took_inplace[2]);
  CHECK(p.arena_bytes == 1024);
}

TEST_CASE("planner: pinned tensors and their views are not planned", "[planner]") {
  std::vector<PlanTensor> t = {tensor("in", 800, 0, 0), tensor("view", 800, 0, 2), tensor("x", 300, 0, 1)};
  t[0].pinned = true;
  t[1].alias_of = 0;
  MemoryPlan p = plan_ok(t);
  CHECK(p.offsets == std::vector<int64_t>{-1, -1, 0});
  CHECK(p.arena_bytes == 300);
  CHECK(p.naive_bytes == 300);
}

TEST_CASE("planner: malformed input is an error naming the tensor", "[planner]") {
  std::vector<PlanTensor> t = {tensor("a", 8, 0, 1), tensor("b", 8, 0, 1)};
  t[0].alias_of = 1;
  t[1].alias_of = 0;
  auto p = plan_memory(t);
  gk::test::require_error(p, StatusCode::kInvalidArgument, "alias cycle");
  std::vector<PlanTensor> u = {tensor("late", 8, 3, 1)};
  auto q = plan_memory(u);
  gk::test::require_error(q, StatusCode::kInvalidArgument, "tensor 'late' has lifetime [3, 1]");
}

TEST_CASE("verify_plan: names the two tensors that collide", "[planner]") {
  std::vector<PlanTensor> t = {tensor("a", 1000, 0, 2), tensor("b", 1000, 1, 3), tensor("c", 10, 3, 4)};
  MemoryPlan p = plan_ok(t);
  MemoryPlan bad = p;
  bad.offsets[1] = bad.offsets[0];
  Status s = verify_plan(t, bad);
  REQUIRE_FALSE(s.ok());
  CHECK(s.code() == StatusCode::kInternal);
  CHECK_THAT(s.message(), Catch::Contains("'a'") && Catch::Contains("'b'"));
  // Out of the arena.
  bad = p;
  bad.arena_bytes = 1500;
  gk::test::require_error(verify_plan(t, bad), StatusCode::kInternal, "exceeds the arena of 1500 bytes");
  // Misaligned.
  bad = p;
  bad.offsets[2] = 4;
  CHECK_THAT(verify_plan(t, bad).message(), Catch::Contains("multiple of 256"));
  // An in-place pair must start at the same byte.
  std::vector<PlanTensor> ip = {tensor("x", 1024, 0, 1), tensor("y", 512, 1, 2)};
  ip[1].inplace_of = 0;
  MemoryPlan q = plan_ok(ip);
  REQUIRE(q.offsets[1] == q.offsets[0]);
  q.arena_bytes = 1024 + 256;
  q.offsets[1] = 256;
  gk::test::require_error(verify_plan(ip, q), StatusCode::kInternal,
                          "and 'y' (bytes [256, 768), steps 1..2) share bytes");
  // Undeclared sharing at the boundary step is a collision.
  ip[1].inplace_of = -1;
  q.offsets[1] = 0;
  gk::test::require_error(verify_plan(ip, q), StatusCode::kInternal,
                          "and 'y' (bytes [0, 512), steps 1..2) share bytes");
}

TEST_CASE("planner: graph input pins I/O, takes aliases and in-place from traits", "[planner]") {
  GraphMaker m;
  ValueId x = m.input("x", 4096);
  ValueId a = m.node(kConvLike, {x}, 8192);    // step 0
  ValueId r = m.node(kRelu, {a}, 8192);        // step 1: a dies here -> in place
  ValueId v = m.node(kReshape, {r}, 8192);     // step 2: view of r
  ValueId b = m.node(kConvLike, {v}, 8192);    // step 3
  ValueId c = m.node(kAdd, {b, r}, 8192);      // step 4: b dies here; r too
  ValueId y = m.node(kRelu, {c}, 8192);        // step 5: graph output, never in place
  m.output(y);
  auto in = plan_input_from_graph(m.g, m.bytes);
  REQUIRE(in.ok());
  const auto& t = *in;
  CHECK(t[x].pinned);
  CHECK(t[y].pinned);
  CHECK(t[r].inplace_of == a);
  CHECK(t[v].alias_of == r);
  CHECK(t[c].inplace_of == b);
  CHECK(t[y].inplace_of == -1);
  CHECK(t[r].first_use == 1);
  CHECK(t[r].last_use == 4);
  MemoryPlan p = plan_ok(t);
  CHECK(p.offsets[r] == p.offsets[a]);
  CHECK(p.offsets[v] == p.offsets[r]);
  CHECK(p.offsets[c] == p.offsets[b]);
  CHECK(p.arena_bytes == 2 * 8192);
  CHECK(p.lower_bound_bytes == 2 * 8192);
  std::string table = format_plan(t, p, true);
  CHECK_THAT(table, Catch::Contains("view of " + m.g.values[r].name));
  CHECK_THAT(table, Catch::Contains("lower bound 16.0 KiB"));
  // Wrong size vector.
  std::vector<size_t> short_sizes(2, 0);
  gk::test::require_error(plan_input_from_graph(m.g, short_sizes), StatusCode::kInvalidArgument,
                          "memory plan: 2 value sizes for");
}

// Random lifetimes with random views, in-place candidates and pinned tensors:
// every plan verifies and never beats the lower bound.
TEST_CASE("planner property: random lifetimes always verify", "[planner][property]") {
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    std::mt19937 rng(seed);
    const int n = 1 + static_cast<int>(rng() % 60);
    const int steps = 1 + static_cast<int>(rng() % 40);
    std::vector<PlanTensor> t;
    for (int i = 0; i < n; ++i) {
      int first = static_cast<int>(rng() % steps);
      int last = first + static_cast<int>(rng() % (steps - first));
      size_t bytes = rng() % 10 == 0 ? 0 : 1 + rng() % (1 << 20);
      PlanTensor x = tensor(fmt::format("t{}", i), bytes, first, last);
      x.pinned = rng() % 10 == 0;
      if (i > 0 && rng() % 8 == 0) {
        int j = static_cast<int>(rng() % i);
        if (!t[j].pinned) {
          x.alias_of = j;
          x.bytes = t[j].bytes;
          x.pinned = false;
          x.first_use = std::max(x.first_use, t[j].first_use);
          x.last_use = std::max(x.last_use, x.first_use);
        }
      }
      if (i > 0 && rng() % 4 == 0) x.inplace_of = static_cast<int>(rng() % i);
      t.push_back(x);
    }
    auto p = plan_memory(t);
    INFO("seed " << seed);
    REQUIRE(p.ok());
    Status s = verify_plan(t, *p);
    INFO(s.to_string());
    REQUIRE(s.ok());
    REQUIRE(p->arena_bytes >= p->lower_bound_bytes);
    REQUIRE(p->naive_bytes >= p->lower_bound_bytes);
  }
}

// Network-shaped graphs: stages of shrinking activations, residual blocks
// (conv, relu in place, conv, add in place), views, and inception-like branches.
// The planner must stay within 15% of the lower bound on every one.
TEST_CASE("planner property: realistic chains stay within 1.15x of the lower bound", "[planner][property]") {
  for (uint32_t seed = 1; seed <= 1000; ++seed) {
    std::mt19937 rng(seed);
    GraphMaker m;
    size_t act = size_t{64} << (10 + rng() % 8);  // 64 KiB .. 8 MiB
    ValueId x = m.input("x", act / 2);
    x = m.node(kConvLike, {x}, act);
    const int stages = 2 + static_cast<int>(rng() % 4);
    for (int s = 0; s < stages; ++s) {
      const int blocks = 1 + static_cast<int>(rng() % 4);
      for (int b = 0; b < blocks; ++b) {
        switch (rng() % 3) {
          case 0: {  // residual block
            ValueId a = m.node(kConvLike, {x}, act);
            a = m.node(kRelu, {a}, act);
            a = m.node(kConvLike, {a}, act);
            x = m.node(kAdd, {a, x}, act);
            x = m.node(kRelu, {x}, act);
            break;
          }
          case 1: {  // branches joined by a concat-like node
            // Channels split among branches: sizes stay multiples of 4 KiB, as
            // 4-byte elements times channel counts times pixels are.
            const int branches = 2 + static_cast<int>(rng() % 3);
            const size_t part = act / branches / 4096 * 4096;
            std::vector<ValueId> outs;
            for (int k = 0; k < branches; ++k) {
              ValueId a = m.node(kConvLike, {x}, part);
              if (rng() % 2) a = m.node(kRelu, {a}, part);
              outs.push_back(a);
            }
            x = m.node(kConvLike, outs, part * branches);
            break;
          }
          default: {  // plain conv, optional view
            x = m.node(kConvLike, {x}, act);
            if (rng() % 2) x = m.node(kReshape, {x}, act);
            x = m.node(kRelu, {x}, act);
          }
        }
        act = m.bytes[x];
      }
      // Downsample: half the bytes (stride 2 doubles channels, quarters pixels).
      act /= 2;
      x = m.node(kConvLike, {x}, act);
    }
    m.output(m.node(kConvLike, {x}, 4096));
    auto in = plan_input_from_graph(m.g, m.bytes);
    REQUIRE(in.ok());
    MemoryPlan p = plan_ok(*in);
    const double ratio = static_cast<double>(p.arena_bytes) / static_cast<double>(p.lower_bound_bytes);
    INFO("seed " << seed << " arena " << p.arena_bytes << " lower bound " << p.lower_bound_bytes << "\n"
                 << format_plan(*in, p, true));
    REQUIRE(ratio >= 1.0);
    REQUIRE(ratio <= 1.15);
  }
}

}  // namespace gk

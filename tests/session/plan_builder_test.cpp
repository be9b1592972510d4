// build_plan() on its own: what a plan holds for small graphs whose placement is
// worked out by hand (which values are inputs, outputs, arena tensors, aliases
// and plan-time constants; which steps launch; why a plan cannot be captured).
#include "proto_models.h"
#include "runtime/plan.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

namespace gk {
namespace {

using namespace proto_models;

Model load(const onnx::ModelProto& m) {
  std::string bytes;
  m.SerializeToString(&bytes);
  auto model = load_model_from_memory(bytes.data(), bytes.size(), "");
  if (!model.ok()) FAIL(model.status().message());
  return std::move(*model);
}

Kit cpu_kit() {
  KitOptions o;
  o.device.kind = BackendKind::kCpu;
  o.cpu_kernels = cpu_kernel_tables();
  auto kit = Kit::open(std::move(o));
  if (!kit.ok()) FAIL(kit.status().message());
  return *kit;
}

const ValuePlan& value(const Model& m, const Plan& p, const std::string& name) {
  const ValueId v = m.graph.find(name);
  REQUIRE(v != kNoValue);
  return p.values[v];
}

// x[2,3] -> Relu -> r -> Reshape(r, shape) -> s -> Add(s, c) -> y, where shape is
// Shape(x) through Identity: Shape runs at plan time, Reshape is a view of r.
onnx::ModelProto chain_model() {
  auto m = test::make_model(8, 17);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {2, 3});
  add_info(g->mutable_output(), "y", kFloat, {2, 3});
  add_float_initializer(g, "c", {1, 3}, {1, 2, 3});
  add_node(g, "Relu", {"x"}, {"r"}, "relu");
  add_node(g, "Shape", {"x"}, {"shape0"}, "shape");
  add_node(g, "Identity", {"shape0"}, {"shape1"}, "identity");
  add_node(g, "Reshape", {"r", "shape1"}, {"s"}, "reshape");
  add_node(g, "Add", {"s", "c"}, {"y"}, "add");
  return m;
}

}  // namespace

TEST_CASE("build_plan: placement, plan-time values and launched steps of a small chain", "[session][planner]") {
  const Model m = load(chain_model());
  Kit kit = cpu_kit();
  const std::vector<ValueId> inputs = m.graph.inputs;
  const std::string path = "chain.onnx", prefix;
  const PlanRequest request{m.graph, inputs, kit, kit, path, prefix};
  auto built = build_plan(request, {{DType::kF32, {2, 3}}}, {nullptr});
  REQUIRE(built.ok());
  const Plan& p = **built;

  CHECK(value(m, p, "x").where == Where::kInput);
  CHECK(value(m, p, "y").where == Where::kOutput);
  CHECK(value(m, p, "y").type.shape == Shape{2, 3});
  CHECK(value(m, p, "r").where == Where::kArena);
  // Reshape's output is r's bytes: an alias, and its step launches nothing.
  CHECK(value(m, p, "s").where == Where::kAlias);
  CHECK(value(m, p, "s").alias_root == m.graph.find("r"));
  // Shape and Identity of a shape are evaluated while planning: [2, 3] on the host.
  const ValuePlan& shape = value(m, p, "shape1");
  REQUIRE(shape.host);
  CHECK(shape.host->to_i64_vector() == std::vector<int64_t>{2, 3});
  CHECK(value(m, p, "c").where == Where::kConstant);

  // Relu, Reshape (skipped) and Add are steps; Shape and Identity are not.
  REQUIRE(p.steps.size() == 3);
  CHECK_FALSE(p.steps[0].skip);
  CHECK(p.steps[1].skip);
  CHECK_FALSE(p.steps[2].skip);
  CHECK(p.summary.device_nodes == 3);
  CHECK(p.summary.host_nodes == 2);
  CHECK(p.summary.dynamic_nodes == 0);
  // r is the only arena tensor: 6 floats.
  CHECK(p.memory.arena_bytes >= 24);
  CHECK(p.uncapturable.empty());
  REQUIRE(p.step_kernels != nullptr);
  CHECK(p.step_kernels[0].find(nullptr, 0) == nullptr);  // nothing resolved before a run
}

TEST_CASE("build_plan: a data-dependent shape makes its step dynamic and the plan uncapturable",
          "[session][planner]") {
  auto proto = test::make_model(8, 13);
  auto* g = proto.mutable_graph();
  add_info(g->mutable_input(), "x", kFloat, {4});
  add_info(g->mutable_output(), "y", kInt64, {1, -1});
  add_node(g, "NonZero", {"x"}, {"y"}, "nz");
  const Model m = load(proto);
  Kit kit = cpu_kit();
  const std::vector<ValueId> inputs = m.graph.inputs;
  const std::string path, prefix;
  auto built = build_plan(PlanRequest{m.graph, inputs, kit, kit, path, prefix}, {{DType::kF32, {4}}}, {nullptr});
  REQUIRE(built.ok());
  const Plan& p = **built;
  REQUIRE(p.steps.size() == 1);
  CHECK(p.steps[0].dynamic);
  CHECK(value(m, p, "y").where == Where::kDynamic);
  CHECK(p.summary.dynamic_nodes == 1);
  CHECK_THAT(p.uncapturable, Catch::Contains("node 'nz' (NonZero)"));
  CHECK_THAT(p.uncapturable, Catch::Contains("known only during the run"));
}

TEST_CASE("build_plan: input shapes the graph cannot take are a named inference error", "[session][planner][errors]") {
  const Model m = load(chain_model());
  Kit kit = cpu_kit();
  const std::vector<ValueId> inputs = m.graph.inputs;
  const std::string path = "chain.onnx", prefix;
  // x as [2, 4]: Add cannot broadcast [2, 4] with c's [1, 3].
  auto built = build_plan(PlanRequest{m.graph, inputs, kit, kit, path, prefix}, {{DType::kF32, {2, 4}}}, {nullptr});
  test::require_error(built, StatusCode::kInvalidModel, "node 'add' (Add)");
  CHECK_THAT(built.status().message(), Catch::Contains("chain.onnx"));
}

}  // namespace gk

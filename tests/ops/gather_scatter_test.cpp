// Gather / scatter / OneHot on hand-computed cases: negative and out-of-range
// indices, int32 indices, f16 data, reductions with duplicate indices.
#include "tests/ops/op_builders.h"
#include "tests/ops/op_harness.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

using namespace gk;
using namespace gk::test;

namespace {

HostTensor i32(Shape s, std::vector<int32_t> v) { return HostTensor::from_vector(DType::kI32, std::move(s), v); }

}  // namespace

TEST_CASE("Gather: axes, negative indices, int32 indices, half data, out of range", "[ops][gather_scatter]") {
  auto data = f32({3, 2}, {1, 2, 3, 4, 5, 6});
  auto r = run_op_all_backends(call("Gather", 13, {data, i64({2, 2}, {0, -1, 1, 2})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 2, 2});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{1, 2, 5, 6, 3, 4, 5, 6});

  OpCall c = call("Gather", 13, {data, i32({1}, {-2})});
  c.attrs.set("axis", int_attr(1));
  auto r1 = run_op_all_backends(c);
  REQUIRE(r1.ok());
  CHECK(r1->outputs[0].shape() == Shape{3, 1});
  CHECK(values_of<float>(r1->outputs[0]) == std::vector<float>{1, 3, 5});

  // f16 rows of 4 elements: the copy widens to 8-byte words.
  auto half = HostTensor::from_vector(DType::kF16, {2, 4}, std::vector<uint16_t>{1, 2, 3, 4, 5, 6, 7, 8});
  auto rh = run_op_all_backends(call("Gather", 13, {half, i64({3}, {1, 0, 1})}));
  REQUIRE(rh.ok());
  CHECK(values_of<uint16_t>(rh->outputs[0]) == std::vector<uint16_t>{5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8});

  auto oob = run_op_all_backends(call("Gather", 13, {data, i64({1}, {3})}));
  require_error(oob, StatusCode::kOutOfRange, "an index was out of range");
  CHECK(run_op_all_backends(call("Gather", 13, {data, i64({1}, {-4})})).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("GatherElements and GatherND", "[ops][gather_scatter]") {
  OpCall g = call("GatherElements", 13, {f32({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {0, 0, 1, 0})});
  g.attrs.set("axis", int_attr(1));
  auto r = run_op_all_backends(g);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{1, 1, 4, 3});
  g.inputs[1] = i64({2, 2}, {0, 0, 2, 0});
  CHECK(run_op_all_backends(g).status().code() == StatusCode::kOutOfRange);

  // batch_dims 1: data [2, 2, 2], indices [[1], [0]] → [[2, 3], [4, 5]].
  OpCall nd = call("GatherND", 13, {i32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}), i64({2, 1}, {1, 0})});
  nd.attrs.set("batch_dims", int_attr(1));
  auto rn = run_op_all_backends(nd);
  REQUIRE(rn.ok());
  CHECK(rn->outputs[0].shape() == Shape{2, 2});
  CHECK(values_of<int32_t>(rn->outputs[0]) == std::vector<int32_t>{2, 3, 4, 5});
  // Full tuples with a negative entry: data[1][-1] = 3.
  auto rt = run_op_all_backends(call("GatherND", 13, {i32({2, 2}, {0, 1, 2, 3}), i64({1, 2}, {1, -1})}));
  REQUIRE(rt.ok());
  CHECK(values_of<int32_t>(rt->outputs[0]) == std::vector<int32_t>{3});
}

TEST_CASE("ScatterElements: reductions accumulate duplicates in order", "[ops][gather_scatter]") {
  auto data = f32({1, 5}, {1, 2, 3, 4, 5});
  auto idx = i64({1, 3}, {1, 1, -1});
  auto upd = f32({1, 3}, {10, 20, 30});
  auto run_reduction = [&](const char* reduction) {
    OpCall c = call("ScatterElements", 18, {data, idx, upd});
    c.attrs.set("axis", int_attr(1));
    c.attrs.set("reduction", string_attr(reduction));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    return values_of<float>(r->outputs[0]);
  };
  CHECK(run_reduction("add") == std::vector<float>{1, 32, 3, 4, 35});
  CHECK(run_reduction("mul") == std::vector<float>{1, 400, 3, 4, 150});
  CHECK(run_reduction("max") == std::vector<float>{1, 20, 3, 4, 30});
  CHECK(run_reduction("min") == std::vector<float>{1, 2, 3, 4, 5});

  // The spec's axis-0 example, through the deprecated Scatter at opset 10.
  auto r = run_op_all_backends({"Scatter", "", 10, {},
                   {f32({3, 3}, std::vector<float>(9, 0)), i64({2, 3}, {1, 0, 2, 0, 2, 1}),
                    f32({2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f})}});
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f});

  OpCall max16 = call("ScatterElements", 16, {data, idx, upd});
  max16.attrs.set("reduction", string_attr("max"));  // max arrived in opset 18
  CHECK(run_op_all_backends(max16).status().code() == StatusCode::kInvalidModel);
  OpCall oob = call("ScatterElements", 13, {data, i64({1, 1}, {1}), f32({1, 1}, {7})});
  CHECK(run_op_all_backends(oob).status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("ScatterND: slices, duplicates under add, int32 data", "[ops][gather_scatter]") {
  // data [4, 2], tuples of 1 index select rows; row 1 is hit twice.
  auto data = i32({4, 2}, {1, 1, 1, 1, 1, 1, 1, 1});
  auto idx = i64({3, 1}, {1, 3, 1});
  auto upd = i32({3, 2}, {10, 20, 30, 40, 50, 60});
  OpCall add = call("ScatterND", 16, {data, idx, upd});
  add.attrs.set("reduction", string_attr("add"));
  auto r = run_op_all_backends(add);
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{1, 1, 61, 81, 1, 1, 31, 41});

  auto plain = run_op_all_backends(call("ScatterND", 13, {data, i64({2, 2}, {0, 1, -1, 0}), i32({2}, {7, 9})}));
  REQUIRE(plain.ok());
  CHECK(values_of<int32_t>(plain->outputs[0]) == std::vector<int32_t>{1, 7, 1, 1, 1, 1, 9, 1});
  CHECK(run_op_all_backends(call("ScatterND", 13, {data, i64({1, 1}, {4}), i32({1, 2}, {0, 0})})).status().code() ==
        StatusCode::kOutOfRange);
}

TEST_CASE("OneHot: negative and out-of-range indices, axis, float indices", "[ops][gather_scatter]") {
  // Index 3 is outside [-3, 3): an all-off row (the spec), not an error.
  auto r = run_op_all_backends(call("OneHot", 11, {i64({3}, {0, -1, 3}), i64({}, {3}), f32({2}, {-1, 5})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{3, 3});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{5, -1, -1, -1, -1, 5, -1, -1, -1});
  OpCall a = call("OneHot", 11, {f32({2}, {1.9f, 0}), f32({}, {2}), i64({2}, {0, 1})});
  a.attrs.set("axis", int_attr(0));
  auto ra = run_op_all_backends(a);
  REQUIRE(ra.ok());
  CHECK(ra->outputs[0].shape() == Shape{2, 2});
  CHECK(values_of<int64_t>(ra->outputs[0]) == std::vector<int64_t>{0, 1, 1, 0});
}

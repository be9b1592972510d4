// Shape and constant ops on hand-computed cases: opset forms, dtypes, errors.
#include "tests/ops/op_builders.h"
#include "tests/ops/op_harness.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

using namespace gk;
using namespace gk::test;

namespace {

std::vector<float> iota_f(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i);
  return v;
}

}  // namespace

TEST_CASE("Reshape: 0 copies a dim, -1 is inferred, allowzero keeps 0", "[ops][shape]") {
  OpCall c = call("Reshape", 14, {f32({2, 3, 4}, iota_f(24)), i64({2}, {0, -1})});
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 12});
  CHECK(values_of<float>(r->outputs[0]) == iota_f(24));

  OpCall z = call("Reshape", 14, {f32({0, 3}, {}), i64({2}, {3, 0})});
  z.attrs.set("allowzero", int_attr(1));
  auto rz = run_op_all_backends(z);
  REQUIRE(rz.ok());
  CHECK(rz->outputs[0].shape() == Shape{3, 0});

  OpCall bad = call("Reshape", 14, {f32({2, 3}, iota_f(6)), i64({2}, {-1, -1})});
  auto rb = run_op_all_backends(bad);
  require_error(rb, StatusCode::kInvalidModel, "shape has more than one -1");
  OpCall wrong = call("Reshape", 13, {f32({2, 3}, iota_f(6)), i64({1}, {4})});
  CHECK(run_op_all_backends(wrong).status().code() == StatusCode::kInvalidModel);
  // A target whose element count overflows int64 (the run fuzzer's finding) is refused, not wrapped.
  OpCall huge = call("Reshape", 14, {f32({2, 3}, iota_f(6)), i64({3}, {144398432587968513, 144117387638276773, -1})});
  require_error(run_op_all_backends(huge), StatusCode::kInvalidModel, "element count overflows int64");
  // The shape input must be host-known: a plan-time requirement, named.
  OpCall unknown = call("Reshape", 13, {f32({2, 3}, iota_f(6)), i64({1}, {6})});
  unknown.inputs_host_known = false;
  CHECK(run_op_all_backends(unknown).status().code() == StatusCode::kUnimplemented);
}

TEST_CASE("Flatten, Squeeze and Unsqueeze across opset forms", "[ops][shape]") {
  OpCall f = call("Flatten", 13, {f32({2, 3, 4}, iota_f(24))});
  f.attrs.set("axis", int_attr(-1));
  auto rf = run_op_all_backends(f);
  REQUIRE(rf.ok());
  CHECK(rf->outputs[0].shape() == Shape{6, 4});
  f.attrs.set("axis", int_attr(0));
  CHECK(run_op_all_backends(f)->outputs[0].shape() == Shape{1, 24});

  OpCall s11 = call("Squeeze", 11, {f32({1, 3, 1}, iota_f(3))});
  s11.attrs.set("axes", ints_attr({-1}));
  CHECK(run_op_all_backends(s11)->outputs[0].shape() == Shape{1, 3});
  OpCall s13 = call("Squeeze", 13, {f32({1, 3, 1}, iota_f(3))});
  CHECK(run_op_all_backends(s13)->outputs[0].shape() == Shape{3});  // no axes: every 1
  OpCall sbad = call("Squeeze", 13, {f32({1, 3, 1}, iota_f(3)), i64({1}, {1})});
  CHECK(run_op_all_backends(sbad).status().code() == StatusCode::kInvalidModel);

  OpCall u13 = call("Unsqueeze", 13, {f32({3}, iota_f(3)), i64({2}, {0, -1})});
  auto ru = run_op_all_backends(u13);
  REQUIRE(ru.ok());
  CHECK(ru->outputs[0].shape() == Shape{1, 3, 1});
  CHECK(values_of<float>(ru->outputs[0]) == iota_f(3));
  OpCall u11 = call("Unsqueeze", 11, {f32({2, 3}, iota_f(6))});
  u11.attrs.set("axes", ints_attr({1}));
  CHECK(run_op_all_backends(u11)->outputs[0].shape() == Shape{2, 1, 3});
}

TEST_CASE("Identity and Dropout copy, the mask is ones of the opset's type", "[ops][shape]") {
  auto x = HostTensor::from_vector(DType::kI64, {3}, std::vector<int64_t>{7, -8, 9});
  auto ri = run_op_all_backends(call("Identity", 16, {x}));
  REQUIRE(ri.ok());
  CHECK(values_of<int64_t>(ri->outputs[0]) == std::vector<int64_t>{7, -8, 9});

  OpCall d12 = call("Dropout", 13, {f32({2}, {1.5f, -2.f})}, 2);
  auto r12 = run_op_all_backends(d12);
  REQUIRE(r12.ok());
  CHECK(values_of<float>(r12->outputs[0]) == std::vector<float>{1.5f, -2.f});
  CHECK(r12->outputs[1].dtype() == DType::kBool);
  CHECK(values_of<bool>(r12->outputs[1]) == std::vector<bool>{true, true});

  OpCall d7 = call("Dropout", 7, {f32({2}, {1.5f, -2.f})}, 2);
  auto r7 = run_op_all_backends(d7);
  REQUIRE(r7.ok());
  CHECK(r7->outputs[1].dtype() == DType::kF32);
  CHECK(values_of<float>(r7->outputs[1]) == std::vector<float>{1.f, 1.f});

  OpCall train = call("Dropout", 13, {f32({2}, {1.f, 2.f}), f32({}, {0.5f}),
                                       HostTensor::from_vector(DType::kBool, {}, std::vector<uint8_t>{1})});
  CHECK(run_op_all_backends(train).status().code() == StatusCode::kUnimplemented);
}

TEST_CASE("Constant attribute forms, Shape start/end, Size", "[ops][shape]") {
  OpCall ints = call("Constant", 13, {});
  ints.attrs.set("value_ints", ints_attr({4, -5, 6}));
  auto r = run_op_all_backends(ints);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{3});
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{4, -5, 6});

  // Larger than the launch-parameter path: uploaded.
  OpCall big = call("Constant", 13, {});
  big.attrs.set("value", tensor_attr(f32({100}, iota_f(100))));
  auto rb = run_op_all_backends(big);
  REQUIRE(rb.ok());
  CHECK(values_of<float>(rb->outputs[0]) == iota_f(100));

  OpCall sh = call("Shape", 15, {f32({2, 3, 4, 5}, iota_f(120))});
  sh.attrs.set("start", int_attr(1));
  sh.attrs.set("end", int_attr(-1));
  CHECK(values_of<int64_t>(run_op_all_backends(sh)->outputs[0]) == std::vector<int64_t>{3, 4});
  sh.attrs.set("start", int_attr(-10));  // clamps to 0
  sh.attrs.set("end", int_attr(10));
  CHECK(values_of<int64_t>(run_op_all_backends(sh)->outputs[0]) == std::vector<int64_t>{2, 3, 4, 5});
  sh.attrs.set("start", int_attr(3));
  sh.attrs.set("end", int_attr(1));
  CHECK(run_op_all_backends(sh)->outputs[0].shape() == Shape{0});

  auto size = run_op_all_backends(call("Size", 13, {f32({2, 3, 4, 5}, iota_f(120))}));
  REQUIRE(size.ok());
  CHECK(size->outputs[0].shape() == Shape{});
  CHECK(values_of<int64_t>(size->outputs[0]) == std::vector<int64_t>{120});
}

TEST_CASE("ConstantOfShape, Range and EyeLike values", "[ops][shape]") {
  OpCall cs = call("ConstantOfShape", 20, {i64({2}, {2, 3})});
  cs.attrs.set("value", tensor_attr(HostTensor::from_vector(DType::kI32, {1}, std::vector<int32_t>{-7})));
  auto rc = run_op_all_backends(cs);
  REQUIRE(rc.ok());
  CHECK(rc->outputs[0].dtype() == DType::kI32);
  CHECK(values_of<int32_t>(rc->outputs[0]) == std::vector<int32_t>(6, -7));
  OpCall cz = call("ConstantOfShape", 9, {i64({1}, {3})});
  CHECK(values_of<float>(run_op_all_backends(cz)->outputs[0]) == std::vector<float>{0, 0, 0});

  auto ri = run_op_all_backends(call("Range", 11, {i64({}, {10}), i64({}, {4}), i64({}, {-2})}));
  REQUIRE(ri.ok());
  CHECK(values_of<int64_t>(ri->outputs[0]) == std::vector<int64_t>{10, 8, 6});
  auto rc3 = run_op_all_backends(call("Range", 11, {i64({}, {0}), i64({}, {10}), i64({}, {3})}));
  CHECK(values_of<int64_t>(rc3->outputs[0]) == std::vector<int64_t>{0, 3, 6, 9});
  auto rf = run_op_all_backends(call("Range", 11, {f32({}, {1.f}), f32({}, {2.f}), f32({}, {0.25f})}));
  REQUIRE(rf.ok());
  CHECK(values_of<float>(rf->outputs[0]) == std::vector<float>{1.f, 1.25f, 1.5f, 1.75f});
  auto empty = run_op_all_backends(call("Range", 11, {i64({}, {5}), i64({}, {1}), i64({}, {1})}));
  CHECK(empty->outputs[0].shape() == Shape{0});
  CHECK(run_op_all_backends(call("Range", 11, {i64({}, {0}), i64({}, {3}), i64({}, {0})})).status().code() ==
        StatusCode::kInvalidModel);
  // Values at the ends of int64: i * delta passes int64 though every value fits.
  auto edge = run_op_all_backends(call("Range", 11, {i64({}, {INT64_MIN}), i64({}, {INT64_MAX}), i64({}, {INT64_MAX})}));
  REQUIRE(edge.ok());
  CHECK(values_of<int64_t>(edge->outputs[0]) == std::vector<int64_t>{INT64_MIN, -1, INT64_MAX - 1});
  require_error(run_op_all_backends(call("Range", 11, {i64({}, {INT64_MIN}), i64({}, {INT64_MAX}), i64({}, {1})})),
                StatusCode::kInvalidModel, "more than 2^63 values");

  OpCall eye = call("EyeLike", 9, {HostTensor::from_vector(DType::kI32, {3, 4}, std::vector<int32_t>(12, 5))});
  eye.attrs.set("k", int_attr(1));
  auto re = run_op_all_backends(eye);
  REQUIRE(re.ok());
  CHECK(values_of<int32_t>(re->outputs[0]) == std::vector<int32_t>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
  eye.attrs.set("dtype", int_attr(10));  // float16
  eye.attrs.set("k", int_attr(-1));
  auto rh = run_op_all_backends(eye);
  REQUIRE(rh.ok());
  CHECK(rh->outputs[0].dtype() == DType::kF16);
  CHECK(rh->outputs[0].to_f64_vector() == std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
}

// Data-movement ops on hand-computed cases: narrow and wide element types, opset
// forms, negative steps/pads, index maps checked against direct index arithmetic.
#include "tests/ops/op_builders.h"
#include "tests/ops/op_harness.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <tuple>

using namespace gk;
using namespace gk::test;

namespace {

template <typename T>
std::vector<T> iota(int n, T start = 0) {
  std::vector<T> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<T>(start + i);
  return v;
}
HostTensor u8(Shape s, std::vector<uint8_t> v) { return HostTensor::from_vector(DType::kU8, std::move(s), v); }

}  // namespace

TEST_CASE("Transpose: default reverse, 1-byte and 2-byte elements", "[ops][data_movement]") {
  auto r = run_op_all_backends(call("Transpose", 13, {f32({2, 3}, iota<float>(6))}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{3, 2});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{0, 3, 1, 4, 2, 5});

  // perm [2, 0, 1] on [2, 3, 4] uint8: out[k][i][j] = in[i][j][k].
  OpCall c = call("Transpose", 13, {u8({2, 3, 4}, iota<uint8_t>(24))});
  c.attrs.set("perm", ints_attr({2, 0, 1}));
  auto r8 = run_op_all_backends(c);
  REQUIRE(r8.ok());
  CHECK(r8->outputs[0].shape() == Shape{4, 2, 3});
  std::vector<uint8_t> want;
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) want.push_back(static_cast<uint8_t>(i * 12 + j * 4 + k));
  CHECK(values_of<uint8_t>(r8->outputs[0]) == want);

  // A permutation that keeps the inner dim widens the copy: same values.
  OpCall h = call("Transpose", 13, {HostTensor::from_vector(DType::kI16, {2, 3, 4}, iota<int16_t>(24))});
  h.attrs.set("perm", ints_attr({1, 0, 2}));
  auto r16 = run_op_all_backends(h);
  REQUIRE(r16.ok());
  std::vector<int16_t> w16;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 4; ++k) w16.push_back(static_cast<int16_t>(i * 12 + j * 4 + k));
  CHECK(values_of<int16_t>(r16->outputs[0]) == w16);
  c.attrs.set("perm", ints_attr({0, 0, 1}));
  CHECK(run_op_all_backends(c).status().code() == StatusCode::kInvalidModel);
}

TEST_CASE("Concat and Split: negative axis, bool, uneven and attribute forms", "[ops][data_movement]") {
  OpCall c = call("Concat", 13, {i64({2, 1}, {1, 2}), i64({2, 2}, {3, 4, 5, 6})});
  c.attrs.set("axis", int_attr(-1));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{1, 3, 4, 2, 5, 6});
  OpCall b{"Concat", "", 13, {},
           {HostTensor::from_vector(DType::kBool, {1}, std::vector<uint8_t>{1}),
            HostTensor::from_vector(DType::kBool, {0}, std::vector<uint8_t>{}),
            HostTensor::from_vector(DType::kBool, {2}, std::vector<uint8_t>{0, 1})}};
  b.attrs.set("axis", int_attr(0));
  CHECK(values_of<bool>(run_op_all_backends(b)->outputs[0]) == std::vector<bool>{true, false, true});
  OpCall mismatch = call("Concat", 13, {i64({2, 1}, {1, 2}), i64({3, 1}, {3, 4, 5})});
  mismatch.attrs.set("axis", int_attr(1));
  CHECK(run_op_all_backends(mismatch).status().code() == StatusCode::kInvalidModel);

  OpCall s18 = call("Split", 18, {f32({7}, iota<float>(7))}, 3);
  s18.attrs.set("num_outputs", int_attr(3));
  auto r18 = run_op_all_backends(s18);
  REQUIRE(r18.ok());
  CHECK(values_of<float>(r18->outputs[0]) == std::vector<float>{0, 1, 2});
  CHECK(values_of<float>(r18->outputs[1]) == std::vector<float>{3, 4, 5});
  CHECK(values_of<float>(r18->outputs[2]) == std::vector<float>{6});

  OpCall s11 = call("Split", 11, {f32({2, 3}, iota<float>(6))}, 2);
  s11.attrs.set("axis", int_attr(-1));
  s11.attrs.set("split", ints_attr({1, 2}));
  auto r11 = run_op_all_backends(s11);
  REQUIRE(r11.ok());
  CHECK(values_of<float>(r11->outputs[0]) == std::vector<float>{0, 3});
  CHECK(values_of<float>(r11->outputs[1]) == std::vector<float>{1, 2, 4, 5});

  OpCall s13 = call("Split", 13, {f32({5}, iota<float>(5)), i64({2}, {2, 2})}, 2);
  CHECK(run_op_all_backends(s13).status().code() == StatusCode::kInvalidModel);  // sums to 4, not 5
}

TEST_CASE("Slice: inputs with negative steps, clamping, the opset-1 attributes", "[ops][data_movement]") {
  // All of [0..9] backwards: start -1 → 9, end -11 → clamps to -1.
  auto r = run_op_all_backends(call("Slice", 13, {f32({10}, iota<float>(10)), i64({1}, {-1}), i64({1}, {-11}),
                                         i64({1}, {0}), i64({1}, {-1})}));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});

  // [3, 4] rows 0..3 step 2, cols 3..0 step -2 (exclusive 0): rows {0, 2}, cols {3, 1}.
  auto r2 = run_op_all_backends({"Slice", "", 13, {},
                    {f32({3, 4}, iota<float>(12)), i64({2}, {0, 3}), i64({2}, {1000, 0}), i64({2}, {0, 1}),
                     i64({2}, {2, -2})}});
  REQUIRE(r2.ok());
  CHECK(r2->outputs[0].shape() == Shape{2, 2});
  CHECK(values_of<float>(r2->outputs[0]) == std::vector<float>{3, 1, 11, 9});

  OpCall a = call("Slice", 9, {f32({3, 4}, iota<float>(12))});
  a.attrs.set("starts", ints_attr({1}));
  a.attrs.set("ends", ints_attr({-1}));
  a.attrs.set("axes", ints_attr({1}));
  auto ra = run_op_all_backends(a);
  REQUIRE(ra.ok());
  CHECK(values_of<float>(ra->outputs[0]) == std::vector<float>{1, 2, 5, 6, 9, 10});

  auto empty = run_op_all_backends(call("Slice", 13, {f32({4}, iota<float>(4)), i64({1}, {3}), i64({1}, {1})}));
  REQUIRE(empty.ok());
  CHECK(empty->outputs[0].shape() == Shape{0});
  CHECK(run_op_all_backends(call("Slice", 13, {f32({4}, iota<float>(4)), i64({1}, {0}), i64({1}, {1}), i64({1}, {0}),
                                       i64({1}, {0})}))
            .status()
            .code() == StatusCode::kInvalidModel);
}

TEST_CASE("Slice: steps near the int64 limits take one element, not an overflowed stride", "[ops][data_movement]") {
  // [3, 50]: the row stride 50 times the step 1.9e17 passes int64 (fuzz mutate);
  // INT64_MAX and INT64_MIN steps reach one row each (numpy: x[1:3:big], x[2:-10:-big]).
  const std::vector<float> x = iota<float>(150);
  for (auto [start, end, step, want] : {std::tuple{int64_t{0}, int64_t{3}, int64_t{187326003654296064}, 0},
                                        std::tuple{int64_t{1}, int64_t{3}, INT64_MAX, 1},
                                        std::tuple{int64_t{2}, int64_t{-10}, INT64_MIN, 2},
                                        std::tuple{int64_t{2}, int64_t{-10}, INT64_MIN + 1, 2}}) {
    INFO("start " << start << " end " << end << " step " << step);
    auto r = run_op_all_backends(call("Slice", 13, {f32({3, 50}, x), i64({1}, {start}), i64({1}, {end}),
                                                    i64({1}, {0}), i64({1}, {step})}));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{1, 50});
    const std::vector<float> want_row(x.begin() + 50 * want, x.begin() + 50 * (want + 1));
    CHECK(values_of<float>(r->outputs[0]) == want_row);
  }
}

TEST_CASE("Expand and Tile", "[ops][data_movement]") {
  auto r = run_op_all_backends(call("Expand", 13, {f32({3, 1}, {1, 2, 3}), i64({3}, {2, 1, 4})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 3, 4});
  std::vector<float> want;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 4; ++j) want.push_back(static_cast<float>(i + 1));
  CHECK(values_of<float>(r->outputs[0]) == want);
  CHECK(run_op_all_backends(call("Expand", 13, {f32({3}, {1, 2, 3}), i64({1}, {2})})).status().code() ==
        StatusCode::kInvalidModel);

  auto t = run_op_all_backends(call("Tile", 13, {u8({2, 2}, {1, 2, 3, 4}), i64({2}, {2, 3})}));
  REQUIRE(t.ok());
  CHECK(t->outputs[0].shape() == Shape{4, 6});
  CHECK(values_of<uint8_t>(t->outputs[0]) == std::vector<uint8_t>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4,
                                                                    1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
}

TEST_CASE("Pad: every mode, negative pads, attribute form and axes", "[ops][data_movement]") {
  auto x = f32({3}, {1, 2, 3});
  auto run_mode = [&](const char* mode, std::vector<int64_t> pads) {
    OpCall c = call("Pad", 19, {x, i64({2}, std::move(pads)), f32({}, {9})});
    c.attrs.set("mode", string_attr(mode));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    return values_of<float>(r->outputs[0]);
  };
  CHECK(run_mode("constant", {2, 1}) == std::vector<float>{9, 9, 1, 2, 3, 9});
  // numpy: reflect past the edge keeps mirroring: [1 2 3] → 3 2 | 1 2 3 | 2 1 2
  CHECK(run_mode("reflect", {2, 3}) == std::vector<float>{3, 2, 1, 2, 3, 2, 1, 2});
  CHECK(run_mode("edge", {2, 1}) == std::vector<float>{1, 1, 1, 2, 3, 3});
  CHECK(run_mode("wrap", {4, 2}) == std::vector<float>{3, 1, 2, 3, 1, 2, 3, 1, 2});
  CHECK(run_mode("constant", {-1, 1}) == std::vector<float>{2, 3, 9});

  OpCall a = call("Pad", 2, {HostTensor::from_vector(DType::kI32, {2, 2}, std::vector<int32_t>{1, 2, 3, 4})});
  a.attrs.set("pads", ints_attr({0, 1, 1, 0}));
  Attribute v;
  v.kind = Attribute::Kind::kFloat;
  v.f = -5.f;
  a.attrs.set("value", v);
  auto ra = run_op_all_backends(a);
  REQUIRE(ra.ok());
  CHECK(ra->outputs[0].shape() == Shape{3, 3});
  CHECK(values_of<int32_t>(ra->outputs[0]) == std::vector<int32_t>{-5, 1, 2, -5, 3, 4, -5, -5, -5});

  OpCall ax = call("Pad", 18, {f32({2, 2}, {1, 2, 3, 4}), i64({2}, {1, 0}), std::nullopt, i64({1}, {-1})});
  ax.attrs.set("mode", string_attr("edge"));
  auto rx = run_op_all_backends(ax);
  REQUIRE(rx.ok());
  CHECK(values_of<float>(rx->outputs[0]) == std::vector<float>{1, 1, 2, 3, 3, 4});
}

TEST_CASE("DepthToSpace / SpaceToDepth round trip, against the spec's reshape/transpose", "[ops][data_movement]") {
  const int64_t N = 1, C = 8, H = 2, W = 3, b = 2, c = C / (b * b);
  auto x = f32({N, C, H, W}, iota<float>(48));
  for (const char* mode : {"DCR", "CRD"}) {
    OpCall d = call("DepthToSpace", 13, {x});
    d.attrs.set("blocksize", int_attr(b));
    d.attrs.set("mode", string_attr(mode));
    auto r = run_op_all_backends(d);
    REQUIRE(r.ok());
    REQUIRE(r->outputs[0].shape() == Shape{N, c, H * b, W * b});
    auto got = values_of<float>(r->outputs[0]);
    bool dcr = std::string(mode) == "DCR";
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t y = 0; y < H * b; ++y)
        for (int64_t xx = 0; xx < W * b; ++xx) {
          int64_t b1 = y % b, b2 = xx % b, h = y / b, w = xx / b;
          int64_t src_c = dcr ? (b1 * b + b2) * c + ci : ci * b * b + b1 * b + b2;
          CHECK(got[(ci * H * b + y) * W * b + xx] == static_cast<float>((src_c * H + h) * W + w));
        }
    if (dcr) {
      OpCall s = call("SpaceToDepth", 13, {r->outputs[0]});
      s.attrs.set("blocksize", int_attr(b));
      auto back = run_op_all_backends(s);
      REQUIRE(back.ok());
      CHECK(values_of<float>(back->outputs[0]) == iota<float>(48));
    }
  }
}

TEST_CASE("Pad: pads whose sum with the dim overflows int64 are a named error", "[ops][data_movement]") {
  OpCall c = call("Pad", 19, {f32({2, 2}, {1, 2, 3, 4}), i64({4}, {0, INT64_MAX, 0, 1})});
  require_error(run_op_all_backends(c), StatusCode::kInvalidModel, "on axis 1 (dim 2) overflow int64");
}

TEST_CASE("DepthToSpace / SpaceToDepth refuse a blocksize or dims that overflow int64", "[ops][data_movement]") {
  OpCall big = call("DepthToSpace", 13, {f32({1, 4, 2, 2}, std::vector<float>(16))});
  big.attrs.set("blocksize", int_attr(int64_t{1} << 21));
  require_error(run_op_all_backends(big), StatusCode::kInvalidModel, "blocksize 2097152 must be in [1, 2^20]");
  // Empty tensors may declare any other dim: C = 0 passes the divisibility check.
  const int64_t huge = int64_t{1} << 62;
  OpCall d = call("DepthToSpace", 13, {f32({1, 0, huge, 1}, {})});
  d.attrs.set("blocksize", int_attr(4));
  require_error(run_op_all_backends(d), StatusCode::kInvalidModel, "times blocksize 4 overflows int64");
  OpCall s = call("SpaceToDepth", 13, {f32({0, huge, 4, 4}, {})});
  s.attrs.set("blocksize", int_attr(4));
  require_error(run_op_all_backends(s), StatusCode::kInvalidModel, "times blocksize^2 16 overflows int64");
}

TEST_CASE("Trilu with k on the device, ReverseSequence", "[ops][data_movement]") {
  // Two 3x3 matrices of ones; upper with k = 1 keeps col - row >= 1.
  OpCall t = call("Trilu", 14, {f32({2, 3, 3}, std::vector<float>(18, 1)), i64({}, {1})});
  t.inputs_host_known = false;
  auto r = run_op_all_backends(t);
  REQUIRE(r.ok());
  std::vector<float> one{0, 1, 1, 0, 0, 1, 0, 0, 0};
  std::vector<float> want = one;
  want.insert(want.end(), one.begin(), one.end());
  CHECK(values_of<float>(r->outputs[0]) == want);
  t.attrs.set("upper", int_attr(0));
  t.inputs[1] = i64({}, {-1});
  CHECK(values_of<float>(run_op_all_backends(t)->outputs[0]) ==
        std::vector<float>{0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 0});

  // The spec's example: time_axis 0, batch_axis 1, lens [4, 3, 2, 1] on 4x4.
  std::vector<float> x{0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15};
  auto rs = run_op_all_backends(call("ReverseSequence", 10, {f32({4, 4}, x), i64({4}, {4, 3, 2, 1})}));
  REQUIRE(rs.ok());
  CHECK(values_of<float>(rs->outputs[0]) ==
        std::vector<float>{3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15});
  auto bad = run_op_all_backends(call("ReverseSequence", 10, {f32({4, 4}, x), i64({4}, {5, 3, 2, 1})}));
  CHECK(bad.status().code() == StatusCode::kOutOfRange);
}

TEST_CASE("NonZero across chunks, Compress, Unique", "[ops][data_movement]") {
  auto r = run_op_all_backends(call("NonZero", 13, {f32({2, 2}, {1, 0, -0.5f, 2})}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 3});
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{0, 1, 1, 0, 0, 1});
  // -0.0 is zero; 5000 elements span several 1024-element chunks.
  std::vector<float> big(5000, 0.f);
  std::vector<int64_t> want;
  for (int i = 0; i < 5000; ++i)
    if (i % 7 == 3) {
      big[i] = 1;
      want.push_back(i);
    } else if (i % 11 == 0) {
      big[i] = -0.f;
    }
  auto rb = run_op_all_backends(call("NonZero", 13, {f32({5000}, big)}));
  REQUIRE(rb.ok());
  CHECK(values_of<int64_t>(rb->outputs[0]) == want);
  auto none = run_op_all_backends(call("NonZero", 13, {u8({3}, {0, 0, 0})}));
  REQUIRE(none.ok());
  CHECK(none->outputs[0].shape() == Shape{1, 0});

  auto cond = [](std::vector<uint8_t> v) {
    return HostTensor::from_vector(DType::kBool, {static_cast<int64_t>(v.size())}, v);
  };
  OpCall c = call("Compress", 11, {f32({3, 2}, iota<float>(6)), cond({0, 1})});
  c.attrs.set("axis", int_attr(0));  // the condition is shorter than the axis
  auto rc = run_op_all_backends(c);
  REQUIRE(rc.ok());
  CHECK(rc->outputs[0].shape() == Shape{1, 2});
  CHECK(values_of<float>(rc->outputs[0]) == std::vector<float>{2, 3});
  auto rf = run_op_all_backends(call("Compress", 11, {f32({3, 2}, iota<float>(6)), cond({1, 0, 0, 1, 1})}));
  CHECK(values_of<float>(rf->outputs[0]) == std::vector<float>{0, 3, 4});

  // The spec's examples.
  OpCall u = call("Unique", 11, {f32({6}, {2, 1, 1, 3, 4, 3})}, 4);
  auto ru = run_op_all_backends(u);
  REQUIRE(ru.ok());
  CHECK(values_of<float>(ru->outputs[0]) == std::vector<float>{1, 2, 3, 4});
  CHECK(values_of<int64_t>(ru->outputs[1]) == std::vector<int64_t>{1, 0, 3, 4});
  CHECK(values_of<int64_t>(ru->outputs[2]) == std::vector<int64_t>{1, 0, 0, 2, 3, 2});
  CHECK(values_of<int64_t>(ru->outputs[3]) == std::vector<int64_t>{2, 1, 2, 1});
  u.attrs.set("sorted", int_attr(0));
  auto rn = run_op_all_backends(u);
  REQUIRE(rn.ok());
  CHECK(values_of<float>(rn->outputs[0]) == std::vector<float>{2, 1, 3, 4});
  CHECK(values_of<int64_t>(rn->outputs[1]) == std::vector<int64_t>{0, 1, 3, 4});
  CHECK(values_of<int64_t>(rn->outputs[2]) == std::vector<int64_t>{0, 1, 1, 2, 3, 2});
  CHECK(values_of<int64_t>(rn->outputs[3]) == std::vector<int64_t>{1, 2, 2, 1});
}

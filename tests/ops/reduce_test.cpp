// Reduce*, ArgMax/ArgMin, CumSum/CumProd and TopK: hand-computed cases, a direct
// reference over many axis sets (contiguous, strided columns, non-adjacent axes),
// and the ONNX node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

const char* const kOps[] = {"ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                            "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"};

// Deterministic values in (0.5, 1.5), so Prod and LogSum stay well conditioned.
std::vector<double> ramp(int64_t n) {
  std::vector<double> v(n);
  uint32_t s = 12345;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = 0.5 + (s >> 8) / double(1 << 24);
  }
  return v;
}

// Reference: fold every element into its output cell in double, in index order.
std::vector<double> reference(const std::string& op, const Shape& shape, const std::vector<double>& x,
                              const std::vector<int64_t>& axes) {
  Shape out_shape = shape;
  for (int64_t a : axes) out_shape[a] = 1;
  const int64_t out_n = numel(out_shape);
  std::vector<std::vector<double>> cells(out_n);
  const auto strides = contiguous_strides(shape), out_strides = contiguous_strides(out_shape);
  for (int64_t i = 0; i < numel(shape); ++i) {
    int64_t o = 0;
    for (size_t d = 0; d < shape.size(); ++d) o += (out_shape[d] == 1 ? 0 : (i / strides[d]) % shape[d]) * out_strides[d];
    cells[o].push_back(x[i]);
  }
  std::vector<double> y(out_n);
  for (int64_t o = 0; o < out_n; ++o) {
    const auto& c = cells[o];
    double acc = op == "ReduceProd" ? 1 : op == "ReduceMax" ? -INFINITY : op == "ReduceMin" ? INFINITY : 0;
    for (double v : c) {
      if (op == "ReduceProd") acc *= v;
      else if (op == "ReduceMax") acc = std::max(acc, v);
      else if (op == "ReduceMin") acc = std::min(acc, v);
      else if (op == "ReduceL1") acc += std::fabs(v);
      else if (op == "ReduceL2" || op == "ReduceSumSquare") acc += v * v;
      else if (op == "ReduceLogSumExp") acc += std::exp(v);
      else acc += v;
    }
    if (op == "ReduceMean") acc /= c.size();
    if (op == "ReduceL2") acc = std::sqrt(acc);
    if (op == "ReduceLogSum" || op == "ReduceLogSumExp") acc = std::log(acc);
    y[o] = acc;
  }
  return y;
}

OpCall reduce_call(const std::string& op, int opset, HostTensor x, std::vector<int64_t> axes, int64_t keepdims = 1) {
  OpCall c;
  c.op_type = op;
  c.opset = opset;
  c.attrs.set("keepdims", int_attr(keepdims));
  const bool axes_input = opset >= 18 || (op == "ReduceSum" && opset >= 13);
  c.inputs.emplace_back(std::move(x));
  if (axes_input) {
    c.inputs.emplace_back(i64({static_cast<int64_t>(axes.size())}, axes));
  } else {
    c.attrs.set("axes", ints_attr(axes));
  }
  return c;
}


TEST_CASE("reduce ops match a direct reference over contiguous, strided and split axes", "[reduce]") {
  // [2, 3, 70] over axis 1 has inner 70 (the CPU's column path); {0, 2} splits
  // the reduced axes (the general index map); long rows take the block kernel.
  const std::vector<std::pair<Shape, std::vector<int64_t>>> cases = {
      {{2, 3, 70}, {1}}, {{2, 3, 70}, {2}}, {{2, 3, 70}, {0, 2}}, {{2, 3, 70}, {0, 1, 2}},
      {{4, 1, 5}, {0}},  {{300}, {0}},      {{3, 2, 2, 3}, {1, 3}}};
  for (const char* op : kOps) {
    for (const auto& [shape, axes] : cases) {
      for (int opset : {13, 18}) {
        INFO(op << " shape " << shape_str(shape) << " opset " << opset << " axes " << axes.size());
        auto x = ramp(numel(shape));
        auto r = run_op_all_backends(reduce_call(op, opset, f32(shape, std::vector<float>(x.begin(), x.end())), axes));
        REQUIRE(r.ok());
        Shape want_shape = shape;
        for (int64_t a : axes) want_shape[a] = 1;
        CHECK(r->outputs[0].shape() == want_shape);
        std::vector<double> xf(x.size());
        for (size_t i = 0; i < x.size(); ++i) xf[i] = static_cast<float>(x[i]);
        check_close(doubles_of(r->outputs[0]), reference(op, shape, xf, axes), Tol{.rtol = 2e-5, .atol = 1e-6});
      }
    }
  }
}

TEST_CASE("reduce hand-computed values, keepdims and integer types", "[reduce]") {
  auto r = run_op_all_backends(reduce_call("ReduceSum", 13, f32({2, 3}, {1, 2, 3, 4, 5, 6}), {1}, 0));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{6, 15});

  r = run_op_all_backends(reduce_call("ReduceMean", 11, make_tensor(DType::kI32, {2, 2}, {1, 2, 7, 8}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{4, 5});

  r = run_op_all_backends(reduce_call("ReduceMax", 20, make_tensor(DType::kBool, {2, 2}, {0, 1, 0, 0}), {1}));
  REQUIRE(r.ok());
  CHECK(values_of<bool>(r->outputs[0]) == std::vector<bool>{true, false});

  r = run_op_all_backends(reduce_call("ReduceMin", 18, make_tensor(DType::kI8, {3}, {5, -7, 2}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int8_t>(r->outputs[0]) == std::vector<int8_t>{-7});

  // LogSumExp of huge values stays finite: 1000 + log 2.
  r = run_op_all_backends(reduce_call("ReduceLogSumExp", 18, f32({2}, {1000, 1000}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0])[0] == Approx(1000.0 + std::log(2.0)));

  // Max propagates NaN.
  r = run_op_all_backends(reduce_call("ReduceMax", 18, f32({3}, {1, NAN, 3}), {0}));
  REQUIRE(r.ok());
  CHECK(std::isnan(values_of<float>(r->outputs[0])[0]));
}

TEST_CASE("reduce f16 accumulates in f32", "[reduce]") {
  // 4096 ones: an f16 accumulator would stop at 2048.
  auto r = run_op_all_backends(
      reduce_call("ReduceSum", 13, make_tensor(DType::kF16, {4096}, std::vector<double>(4096, 1.0)), {0}));
  REQUIRE(r.ok());
  CHECK(doubles_of(r->outputs[0])[0] == 4096.0);
  r = run_op_all_backends(
      reduce_call("ReduceMean", 18, make_tensor(DType::kBF16, {2, 300}, std::vector<double>(600, 3.0)), {1}));
  REQUIRE(r.ok());
  CHECK(doubles_of(r->outputs[0]) == std::vector<double>{3.0, 3.0});
}

TEST_CASE("reduce empty sets give the identity, noop_with_empty_axes maps elements", "[reduce]") {
  const Shape shape{2, 0, 3};
  const std::vector<std::pair<const char*, double>> identity = {
      {"ReduceSum", 0}, {"ReduceProd", 1}, {"ReduceMax", -INFINITY}, {"ReduceMin", INFINITY},
      {"ReduceL1", 0},  {"ReduceL2", 0},   {"ReduceLogSum", -INFINITY}, {"ReduceLogSumExp", -INFINITY},
      {"ReduceSumSquare", 0}};
  for (const auto& [op, want] : identity) {
    INFO(op);
    auto r = run_op_all_backends(reduce_call(op, 18, f32(shape, {}), {1}));
    REQUIRE(r.ok());
    CHECK(r->outputs[0].shape() == Shape{2, 1, 3});
    for (double v : doubles_of(r->outputs[0])) CHECK(v == want);
  }
  OpCall c = reduce_call("ReduceSumSquare", 18, f32({3}, {1, -2, 3}), {});
  c.inputs.pop_back();
  c.attrs.set("noop_with_empty_axes", int_attr(1));
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{1, 4, 9});
  c.attrs.set("noop_with_empty_axes", int_attr(0));
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{14});
}

TEST_CASE("reduce rejects bad axes and types by name", "[reduce]") {
  auto r = run_op_all_backends(reduce_call("ReduceSum", 13, f32({2, 3}, {1, 2, 3, 4, 5, 6}), {2}));
  require_error(r, StatusCode::kInvalidModel, "axis 2 is out of the range [-2, 1]");
  r = run_op_all_backends(reduce_call("ReduceSum", 13, make_tensor(DType::kI8, {2}, {1, 2}), {0}));
  require_error(r, StatusCode::kUnimplemented, "element type int8 is not supported");
}

OpCall simple(const std::string& op, int opset, std::vector<std::optional<HostTensor>> inputs,
              std::vector<std::pair<std::string, int64_t>> ints, int outputs = 1) {
  OpCall c;
  c.op_type = op;
  c.opset = opset;
  c.inputs = std::move(inputs);
  for (auto& [k, v] : ints) c.attrs.set(k, int_attr(v));
  c.num_outputs = outputs;
  return c;
}

TEST_CASE("ArgMax/ArgMin: ties, select_last_index, keepdims", "[reduce]") {
  HostTensor x = f32({2, 3}, {1, 5, 5, 7, 0, 0});
  auto r = run_op_all_backends(simple("ArgMax", 13, {x}, {{"axis", 1}, {"keepdims", 0}}));
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{1, 0});
  r = run_op_all_backends(simple("ArgMax", 13, {x}, {{"axis", 1}, {"select_last_index", 1}}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 1});
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{2, 0});
  r = run_op_all_backends(simple("ArgMin", 13, {x}, {{"axis", 0}, {"keepdims", 1}}));
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{0, 1, 1});
  r = run_op_all_backends(simple("ArgMin", 13, {x}, {{"axis", -1}, {"select_last_index", 1}}));
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{0, 2});
}

TEST_CASE("CumSum/CumProd: exclusive, reverse, axis", "[reduce]") {
  HostTensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto r = run_op_all_backends(simple("CumSum", 14, {x, i64({}, {1})}, {}));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{1, 3, 6, 4, 9, 15});
  r = run_op_all_backends(simple("CumSum", 14, {x, i64({}, {0})}, {{"exclusive", 1}}));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{0, 0, 0, 1, 2, 3});
  r = run_op_all_backends(simple("CumSum", 14, {x, i64({}, {-1})}, {{"exclusive", 1}, {"reverse", 1}}));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{5, 3, 0, 11, 6, 0});
  r = run_op_all_backends(simple(
      "CumProd", 26, {make_tensor(DType::kI32, {3}, {1, 2, 3}), make_tensor(DType::kI32, {}, {0})}, {{"reverse", 1}}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{6, 6, 3});
}

TEST_CASE("integer reductions and scans wrap in two's complement", "[reduce]") {
  // numpy's integer sums wrap; the sanitizer build checks the arithmetic stays defined
  // (fuzz smoke: 49518594 squared in int32). The reference is the same sum in uint32.
  auto wrap32 = [](uint32_t v) { return static_cast<int32_t>(v); };
  const uint32_t big = 49518594u;
  uint32_t sq64 = 0;  // 64 terms: two full blocks of 32, so the pairwise tree adds too
  for (int i = 0; i < 64; ++i) sq64 += big * big;
  auto r = run_op_all_backends(
      reduce_call("ReduceSumSquare", 18, make_tensor(DType::kI32, {64}, std::vector<double>(64, big)), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{wrap32(sq64)});
  r = run_op_all_backends(reduce_call("ReduceSum", 13, make_tensor(DType::kI32, {2}, {2147483647.0, 1}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{INT32_MIN});
  r = run_op_all_backends(reduce_call("ReduceProd", 18, make_tensor(DType::kI32, {3}, {65536, 65536, 3}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{0});
  // |INT_MIN| stays INT_MIN (numpy's abs); the sum then wraps: INT_MIN + 5.
  r = run_op_all_backends(reduce_call("ReduceL1", 18, make_tensor(DType::kI32, {2}, {-2147483648.0, -5}), {0}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{INT32_MIN + 5});
  r = run_op_all_backends(simple("CumSum", 14, {make_tensor(DType::kI32, {3}, {2147483647.0, 1, 1}), i64({}, {0})}, {}));
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{INT32_MAX, INT32_MIN, INT32_MIN + 1});
  const int64_t two32 = int64_t{1} << 32;
  r = run_op_all_backends(simple(
      "CumProd", 26, {i64({3}, {two32, two32, 7}), make_tensor(DType::kI32, {}, {0})}, {}));
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{two32, 0, 0});
}

TEST_CASE("TopK: largest/smallest, ties to the lower index, k as attribute or input", "[reduce]") {
  HostTensor x = f32({2, 4}, {3, 1, 3, 2, 0, 9, 9, 9});
  auto r = run_op_all_backends(simple("TopK", 11, {x, i64({1}, {2})}, {{"axis", 1}}, 2));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{3, 3, 9, 9});
  CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{0, 2, 1, 2});
  r = run_op_all_backends(simple("TopK", 11, {x, i64({1}, {3})}, {{"axis", 1}, {"largest", 0}}, 2));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{1, 2, 3, 0, 9, 9});
  CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{1, 3, 0, 0, 1, 2});
  r = run_op_all_backends(simple("TopK", 9, {x}, {{"axis", 0}, {"k", 1}}, 2));
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{3, 9, 9, 9});
  CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{0, 1, 1, 1});
  r = run_op_all_backends(simple("TopK", 11, {x, i64({1}, {5})}, {{"axis", 1}}, 2));
  require_error(r, StatusCode::kInvalidArgument, "k = 5 is out of the range [0, 4]");
}

TEST_CASE("reduce, arg-reduce, scan and top-k ONNX node tests", "[reduce][onnx]") {
  run_node_cases({"test_reduce_", "test_argmax", "test_argmin", "test_cumsum", "test_cumprod", "test_top_k"});
}

}  // namespace
}  // namespace gk::test

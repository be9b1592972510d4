// BitCast, Det and TensorScatter: hand-computed values (bit patterns from IEEE
// encodings, cofactor determinants, KV-cache writes), error paths, and the ONNX
// node tests.
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

namespace gk::test {
namespace {

Result<OpResult> bitcast(HostTensor x, DType to) {
  OpCall c;
  c.op_type = "BitCast";
  c.opset = 26;
  c.inputs = {std::move(x)};
  c.attrs.set("to", int_attr(static_cast<int64_t>(to)));
  return run_op_all_backends(c);
}

TEST_CASE("BitCast: same-width reinterpretation", "[bitcast]") {
  // 1.0f = 0x3f800000, -2.5f = 0xc0200000.
  auto r = bitcast(f32({2}, {1.0f, -2.5f}), DType::kI32);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2});
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{1065353216, -1071644672});
  // f16 1.0 = 0x3c00, bf16 1.0 = 0x3f80: f16 bits read as bf16 and back as u16.
  HostTensor h = make_tensor(DType::kF16, {1}, {1.0});
  auto as_u16 = bitcast(h, DType::kU16);
  REQUIRE(as_u16.ok());
  CHECK(values_of<uint16_t>(as_u16->outputs[0]) == std::vector<uint16_t>{0x3c00});
  auto as_bf16 = bitcast(make_tensor(DType::kBF16, {1}, {1.0}), DType::kI16);
  REQUIRE(as_bf16.ok());
  CHECK(values_of<int16_t>(as_bf16->outputs[0]) == std::vector<int16_t>{0x3f80});
  // int64 → double: 0x3ff0000000000000 is 1.0.
  auto d = bitcast(i64({1, 1}, {0x3ff0000000000000LL}), DType::kF64);
  REQUIRE(d.ok());
  CHECK(d->outputs[0].shape() == Shape{1, 1});
  CHECK(values_of<double>(d->outputs[0]) == std::vector<double>{1.0});
  require_error(bitcast(f32({1}, {1.0f}), DType::kI64), StatusCode::kInvalidModel,
                "cannot bit-cast float32 (32 bits) to int64 (64 bits): widths differ");
  require_error(bitcast(f32({1}, {1.0f}), DType::kF16), StatusCode::kInvalidModel,
                "cannot bit-cast float32 (32 bits) to float16 (16 bits): widths differ");
}

Result<OpResult> det(HostTensor x, int opset = 22) {
  OpCall c;
  c.op_type = "Det";
  c.opset = opset;
  c.inputs = {std::move(x)};
  return run_op_all_backends(c);
}

TEST_CASE("Det: batched determinants with pivoting", "[det]") {
  // [[1,2],[3,4]] = -2; [[0,1],[1,0]] = -1 (needs a row swap);
  // [[6,1,1],[4,-2,5],[2,8,7]] = 6(-14-40) - 1(28-10) + 1(32+4) = -306.
  auto r = det(f32({2, 1, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0}));
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{2, 1});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{-2, -1});
  auto r3 = det(make_tensor(DType::kF64, {3, 3}, {6, 1, 1, 4, -2, 5, 2, 8, 7}));
  REQUIRE(r3.ok());
  CHECK(r3->outputs[0].shape() == Shape{});
  CHECK(values_of<double>(r3->outputs[0])[0] == Approx(-306).epsilon(1e-14));
  auto singular = det(f32({2, 2}, {1, 2, 2, 4}));
  REQUIRE(singular.ok());
  CHECK(values_of<float>(singular->outputs[0])[0] == 0.0f);
  auto half = det(make_tensor(DType::kF16, {2, 2}, {1, 2, 3, 4}));
  REQUIRE(half.ok());
  CHECK(doubles_of(half->outputs[0])[0] == -2.0);
  require_error(det(make_tensor(DType::kBF16, {2, 2}, {1, 2, 3, 4}), 11), StatusCode::kUnimplemented,
                "input type bfloat16 is not supported at opset 11");
  CHECK(det(make_tensor(DType::kBF16, {2, 2}, {1, 2, 3, 4}), 22).ok());
  require_error(det(f32({2, 3}, {1, 2, 3, 4, 5, 6})), StatusCode::kInvalidModel,
                "input 2x3 is not a batch of square matrices [*, M, M]");
}

Result<OpResult> scatter(HostTensor past, HostTensor update, std::optional<HostTensor> idx, const std::string& mode,
                         int64_t axis = -2) {
  OpCall c;
  c.op_type = "TensorScatter";
  c.opset = 24;
  c.inputs = {std::move(past), std::move(update), std::move(idx)};
  c.attrs.set("mode", string_attr(mode));
  c.attrs.set("axis", int_attr(axis));
  return run_op_all_backends(c);
}

TEST_CASE("TensorScatter: linear, circular and default indices", "[tensor_scatter]") {
  // past [2, 4, 1] zeros; batch 0 writes [1,2,3] at 2 circularly → rows 2,3,0;
  // batch 1 writes [4,5,6] at 0 → rows 0,1,2.
  const HostTensor past = f32({2, 4, 1}, {0, 0, 0, 0, 0, 0, 0, 0});
  const HostTensor upd = f32({2, 3, 1}, {1, 2, 3, 4, 5, 6});
  auto circ = scatter(past, upd, i64({2}, {2, 0}), "circular");
  REQUIRE(circ.ok());
  CHECK(values_of<float>(circ->outputs[0]) == std::vector<float>{3, 0, 1, 2, 4, 5, 6, 0});
  // No write_indices: both batches write at row 0.
  auto lin = scatter(past, upd, std::nullopt, "linear");
  REQUIRE(lin.ok());
  CHECK(values_of<float>(lin->outputs[0]) == std::vector<float>{1, 2, 3, 0, 4, 5, 6, 0});
  // Linear past the end is an error, not a write out of bounds.
  require_error(scatter(past, upd, i64({2}, {2, 0}), "linear"), StatusCode::kOutOfRange, "an index was out of range");
  // Axis 0 (the batch) and a longer update are invalid.
  require_error(scatter(past, upd, std::nullopt, "linear", 0), StatusCode::kInvalidModel,
                "axis 0 is the batch dimension");
  require_error(scatter(f32({1, 2, 1}, {0, 0}), f32({1, 3, 1}, {1, 2, 3}), std::nullopt, "linear"),
                StatusCode::kInvalidModel, "update 1x3x1 must equal past_cache 1x2x1 except along axis 1, where");
}

TEST_CASE("BitCast, Det, TensorScatter pass the ONNX node tests", "[bitcast][det][tensor_scatter][onnx]") {
  run_node_cases({"test_bitcast", "test_det", "test_tensorscatter"});
}

}  // namespace
}  // namespace gk::test

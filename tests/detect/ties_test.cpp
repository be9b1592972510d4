// The tie rule the detection comparisons rely on (tests/detect/detect_test.cpp):
// TopK puts equal values lower index first (largest and smallest), and
// NonMaxSuppression visits equal scores lower box index first, so of two equal
// boxes with equal scores the lower index is kept. Hand-computed indices, and
// ONNX Runtime gives the same.
#include "tests/diff/ort_runner.h"
#include "tests/graph/onnx_builders.h"

namespace gk::test {
namespace {

constexpr int kF = onnx::TensorProto::FLOAT, kI64 = onnx::TensorProto::INT64;

std::vector<int64_t> i64s(const HostTensor& t) { return t.to_i64_vector(); }

// Column 2 (the box index) of NonMaxSuppression's [k, 3] output.
std::vector<int64_t> boxes_of(const HostTensor& sel) {
  std::vector<int64_t> all = sel.to_i64_vector(), r;
  for (size_t i = 2; i < all.size(); i += 3) r.push_back(all[i]);
  return r;
}

onnx::ModelProto ties_model() {
  auto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF, {6});
  add_info(g->mutable_input(), "boxes", kF, {1, 4, 4});
  add_info(g->mutable_input(), "scores", kF, {1, 1, 4});
  add_initializer(g, "k", kI64, {1})->add_int64_data(4);
  add_initializer(g, "k3", kI64, {1})->add_int64_data(3);
  add_initializer(g, "max_out", kI64, {1})->add_int64_data(10);
  add_node(g, "TopK", {"x", "k"}, {"top_v", "top_i"});
  auto* low = add_node(g, "TopK", {"x", "k3"}, {"low_v", "low_i"});
  auto* a = low->add_attribute();
  a->set_name("largest"), a->set_type(onnx::AttributeProto::INT), a->set_i(0);
  add_node(g, "NonMaxSuppression", {"boxes", "scores", "max_out"}, {"sel"});
  add_info(g->mutable_output(), "top_i", kI64, {4});
  add_info(g->mutable_output(), "low_i", kI64, {3});
  add_info(g->mutable_output(), "sel", kI64, {-1, 3});
  return m;
}

TEST_CASE("detect ties: TopK and NonMaxSuppression take the lower index first, as ONNX Runtime does", "[detect]") {
  const onnx::ModelProto m = ties_model();
  // x ties at 3 (indices 1, 3, 4) and at 1 (0, 5). Boxes 0 and 2 are the same box,
  // both scored 0.5; boxes 1 and 3 are apart, both 0.9.
  const std::vector<NamedTensor> in = {
      {"x", HostTensor::from_vector(DType::kF32, {6}, std::vector<float>{1, 3, 2, 3, 3, 1})},
      {"boxes", HostTensor::from_vector(DType::kF32, {1, 4, 4},
                                        std::vector<float>{0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 6, 6, 7, 7})},
      {"scores", HostTensor::from_vector(DType::kF32, {1, 1, 4}, std::vector<float>{0.5f, 0.9f, 0.5f, 0.9f})},
  };
  const std::pair<const char*, Outputs> engines[] = {{"gkrun", run_gk(m, in)},
                                                     {"ONNX Runtime", run_ort(m, in, "ties")}};
  for (const auto& [engine, out] : engines) {
    INFO(engine);
    CHECK(i64s(out.at("top_i")) == std::vector<int64_t>{1, 3, 4, 2});
    CHECK(i64s(out.at("low_i")) == std::vector<int64_t>{0, 5, 2});
    CHECK(boxes_of(out.at("sel")) == std::vector<int64_t>{1, 3, 0});  // 2 is box 0 again: suppressed
  }
}

}  // namespace
}  // namespace gk::test

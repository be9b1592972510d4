// Gemm with transB = 1 and a constant 2-D B: B is stored transposed once, at load,
// and transB cleared, so B's rows run along N. A batch-1 classifier (MobileNetV3's
// 960 -> 1280 -> 1000 head, ResNet-50's 2048 -> 1000) then streams B row by row
// (the CPU's one-row block) instead of computing B·Aᵀ with one useful column per
// register block (4 GFLOP/s, a tenth of MobileNetV3-Large's run); larger batches
// pack contiguous rows instead of gathering columns. The products and their order
// are unchanged, so the results are bit-identical.
#include "graph/passes/pass_util.h"

#include <cstring>

namespace gk::passes {
namespace {

bool transposable(DType t) { return t == DType::kF32 || t == DType::kF64 || t == DType::kF16 || t == DType::kBF16; }

// [rows, cols] -> [cols, rows], element by element in 32 x 32 blocks (a row-order
// walk of the destination strides the source by a whole row per element).
Result<HostTensor> transposed(const HostTensor& b) {
  const int64_t rows = b.shape()[0], cols = b.shape()[1];
  GK_TRY(HostTensor t, HostTensor::allocate(b.dtype(), Shape{cols, rows}));
  const size_t es = b.numel() ? b.bytes() / static_cast<size_t>(b.numel()) : 0;
  const auto* src = static_cast<const uint8_t*>(b.raw());
  auto* dst = static_cast<uint8_t*>(t.mutable_bytes());
  constexpr int64_t kBlock = 32;
  for (int64_t r0 = 0; r0 < rows; r0 += kBlock)
    for (int64_t c0 = 0; c0 < cols; c0 += kBlock)
      for (int64_t r = r0; r < std::min(rows, r0 + kBlock); ++r)
        for (int64_t c = c0; c < std::min(cols, c0 + kBlock); ++c)
          std::memcpy(dst + (c * rows + r) * es, src + (r * cols + c) * es, es);
  return t;
}

}  // namespace

Status pretranspose_weights(Graph& g) {
  for (size_t ni = 0; ni < g.nodes.size(); ++ni) {
    Node& n = g.nodes[ni];
    if (!is_op(n, "Gemm")) continue;
    auto trans_b = n.attrs.get_int("transB", 0);
    if (!trans_b.ok() || *trans_b == 0) continue;
    const HostTensor* b = constant(g, input_of(n, 1));
    if (!b || b->shape().size() != 2 || !transposable(b->dtype())) continue;
    GK_TRY(HostTensor t, transposed(*b));
    set_node_constant(g, static_cast<int>(ni), 1, "_transposed", std::move(t));
    Attribute zero;
    zero.kind = Attribute::Kind::kInt;
    zero.i = 0;
    GK_RETURN_IF_ERROR(set_attribute(g.nodes[ni], "transB", zero));
  }
  g.rebuild_uses();
  return ok_status();
}

}  // namespace gk::passes

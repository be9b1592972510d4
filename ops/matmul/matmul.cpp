// MatMul (numpy semantics: batch dims broadcast, a 1-D operand is promoted to a
// matrix and its dim removed from the result) on the tiled GEMM.
#include "ops/core/op.h"
#include "ops/matmul/gemm_launch.h"

namespace gk {
namespace {

struct MatMulDims {
  Shape a_batch, b_batch, out_batch, out;
  int64_t M = 0, K = 0, N = 0;
};

Result<MatMulDims> matmul_dims(const NodeView& node, const Shape& a, const Shape& b) {
  if (a.empty() || b.empty())
    return invalid_model("{}: MatMul operands must have rank >= 1, got {} and {}", node.describe(),
                         shape_str(a), shape_str(b));
  MatMulDims d;
  const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
  d.M = a_vec ? 1 : a[a.size() - 2];
  d.K = a.back();
  const int64_t kb = b_vec ? b[0] : b[b.size() - 2];
  d.N = b_vec ? 1 : b.back();
  if (kb != d.K)
    return invalid_model("{}: MatMul inner dims differ: A is {}, B is {}", node.describe(), shape_str(a),
                         shape_str(b));
  if (!a_vec) d.a_batch.assign(a.begin(), a.end() - 2);
  if (!b_vec) d.b_batch.assign(b.begin(), b.end() - 2);
  auto ob = broadcast_shapes(d.a_batch, d.b_batch);
  if (!ob.ok())
    return invalid_model("{}: MatMul batch dims of {} and {} do not broadcast", node.describe(), shape_str(a),
                         shape_str(b));
  d.out_batch = *ob;
  d.out = d.out_batch;
  if (!a_vec) d.out.push_back(d.M);
  if (!b_vec) d.out.push_back(d.N);
  return d;
}

Status infer_matmul(InferContext& ctx) {
  const TensorType &a = ctx.in(0), &b = ctx.in(1);
  if (a.dtype != b.dtype) return ctx.fail("A and B element types differ");
  GK_TRY(MatMulDims d, matmul_dims(ctx.node, a.shape, b.shape));
  ctx.outputs[0] = {a.dtype, d.out};
  return ok_status();
}

Status run_matmul(KernelContext& ctx) {
  const TensorRef &a = ctx.in(0), &b = ctx.in(1);
  GK_TRY(MatMulDims d, matmul_dims(ctx.node(), a.shape, b.shape));
  GemmCall g;
  g.dtype = a.dtype;
  g.M = d.M, g.N = d.N, g.K = d.K;
  g.batch = numel(d.out_batch);
  g.a = a.ptr, g.b = b.ptr, g.y = ctx.out(0).ptr;
  g.a_sm = d.K, g.a_sk = 1, g.b_sk = d.N, g.b_sn = 1;
  g.epilogue = ctx.node().epilogue;
  if (g.K == 0 || numel(a.shape) == 0 || numel(b.shape) == 0) {
    // Empty contraction: every output element is act(0). Run the kernel with K = 0
    // and valid (non-null) operand pointers so it writes that value.
    g.K = 0;
    if (numel(ctx.out(0).shape) == 0) return ok_status();
    g.a = g.b = ctx.out(0).ptr;
    g.batch = numel(d.out_batch);
    return launch_gemm(ctx, g);
  }
  GK_TRY(g.bmap, batch_map(d.out_batch, d.b_batch, d.K * d.N));
  bool b_shared = true;
  for (int i = 0; i < g.bmap.rank; ++i) b_shared = b_shared && g.bmap.strides[i] == 0;
  if (b_shared && d.a_batch == d.out_batch) {
    // A's batch is contiguous rows of one bigger matrix: fold it into M for taller
    // tiles (a [8,128,64] x [64,64] runs as one 1024 x 64 GEMM).
    g.M *= g.batch;
    g.batch = 1;
    g.bmap = IndexMap{};
    return launch_gemm(ctx, g);
  }
  GK_TRY(g.amap, batch_map(d.out_batch, d.a_batch, d.M * d.K));
  return launch_gemm(ctx, g);
}

const OpImpl kMatMul{nullptr, &infer_matmul, &run_matmul};

const OpSchema kMatMulOps[] = {
    {"", "MatMul", 1, kOpsetCurrent, &kMatMul, {.accepts_epilogue = true}},
};

}  // namespace

namespace families {
std::span<const OpSchema> matmul_ops() { return kMatMulOps; }
}  // namespace families

}  // namespace gk

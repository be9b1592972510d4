#include "ops/gemm_launch.h"

#include "ops/kernel_sources.h"
#include "ops/kernel_types.h"
#include "ops/kernels/matmul.cuh"

#include <algorithm>

namespace gk {

static_assert(sizeof(IndexMap) == sizeof(gk_index_map));

Status unsupported_dtype(const NodeView& node, DType t) {
  return unimplemented("{}: element type {} is not supported", node.describe(), dtype_name(t));
}

Result<IndexMap> batch_map(const Shape& out_batch, const Shape& operand_batch, int64_t matrix_elems) {
  IndexMap m;
  if (out_batch.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("batch rank {} exceeds the supported {}", out_batch.size(), kMaxRank);
  m.rank = static_cast<int32_t>(out_batch.size());
  const size_t off = out_batch.size() - operand_batch.size();
  int64_t stride = matrix_elems;
  for (size_t d = out_batch.size(); d-- > 0;) {
    m.dims[d] = out_batch[d];
    if (d < off) {
      m.strides[d] = 0;
      continue;
    }
    const int64_t dim = operand_batch[d - off];
    m.strides[d] = dim == 1 ? 0 : stride;
    stride *= dim;
  }
  return m;
}

Status launch_gemm(KernelContext& ctx, const GemmCall& c) {
  if (c.M == 0 || c.N == 0 || c.batch == 0) return ok_status();
  const char* tn = kernel_type_name(c.dtype);
  switch (c.dtype) {
    case DType::kF32: case DType::kF64: case DType::kF16: case DType::kBF16:
    case DType::kI32: case DType::kI64: case DType::kU32: case DType::kU64:
      break;
    default:
      return unsupported_dtype(ctx.node(), c.dtype);
  }
  gk_gemm_args g{};
  g.M = c.M, g.N = c.N, g.K = c.K, g.batch = c.batch;
  g.a_sm = c.a_sm, g.a_sk = c.a_sk, g.b_sk = c.b_sk, g.b_sn = c.b_sn, g.c_sm = c.c_sm, g.c_sn = c.c_sn;
  g.alpha = c.alpha, g.beta = c.beta, g.has_c = c.has_c ? 1 : 0;
  const int64_t ntiles = (c.N + GK_GEMM_TILE - 1) / GK_GEMM_TILE;
  const int64_t mtiles = (c.M + GK_GEMM_TILE - 1) / GK_GEMM_TILE;
  if (ntiles > 0x7fffffff) return ctx.fail(fmt::format("GEMM with N = {} columns is too wide", c.N));
  LaunchConfig cfg;
  // y and z are grid-stride in the kernel: CUDA caps both at 65535.
  cfg.grid = {static_cast<uint32_t>(ntiles), static_cast<uint32_t>(std::min<int64_t>(mtiles, 65535)),
              static_cast<uint32_t>(std::min<int64_t>(c.batch, 65535))};
  cfg.block = {GK_GEMM_THREADS, 1, 1};
  KernelArgs args;
  args.ptr(c.a).ptr(c.b).ptr(c.has_c ? c.c : c.a).ptr(c.y).pod(g).pod(c.amap).pod(c.bmap).pod(c.cmap);
  args.i32(static_cast<int32_t>(c.epilogue.kind)).f32(c.epilogue.alpha).f32(c.epilogue.beta);
  return ctx.launch(kernel_sources::matmul, fmt::format("gk_matmul<{}>", tn), cfg, args);
}

}  // namespace gk

#include "ops/matmul/gemm_launch.h"

#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/common/gemm_block.h"
#include "ops/matmul/matmul.cuh"

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

Dim3 gemm_grid(const Kit& kit, int64_t cols, int64_t rows, int64_t batch, GridSplit split) {
  const int64_t t = GK_GEMM_TILE;
  int64_t x = (cols + t - 1) / t;
  int64_t y = std::min<int64_t>((rows + t - 1) / t, 65535);
  const int64_t z = std::clamp<int64_t>(batch, 1, 65535);
  if (kit.backend() == BackendKind::kCpu && split == GridSplit::kWholeRanges) {
    // Each block packs its share of both operands, so more blocks than workers
    // would only pack again; split the longer side, whose operand is the larger
    // (a 1x1 conv's N pixels against M output channels: splitting its rows packed
    // the pixels once per worker, DenseNet-121 at 2 threads 69 -> 105 ms); at
    // least one register strip (8 rows, 32 columns) per block.
    const int64_t threads = std::max(1, kit.device().info().threads), want = (threads + z - 1) / z;
    const int64_t row_strips = std::min<int64_t>((rows + 7) / 8, 65535), col_strips = (cols + 31) / 32;
    if (cols > rows) {
      x = std::clamp<int64_t>(want, 1, col_strips);
      y = std::clamp<int64_t>((want + x - 1) / x, 1, row_strips);
    } else {
      y = std::clamp<int64_t>(want, 1, row_strips);
      x = std::clamp<int64_t>((want + y - 1) / y, 1, col_strips);
    }
  } else if (kit.backend() == BackendKind::kCpu) {
    // A CPU block takes consecutive row tiles (up to kMaxRowTiles per packed B
    // slice: 1024^3 SGEMM 134 -> 154 GFLOP/s on AVX-512 from packing B a quarter
    // as often) while at least 2 blocks per worker remain (kRowsFirst: 4, since
    // each column block would pack the rows' A again); then about 4 blocks per
    // worker (untuned) balance the ragged last tiles, each taking several column
    // tiles so that its packed A panel is reused. One worker gets one block per
    // row chunk: more would only pack A again.
    const int64_t threads = std::max(1, kit.device().info().threads);
    int64_t group = gk::cpu_gemm::kMaxRowTiles, per = x;
    if (threads > 1) {
      const bool rows_first = split == GridSplit::kRowsFirst;
      const int64_t col_blocks = rows_first ? 1 : x, want = (rows_first ? 4 : 2) * threads;
      while (group > 1 && (y + group - 1) / group * col_blocks * z < want) group /= 2;
    }
    y = (y + group - 1) / group;
    if (threads > 1) per = std::clamp<int64_t>(x * y * z / (4 * threads), 1, x);
    x = (x + per - 1) / per;
  }
  return {static_cast<uint32_t>(std::min<int64_t>(x, 0x7fffffff)), static_cast<uint32_t>(y), static_cast<uint32_t>(z)};
}

namespace {

// A single column (N = 1: a squeeze-excite block's 1x1 convs on a 1x1 map, a
// matrix-vector product) computed as the row Yᵀ = Bᵀ Aᵀ: Y's M x 1 and 1 x M are the
// same memory, and each element folds the same products in the same order (fma is
// commutative), so the bits are unchanged; as one row the CPU streams A through the
// one-row block instead of 8 x 32 tiles with one useful column (EfficientNet-B0's
// 1x1 SE convs: 32 of 34 launches were such columns).
GemmCall as_row(const GemmCall& c) {
  GemmCall r = c;
  r.M = 1, r.N = c.M;
  r.a = c.b, r.a_sm = c.b_sn, r.a_sk = c.b_sk;
  r.b = c.a, r.b_sk = c.a_sk, r.b_sn = c.a_sm;
  r.c_sm = c.c_sn, r.c_sn = c.c_sm;
  r.amap = c.bmap, r.bmap = c.amap;
  return r;
}

}  // namespace

Status launch_gemm(KernelContext& ctx, const GemmCall& call) {
  if (call.M == 0 || call.N == 0 || call.batch == 0) return ok_status();
  const GemmCall c = call.N == 1 && call.M > 1 ? as_row(call) : call;
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
  LaunchConfig cfg;
  // f32 and f64 with more than one row take the CPU's direct GEMM (matmul_cpu.cpp).
  const bool direct = (c.dtype == DType::kF32 || c.dtype == DType::kF64) && c.M > 1 && c.K > 0;
  cfg.grid = gemm_grid(ctx.kit(), c.N, c.M, c.batch, direct ? GridSplit::kWholeRanges : GridSplit::kColumnsFirst);
  cfg.block = {GK_GEMM_THREADS, 1, 1};
  KernelArgs args;
  args.ptr(c.a).ptr(c.b).ptr(c.has_c ? c.c : c.a).ptr(c.y).pod(g).pod(c.amap).pod(c.bmap).pod(c.cmap);
  args.i32(static_cast<int32_t>(c.epilogue.kind)).f32(c.epilogue.alpha).f32(c.epilogue.beta);
  return ctx.launch(kernel_sources::matmul, KernelName::format("gk_matmul<{}>", {tn}), cfg, args);
}

}  // namespace gk

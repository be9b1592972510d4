// Host side of the tiled GEMM (gk_matmul in ops/matmul/matmul.cuh), shared by the
// MatMul, Gemm, Conv (1x1) and ConvTranspose launchers.
#pragma once

#include "ops/common/indexing.h"
#include "ops/core/op.h"

namespace gk {

// Y[b] (M x N, contiguous, b over `batch`) = act(alpha * A[b] B[b] + beta * C[b]).
struct GemmCall {
  DType dtype = DType::kF32;
  int64_t M = 0, N = 0, K = 0, batch = 1;
  DevPtr a = 0, b = 0, c = 0, y = 0;
  int64_t a_sm = 0, a_sk = 0, b_sk = 0, b_sn = 0, c_sm = 0, c_sn = 0;
  IndexMap amap, bmap, cmap;  // batch index -> operand offset (rank 0 = offset 0)
  float alpha = 1, beta = 1;
  bool has_c = false;
  Epilogue epilogue;
};

Status launch_gemm(KernelContext& ctx, const GemmCall& call);

// Grid of a tiled GEMM launch (gk_matmul, gk_conv): x over column tiles, y over row
// tiles, z over the batch, all grid-stride in the kernels. CUDA gets a block per
// tile (y and z capped at 65535); the CPU gets about 4 blocks per worker, each
// taking several column tiles so that its packed A panel is reused. kRowsFirst is
// for kernels whose every block packs its rows of A (the conv row-window path):
// the CPU splits rows before columns there. kWholeRanges is for the CPU's direct
// GEMM (ops/common/gemm_direct.h), which packs B once per block: one block per
// worker, rows split before columns, each block an even contiguous range.
enum class GridSplit { kColumnsFirst, kRowsFirst, kWholeRanges };
Dim3 gemm_grid(const Kit& kit, int64_t cols, int64_t rows, int64_t batch,
               GridSplit split = GridSplit::kColumnsFirst);

// The index map from a flat index over `out_batch` to offsets of an operand whose
// leading dims `operand_batch` broadcast to it (right-aligned), each step of the
// operand's own batch dims being `matrix_elems` elements.
Result<IndexMap> batch_map(const Shape& out_batch, const Shape& operand_batch, int64_t matrix_elems);

// Unsupported dtype error naming the node.
Status unsupported_dtype(const NodeView& node, DType t);

}  // namespace gk

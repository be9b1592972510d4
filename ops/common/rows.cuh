// Row geometry shared by the reduction-shaped families (reduce, softmax,
// normalization, arg-reduce, scans, top-k): a tensor seen as `rows` independent rows
// of `len` elements each. The host (ops/common/row_geometry.h) builds it once per node.
//
// Contiguous form (general == 0): the tensor is [outer, len, inner] with
// rows = outer * inner; row o starts at (o / inner) * len * inner + o % inner and
// its elements are `inner` apart. General form (reduced axes not adjacent): a row's
// first element and an element's offset within the row come from index maps.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/wrap_arith.cuh"

struct gk_rows {
  int64_t rows;
  int64_t len;
  int64_t inner;
  int32_t general;
  int32_t pad_;
  gk_index_map row_map;   // row -> offset of its first element
  gk_index_map elem_map;  // element r -> offset from the row's first element
};

static GK_FN int64_t gk_row_base(const gk_rows& g, int64_t row) {
  if (g.general) return gk_offset(g.row_map, row);
  int64_t o = row / g.inner;
  return o * g.len * g.inner + (row - o * g.inner);
}

static GK_FN int64_t gk_row_step(const gk_rows& g, int64_t r) {
  return g.general ? gk_offset(g.elem_map, r) : r * g.inner;
}

#ifdef __CUDACC_RTC__
// Tree reduction over a block whose size is a power of two (<= GK_ROWS_BLOCK): a
// fixed combination order, so a row's result does not depend on scheduling.
#define GK_ROWS_BLOCK 256
template <typename A, typename F>
static __device__ A gk_block_reduce(A v, A* sh, F f) {
  sh[threadIdx.x] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = f(sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  A r = sh[0];
  __syncthreads();
  return r;
}
#endif

struct gk_fn_add {
  template <typename A> GK_FN A operator()(A a, A b) const { return gk_wrap_add(a, b); }
};
struct gk_fn_max {
  template <typename A> GK_FN A operator()(A a, A b) const { return b > a ? b : a; }
};

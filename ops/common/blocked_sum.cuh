// Blocked pairwise summation, the one way a long sum is taken (../shared/DESIGN.md,
// Numerics): terms fold in blocks of GK_SUM_BLOCK (in order, each block from zero,
// FMA where the term is a product), and the block sums combine pairwise through a
// carry stack whose shape depends only on the number of blocks: block k is pushed
// as a binary counter carries (two subtrees of 2^j blocks merge into one of
// 2^(j+1)), and the remaining subtrees plus the last partial block are added from
// the youngest to the oldest. The error grows with log2(n / 32) + 32 instead of n.
//
// Three drivers, one tree, so every kernel and both backends get the same bits for
// the same row:
//  - gk_bsum_row(n, fold): a row whose term r is fold(acc, r) (one thread: the CPU
//    twins and CUDA's thread-per-row kernels);
//  - gk_bsum: a stream of terms (pool windows, whose taps come from nested loops);
//  - gk_block_bsum(n, fold, sh) (CUDA only): one thread block folds a row. Each
//    thread folds whole blocks of 32 consecutive terms; blockDim.x (a power of two)
//    block sums then merge in shared memory as adjacent pairs, which is the carry
//    stack's tree for a full chunk of blockDim.x blocks, and thread 0 pushes that
//    subtree whole; the last, partial chunk's block sums are pushed one by one.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/wrap_arith.cuh"

#define GK_SUM_BLOCK 32
// Carry-stack depth: a stack holds at most popcount(blocks) subtrees, so 64 levels
// cover any int64 length.
#define GK_SUM_LEVELS 64

// a * b + c rounded once (floats) or wrapping integer arithmetic; every integer add
// here wraps too (ops/common/wrap_arith.cuh).
static GK_FN float gk_sum_fma(float a, float b, float c) { return fmaf(a, b, c); }
static GK_FN double gk_sum_fma(double a, double b, double c) { return fma(a, b, c); }
template <typename A> static GK_FN A gk_sum_fma(A a, A b, A c) { return gk_wrap_add(gk_wrap_mul(a, b), c); }

// The carry stack over block sums.
template <typename A>
struct gk_pairwise {
  A stack[GK_SUM_LEVELS];
  int32_t sp;
  uint64_t count;  // blocks pushed so far

  GK_FN void init() {
    sp = 0;
    count = 0;
  }
  // Pushes the sum of 2^level blocks; `count` is a multiple of 2^level.
  GK_FN void push(A s, int level = 0) {
    for (uint64_t c = count >> level; c & 1; c >>= 1) s = gk_wrap_add(stack[--sp], s);
    stack[sp++] = s;
    count += (uint64_t)1 << level;
  }
  // The total with `tail` (the partial last block, when has_tail) added first.
  GK_FN A total(A tail, bool has_tail) const {
    int32_t i = sp;
    A s = has_tail ? tail : (i > 0 ? stack[--i] : (A)0);
    while (i > 0) s = gk_wrap_add(stack[--i], s);
    return s;
  }
};

// A row of n terms: acc = fold(acc, r) adds term r to acc (acc + x, or an FMA).
template <typename A, typename F>
static GK_FN A gk_bsum_row(int64_t n, F fold) {
  gk_pairwise<A> tree;
  tree.init();
  int64_t r = 0;
  for (; r + GK_SUM_BLOCK <= n; r += GK_SUM_BLOCK) {
    A s = (A)0;
    for (int j = 0; j < GK_SUM_BLOCK; ++j) s = fold(s, r + j);
    tree.push(s);
  }
  A s = (A)0;
  for (; r < n; ++r) s = fold(s, r);
  return tree.total(s, (n % GK_SUM_BLOCK) != 0);
}

// A stream of terms, for loops that cannot index their terms by r.
template <typename A>
struct gk_bsum {
  gk_pairwise<A> tree;
  A block;
  int32_t k;

  GK_FN void init() {
    tree.init();
    block = (A)0;
    k = 0;
  }
  GK_FN void next() {
    if (++k == GK_SUM_BLOCK) {
      tree.push(block);
      block = (A)0;
      k = 0;
    }
  }
  GK_FN void add(A v) {
    block = gk_wrap_add(block, v);
    next();
  }
  GK_FN void add_product(A a, A b) {
    block = gk_sum_fma(a, b, block);
    next();
  }
  GK_FN A result() const { return tree.total(block, k > 0); }
};

#ifdef __CUDACC_RTC__
// One thread block folds a row of n terms (fold as gk_bsum_row's); every thread
// gets the sum, the same bits as gk_bsum_row. sh holds blockDim.x values;
// blockDim.x is a power of two.
template <typename A, typename F>
static __device__ A gk_block_bsum(int64_t n, F fold, A* sh) {
  __shared__ gk_pairwise<A> tree;  // thread 0's
  const unsigned t = threadIdx.x, width = blockDim.x;
  const int level = __ffs((int)width) - 1;
  const int64_t blocks = n / GK_SUM_BLOCK;
  if (t == 0) tree.init();
  for (int64_t c0 = 0; c0 < blocks; c0 += width) {
    const int64_t b = c0 + t;
    A s = (A)0;
    if (b < blocks)
      for (int j = 0; j < GK_SUM_BLOCK; ++j) s = fold(s, b * GK_SUM_BLOCK + j);
    sh[t] = s;
    __syncthreads();
    if (c0 + width <= blocks) {
      for (unsigned step = 1; step < width; step <<= 1) {
        if ((t & (2 * step - 1)) == 0) sh[t] = gk_wrap_add(sh[t], sh[t + step]);
        __syncthreads();
      }
      if (t == 0) tree.push(sh[0], level);
    } else if (t == 0) {
      for (int64_t i = 0; i < blocks - c0; ++i) tree.push(sh[i]);
    }
    __syncthreads();
  }
  if (t == 0) {
    A s = (A)0;
    for (int64_t r = blocks * GK_SUM_BLOCK; r < n; ++r) s = fold(s, r);
    sh[0] = tree.total(s, (n % GK_SUM_BLOCK) != 0);
  }
  __syncthreads();
  const A total = sh[0];
  __syncthreads();
  return total;
}
#endif

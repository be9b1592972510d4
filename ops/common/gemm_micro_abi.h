// The types the run-time dispatched GEMM register blocks (gemm_micro.h) are called
// through, and their dispatchers. Defined once, outside the per-ISA namespaces of
// ops/common/isa_variant.h (which includes this first; gemm_micro.h names them
// with using-declarations), so a block compiled in gemm_micro.cpp and a caller in
// any ISA variant of a family agree on the function type: a call through a pointer
// whose parameter is a namespaced twin of the struct is undefined even with the
// same layout (clang's -fsanitize=function stopped the asan suite on it).
// Aggregates only, always brace-initialised, no member functions: nothing here is
// an inline function the linker could take from one ISA's object for another's.
#pragma once

#include <cstdint>

namespace gk::cpu_gemm {

template <typename Acc>
struct MicroArgs {
  int64_t rows, kws, dil;
  const Acc* a;
  int64_t lda, ars;
  const Acc* b;
  int64_t ldb;
  Acc* c;
  int64_t ldc;
  bool first;
  // The live-term blocks (run_live): only terms live[0 .. nlive) of the call's
  // `rows` (ascending; kws == 1) are summed, each still in the block of 32 its
  // index gives. A term left out is one whose product is exactly +-0 (a tap that
  // reads only padding, times a finite weight): inside a block sum that starts
  // from +0 it changes no bit, and a block with none left is +0, so the fold and
  // its bits are the dense kernel's.
  const int16_t* live = nullptr;
  int nlive = 0;
};

template <typename Acc>
struct MicroKernel {
  int mr = 0, nr = 0;
  void (*run)(const MicroArgs<Acc>& m) = nullptr;       // c[mr x nr] += the blocked sums; ars == 1
  void (*run_rows)(const MicroArgs<Acc>& m) = nullptr;  // the same for any ars
  // mr x nr/2, for a last strip of at most nr/2 columns: ResNet's 7x7 and 14x14
  // stages end their pixel tiles with 49 and 4 columns, 77% of the strips' width.
  void (*run_half)(const MicroArgs<Acc>& m) = nullptr;
  void (*run_rows_half)(const MicroArgs<Acc>& m) = nullptr;
  // One row of A against row_cols columns (4 vectors), for M = 1: a batch-1
  // recurrent step or fully connected layer, where an mr-row block computes mr - 1
  // rows of zeros; B is read where it lies (gemm_block.h).
  int row_cols = 0;
  void (*run_row)(const MicroArgs<Acc>& m) = nullptr;
  // mr x nr over the live terms only (MicroArgs::live), ars == 1 and any ars.
  void (*run_live)(const MicroArgs<Acc>& m) = nullptr;
  void (*run_rows_live)(const MicroArgs<Acc>& m) = nullptr;
};

// The kernel for the active ISA (float, double); other accumulator types use the
// portable template below. Cheap: one relaxed atomic load and a table index.
MicroKernel<float> micro_kernel_f32();
MicroKernel<double> micro_kernel_f64();

}  // namespace gk::cpu_gemm

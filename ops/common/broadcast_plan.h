// How an elementwise launch reads its operands: the layout code the kernels in
// ops/elementwise/elementwise.cuh switch on, and, for the general case, one index map
// per operand over coalesced dims (adjacent dims merged wherever every operand
// walks them as one, so [N,C,H,W] + [C,1,1] runs as rank 3 with one div per dim).
#pragma once

#include "ops/common/indexing.h"

#include <span>
#include <vector>

namespace gk {

enum BroadcastLayout : int32_t {
  kLayoutSame = 0,      // every operand has the output's element count
  kLayoutAScalar = 1,   // binary only: operand 0 is one element, operand 1 full
  kLayoutBScalar = 2,   // binary only: operand 1 is one element, operand 0 full
  kLayoutGeneral = 3,   // index maps
};

struct BroadcastPlan {
  int32_t layout = kLayoutSame;
  std::vector<IndexMap> maps;  // one per operand (filled for every layout)
};

// `operands` must each broadcast to `out` (InvalidArgument otherwise). With
// `scalar_layouts`, two operands get the scalar fast paths.
Result<BroadcastPlan> plan_broadcast(const Shape& out, std::span<const Shape> operands,
                                     bool scalar_layouts);

// The per-launch form, which allocates nothing: returns the layout and fills the
// caller's maps (one per operand) only for kLayoutGeneral; the other layouts index
// every operand linearly (or as a scalar), and the maps are left as they were.
Result<int32_t> plan_broadcast_into(const Shape& out, std::span<const Shape* const> operands, bool scalar_layouts,
                                    std::span<IndexMap> maps);

// The multidirectional broadcast of all shapes.
Result<Shape> broadcast_all(std::span<const Shape> shapes);

}  // namespace gk

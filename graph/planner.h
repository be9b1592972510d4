// The memory planner: a pure function from tensor lifetimes to offsets in one
// arena, and a checker that proves the result safe (XNNPACK's planner is the model:
// lifetimes in, offsets out, verified separately).
//
// Why one arena per run frame rather than a pooled block per tensor: the executor
// takes one block from the Kit pool per run and every intermediate is `base + offset`,
// so a run does one pool round trip instead of one per tensor, addresses inside the
// frame are fixed once planned (what CUDA-graph replay wants), and reuse crosses size
// classes (a 3 MiB tensor can live where a 2 MiB and a 1 MiB one died), which the
// pool's size-classed blocks cannot do. Concurrent runs each own their frame's arena.
#pragma once

#include "backends/status.h"
#include "graph/ir.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gk {

// 256 bytes: what cudaMalloc/cuMemAlloc guarantee, so a kernel may assume of an
// arena tensor whatever it may assume of a fresh allocation (float4/half8 vector
// loads, 128-byte coalesced lines); it costs at most 255 bytes per tensor.
constexpr size_t kPlanAlignment = 256;

struct PlanTensor {
  std::string name;        // for messages and the table
  size_t bytes = 0;
  int first_use = -1;      // step that writes it
  int last_use = -1;       // last step that reads it (== first_use when never read)
  // Not planned: graph inputs/outputs and initializers live outside the arena, and
  // values no node produces (left behind by passes) need no memory at all.
  bool pinned = false;
  // Index of the tensor whose bytes this one is (a zero-copy view: Reshape, Flatten,
  // Squeeze, Unsqueeze, Identity). The root's lifetime extends over its views; a
  // view of a pinned tensor is itself unplanned.
  int alias_of = -1;
  // Candidate: may take the bytes of that tensor when that tensor (with its views)
  // is last used at this tensor's first step and is at least as large.
  int inplace_of = -1;
};

struct MemoryPlan {
  std::vector<int64_t> offsets;   // per tensor; -1 when not planned
  std::vector<int> root;          // per tensor: the tensor whose bytes it uses (alias root)
  std::vector<bool> took_inplace; // per tensor: its inplace_of candidate was taken
  size_t arena_bytes = 0;         // planned peak
  size_t naive_bytes = 0;         // every planned tensor in its own allocation (views excluded)
  // Max over steps of the bytes alive at that step, counting bytes shared by a view
  // or an in-place pair once: no placement of these tensors can use less.
  size_t lower_bound_bytes = 0;
};

// Best-fit placement; InvalidArgument for malformed input (alias cycle, an index
// out of range, last_use < first_use), naming the tensor.
Result<MemoryPlan> plan_memory(std::span<const PlanTensor> tensors);

// Proves that no two tensors alive at a common step share a byte unless they are one
// alias group or a legal in-place pair (same offset, the earlier dies where the later
// is written, the later declared it), that offsets are aligned and everything fits
// in the arena. Internal error naming both tensors on failure. Independent of how
// plan_memory chose the offsets.
Status verify_plan(std::span<const PlanTensor> tensors, const MemoryPlan& plan);

// Planner input for a graph: one PlanTensor per value (index = ValueId), steps =
// indices into graph.nodes. `value_bytes[v]` comes from shape inference. Aliases and
// in-place candidates come from the node's schema traits (nodes without a schema
// have none).
Result<std::vector<PlanTensor>> plan_input_from_graph(const Graph& graph,
                                                      std::span<const size_t> value_bytes);

// "planned 1.2 MiB, naive 3.4 MiB, lower bound 1.1 MiB" and, when `per_tensor`, a
// table of name, bytes, offset, first, last (for `gkrun info -v`).
std::string format_plan(std::span<const PlanTensor> tensors, const MemoryPlan& plan, bool per_tensor);

}  // namespace gk

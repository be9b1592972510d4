#include "ops/common/broadcast_plan.h"

#include <array>

namespace gk {
namespace {

// Drops size-1 dims and merges dim d into d+1 when every map has
// stride[d] == stride[d+1] * dims[d+1] (contiguous together, or broadcast together).
void coalesce(std::vector<IndexMap>& maps) {
  const int rank = maps[0].rank;
  int64_t dims[kMaxRank];
  std::vector<std::array<int64_t, kMaxRank>> strides(maps.size());
  int r = 0;
  for (int d = 0; d < rank; ++d) {
    if (maps[0].dims[d] == 1) continue;
    bool merge = r > 0;
    for (size_t k = 0; merge && k < maps.size(); ++k)
      merge = strides[k][r - 1] == maps[k].strides[d] * maps[0].dims[d];
    if (merge) {
      dims[r - 1] *= maps[0].dims[d];
      for (size_t k = 0; k < maps.size(); ++k) strides[k][r - 1] = maps[k].strides[d];
      continue;
    }
    dims[r] = maps[0].dims[d];
    for (size_t k = 0; k < maps.size(); ++k) strides[k][r] = maps[k].strides[d];
    ++r;
  }
  for (size_t k = 0; k < maps.size(); ++k) {
    IndexMap m;
    m.rank = r;
    for (int d = 0; d < r; ++d) {
      m.dims[d] = dims[d];
      m.strides[d] = strides[k][d];
    }
    maps[k] = m;
  }
}

}  // namespace

Result<Shape> broadcast_all(std::span<const Shape> shapes) {
  Shape out = shapes.empty() ? Shape{} : shapes[0];
  for (size_t i = 1; i < shapes.size(); ++i) {
    GK_TRY(out, broadcast_shapes(out, shapes[i]));
  }
  return out;
}

Result<BroadcastPlan> plan_broadcast(const Shape& out, std::span<const Shape> operands,
                                     bool scalar_layouts) {
  BroadcastPlan plan;
  const int64_t n = numel(out);
  bool all_full = true;
  for (const Shape& s : operands) {
    GK_TRY(IndexMap m, broadcast_map(out, s));
    plan.maps.push_back(m);
    all_full = all_full && numel(s) == n;
  }
  if (all_full) {
    plan.layout = kLayoutSame;
    return plan;
  }
  if (scalar_layouts && operands.size() == 2) {
    const int64_t na = numel(operands[0]), nb = numel(operands[1]);
    if (na == 1 && nb == n) {
      plan.layout = kLayoutAScalar;
      return plan;
    }
    if (nb == 1 && na == n) {
      plan.layout = kLayoutBScalar;
      return plan;
    }
  }
  plan.layout = kLayoutGeneral;
  coalesce(plan.maps);
  return plan;
}

}  // namespace gk

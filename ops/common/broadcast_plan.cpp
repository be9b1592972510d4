#include "ops/common/broadcast_plan.h"

#include <array>

namespace gk {
namespace {

// Drops size-1 dims and merges dim d into d+1 when every map has
// stride[d] == stride[d+1] * dims[d+1] (contiguous together, or broadcast together).
void coalesce(std::span<IndexMap> maps) {
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

namespace {

// The layout from element counts alone: every operand full, or one a scalar.
int32_t choose_layout(const Shape& out, std::span<const Shape* const> operands, bool scalar_layouts) {
  const int64_t n = numel(out);
  bool all_full = true;
  for (const Shape* s : operands) all_full = all_full && numel(*s) == n;
  if (all_full) return kLayoutSame;
  if (scalar_layouts && operands.size() == 2) {
    const int64_t na = numel(*operands[0]), nb = numel(*operands[1]);
    if (na == 1 && nb == n) return kLayoutAScalar;
    if (nb == 1 && na == n) return kLayoutBScalar;
  }
  return kLayoutGeneral;
}

}  // namespace

Result<int32_t> plan_broadcast_into(const Shape& out, std::span<const Shape* const> operands, bool scalar_layouts,
                                    std::span<IndexMap> maps) {
  if (maps.size() < operands.size())
    return internal_error("plan_broadcast_into: {} maps for {} operands", maps.size(), operands.size());
  const int32_t layout = choose_layout(out, operands, scalar_layouts);
  if (layout != kLayoutGeneral) return layout;
  for (size_t i = 0; i < operands.size(); ++i) {
    GK_TRY(maps[i], broadcast_map(out, *operands[i]));
  }
  coalesce(maps.first(operands.size()));
  return layout;
}

Result<BroadcastPlan> plan_broadcast(const Shape& out, std::span<const Shape> operands,
                                     bool scalar_layouts) {
  std::vector<const Shape*> shapes;
  for (const Shape& s : operands) shapes.push_back(&s);
  BroadcastPlan plan;
  for (const Shape& s : operands) {
    GK_TRY(IndexMap m, broadcast_map(out, s));
    plan.maps.push_back(m);
  }
  plan.layout = choose_layout(out, shapes, scalar_layouts);
  if (plan.layout == kLayoutGeneral) coalesce(plan.maps);
  return plan;
}

}  // namespace gk

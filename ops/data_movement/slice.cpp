// Slice: starts/ends/axes attributes before opset 10, inputs (with steps) from 10.
// One strided copy: the source pointer moves to the first element and each dim's
// stride is multiplied by its step (negative steps walk backwards).
#include "ops/data_movement/data_movement.h"
#include "ops/common/checked_int.h"
#include "ops/core/op.h"

#include <limits>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

struct SliceAttrs {
  bool from_inputs = true;
  std::vector<int64_t> starts, ends, axes;  // attribute form
};

Result<ParsedAttrs> parse_slice_attrs(const AttrMap& a, const NodeView&) {
  SliceAttrs attrs;
  attrs.from_inputs = false;
  GK_TRY(attrs.starts, a.require_ints("starts"));
  GK_TRY(attrs.ends, a.require_ints("ends"));
  GK_TRY(attrs.axes, a.get_ints("axes"));
  return make_attrs(std::move(attrs));
}
Result<ParsedAttrs> parse_slice_inputs(const AttrMap&, const NodeView&) { return make_attrs(SliceAttrs{}); }

struct SlicePlan {
  Shape out;
  std::vector<int64_t> strides;  // source strides per output dim (elements)
  int64_t offset = 0;            // first source element
};

// The spec's clamping: negative starts/ends count from the end; with a positive
// step both clamp to [0, dim]; with a negative step start clamps to [0, dim-1]
// and end to [-1, dim-1]. Lengths are counted without forming end - start + step.
Result<SlicePlan> plan_slice(const NodeView& node, const Shape& in, std::vector<int64_t> starts,
                             std::vector<int64_t> ends, std::vector<int64_t> axes, std::vector<int64_t> steps) {
  const int64_t rank = static_cast<int64_t>(in.size());
  if (starts.size() != ends.size())
    return invalid_model("{}: starts has {} entries, ends {}", node.describe(), starts.size(), ends.size());
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size())
    return invalid_model("{}: starts, ends, axes and steps must have one length ({} {} {} {})", node.describe(),
                         starts.size(), ends.size(), axes.size(), steps.size());
  SlicePlan plan;
  plan.out = in;
  auto in_strides = contiguous_strides(in);
  plan.strides = in_strides;
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < axes.size(); ++i) {
    GK_TRY(int64_t axis, normalize_axis(node, axes[i], rank, "axes entry"));
    if (seen[axis]) return invalid_model("{}: axis {} is sliced twice", node.describe(), axes[i]);
    seen[axis] = true;
    const int64_t dim = in[axis], step = steps[i];
    if (step == 0) return invalid_model("{}: steps entry {} is 0", node.describe(), i);
    int64_t start = starts[i], end = ends[i];
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    int64_t len;
    if (step > 0) {
      start = std::clamp(start, int64_t{0}, dim);
      end = std::clamp(end, int64_t{0}, dim);
      len = end > start ? 1 + (end - start - 1) / step : 0;
    } else {
      start = std::clamp(start, int64_t{0}, dim - 1);
      end = std::clamp(end, int64_t{-1}, dim - 1);
      // -INT64_MIN overflows; any step at least that long takes one element.
      const int64_t magnitude = step == std::numeric_limits<int64_t>::min() ? std::numeric_limits<int64_t>::max() : -step;
      len = start > end ? 1 + (start - end - 1) / magnitude : 0;
    }
    plan.out[axis] = len;
    // A single element never moves by its stride: a huge step times the stride
    // would overflow int64 for nothing (fuzz mutate, 50 x 1.9e17). Past that,
    // only a shape no tensor can have (saturated strides) still overflows.
    CheckedI64 c;
    if (len > 0) plan.offset = c.add(plan.offset, c.mul(start, in_strides[axis]));
    plan.strides[axis] = len > 1 ? c.mul(in_strides[axis], step) : in_strides[axis];
    if (c.overflow)
      return invalid_model("{}: axis {} with start {} and step {} addresses past int64 elements", node.describe(),
                           axes[i], start, step);
  }
  return plan;
}

Result<SlicePlan> plan_of(const NodeView& node, const SliceAttrs& attrs, const Shape& in,
                          const std::vector<const HostTensor*>& values) {
  if (!attrs.from_inputs) return plan_slice(node, in, attrs.starts, attrs.ends, attrs.axes, {});
  std::vector<int64_t> v[4];
  for (size_t i = 1; i <= 4; ++i) {
    if (!node.has_input(i)) continue;
    if (i >= values.size() || !values[i])
      return unimplemented("{}: input {} must be known before the run", node.describe(), i);
    if (!dtype_is_integer(values[i]->dtype()))
      return invalid_model("{}: input {} must be int32 or int64", node.describe(), i);
    v[i - 1] = values[i]->to_i64_vector();
  }
  return plan_slice(node, in, v[0], v[1], v[2], v[3]);
}

Status infer_slice(InferContext& ctx) {
  GK_TRY(SlicePlan plan, plan_of(ctx.node, attrs_as<SliceAttrs>(ctx.attrs), ctx.in(0).shape, ctx.values));
  ctx.outputs[0] = {ctx.in(0).dtype, plan.out};
  return ok_status();
}

Status run_slice(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  std::vector<const HostTensor*> values;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) values.push_back(ctx.in(i).host);
  GK_TRY(SlicePlan plan, plan_of(ctx.node(), ctx.attrs<SliceAttrs>(), in.shape, values));
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  return strided_copy(ctx, esize, in.ptr + static_cast<DevPtr>(plan.offset * static_cast<int64_t>(esize)),
                      plan.out, std::move(plan.strides), ctx.out(0).ptr);
}

constexpr OpImpl kSliceAttrs{&parse_slice_attrs, &infer_slice, &run_slice};
constexpr OpImpl kSliceInputs{&parse_slice_inputs, &infer_slice, &run_slice};

const OpSchema kSliceOps[] = {
    {"", "Slice", 1, 9, &kSliceAttrs, {}},
    {"", "Slice", 10, kOpsetCurrent, &kSliceInputs, {.host_inputs = 0b11110u}},
};

}  // namespace

std::span<const OpSchema> slice_ops() { return kSliceOps; }

}  // namespace gk::families

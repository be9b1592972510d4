// Concat and Split: each input/output is one block copy of `outer` rows.
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"

#include <numeric>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

struct ConcatAttrs {
  int64_t axis = 0;
};
Result<ParsedAttrs> parse_concat(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t axis, a.require_int("axis"));
  return make_attrs(ConcatAttrs{axis});
}

Status infer_concat(InferContext& ctx) {
  if (ctx.inputs.empty()) return ctx.fail("needs at least one input");
  const TensorType& first = ctx.in(0);
  const int64_t rank = static_cast<int64_t>(first.shape.size());
  GK_TRY(int64_t axis, normalize_axis(ctx.node, attrs_as<ConcatAttrs>(ctx.attrs).axis, rank));
  Shape out = first.shape;
  out[axis] = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const TensorType& t = ctx.in(i);
    if (t.dtype != first.dtype)
      return ctx.fail(fmt::format("input {} is {}, input 0 is {}", i, dtype_name(t.dtype), dtype_name(first.dtype)));
    bool same = static_cast<int64_t>(t.shape.size()) == rank;
    for (int64_t d = 0; same && d < rank; ++d) same = d == axis || t.shape[d] == first.shape[d];
    if (!same)
      return ctx.fail(fmt::format("input {} has shape {}, which does not match {} off axis {}", i,
                                  shape_str(t.shape), shape_str(first.shape), axis));
    out[axis] += t.shape[axis];
  }
  ctx.outputs[0] = {first.dtype, out};
  return ok_status();
}

Status run_concat(KernelContext& ctx) {
  const TensorRef& out = ctx.out(0);
  if (out.numel() == 0) return ok_status();
  GK_TRY(size_t esize, element_bytes(ctx.node(), out.dtype));
  const int64_t axis = ctx.attrs<ConcatAttrs>().axis < 0
                           ? ctx.attrs<ConcatAttrs>().axis + static_cast<int64_t>(out.shape.size())
                           : ctx.attrs<ConcatAttrs>().axis;
  const int64_t outer = numel(std::span(out.shape).first(axis));
  const int64_t inner = numel(std::span(out.shape).subspan(axis + 1));
  const int64_t dst_stride = out.shape[axis] * inner;
  int64_t at = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const TensorRef& in = ctx.in(i);
    const int64_t len = in.shape[axis] * inner;
    GK_RETURN_IF_ERROR(copy_rows(ctx, esize, in.ptr, len, out.ptr + static_cast<DevPtr>(at * esize), dst_stride,
                                 outer, len));
    at += len;
  }
  return ok_status();
}

// Split: the sizes come from the `split` attribute (before opset 13), input 1
// (13+), or equal parts: as many as outputs (the last may be smaller from opset
// 18, which also adds num_outputs).
struct SplitAttrs {
  int64_t axis = 0;
  std::optional<std::vector<int64_t>> split;  // attribute form
  int64_t num_outputs = 0;                    // opset 18
  bool split_input = false;
};
Result<ParsedAttrs> parse_split(const AttrMap& a, const NodeView& node) {
  SplitAttrs attrs;
  GK_TRY(attrs.axis, a.get_int("axis", 0));
  attrs.split_input = node.opset >= 13;
  if (!attrs.split_input && a.has("split")) {
    GK_TRY(attrs.split, a.get_ints("split"));
  }
  if (node.opset >= 18 && a.has("num_outputs")) {
    GK_TRY(attrs.num_outputs, a.get_int("num_outputs", 0));
    if (attrs.num_outputs < 1)
      return invalid_model("{}: num_outputs {} must be at least 1", node.describe(), attrs.num_outputs);
  }
  return make_attrs(std::move(attrs));
}

// The pieces' lengths along the axis; `split_input` is input 1's values where the
// node has it. An error names what is wrong, for the caller to attach to the node.
Result<std::vector<int64_t>> split_sizes(const SplitAttrs& attrs, int64_t outputs, int64_t dim,
                                         const std::vector<int64_t>* split_input) {
  std::vector<int64_t> sizes;
  if (attrs.split) {
    sizes = *attrs.split;
  } else if (split_input) {
    sizes = *split_input;
  } else {
    const int64_t parts = attrs.num_outputs > 0 ? attrs.num_outputs : outputs;
    if (parts < 1) return invalid_argument("has no outputs");
    if (attrs.num_outputs == 0 && dim % parts != 0)
      return invalid_argument("axis dim {} does not split into {} equal parts", dim, parts);
    const int64_t chunk = (dim + parts - 1) / parts;
    for (int64_t p = 0; p < parts; ++p) sizes.push_back(std::clamp(dim - p * chunk, int64_t{0}, chunk));
  }
  if (static_cast<int64_t>(sizes.size()) != outputs)
    return invalid_argument("split has {} parts for {} outputs", sizes.size(), outputs);
  int64_t sum = 0;  // never past dim, so the sum cannot overflow (fuzz run: 8e18 + 4e18)
  for (int64_t s : sizes) {
    if (s < 0) return invalid_argument("split {} has a negative size", shape_str(sizes));
    if (s > dim - sum)
      return invalid_argument("split {} sums to more than the axis dim {}", shape_str(sizes), dim);
    sum += s;
  }
  if (sum != dim) return invalid_argument("split {} sums to {}, the axis dim is {}", shape_str(sizes), sum, dim);
  return sizes;
}

Result<std::vector<int64_t>> split_sizes(const InferContext& ctx, int64_t dim) {
  const auto& attrs = attrs_as<SplitAttrs>(ctx.attrs);
  std::vector<int64_t> given;
  const bool has_input = attrs.split_input && ctx.node.has_input(1);
  if (has_input) {
    GK_TRY(given, host_ints(ctx, 1));
  }
  auto sizes = split_sizes(attrs, static_cast<int64_t>(ctx.outputs.size()), dim, has_input ? &given : nullptr);
  if (!sizes.ok()) return ctx.fail(sizes.status().message());
  return sizes;
}

Status infer_split(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  GK_TRY(int64_t axis, normalize_axis(ctx.node, attrs_as<SplitAttrs>(ctx.attrs).axis, in.size()));
  GK_TRY(auto sizes, split_sizes(ctx, in[axis]));
  for (size_t o = 0; o < ctx.outputs.size(); ++o) {
    Shape s = in;
    s[axis] = sizes[o];
    ctx.outputs[o] = {ctx.in(0).dtype, s};
  }
  return ok_status();
}

Status run_split(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  const int64_t rank = static_cast<int64_t>(in.shape.size());
  int64_t axis = ctx.attrs<SplitAttrs>().axis;
  if (axis < 0) axis += rank;
  const int64_t outer = numel(std::span(in.shape).first(axis));
  const int64_t inner = numel(std::span(in.shape).subspan(axis + 1));
  const int64_t src_stride = in.shape[axis] * inner;
  // An output the model leaves unnamed ("", legal inside the variadic list) has no
  // shape here: its piece's length comes from the sizes the infer rule used.
  std::vector<int64_t> sizes;
  bool all_named = true;
  for (size_t o = 0; o < ctx.num_outputs(); ++o) all_named = all_named && ctx.node().has_output(o);
  if (!all_named) {
    const SplitAttrs& attrs = ctx.attrs<SplitAttrs>();
    std::vector<int64_t> given;
    const bool has_input = attrs.split_input && ctx.node().has_input(1);
    if (has_input) {
      const HostTensor* h = ctx.in(1).host;
      if (!h) return ctx.fail("an output is unnamed and the split sizes are not known before the run");
      for (int64_t i = 0; i < h->numel(); ++i) given.push_back(h->as_i64(i));
    }
    auto found = split_sizes(attrs, static_cast<int64_t>(ctx.num_outputs()), in.shape[axis], has_input ? &given : nullptr);
    if (!found.ok()) return ctx.fail(found.status().message());
    sizes = std::move(found).value();
  }
  int64_t at = 0;
  for (size_t o = 0; o < ctx.num_outputs(); ++o) {
    const TensorRef& out = ctx.out(o);
    const int64_t len = (all_named ? out.shape[axis] : sizes[o]) * inner;
    if (ctx.node().has_output(o))
      GK_RETURN_IF_ERROR(copy_rows(ctx, esize, in.ptr + static_cast<DevPtr>(at * esize), src_stride, out.ptr, len,
                                   outer, len));
    at += len;
  }
  return ok_status();
}

constexpr OpImpl kConcat{&parse_concat, &infer_concat, &run_concat};
constexpr OpImpl kSplit{&parse_split, &infer_split, &run_split};

const OpSchema kConcatSplitOps[] = {
    {"", "Concat", 4, kOpsetCurrent, &kConcat, {}},
    {"", "Split", 2, 12, &kSplit, {}},
    {"", "Split", 13, kOpsetCurrent, &kSplit, {.host_inputs = 1u << 1}},
};

}  // namespace

std::span<const OpSchema> concat_split_ops() { return kConcatSplitOps; }

}  // namespace gk::families

// Index-driven ops: Trilu, ReverseSequence, OneHot, and the data-dependent
// NonZero, Compress and Unique, whose output shapes are known only after reading
// device data (InferContext::dynamic_shape; run() allocates those outputs).
#include "ops/data_movement/data_movement.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/core/kernel_types.h"
#include "ops/core/op_eval.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gk::families {
namespace {

using namespace dm;  // data_movement.h's shared helpers

// Output i gets `shape`: preallocated outputs must already have it; dynamic ones
// are allocated now (empty ones need no memory).
Status set_output(KernelContext& ctx, size_t i, Shape shape) {
  TensorRef& out = ctx.out(i);
  if (out.ptr != 0) {
    if (out.shape != shape)
      return internal_error("{}: output {} was planned as {} but is {}", ctx.node().describe(), i,
                            shape_str(out.shape), shape_str(shape));
    return ok_status();
  }
  if (numel(shape) == 0) {
    out.shape = std::move(shape);
    return ok_status();
  }
  return ctx.allocate_output(i, std::move(shape));
}

// ---- Trilu ------------------------------------------------------------------------

struct TriluAttrs {
  bool upper = true;
};
Result<ParsedAttrs> parse_trilu(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t upper, a.get_int("upper", 1));
  return make_attrs(TriluAttrs{upper != 0});
}
Status infer_trilu(InferContext& ctx) {
  if (ctx.in(0).shape.size() < 2) return ctx.fail("input must have rank >= 2");
  if (ctx.node.has_input(1) && (ctx.in(1).dtype != DType::kI64 || numel(ctx.in(1).shape) != 1))
    return ctx.fail("k must be an int64 scalar");
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}
Status run_trilu(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  const int64_t n = in.numel();
  if (n == 0) return ok_status();
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  const int64_t rows = in.shape[in.shape.size() - 2], cols = in.shape.back();
  DevPtr k = ctx.node().has_input(1) && ctx.num_inputs() > 1 ? ctx.in(1).ptr : 0;
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_trilu", width_name(esize)), grid_for(n),
                    KernelArgs().ptr(in.ptr).ptr(ctx.out(0).ptr).i64(rows).i64(cols).ptr(k)
                        .i32(ctx.attrs<TriluAttrs>().upper ? 1 : 0).i64(n));
}

// ---- ReverseSequence --------------------------------------------------------------

struct ReverseSequenceAttrs {
  int64_t batch_axis = 1, time_axis = 0;
};
Result<ParsedAttrs> parse_reverse_sequence(const AttrMap& a, const NodeView& node) {
  ReverseSequenceAttrs attrs;
  GK_TRY(attrs.batch_axis, a.get_int("batch_axis", 1));
  GK_TRY(attrs.time_axis, a.get_int("time_axis", 0));
  if (!((attrs.batch_axis == 0 && attrs.time_axis == 1) || (attrs.batch_axis == 1 && attrs.time_axis == 0)))
    return invalid_model("{}: batch_axis {} and time_axis {} must be 0 and 1 in some order", node.describe(),
                         attrs.batch_axis, attrs.time_axis);
  return make_attrs(attrs);
}
Status infer_reverse_sequence(InferContext& ctx) {
  const Shape& in = ctx.in(0).shape;
  if (in.size() < 2) return ctx.fail("input must have rank >= 2");
  const int64_t batch = in[attrs_as<ReverseSequenceAttrs>(ctx.attrs).batch_axis];
  if (ctx.in(1).dtype != DType::kI64 || ctx.in(1).shape != Shape{batch})
    return ctx.fail(fmt::format("sequence_lens must be int64 of shape [{}]", batch));
  ctx.outputs[0] = ctx.in(0);
  return ok_status();
}
Status run_reverse_sequence(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  const int64_t n = in.numel();
  if (n == 0) return ok_status();
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  const int64_t inner = numel(std::span(in.shape).subspan(2));
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_reverse_sequence", width_name(esize)),
                    grid_for(n),
                    KernelArgs().ptr(in.ptr).ptr(ctx.out(0).ptr).ptr(ctx.in(1).ptr).i64(in.shape[0]).i64(in.shape[1])
                        .i64(inner).i32(static_cast<int32_t>(ctx.attrs<ReverseSequenceAttrs>().batch_axis))
                        .ptr(ctx.error_flag()).i64(n));
}

// ---- OneHot -------------------------------------------------------------------------

struct OneHotAttrs {
  int64_t axis = -1;
};
Result<ParsedAttrs> parse_one_hot(const AttrMap& a, const NodeView&) {
  GK_TRY(int64_t axis, a.get_int("axis", -1));
  return make_attrs(OneHotAttrs{axis});
}
Result<int64_t> one_hot_depth(const NodeView& node, const HostTensor& depth) {
  if (depth.numel() != 1) return invalid_model("{}: depth must hold one element", node.describe());
  double d = depth.as_f64(0);
  if (!(d >= 1) || d > 1e15) return invalid_model("{}: depth {} must be a positive count", node.describe(), d);
  return static_cast<int64_t>(d);
}
Status infer_one_hot(InferContext& ctx) {
  GK_TRY(const HostTensor* dv, ctx.value(1));
  GK_TRY(int64_t depth, one_hot_depth(ctx.node, *dv));
  if (numel(ctx.in(2).shape) != 2) return ctx.fail("values must hold [off_value, on_value]");
  const Shape& in = ctx.in(0).shape;
  GK_TRY(int64_t axis, normalize_axis(ctx.node, attrs_as<OneHotAttrs>(ctx.attrs).axis, in.size() + 1));
  Shape out = in;
  out.insert(out.begin() + axis, depth);
  ctx.outputs[0] = {ctx.in(2).dtype, out};
  return ok_status();
}
Status run_one_hot(KernelContext& ctx) {
  const TensorRef& idx = ctx.in(0);
  const TensorRef& out = ctx.out(0);
  const int64_t n = out.numel();
  if (n == 0) return ok_status();
  GK_TRY(int64_t axis, normalize_axis(ctx.node(), ctx.attrs<OneHotAttrs>().axis, idx.shape.size() + 1));
  const int64_t depth = out.shape[axis];
  const int64_t inner = numel(std::span(idx.shape).subspan(axis));
  GK_TRY(size_t esize, element_bytes(ctx.node(), out.dtype));
  if (idx.dtype == DType::kBool)
    return unimplemented("{}: bool indices are not supported", ctx.node().describe());
  GK_TRY(const char* it, type_name(ctx.node(), idx.dtype, "indices"));
  return ctx.launch(kernel_sources::gather_scatter, entry("gk_gs_one_hot", width_name(esize), it), grid_for(n),
                    KernelArgs().ptr(idx.ptr).ptr(ctx.in(2).ptr).ptr(out.ptr).i64(depth).i64(inner).i64(n));
}

// ---- NonZero and Compress -------------------------------------------------------------

struct NonzeroCounts {
  GkBuf offsets;  // chunks + 1 int64: exclusive offsets, then the total
  int64_t chunk = 0, chunks = 0, total = 0;
};

// Counts per chunk on the device, scans them there, and downloads the total (a sync).
Result<NonzeroCounts> count_nonzero(KernelContext& ctx, DType dtype, DevPtr x, int64_t n) {
  NonzeroCounts c;
  if (n == 0) return c;
  GK_TRY(const char* tn, type_name(ctx.node(), dtype, "input"));
  // untuned: chunks of >= 1024 elements, at most 4096 of them, so the one-thread
  // scan stays short.
  c.chunk = std::max<int64_t>(1024, (n + 4095) / 4096);
  c.chunks = (n + c.chunk - 1) / c.chunk;
  GK_TRY(c.offsets, ctx.scratch(DType::kI64, c.chunks + 1));
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::data_movement, entry("gk_dm_nonzero_count", tn),
                                grid_for(c.chunks),
                                KernelArgs().ptr(x).i64(n).i64(c.chunk).ptr(c.offsets.ptr()).i64(c.chunks)));
  GK_RETURN_IF_ERROR(ctx.launch(kernel_sources::data_movement, "gk_dm_exclusive_scan", grid_for(1),
                                KernelArgs().ptr(c.offsets.ptr()).i64(c.chunks)));
  GK_TRY(GkBuf total, c.offsets.view(c.chunks, 1));
  GK_RETURN_IF_ERROR(total.download_raw(&c.total, sizeof(int64_t)));
  return c;
}

// Coordinates of the nonzeros of x (dims) into out, [rank, total].
Status write_nonzero(KernelContext& ctx, DType dtype, DevPtr x, const Shape& dims, const NonzeroCounts& c,
                     DevPtr out) {
  if (c.total == 0) return ok_status();
  GK_TRY(const char* tn, type_name(ctx.node(), dtype, "input"));
  GK_TRY(IndexMap map, strided_map(dims, std::vector<int64_t>(dims.size(), 0)));
  return ctx.launch(kernel_sources::data_movement, entry("gk_dm_nonzero_write", tn), grid_for(c.chunks),
                    KernelArgs().ptr(x).i64(numel(dims)).i64(c.chunk).ptr(c.offsets.ptr()).i64(c.chunks).ptr(out)
                        .i64(c.total).pod(map));
}

Status infer_nonzero(InferContext& ctx) {
  ctx.outputs[0] = {DType::kI64, {static_cast<int64_t>(ctx.in(0).shape.size()), 0}};
  ctx.dynamic_shape = true;
  return ok_status();
}
Status run_nonzero(KernelContext& ctx) {
  const TensorRef& in = ctx.in(0);
  GK_TRY(NonzeroCounts c, count_nonzero(ctx, in.dtype, in.ptr, in.numel()));
  GK_RETURN_IF_ERROR(set_output(ctx, 0, {static_cast<int64_t>(in.shape.size()), c.total}));
  return write_nonzero(ctx, in.dtype, in.ptr, in.shape, c, ctx.out(0).ptr);
}

struct CompressAttrs {
  std::optional<int64_t> axis;  // absent: the flattened input
};
Result<ParsedAttrs> parse_compress(const AttrMap& a, const NodeView&) {
  CompressAttrs attrs;
  if (a.has("axis")) {
    GK_TRY(attrs.axis, a.get_int("axis", 0));
  }
  return make_attrs(attrs);
}
// The output shape for `selected` slices, and the [outer, dim, inner] view.
struct CompressView {
  int64_t outer = 1, dim = 0, inner = 1;
};
Result<CompressView> compress_view(const NodeView& node, const CompressAttrs& attrs, const Shape& in) {
  CompressView v;
  if (!attrs.axis) {
    v.dim = numel(in);
    return v;
  }
  GK_TRY(int64_t axis, normalize_axis(node, *attrs.axis, in.size()));
  v.outer = numel(std::span(in).first(axis));
  v.dim = in[axis];
  v.inner = numel(std::span(in).subspan(axis + 1));
  return v;
}
Shape compress_shape(const CompressAttrs& attrs, const Shape& in, int64_t selected) {
  if (!attrs.axis) return {selected};
  Shape out = in;
  out[*attrs.axis < 0 ? *attrs.axis + static_cast<int64_t>(in.size()) : *attrs.axis] = selected;
  return out;
}
Status infer_compress(InferContext& ctx) {
  const auto& attrs = attrs_as<CompressAttrs>(ctx.attrs);
  if (ctx.in(1).dtype != DType::kBool || ctx.in(1).shape.size() != 1)
    return ctx.fail("condition must be a 1-D bool tensor");
  GK_TRY(CompressView v, compress_view(ctx.node, attrs, ctx.in(0).shape));
  (void)v;
  ctx.outputs[0] = {ctx.in(0).dtype, compress_shape(attrs, ctx.in(0).shape, 0)};
  ctx.dynamic_shape = true;
  return ok_status();
}
// Condition entries past the axis length are ignored (numpy.compress rejects a
// true one there; ignoring keeps every access in bounds).
Status run_compress(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<CompressAttrs>();
  const TensorRef& data = ctx.in(0);
  const TensorRef& cond = ctx.in(1);
  GK_TRY(CompressView v, compress_view(ctx.node(), attrs, data.shape));
  GK_TRY(size_t esize, element_bytes(ctx.node(), data.dtype));
  const int64_t len = std::min(cond.numel(), v.dim);
  GK_TRY(NonzeroCounts c, count_nonzero(ctx, DType::kBool, cond.ptr, len));
  GK_RETURN_IF_ERROR(set_output(ctx, 0, compress_shape(attrs, data.shape, c.total)));
  const TensorRef& out = ctx.out(0);
  if (out.numel() == 0) return ok_status();
  GK_TRY(GkBuf picked, ctx.scratch(DType::kI64, c.total));
  GK_RETURN_IF_ERROR(write_nonzero(ctx, DType::kBool, cond.ptr, {len}, c, picked.ptr()));
  const int64_t n = out.numel();
  return ctx.launch(kernel_sources::gather_scatter, entry("gk_gs_gather", width_name(esize), "int64_t"),
                    grid_for(n),
                    KernelArgs().ptr(data.ptr).ptr(picked.ptr()).ptr(out.ptr).i64(v.dim).i64(v.inner).i64(c.total)
                        .ptr(ctx.error_flag()).i64(n));
}

// ---- Unique (on the host after one download) -------------------------------------------

struct UniqueAttrs {
  std::optional<int64_t> axis;
  bool sorted = true;
};
Result<ParsedAttrs> parse_unique(const AttrMap& a, const NodeView&) {
  UniqueAttrs attrs;
  if (a.has("axis")) {
    GK_TRY(attrs.axis, a.get_int("axis", 0));
  }
  GK_TRY(int64_t sorted, a.get_int("sorted", 1));
  attrs.sorted = sorted != 0;
  return make_attrs(attrs);
}
Status infer_unique(InferContext& ctx) {
  const auto& attrs = attrs_as<UniqueAttrs>(ctx.attrs);
  const Shape& in = ctx.in(0).shape;
  Shape y{0};
  if (attrs.axis) {
    GK_TRY(int64_t axis, normalize_axis(ctx.node, *attrs.axis, in.size()));
    y = in;
    y[axis] = 0;
  }
  const TensorType shapes[] = {{ctx.in(0).dtype, y}, {DType::kI64, {0}}, {DType::kI64, {0}}, {DType::kI64, {0}}};
  for (size_t o = 0; o < ctx.outputs.size() && o < 4; ++o) ctx.outputs[o] = shapes[o];
  ctx.dynamic_shape = true;
  return ok_status();
}

struct UniqueGroups {
  std::vector<int64_t> first, count, inverse;  // per group; inverse per slice
};

// Slices (s of them, each `len` keys, slice-major in keys) grouped by equal keys.
// NaNs compare equal to each other and sort last, as numpy.unique does.
template <typename K>
UniqueGroups group_slices(const std::vector<K>& keys, int64_t s, int64_t len, bool sorted) {
  auto less = [](K a, K b) {
    if constexpr (std::is_floating_point_v<K>) {
      if (std::isnan(a)) return false;
      if (std::isnan(b)) return true;
    }
    return a < b;
  };
  auto equal = [](K a, K b) {
    if constexpr (std::is_floating_point_v<K>) {
      if (std::isnan(a) && std::isnan(b)) return true;
    }
    return a == b;
  };
  auto slice_less = [&](int64_t x, int64_t y) {
    for (int64_t i = 0; i < len; ++i) {
      K a = keys[x * len + i], b = keys[y * len + i];
      if (less(a, b)) return true;
      if (less(b, a)) return false;
    }
    return false;
  };
  auto slice_equal = [&](int64_t x, int64_t y) {
    for (int64_t i = 0; i < len; ++i)
      if (!equal(keys[x * len + i], keys[y * len + i])) return false;
    return true;
  };
  std::vector<int64_t> order(s);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), slice_less);
  UniqueGroups g;
  std::vector<int64_t> group_of(s);
  for (int64_t i = 0; i < s; ++i) {
    if (i == 0 || !slice_equal(order[i - 1], order[i])) {
      g.first.push_back(order[i]);
      g.count.push_back(0);
    }
    group_of[order[i]] = static_cast<int64_t>(g.first.size()) - 1;
    ++g.count.back();
  }
  std::vector<int64_t> rank(g.first.size());
  std::iota(rank.begin(), rank.end(), 0);
  if (!sorted) {  // groups in order of first occurrence
    std::vector<int64_t> by_first(g.first.size());
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(), [&](int64_t a, int64_t b) { return g.first[a] < g.first[b]; });
    UniqueGroups r;
    for (size_t j = 0; j < by_first.size(); ++j) {
      rank[by_first[j]] = static_cast<int64_t>(j);
      r.first.push_back(g.first[by_first[j]]);
      r.count.push_back(g.count[by_first[j]]);
    }
    g.first = std::move(r.first);
    g.count = std::move(r.count);
  }
  g.inverse.resize(s);
  for (int64_t i = 0; i < s; ++i) g.inverse[i] = rank[group_of[i]];
  return g;
}

Status run_unique(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<UniqueAttrs>();
  const TensorRef& in = ctx.in(0);
  GK_TRY(size_t esize, element_bytes(ctx.node(), in.dtype));
  GK_TRY(HostTensor x, download_tensor(ctx.kit(), in.dtype, in.shape, in.ptr));
  int64_t outer = 1, s = in.numel(), inner = 1, axis = 0;
  if (attrs.axis) {
    GK_TRY(axis, normalize_axis(ctx.node(), *attrs.axis, in.shape.size()));
    outer = numel(std::span(in.shape).first(axis));
    s = in.shape[axis];
    inner = numel(std::span(in.shape).subspan(axis + 1));
  }
  const int64_t len = outer * inner;
  // Keys slice-major: slice k is x[o, k, i] over (o, i).
  auto gather_keys = [&](const auto& flat) {
    std::remove_cvref_t<decltype(flat)> keys(flat.size());
    for (int64_t k = 0; k < s; ++k)
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) keys[k * len + o * inner + i] = flat[(o * s + k) * inner + i];
    return keys;
  };
  UniqueGroups g;
  if (dtype_is_float(in.dtype))
    g = group_slices(gather_keys(x.to_f64_vector()), s, len, attrs.sorted);
  else
    g = group_slices(gather_keys(x.to_i64_vector()), s, len, attrs.sorted);
  const int64_t m = static_cast<int64_t>(g.first.size());

  // Y: the first slice of each group, copied as bytes.
  Shape y_shape{m};
  if (attrs.axis) {
    y_shape = in.shape;
    y_shape[axis] = m;
  }
  std::vector<uint8_t> y(static_cast<size_t>(outer * m * inner) * esize);
  const auto* src = static_cast<const uint8_t*>(x.raw());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < m; ++j)
      std::memcpy(y.data() + ((o * m + j) * inner) * esize, src + ((o * s + g.first[j]) * inner) * esize,
                  inner * esize);
  const std::vector<int64_t>* extra[] = {&g.first, &g.inverse, &g.count};
  for (size_t o = 0; o < ctx.num_outputs() && o < 4; ++o) {
    if (!ctx.node().has_output(o)) continue;
    const void* data = o == 0 ? static_cast<const void*>(y.data()) : extra[o - 1]->data();
    size_t bytes = o == 0 ? y.size() : extra[o - 1]->size() * sizeof(int64_t);
    GK_RETURN_IF_ERROR(set_output(ctx, o, o == 0 ? y_shape : Shape{static_cast<int64_t>(extra[o - 1]->size())}));
    if (bytes > 0) GK_RETURN_IF_ERROR(ctx.kit().device().upload(ctx.out(o).ptr, data, bytes));
  }
  return ok_status();
}

constexpr OpImpl kTrilu{&parse_trilu, &infer_trilu, &run_trilu};
constexpr OpImpl kReverseSequence{&parse_reverse_sequence, &infer_reverse_sequence, &run_reverse_sequence};
constexpr OpImpl kOneHot{&parse_one_hot, &infer_one_hot, &run_one_hot};
constexpr OpImpl kNonZero{nullptr, &infer_nonzero, &run_nonzero};
constexpr OpImpl kCompress{&parse_compress, &infer_compress, &run_compress};
constexpr OpImpl kUnique{&parse_unique, &infer_unique, &run_unique};

const OpSchema kIndexOps[] = {
    {"", "Trilu", 14, kOpsetCurrent, &kTrilu, {}},
    {"", "ReverseSequence", 10, kOpsetCurrent, &kReverseSequence, {}},
    {"", "OneHot", 9, kOpsetCurrent, &kOneHot, {.host_inputs = 1u << 1}},
    {"", "NonZero", 9, kOpsetCurrent, &kNonZero, {}},
    {"", "Compress", 9, kOpsetCurrent, &kCompress, {}},
    {"", "Unique", 11, kOpsetCurrent, &kUnique, {}},
};

}  // namespace

std::span<const OpSchema> index_ops() { return kIndexOps; }

}  // namespace gk::families

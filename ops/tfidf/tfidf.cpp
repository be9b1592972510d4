// TfIdfVectorizer-9: n-gram (with skips) counts of int32/int64 token rows on the
// device (ops/tfidf/tfidf.cuh), of string tokens on the host at plan time (as
// the string ops do, ops/string/string_ops.h): strings become pool ids and go through
// the same counting function.
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/tfidf/tfidf.cuh"
#include "ops/common/ml_tables.h"
#include "ops/string/string_ops.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace gk {
namespace {

struct TfIdfAttrs {
  int32_t mode = GK_TFIDF_TF;
  int32_t max_skip = 0;
  int64_t out_size = 0;
  bool strings = false;  // pool_strings: pool holds ids into the distinct strings
  std::unordered_map<std::string, int64_t> string_ids;
  std::vector<int64_t> table;  // out_begin[out_size + 1], entry_offset[E], entry_length[E]
  std::vector<int64_t> pool;
  std::vector<float> weights;  // by output coordinate; empty: all ones
  int64_t entries = 0;
  ml::DeviceTables device;  // table, pool, weights
};

Result<ParsedAttrs> parse_tfidf(const AttrMap& a, const NodeView& node) {
  auto attrs = std::make_shared<TfIdfAttrs>();
  const auto bad = [&](std::string what) { return invalid_model("{}: {}", node.describe(), what); };
  const Attribute* mode_attr = a.find("mode");
  if (!mode_attr) return bad("attribute mode is required (TF, IDF or TFIDF)");
  GK_TRY(std::string mode, a.get_string("mode", ""));
  if (mode == "TF") attrs->mode = GK_TFIDF_TF;
  else if (mode == "IDF") attrs->mode = GK_TFIDF_IDF;
  else if (mode == "TFIDF") attrs->mode = GK_TFIDF_TFIDF;
  else return bad(fmt::format("mode '{}' is not one of TF, IDF, TFIDF", mode));
  GK_TRY(int64_t min_gram, a.require_int("min_gram_length"));
  GK_TRY(int64_t max_gram, a.require_int("max_gram_length"));
  GK_TRY(int64_t max_skip, a.require_int("max_skip_count"));
  GK_TRY(std::vector<int64_t> counts, a.require_ints("ngram_counts"));
  GK_TRY(std::vector<int64_t> indexes, a.require_ints("ngram_indexes"));
  GK_TRY(std::vector<float> weights, a.get_floats("weights"));
  if (min_gram < 1 || max_gram < min_gram)
    return bad(fmt::format("gram lengths must satisfy 1 <= min_gram_length ({}) <= max_gram_length ({})", min_gram,
                           max_gram));
  if (max_skip < 0 || max_skip > std::numeric_limits<int32_t>::max() - 1)
    return bad(fmt::format("max_skip_count {} must be in [0, 2^31 - 2]", max_skip));
  if (counts.empty() || indexes.empty()) return bad("ngram_counts and ngram_indexes must not be empty");
  if (max_gram > static_cast<int64_t>(counts.size()))
    return bad(fmt::format("max_gram_length {} exceeds the {} n-gram sizes ngram_counts lists", max_gram,
                           counts.size()));
  for (int64_t i : indexes)
    if (i < 0 || i >= (int64_t{1} << 40)) return bad(fmt::format("ngram_indexes value {} must be in [0, 2^40)", i));
  attrs->out_size = *std::max_element(indexes.begin(), indexes.end()) + 1;
  attrs->max_skip = static_cast<int32_t>(max_skip);

  const bool has_ints = a.has("pool_int64s"), has_strings = a.has("pool_strings");
  if (has_ints == has_strings) return bad("exactly one of pool_int64s and pool_strings must be set");
  if (has_ints) {
    GK_TRY(attrs->pool, a.get_ints("pool_int64s"));
  } else {
    const Attribute* s = a.find("pool_strings");
    if (s->kind != Attribute::Kind::kStrings)
      return bad(fmt::format("pool_strings must be strings, got {}", attribute_kind_name(s->kind)));
    attrs->strings = true;
    for (const std::string& str : s->strings) {
      auto [it, fresh] = attrs->string_ids.emplace(str, static_cast<int64_t>(attrs->string_ids.size()));
      attrs->pool.push_back(it->second);
    }
  }
  if (!weights.empty()) {
    if (weights.size() != indexes.size())
      return bad(fmt::format("weights has {} values, ngram_indexes {}; they must match", weights.size(),
                             indexes.size()));
    // Weights scale output coordinates (ONNX Runtime and the reference index them
    // by coordinate), so every coordinate needs one.
    if (attrs->mode != GK_TFIDF_TF && attrs->out_size > static_cast<int64_t>(weights.size()))
      return bad(fmt::format("weights has {} values for {} output coordinates", weights.size(), attrs->out_size));
    attrs->weights = std::move(weights);
  }

  // The n-grams of lengths min..max: (pool offset, length, coordinate).
  struct Entry {
    int64_t offset, length, coordinate;
  };
  std::vector<Entry> entries;
  std::set<std::vector<int64_t>> seen;
  const int64_t total = static_cast<int64_t>(attrs->pool.size());
  int64_t id = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const int64_t n = static_cast<int64_t>(i) + 1;
    const int64_t begin = counts[i], end = i + 1 < counts.size() ? counts[i + 1] : total;
    if (begin < 0 || begin > end || end > total)
      return bad(fmt::format("ngram_counts gives {}-grams the pool range [{}, {}), outside [0, {}]", n, begin, end,
                             total));
    if ((end - begin) % n != 0)
      return bad(fmt::format("{} pool items for {}-grams do not make whole {}-grams", end - begin, n, n));
    for (int64_t off = begin; off < end; off += n, ++id) {
      if (n < min_gram || n > max_gram) continue;
      if (id >= static_cast<int64_t>(indexes.size()))
        return bad(fmt::format("the pool holds more n-grams than the {} ngram_indexes", indexes.size()));
      if (!seen.emplace(attrs->pool.begin() + off, attrs->pool.begin() + off + n).second)
        return bad(fmt::format("the pool lists the {}-gram at item {} twice", n, off));
      entries.push_back({off, n, indexes[static_cast<size_t>(id)]});
    }
  }
  std::stable_sort(entries.begin(), entries.end(),
                   [](const Entry& l, const Entry& r) { return l.coordinate < r.coordinate; });
  const size_t out = static_cast<size_t>(attrs->out_size), e_count = entries.size();
  attrs->entries = static_cast<int64_t>(e_count);
  attrs->table.assign(out + 1 + 2 * e_count, 0);
  for (size_t e = 0; e < e_count; ++e) {
    ++attrs->table[static_cast<size_t>(entries[e].coordinate) + 1];
    attrs->table[out + 1 + e] = entries[e].offset;
    attrs->table[out + 1 + e_count + e] = entries[e].length;
  }
  for (size_t j = 0; j < out; ++j) attrs->table[j + 1] += attrs->table[j];
  attrs->device.add(DType::kI64, attrs->table);
  attrs->device.add(DType::kI64, attrs->pool);
  attrs->device.add(DType::kF32, attrs->weights);
  return ParsedAttrs(std::move(attrs));
}

Result<gk_tfidf_params> params_for(const TfIdfAttrs& attrs, const Shape& x, const NodeView& node) {
  if (x.size() > 2)
    return invalid_argument("{}: input must be [C] or [N, C], got {}", node.describe(), shape_str(x));
  gk_tfidf_params p{};
  p.rows = x.size() == 2 ? x[0] : 1;
  p.cols = x.empty() ? 1 : x.back();
  p.out_size = attrs.out_size;
  p.max_skip = attrs.max_skip;
  p.mode = attrs.mode;
  return p;
}

// String tokens: each becomes its pool id (-1 when the pool lacks it, matching
// nothing) and is counted by the kernel's own cell function on the host.
Status infer_strings(InferContext& ctx, const TfIdfAttrs& attrs, const Shape& y_shape, const gk_tfidf_params& p) {
  GK_TRY(const HostTensor* x, strings::host_input(ctx, 0, DType::kString));
  std::vector<int64_t> ids;
  ids.reserve(x->string_values().size());
  for (const std::string& s : x->string_values()) {
    auto it = attrs.string_ids.find(s);
    ids.push_back(it == attrs.string_ids.end() ? -1 : it->second);
  }
  std::vector<float> y(static_cast<size_t>(p.rows * p.out_size));
  const float* w = attrs.weights.empty() ? nullptr : attrs.weights.data();
  for (int64_t r = 0; r < p.rows; ++r)
    for (int64_t j = 0; j < p.out_size; ++j)
      y[static_cast<size_t>(r * p.out_size + j)] = gk_tfidf_cell(ids.data() + r * p.cols, attrs.table.data(),
                                                                 attrs.pool.data(), w, attrs.entries, j, p);
  strings::set_output(ctx, 0, HostTensor::from_vector(DType::kF32, y_shape, y));
  return ok_status();
}

Status infer_tfidf(InferContext& ctx) {
  const auto& attrs = attrs_as<TfIdfAttrs>(ctx.attrs);
  const TensorType& x = ctx.in(0);
  GK_TRY(gk_tfidf_params p, params_for(attrs, x.shape, ctx.node));
  Shape y_shape = x.shape.size() == 2 ? Shape{x.shape[0], attrs.out_size} : Shape{attrs.out_size};
  if (x.dtype == DType::kString) {
    if (!attrs.strings) return ctx.fail("the input is strings but the pool is pool_int64s");
    return infer_strings(ctx, attrs, y_shape, p);
  }
  if (x.dtype != DType::kI32 && x.dtype != DType::kI64)
    return unimplemented("{}: input type {}; TfIdfVectorizer takes int32, int64 or string", ctx.node.describe(),
                         dtype_name(x.dtype));
  if (attrs.strings) return ctx.fail(fmt::format("the input is {} but the pool is pool_strings", dtype_name(x.dtype)));
  ctx.outputs[0] = {DType::kF32, std::move(y_shape)};
  return ok_status();
}

Status run_tfidf(KernelContext& ctx) {
  const auto& attrs = ctx.attrs<TfIdfAttrs>();
  const TensorRef &x = ctx.in(0), &y = ctx.out(0);
  if (x.dtype == DType::kString) return strings::run_host_only(ctx);
  const int64_t n = y.numel();
  if (n == 0) return ok_status();
  GK_TRY(gk_tfidf_params p, params_for(attrs, x.shape, ctx.node()));
  GK_TRY(std::vector<DevPtr> tables, attrs.device.get(ctx));
  KernelArgs args;
  args.ptr(x.ptr).ptr(tables[0]).ptr(tables[1]).ptr(tables[2]).ptr(y.ptr).i64(attrs.entries).pod(p);
  return ctx.launch(kernel_sources::tfidf, x.dtype == DType::kI32 ? "gk_tfidf<int32_t>" : "gk_tfidf<int64_t>",
                    grid_for(n), args);
}

const OpImpl kTfIdf{&parse_tfidf, &infer_tfidf, &run_tfidf};

const OpSchema kTfIdfSchemas[] = {
    {"", "TfIdfVectorizer", 9, kOpsetCurrent, &kTfIdf, {}},
};

}  // namespace

namespace families {
std::span<const OpSchema> tfidf_ops() { return kTfIdfSchemas; }
}  // namespace families

}  // namespace gk

// ai.onnx.ml LabelEncoder (1, 2, 4) and CategoryMapper-1: map each element through a
// key → value table.
// Host-only like the string ops (ops/string/string_ops.h): string keys or values cannot
// live on the device, and a numeric input is planned by value (host_inputs), so
// the mapping runs in infer().
#include "ops/core/op.h"
#include "ops/string/string_ops.h"

#include <cmath>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gk {
namespace {

using strings::host_input;
using strings::make_attrs;
using strings::set_output;

bool is_integer(DType t) { return t == DType::kI64 || t == DType::kI32 || t == DType::kI16; }
bool is_float(DType t) { return t == DType::kF32 || t == DType::kF64; }

// One typed list of keys or values: strings, integers (held as int64) or floats
// (held as double, which every float32 converts to exactly).
struct Column {
  DType dtype = DType::kUndefined;
  std::vector<std::string> s;
  std::vector<int64_t> i;
  std::vector<double> f;
  size_t size() const { return dtype == DType::kString ? s.size() : is_integer(dtype) ? i.size() : f.size(); }
};

Column column_of(const HostTensor& t) {
  Column c;
  c.dtype = t.dtype();
  if (c.dtype == DType::kString) c.s = t.string_values();
  else if (is_integer(c.dtype)) c.i = t.to_i64_vector();
  else c.f = t.to_f64_vector();
  return c;
}

struct Encoder {
  Column keys, values, fallback;  // fallback: one element of values.dtype
  std::unordered_map<std::string, size_t> by_string;
  std::unordered_map<int64_t, size_t> by_int;
  std::unordered_map<double, size_t> by_float;  // 0.0 and -0.0 are one key
  std::optional<size_t> nan_key;                // a NaN key matches every NaN input

  // Later duplicates overwrite earlier ones: "if a key is repeated, the last key
  // takes precedence" (LabelEncoder-4).
  void index() {
    for (size_t k = 0; k < keys.size(); ++k) {
      if (keys.dtype == DType::kString) by_string[keys.s[k]] = k;
      else if (is_integer(keys.dtype)) by_int[keys.i[k]] = k;
      else if (std::isnan(keys.f[k])) nan_key = k;
      else by_float[keys.f[k]] = k;
    }
  }
  // Row of `values` for input element e, or nullopt (the default).
  std::optional<size_t> find(const HostTensor& x, const std::vector<int64_t>& ints, const std::vector<double>& floats,
                             size_t e) const {
    if (keys.dtype == DType::kString) {
      auto it = by_string.find(x.string_values()[e]);
      return it == by_string.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
    if (is_integer(keys.dtype)) {
      auto it = by_int.find(ints[e]);
      return it == by_int.end() ? std::nullopt : std::optional<size_t>(it->second);
    }
    if (std::isnan(floats[e])) return nan_key;
    auto it = by_float.find(floats[e]);
    return it == by_float.end() ? std::nullopt : std::optional<size_t>(it->second);
  }
};

struct LabelEncoderAttrs {
  std::vector<Encoder> encoders;  // one per accepted input type (LabelEncoder-1 has two)
};

// The one keys_* (or values_*) attribute set; `tensor_ok` from LabelEncoder-4 on.
Result<Column> one_of(const AttrMap& a, const NodeView& node, const std::string& stem, bool tensor_ok) {
  std::vector<Column> found;
  if (const Attribute* at = a.find(stem + "_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute {}_strings must be strings, got {}", node.describe(), stem,
                           attribute_kind_name(at->kind));
    found.push_back(Column{DType::kString, at->strings, {}, {}});
  }
  if (a.has(stem + "_int64s")) {
    GK_TRY(std::vector<int64_t> v, a.get_ints(stem + "_int64s"));
    found.push_back(Column{DType::kI64, {}, std::move(v), {}});
  }
  if (a.has(stem + "_floats")) {
    GK_TRY(std::vector<float> v, a.get_floats(stem + "_floats"));
    found.push_back(Column{DType::kF32, {}, {}, std::vector<double>(v.begin(), v.end())});
  }
  if (tensor_ok && a.has(stem + "_tensor")) {
    GK_TRY(auto t, a.require_tensor(stem + "_tensor"));
    const DType d = t->dtype();
    if (d != DType::kString && !is_integer(d) && !is_float(d))
      return invalid_model("{}: {}_tensor is {}; LabelEncoder takes string, int64, int32, int16, float or double",
                           node.describe(), stem, dtype_name(d));
    found.push_back(column_of(*t));
  }
  if (found.size() != 1)
    return invalid_model("{}: exactly one {}_* attribute must be set, found {}", node.describe(), stem, found.size());
  return std::move(found[0]);
}

// The default for values of `dtype`: default_tensor (LabelEncoder-4) when set,
// else default_string / default_int64 / default_float ("_Unused", -1, -0.0).
Result<Column> default_for(const AttrMap& a, const NodeView& node, DType dtype, bool tensor_ok) {
  if (tensor_ok && a.has("default_tensor")) {
    GK_TRY(auto t, a.require_tensor("default_tensor"));
    if (t->dtype() != dtype || t->numel() != 1)
      return invalid_model("{}: default_tensor must hold one {} (the values' type), got {} of shape {}",
                           node.describe(), dtype_name(dtype), dtype_name(t->dtype()), shape_str(t->shape()));
    return column_of(*t);
  }
  Column c;
  c.dtype = dtype;
  if (dtype == DType::kString) {
    GK_TRY(std::string s, a.get_string("default_string", "_Unused"));
    c.s = {std::move(s)};
  } else if (is_integer(dtype)) {
    GK_TRY(int64_t v, a.get_int("default_int64", -1));
    c.i = {v};
  } else {
    GK_TRY(float v, a.get_float("default_float", -0.0f));
    c.f = {v};
  }
  return c;
}

Result<ParsedAttrs> parse_label_encoder(const AttrMap& a, const NodeView& node) {
  const bool tensor_ok = node.opset >= 4;
  Encoder e;
  GK_TRY(e.keys, one_of(a, node, "keys", tensor_ok));
  GK_TRY(e.values, one_of(a, node, "values", tensor_ok));
  if (e.keys.size() != e.values.size())
    return invalid_model("{}: {} keys but {} values; they must pair up", node.describe(), e.keys.size(),
                         e.values.size());
  GK_TRY(e.fallback, default_for(a, node, e.values.dtype, tensor_ok));
  e.index();
  LabelEncoderAttrs attrs;
  attrs.encoders.push_back(std::move(e));
  return make_attrs(std::move(attrs));
}

// LabelEncoder-1: classes_strings; a string input maps to its index (default_int64
// when absent), an int64 input to classes_strings[i] (default_string when out of
// range). Both directions are built here; the input's type picks one.
Result<ParsedAttrs> parse_label_encoder_1(const AttrMap& a, const NodeView& node) {
  std::vector<std::string> classes;
  if (const Attribute* at = a.find("classes_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute classes_strings must be strings, got {}", node.describe(),
                           attribute_kind_name(at->kind));
    classes = at->strings;
  }
  std::vector<int64_t> indices(classes.size());
  for (size_t k = 0; k < indices.size(); ++k) indices[k] = static_cast<int64_t>(k);
  Encoder to_int, to_string;
  to_int.keys = Column{DType::kString, classes, {}, {}};
  to_int.values = Column{DType::kI64, {}, indices, {}};
  GK_TRY(to_int.fallback, default_for(a, node, DType::kI64, false));
  to_string.keys = Column{DType::kI64, {}, indices, {}};
  to_string.values = Column{DType::kString, classes, {}, {}};
  GK_TRY(to_string.fallback, default_for(a, node, DType::kString, false));
  to_int.index();
  to_string.index();
  LabelEncoderAttrs attrs;
  attrs.encoders.push_back(std::move(to_int));
  attrs.encoders.push_back(std::move(to_string));
  return make_attrs(std::move(attrs));
}

// CategoryMapper-1: cats_strings[k] <-> cats_int64s[k]; a string input maps to its
// int64 (default_int64 when absent), an int64 input to its string (default_string).
Result<ParsedAttrs> parse_category_mapper(const AttrMap& a, const NodeView& node) {
  std::vector<std::string> strings;
  if (const Attribute* at = a.find("cats_strings")) {
    if (at->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute cats_strings must be strings, got {}", node.describe(),
                           attribute_kind_name(at->kind));
    strings = at->strings;
  }
  GK_TRY(std::vector<int64_t> ints, a.get_ints("cats_int64s"));
  if (strings.size() != ints.size())
    return invalid_model("{}: {} cats_strings but {} cats_int64s; they must pair up", node.describe(), strings.size(),
                         ints.size());
  Encoder to_int, to_string;
  to_int.keys = Column{DType::kString, strings, {}, {}};
  to_int.values = Column{DType::kI64, {}, ints, {}};
  GK_TRY(to_int.fallback, default_for(a, node, DType::kI64, false));
  to_string.keys = Column{DType::kI64, {}, ints, {}};
  to_string.values = Column{DType::kString, strings, {}, {}};
  GK_TRY(to_string.fallback, default_for(a, node, DType::kString, false));
  to_int.index();
  to_string.index();
  LabelEncoderAttrs attrs;
  attrs.encoders.push_back(std::move(to_int));
  attrs.encoders.push_back(std::move(to_string));
  return make_attrs(std::move(attrs));
}

template <typename T>
void store_numbers(HostTensor& y, const std::vector<const Column*>& from, const std::vector<size_t>& row) {
  T* out = y.mutable_data<T>();
  for (size_t e = 0; e < row.size(); ++e) {
    const Column& c = *from[e];
    if constexpr (std::is_integral_v<T>) out[e] = static_cast<T>(c.i[row[e]]);
    else out[e] = static_cast<T>(c.f[row[e]]);
  }
}

Status infer_label_encoder(InferContext& ctx) {
  const auto& attrs = attrs_as<LabelEncoderAttrs>(ctx.attrs);
  GK_TRY(const HostTensor* x, host_input(ctx, 0));
  const Encoder* enc = nullptr;
  for (const Encoder& e : attrs.encoders)
    if (e.keys.dtype == x->dtype()) enc = &e;
  if (!enc)
    return ctx.fail(fmt::format("input is {}, but the keys are {}", dtype_name(x->dtype()),
                                dtype_name(attrs.encoders.front().keys.dtype)));
  std::vector<int64_t> ints;
  std::vector<double> floats;
  if (is_integer(x->dtype())) ints = x->to_i64_vector();
  if (is_float(x->dtype())) floats = x->to_f64_vector();
  const size_t n = static_cast<size_t>(x->numel());
  std::vector<const Column*> from(n);
  std::vector<size_t> row(n);
  for (size_t e = 0; e < n; ++e) {
    auto k = enc->find(*x, ints, floats, e);
    from[e] = k ? &enc->values : &enc->fallback;
    row[e] = k.value_or(0);
  }
  const DType out = enc->values.dtype;
  if (out == DType::kString) {
    std::vector<std::string> y(n);
    for (size_t e = 0; e < n; ++e) y[e] = from[e]->s[row[e]];
    set_output(ctx, 0, HostTensor::strings(x->shape(), std::move(y)));
    return ok_status();
  }
  GK_TRY(HostTensor y, HostTensor::allocate(out, x->shape()));
  switch (out) {
    case DType::kI64: store_numbers<int64_t>(y, from, row); break;
    case DType::kI32: store_numbers<int32_t>(y, from, row); break;
    case DType::kI16: store_numbers<int16_t>(y, from, row); break;
    case DType::kF32: store_numbers<float>(y, from, row); break;
    case DType::kF64: store_numbers<double>(y, from, row); break;
    default: return internal_error("{}: values of type {}", ctx.node.describe(), dtype_name(out));
  }
  set_output(ctx, 0, std::move(y));
  return ok_status();
}

const OpImpl kLabelEncoder1{&parse_label_encoder_1, &infer_label_encoder, &strings::run_host_only};
const OpImpl kLabelEncoder{&parse_label_encoder, &infer_label_encoder, &strings::run_host_only};
const OpImpl kCategoryMapper{&parse_category_mapper, &infer_label_encoder, &strings::run_host_only};

const OpSchema kLabelEncoderSchemas[] = {
    {"ai.onnx.ml", "LabelEncoder", 1, 1, &kLabelEncoder1, {.host_inputs = 0b1}},
    {"ai.onnx.ml", "LabelEncoder", 2, 3, &kLabelEncoder, {.host_inputs = 0b1}},
    {"ai.onnx.ml", "LabelEncoder", 4, kOpsetCurrent, &kLabelEncoder, {.host_inputs = 0b1}},
    {"ai.onnx.ml", "CategoryMapper", 1, kOpsetCurrent, &kCategoryMapper, {.host_inputs = 0b1}},
};

}  // namespace

namespace families {
std::span<const OpSchema> label_encoder_ops() { return kLabelEncoderSchemas; }
}  // namespace families

}  // namespace gk

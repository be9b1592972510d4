// String ops: StringConcat-20, StringSplit-20, RegexFullMatch-20, StringNormalizer-10.
// Host-only (see ops/string/string_ops.h): each computes its outputs in infer() from the
// host-known input values.
#include "ops/string/string_ops.h"

#include "ops/common/broadcast_plan.h"
#include "ops/core/op.h"

#include <algorithm>
#include <limits>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace gk {

namespace strings {

Result<const HostTensor*> host_input(const InferContext& ctx, size_t i, DType dtype) {
  if (i >= ctx.inputs.size() || ctx.in(i).dtype == DType::kUndefined)
    return ctx.fail(fmt::format("input {} is missing", i));
  if (dtype != DType::kUndefined && ctx.in(i).dtype != dtype)
    return ctx.fail(fmt::format("input {} must be {}, got {}", i, dtype_name(dtype), dtype_name(ctx.in(i).dtype)));
  if (!ctx.has_value(i))
    return unimplemented("{}: input {} ({}) is not known at plan time; strings are host-only: the input must be "
                         "known before the run",
                         ctx.node.describe(), i, dtype_name(ctx.in(i).dtype));
  const HostTensor* t = ctx.values[i];
  if (t->dtype() == DType::kString && static_cast<int64_t>(t->string_values().size()) != numel(t->shape()))
    return internal_error("{}: input {} holds {} strings for shape {}", ctx.node.describe(), i,
                          t->string_values().size(), shape_str(t->shape()));
  return t;
}

void set_output(InferContext& ctx, size_t i, HostTensor value) {
  if (ctx.output_values.size() < ctx.outputs.size()) ctx.output_values.resize(ctx.outputs.size());
  ctx.outputs[i] = {value.dtype(), value.shape()};
  ctx.output_values[i] = std::make_shared<const HostTensor>(std::move(value));
}

Status run_host_only(KernelContext& ctx) {
  return internal_error("{}: a host-only op reached run(); its outputs should have been computed at plan time",
                        ctx.node().describe());
}

}  // namespace strings

namespace {

using strings::host_input;
using strings::make_attrs;
using strings::set_output;

// ---- StringConcat ---------------------------------------------------------------

Status infer_string_concat(InferContext& ctx) {
  GK_TRY(const HostTensor* a, host_input(ctx, 0, DType::kString));
  GK_TRY(const HostTensor* b, host_input(ctx, 1, DType::kString));
  const Shape shapes[] = {a->shape(), b->shape()};
  auto out_shape = broadcast_all(shapes);
  if (!out_shape.ok()) return out_shape.status().with_context(ctx.node.describe());
  const int64_t n = numel(*out_shape);
  std::vector<std::string> out(static_cast<size_t>(n));
  const auto &sa = a->string_values(), &sb = b->string_values();
  if (sa.size() == static_cast<size_t>(n) && sb.size() == static_cast<size_t>(n)) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = sa[i] + sb[i];
  } else if (n > 0) {
    auto plan = plan_broadcast(*out_shape, shapes, false);
    if (!plan.ok()) return plan.status().with_context(ctx.node.describe());
    auto offset = [](const IndexMap& m, int64_t linear) {
      int64_t off = 0;
      for (int d = m.rank - 1; d >= 0; --d) {
        off += (linear % m.dims[d]) * m.strides[d];
        linear /= m.dims[d];
      }
      return static_cast<size_t>(off);
    };
    for (int64_t i = 0; i < n; ++i)
      out[static_cast<size_t>(i)] = sa[offset(plan->maps[0], i)] + sb[offset(plan->maps[1], i)];
  }
  set_output(ctx, 0, HostTensor::strings(std::move(*out_shape), std::move(out)));
  return ok_status();
}

// ---- StringSplit ------------------------------------------------------------------

struct SplitAttrs {
  std::string delimiter;  // empty: split on runs of whitespace
  int64_t maxsplit = -1;  // negative: no limit
};

Result<ParsedAttrs> parse_string_split(const AttrMap& a, const NodeView&) {
  SplitAttrs attrs;
  GK_TRY(attrs.delimiter, a.get_string("delimiter", ""));
  GK_TRY(attrs.maxsplit, a.get_int("maxsplit", -1));
  return make_attrs(std::move(attrs));
}

// Bytes of the whitespace character starting at s[i], 0 when none. The set is
// Python's str.isspace() (the reference implementation is str.split()): ASCII
// \t\n\v\f\r, 0x1c-0x1f and space, and the Unicode spaces U+0085, U+00A0, U+1680,
// U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000 in their UTF-8 forms. Every
// multi-byte form starts with a lead byte, so a scan byte by byte never matches
// inside another character of valid UTF-8.
size_t space_len(std::string_view s, size_t i) {
  const auto at = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned c = at(0);
  if ((c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20)) return 1;
  if (c == 0xc2 && (at(1) == 0x85 || at(1) == 0xa0)) return 2;
  if (c == 0xe1 && at(1) == 0x9a && at(2) == 0x80) return 3;
  const unsigned t = at(2);
  if (c == 0xe2 && at(1) == 0x80 && ((t >= 0x80 && t <= 0x8a) || t == 0xa8 || t == 0xa9 || t == 0xaf)) return 3;
  if (c == 0xe2 && at(1) == 0x81 && at(2) == 0x9f) return 3;
  if (c == 0xe3 && at(1) == 0x80 && at(2) == 0x80) return 3;
  return 0;
}

// Python's str.split(None, maxsplit): runs of whitespace separate, leading
// whitespace is dropped, and once maxsplit splits are made the rest (leading
// whitespace stripped, trailing kept) is the last part.
std::vector<std::string_view> split_whitespace(std::string_view s, int64_t maxsplit) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  auto skip_spaces = [&] {
    for (size_t k; i < s.size() && (k = space_len(s, i)) != 0;) i += k;
  };
  int64_t left = maxsplit < 0 ? std::numeric_limits<int64_t>::max() : maxsplit;
  for (; left > 0; --left) {
    skip_spaces();
    if (i == s.size()) return parts;
    const size_t start = i;
    while (i < s.size() && space_len(s, i) == 0) ++i;
    parts.push_back(s.substr(start, i - start));
  }
  skip_spaces();
  if (i < s.size()) parts.push_back(s.substr(i));
  return parts;
}

// Python's str.split(sep, maxsplit): every delimiter separates, so adjacent ones
// give empty parts.
std::vector<std::string_view> split_on(std::string_view s, std::string_view sep, int64_t maxsplit) {
  std::vector<std::string_view> parts;
  size_t i = 0;
  int64_t left = maxsplit < 0 ? std::numeric_limits<int64_t>::max() : maxsplit;
  for (size_t pos; left > 0 && (pos = s.find(sep, i)) != std::string_view::npos; --left) {
    parts.push_back(s.substr(i, pos - i));
    i = pos + sep.size();
  }
  parts.push_back(s.substr(i));
  return parts;
}

Status infer_string_split(InferContext& ctx) {
  const auto& attrs = attrs_as<SplitAttrs>(ctx.attrs);
  GK_TRY(const HostTensor* x, host_input(ctx, 0, DType::kString));
  const auto& in = x->string_values();
  std::vector<std::vector<std::string_view>> parts(in.size());
  size_t widest = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    parts[i] = attrs.delimiter.empty() ? split_whitespace(in[i], attrs.maxsplit)
                                       : split_on(in[i], attrs.delimiter, attrs.maxsplit);
    widest = std::max(widest, parts[i].size());
  }
  // Y pads every row with "" to the most parts any element has: shape X + [widest].
  Shape y_shape = x->shape();
  y_shape.push_back(static_cast<int64_t>(widest));
  if (auto count = checked_numel(y_shape); !count.ok()) return count.status().with_context(ctx.node.describe());
  std::vector<std::string> y(in.size() * widest);
  std::vector<int64_t> z(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    z[i] = static_cast<int64_t>(parts[i].size());
    for (size_t k = 0; k < parts[i].size(); ++k) y[i * widest + k] = std::string(parts[i][k]);
  }
  set_output(ctx, 0, HostTensor::strings(std::move(y_shape), std::move(y)));
  if (ctx.outputs.size() > 1) set_output(ctx, 1, HostTensor::from_vector(DType::kI64, x->shape(), z));
  return ok_status();
}

// ---- RegexFullMatch ---------------------------------------------------------------

// The spec names RE2 syntax; this is std::regex's ECMAScript grammar. Where they
// differ: RE2's inline flags ((?i)), \A \z, \pL / \p{Greek} classes, (?P<name>...)
// and [[:alpha:]] outside brackets do not compile here (the node is refused);
// ECMAScript's lookahead (?=...) compiles here though RE2 refuses it; '.' and
// classes match single bytes here where RE2 matches whole UTF-8 characters, so
// "^.$" does not match one multi-byte character and "é+" repeats only its last
// byte; \s here also matches \v. Patterns within the common subset (the ONNX tests') behave the same.
#ifdef __GLIBCXX__
// libstdc++'s default executor recurses once per input character: it overflowed an
// 8 MiB stack at 15,000 characters on "(a|b)*" (measured). __polynomial selects its
// breadth-first executor (stack bounded by the pattern, polynomial time, like RE2's
// guarantee) and refuses back-references, which RE2 lacks as well.
constexpr auto kRegexFlags = std::regex::ECMAScript | std::regex_constants::__polynomial;
constexpr size_t kMaxMatchBytes = std::numeric_limits<size_t>::max();
#else
constexpr auto kRegexFlags = std::regex::ECMAScript;
constexpr size_t kMaxMatchBytes = 4096;  // keeps a recursive executor's stack small; untuned
#endif

struct RegexAttrs {
  std::string pattern;
  std::regex re;
};

Result<ParsedAttrs> parse_regex_full_match(const AttrMap& a, const NodeView& node) {
  if (!a.has("pattern")) return invalid_model("{}: attribute pattern is required", node.describe());
  GK_TRY(std::string pattern, a.get_string("pattern", ""));
  RegexAttrs attrs;
  try {
    attrs.re = std::regex(pattern, kRegexFlags);
  } catch (const std::regex_error& e) {
    return invalid_model("{}: pattern \"{}\" does not compile as an ECMAScript regex (std::regex: {})",
                         node.describe(), pattern, e.what());
  }
  attrs.pattern = std::move(pattern);
  return make_attrs(std::move(attrs));
}

Status infer_regex_full_match(InferContext& ctx) {
  const auto& attrs = attrs_as<RegexAttrs>(ctx.attrs);
  GK_TRY(const HostTensor* x, host_input(ctx, 0, DType::kString));
  const auto& in = x->string_values();
  GK_TRY(HostTensor y, HostTensor::allocate(DType::kBool, x->shape()));
  bool* out = y.mutable_data<bool>();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i].size() > kMaxMatchBytes)
      return unimplemented("{}: element {} has {} bytes; this build matches at most {}", ctx.node.describe(), i,
                           in[i].size(), kMaxMatchBytes);
    try {
      out[i] = std::regex_match(in[i], attrs.re);
    } catch (const std::regex_error& e) {
      return resource_exhausted("{}: matching pattern \"{}\" against element {} failed (std::regex: {})",
                                ctx.node.describe(), attrs.pattern, i, e.what());
    }
  }
  set_output(ctx, 0, std::move(y));
  return ok_status();
}

// ---- StringNormalizer ---------------------------------------------------------------

enum class CaseChange { kNone, kLower, kUpper };

struct NormalizerAttrs {
  CaseChange change = CaseChange::kNone;
  bool case_sensitive = false;
  std::vector<std::string> stopwords;  // lower-cased when !case_sensitive
};

// Case mapping is ASCII only: bytes >= 0x80 (every byte of a multi-byte UTF-8
// character) pass through unchanged, so UTF-8 stays valid and non-ASCII letters keep
// their case. That is exact for the locales accepted below on ASCII text; the ONNX
// tests use ASCII.
std::string map_case(std::string s, CaseChange change) {
  for (char& c : s) {
    if (change == CaseChange::kLower && c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (change == CaseChange::kUpper && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

Result<ParsedAttrs> parse_string_normalizer(const AttrMap& a, const NodeView& node) {
  NormalizerAttrs attrs;
  GK_TRY(std::string action, a.get_string("case_change_action", "NONE"));
  if (action == "LOWER") attrs.change = CaseChange::kLower;
  else if (action == "UPPER") attrs.change = CaseChange::kUpper;
  else if (action != "NONE")
    return invalid_model("{}: case_change_action \"{}\" is not one of LOWER, UPPER, NONE", node.describe(), action);
  GK_TRY(int64_t sensitive, a.get_int("is_case_sensitive", 0));
  attrs.case_sensitive = sensitive != 0;
  GK_TRY(std::string locale, a.get_string("locale", ""));
  // ASCII case mapping is the mapping of these locales (not of, say, tr_TR's dotted i).
  const bool english = locale.empty() || locale == "C" || locale == "POSIX" || locale.rfind("en", 0) == 0;
  if (!english)
    return unimplemented("{}: locale \"{}\" is not supported (empty, C, POSIX or en* are)", node.describe(), locale);
  if (const Attribute* sw = a.find("stopwords")) {
    if (sw->kind != Attribute::Kind::kStrings)
      return invalid_model("{}: attribute stopwords must be strings, got {}", node.describe(),
                           attribute_kind_name(sw->kind));
    for (const std::string& w : sw->strings)
      attrs.stopwords.push_back(attrs.case_sensitive ? w : map_case(w, CaseChange::kLower));
  }
  return make_attrs(std::move(attrs));
}

Status infer_string_normalizer(InferContext& ctx) {
  const auto& attrs = attrs_as<NormalizerAttrs>(ctx.attrs);
  GK_TRY(const HostTensor* x, host_input(ctx, 0, DType::kString));
  const Shape& shape = x->shape();
  const bool two_d = shape.size() == 2;
  if (!(shape.size() == 1 || (two_d && shape[0] == 1)))
    return ctx.fail(fmt::format("input must be [C] or [1, C], got {}", shape_str(shape)));
  std::vector<std::string> kept;
  for (const std::string& s : x->string_values()) {
    const std::string key = attrs.case_sensitive ? s : map_case(s, CaseChange::kLower);
    if (std::find(attrs.stopwords.begin(), attrs.stopwords.end(), key) != attrs.stopwords.end()) continue;
    kept.push_back(map_case(s, attrs.change));
  }
  // All dropped: one empty string, [1] for a [C] input and [1, 1] for [1, C].
  if (kept.empty()) kept.emplace_back();
  const int64_t c = static_cast<int64_t>(kept.size());
  set_output(ctx, 0, HostTensor::strings(two_d ? Shape{1, c} : Shape{c}, std::move(kept)));
  return ok_status();
}

const OpImpl kStringConcat{nullptr, &infer_string_concat, &strings::run_host_only};
const OpImpl kStringSplit{&parse_string_split, &infer_string_split, &strings::run_host_only};
const OpImpl kRegexFullMatch{&parse_regex_full_match, &infer_regex_full_match, &strings::run_host_only};
const OpImpl kStringNormalizer{&parse_string_normalizer, &infer_string_normalizer, &strings::run_host_only};

// host_inputs: the executor then plans these inputs by value (strings never reach
// the device).
const OpSchema kStringSchemas[] = {
    {"", "StringConcat", 20, kOpsetCurrent, &kStringConcat, {.host_inputs = 0b11}},
    {"", "StringSplit", 20, kOpsetCurrent, &kStringSplit, {.host_inputs = 0b1}},
    {"", "RegexFullMatch", 20, kOpsetCurrent, &kRegexFullMatch, {.host_inputs = 0b1}},
    {"", "StringNormalizer", 10, kOpsetCurrent, &kStringNormalizer, {.host_inputs = 0b1}},
};

}  // namespace

namespace families {
std::span<const OpSchema> string_ops() { return kStringSchemas; }
}  // namespace families

}  // namespace gk

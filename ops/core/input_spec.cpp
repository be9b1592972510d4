#include "ops/core/input_spec.h"

#include "ops/core/op.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace gk {
namespace {

struct RawSpec {
  const char* domain;
  const char* op_type;
  int since_version;
  const char* inputs;
  const char* outputs;
};

constexpr RawSpec kRawSpecs[] = {
#include "ops/core/input_spec.inc"
};

std::vector<FormalInput> parse_list(std::string_view text) {
  std::vector<FormalInput> list;
  while (!text.empty()) {
    size_t end = text.find(' ');
    std::string_view word = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    FormalInput f;
    switch (word.back()) {
      case '?': f.kind = FormalInput::Kind::kOptional; break;
      case '+': f.kind = FormalInput::Kind::kVariadicOneOrMore; break;
      case '*': f.kind = FormalInput::Kind::kVariadicAny; break;
      default: f.kind = FormalInput::Kind::kRequired; break;
    }
    if (f.kind != FormalInput::Kind::kRequired) word.remove_suffix(1);
    f.name = std::string(word);
    list.push_back(std::move(f));
  }
  return list;
}

InputSpec parse(const RawSpec& r) {
  return InputSpec{r.domain, r.op_type, r.since_version, parse_list(r.inputs), parse_list(r.outputs)};
}

bool is_variadic(FormalInput::Kind k) {
  return k == FormalInput::Kind::kVariadicOneOrMore || k == FormalInput::Kind::kVariadicAny;
}

bool ends_variadic(const std::vector<FormalInput>& list) { return !list.empty() && is_variadic(list.back().kind); }

size_t min_count(const std::vector<FormalInput>& list) {
  size_t n = 0;
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].kind == FormalInput::Kind::kRequired || list[i].kind == FormalInput::Kind::kVariadicOneOrMore)
      n = i + 1;
  return n;
}

size_t max_count(const std::vector<FormalInput>& list) { return ends_variadic(list) ? SIZE_MAX : list.size(); }

const FormalInput* formal_at(const std::vector<FormalInput>& list, size_t i) {
  if (i < list.size()) return &list[i];
  return ends_variadic(list) ? &list.back() : nullptr;
}

// "2 to 3 inputs", "1 or more outputs", "1 input".
std::string describe_count(size_t lo, size_t hi, const char* what) {
  if (hi == SIZE_MAX) return fmt::format("{} or more {}s", lo, what);
  if (lo == hi) return fmt::format("{} {}{}", lo, what, lo == 1 ? "" : "s");
  return fmt::format("{} to {} {}s", lo, hi, what);
}

// "Gemm-13 takes 2 to 3 inputs and 1 output"
std::string describe_signature(const InputSpec& spec) {
  return fmt::format("{}-{} takes {} and {}", spec.op_type, spec.since_version,
                     describe_count(spec.min_inputs(), spec.max_inputs(), "input"),
                     describe_count(spec.min_outputs(), spec.max_outputs(), "output"));
}

}  // namespace

bool InputSpec::variadic() const { return ends_variadic(inputs); }
size_t InputSpec::min_inputs() const { return min_count(inputs); }
size_t InputSpec::max_inputs() const { return max_count(inputs); }
const FormalInput* InputSpec::formal(size_t i) const { return formal_at(inputs, i); }
size_t InputSpec::min_outputs() const { return min_count(outputs); }
size_t InputSpec::max_outputs() const { return max_count(outputs); }
const FormalOutput* InputSpec::formal_output(size_t i) const { return formal_at(outputs, i); }

const std::vector<InputSpec>& input_specs() {
  static const std::vector<InputSpec> specs = [] {
    std::vector<InputSpec> all;
    for (const RawSpec& r : kRawSpecs) all.push_back(parse(r));
    std::sort(all.begin(), all.end(), [](const InputSpec& a, const InputSpec& b) {
      return std::tie(a.domain, a.op_type, a.since_version) < std::tie(b.domain, b.op_type, b.since_version);
    });
    return all;
  }();
  return specs;
}

const InputSpec* find_input_spec(std::string_view domain, std::string_view op_type, int opset) {
  if (domain == "ai.onnx") domain = "";
  const std::vector<InputSpec>& specs = input_specs();
  // The first entry past (domain, op_type, opset); the one before it is in force.
  auto it = std::upper_bound(specs.begin(), specs.end(), std::make_tuple(domain, op_type, opset),
                             [](const auto& key, const InputSpec& s) {
                               return key < std::make_tuple(std::string_view(s.domain),
                                                            std::string_view(s.op_type), s.since_version);
                             });
  if (it == specs.begin()) return nullptr;
  --it;
  if (it->domain != domain || it->op_type != op_type) return nullptr;
  return &*it;
}

const InputSpec* node_input_spec(std::string_view domain, std::string_view op_type, int opset) {
  if (const InputSpec* in_force = find_input_spec(domain, op_type, opset)) return in_force;
  if (domain == "ai.onnx") domain = "";
  const std::vector<InputSpec>& specs = input_specs();
  auto first = std::lower_bound(specs.begin(), specs.end(), std::make_tuple(domain, op_type),
                                [](const InputSpec& s, const auto& key) {
                                  return std::make_tuple(std::string_view(s.domain), std::string_view(s.op_type)) <
                                         key;
                                });
  if (first == specs.end() || first->domain != domain || first->op_type != op_type) return nullptr;
  return &*first;
}

Status check_node_arity(const NodeView& node) {
  // The fallback matters: a LayerNormalization at opset 10 with one input was
  // checked against nothing and its infer rule read inputs[1] past the vector's end
  // (mutations 1779, 1780, 1813, 1835 of scripts/mutate_cli.py, SIGSEGV).
  const InputSpec* spec = node_input_spec(node.domain, node.op_type, node.opset);
  if (!spec) return ok_status();
  // input_present has the node's inputs with trailing absent ones dropped, so an
  // input past its end was given as "" or not at all: both are absent.
  const size_t given = node.input_present.size();
  if (given > spec->max_inputs())
    return invalid_model("{}: has {} inputs; {}", node.describe(), given, describe_signature(*spec));
  // num_outputs likewise counts through the last output the node names; infer
  // rules write every required output, so fewer than the op requires is refused too.
  const size_t outputs = static_cast<size_t>(std::max(node.num_outputs, 0));
  if (outputs > spec->max_outputs() || outputs < spec->min_outputs())
    return invalid_model("{}: has {} output{}; {}", node.describe(), outputs, outputs == 1 ? "" : "s",
                         describe_signature(*spec));
  // An output given as "" is one the model does not want: legal for an optional
  // output or an element of a variadic list (ONNX's checker allows both), not for a
  // single required one, which the infer rule writes (TopK with Values "").
  for (size_t i = 0; i < outputs; ++i) {
    if (i < node.output_present.size() && node.output_present[i]) continue;
    const FormalOutput* f = spec->formal_output(i);
    if (f && f->kind == FormalInput::Kind::kRequired)
      return invalid_model("{}: output {} ('{}') is required but given as \"\"; {}", node.describe(), i, f->name,
                           describe_signature(*spec));
  }
  const size_t needed = std::max(given, spec->min_inputs());
  for (size_t i = 0; i < needed; ++i) {
    if (node.has_input(i)) continue;
    const FormalInput* f = spec->formal(i);
    if (f->kind == FormalInput::Kind::kOptional) continue;
    // An element of a variadic input is never optional ("" in Concat's list).
    return invalid_model("{}: input {} ('{}') is required but absent; {}", node.describe(), i, f->name,
                         describe_signature(*spec));
  }
  return ok_status();
}

}  // namespace gk

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
};

constexpr RawSpec kRawSpecs[] = {
#include "ops/core/input_spec.inc"
};

InputSpec parse(const RawSpec& r) {
  InputSpec s{r.domain, r.op_type, r.since_version, {}};
  std::string_view text = r.inputs;
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
    s.inputs.push_back(std::move(f));
  }
  return s;
}

bool is_variadic(FormalInput::Kind k) {
  return k == FormalInput::Kind::kVariadicOneOrMore || k == FormalInput::Kind::kVariadicAny;
}

std::string describe_count(const InputSpec& spec) {
  size_t lo = spec.min_inputs(), hi = spec.max_inputs();
  if (hi == SIZE_MAX) return fmt::format("{} or more inputs", lo);
  if (lo == hi) return fmt::format("{} input{}", lo, lo == 1 ? "" : "s");
  return fmt::format("{} to {} inputs", lo, hi);
}

}  // namespace

bool InputSpec::variadic() const { return !inputs.empty() && is_variadic(inputs.back().kind); }

size_t InputSpec::min_inputs() const {
  size_t n = 0;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].kind == FormalInput::Kind::kRequired || inputs[i].kind == FormalInput::Kind::kVariadicOneOrMore)
      n = i + 1;
  return n;
}

size_t InputSpec::max_inputs() const { return variadic() ? SIZE_MAX : inputs.size(); }

const FormalInput* InputSpec::formal(size_t i) const {
  if (i < inputs.size()) return &inputs[i];
  return variadic() ? &inputs.back() : nullptr;
}

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

Status check_node_inputs(const NodeView& node) {
  const InputSpec* spec = find_input_spec(node.domain, node.op_type, node.opset);
  if (!spec) return ok_status();
  // input_present has the node's inputs with trailing absent ones dropped, so an
  // input past its end was given as "" or not at all: both are absent.
  const size_t given = node.input_present.size();
  if (given > spec->max_inputs())
    return invalid_model("{}: has {} inputs; {}-{} takes {}", node.describe(), given, spec->op_type,
                         spec->since_version, describe_count(*spec));
  const size_t needed = std::max(given, spec->min_inputs());
  for (size_t i = 0; i < needed; ++i) {
    if (node.has_input(i)) continue;
    const FormalInput* f = spec->formal(i);
    if (f->kind == FormalInput::Kind::kOptional) continue;
    // An element of a variadic input is never optional ("" in Concat's list).
    return invalid_model("{}: input {} ('{}') is required but absent; {}-{} takes {}", node.describe(), i,
                         f->name, spec->op_type, spec->since_version, describe_count(*spec));
  }
  return ok_status();
}

}  // namespace gk

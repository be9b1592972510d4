#include "runtime/conformance.h"

#include "graph/loader.h"
#include "runtime/tensor_io.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace gk {

int CheckReport::exit_code() const {
  switch (outcome) {
    case CheckOutcome::kPass: return 0;
    case CheckOutcome::kMismatch: return 1;
    case CheckOutcome::kInvalid: return 2;
    case CheckOutcome::kRuntimeError: return 3;
  }
  return 3;
}

OutputCheck compare_tensors(const HostTensor& actual, const HostTensor& expected, double rtol, double atol) {
  OutputCheck c;
  if (actual.dtype() != expected.dtype()) {
    c.problem = fmt::format("dtype {} vs expected {}", dtype_name(actual.dtype()), dtype_name(expected.dtype()));
    return c;
  }
  if (actual.shape() != expected.shape()) {
    c.problem = fmt::format("shape {} vs expected {}", shape_str(actual.shape()), shape_str(expected.shape()));
    return c;
  }
  if (actual.dtype() == DType::kString) {
    c.pass = actual.string_values() == expected.string_values();
    if (!c.pass) c.problem = "string values differ";
    return c;
  }
  // Storage-only floats (float8, float4, e8m0) are compared by value with no
  // tolerance: a single step of theirs is far above any tolerance, and a cast
  // is exact. NaN still equals NaN.
  const bool minifloat = dtype_is_minifloat(actual.dtype());
  const bool exact = !dtype_is_float(actual.dtype()) && !minifloat;
  if (minifloat) rtol = atol = 0;
  c.pass = true;
  for (int64_t i = 0; i < actual.numel(); ++i) {
    if (exact) {
      if (actual.as_i64(i) != expected.as_i64(i)) {
        if (c.pass) c.problem = fmt::format("element {} is {}, expected {}", i, actual.as_i64(i), expected.as_i64(i));
        c.pass = false;
        c.max_abs = std::max(c.max_abs, std::fabs(static_cast<double>(actual.as_i64(i) - expected.as_i64(i))));
      }
      continue;
    }
    const double a = actual.as_f64(i), e = expected.as_f64(i);
    if (std::isnan(a) || std::isnan(e)) {
      if (std::isnan(a) != std::isnan(e)) {
        if (c.pass) c.problem = fmt::format("element {} is {}, expected {}", i, a, e);
        c.pass = false;
      }
      continue;
    }
    if (std::isinf(a) || std::isinf(e)) {
      if (a != e) {
        if (c.pass) c.problem = fmt::format("element {} is {}, expected {}", i, a, e);
        c.pass = false;
      }
      continue;
    }
    const double diff = std::fabs(a - e);
    c.max_abs = std::max(c.max_abs, diff);
    if (e != 0) c.max_rel = std::max(c.max_rel, diff / std::fabs(e));
    if (diff > atol + rtol * std::fabs(e)) {
      if (c.pass) c.problem = fmt::format("element {} is {}, expected {}", i, a, e);
      c.pass = false;
    }
  }
  return c;
}

namespace {

Result<std::string> slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return invalid_argument("{}: cannot open", p.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

CheckReport fail(CheckOutcome outcome, std::string message) {
  CheckReport r;
  r.outcome = outcome;
  r.message = std::move(message);
  return r;
}

CheckOutcome outcome_of(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidModel:
    case StatusCode::kUnimplemented:
    case StatusCode::kInvalidArgument: return CheckOutcome::kInvalid;
    default: return CheckOutcome::kRuntimeError;
  }
}

// A test-data value: a TensorProto, or a SequenceProto or OptionalProto where the
// model declares a sequence or an optional.
Result<NamedTensor> read_value(const fs::path& p, ValueKind kind) {
  GK_TRY(std::string bytes, slurp(p));
  NamedTensor v;
  if (kind == ValueKind::kOptional) {
    GK_TRY(OptionalValue o, parse_optional_proto(bytes.data(), bytes.size(), p.parent_path().string(), &v.name));
    v.none = !o.has_value;
    if (o.is_sequence) v.sequence = std::make_shared<const std::vector<HostTensor>>(std::move(o.sequence));
    else v.tensor = std::move(o.tensor);
    return v;
  }
  if (kind == ValueKind::kSequence) {
    GK_TRY(std::vector<HostTensor> elements,
           parse_sequence_proto(bytes.data(), bytes.size(), p.parent_path().string(), &v.name));
    v.sequence = std::make_shared<const std::vector<HostTensor>>(std::move(elements));
    return v;
  }
  GK_TRY(v.tensor, parse_tensor_proto(bytes.data(), bytes.size(), p.parent_path().string(), &v.name));
  return v;
}

Result<HostTensor> read_expected(const fs::path& p) {
  GK_TRY(NamedTensor v, read_value(p, ValueKind::kTensor));
  return std::move(v.tensor);
}

// A sequence matches when it has as many elements and each matches.
OutputCheck compare_values(const NamedTensor& actual, const NamedTensor& expected, double rtol, double atol) {
  OutputCheck c;
  if (expected.none || actual.none) {
    c.pass = expected.none && actual.none;
    if (!c.pass) c.problem = actual.none ? "an empty optional where a value is expected" : "a value where an empty optional is expected";
    return c;
  }
  if (!expected.sequence && !actual.sequence) return compare_tensors(actual.tensor, expected.tensor, rtol, atol);
  if (!expected.sequence || !actual.sequence) {
    c.problem = actual.sequence ? "a sequence where a tensor is expected" : "a tensor where a sequence is expected";
    return c;
  }
  if (actual.sequence->size() != expected.sequence->size()) {
    c.problem = fmt::format("sequence of {} elements, expected {}", actual.sequence->size(), expected.sequence->size());
    return c;
  }
  c.pass = true;
  for (size_t e = 0; e < expected.sequence->size(); ++e) {
    OutputCheck ce = compare_tensors((*actual.sequence)[e], (*expected.sequence)[e], rtol, atol);
    c.max_abs = std::max(c.max_abs, ce.max_abs);
    c.max_rel = std::max(c.max_rel, ce.max_rel);
    if (!ce.pass && c.pass) {
      c.pass = false;
      c.problem = fmt::format("element {}: {}", e, ce.problem);
    }
  }
  return c;
}

void compare_outputs(const Session& session, const std::vector<NamedTensor>& actual,
                     const std::vector<NamedTensor>& expected, const std::string& set_name,
                     const CheckOptions& options, CheckReport& report) {
  for (size_t i = 0; i < expected.size() && i < actual.size(); ++i) {
    OutputCheck c = compare_values(actual[i], expected[i], options.rtol, options.atol);
    c.data_set = set_name;
    c.name = session.outputs()[i].name;
    if (!c.pass && report.outcome == CheckOutcome::kPass) {
      report.outcome = CheckOutcome::kMismatch;
      report.message = fmt::format("FAIL {} output '{}': {} (max abs {:.3g}, max rel {:.3g})", set_name, c.name,
                                   c.problem, c.max_abs, c.max_rel);
    }
    report.outputs.push_back(std::move(c));
  }
}

CheckReport check_light_model(const fs::path& model_path, const CheckOptions& options) {
  std::string stem = model_path.stem().string();
  fs::path expected_path = model_path.parent_path() / (stem + "_output_0.pb");
  auto session = Session::open(model_path.string(), options.session);
  if (!session.ok()) return fail(outcome_of(session.status()), "FAIL " + session.status().to_string());
  std::vector<NamedTensor> inputs;
  for (const IoDesc& in : (*session)->inputs()) {
    Shape shape;
    for (const Dim& d : in.dims) shape.push_back(d.known() ? d.value : 1);
    int64_t n = numel(shape);
    std::vector<float> values(n);
    for (int64_t i = 0; i < n; ++i) values[i] = static_cast<float>(i) / static_cast<float>(n);
    inputs.push_back({in.name, HostTensor::from_vector(DType::kF32, shape, values)});
  }
  auto outputs = (*session)->run(inputs);
  if (!outputs.ok()) return fail(outcome_of(outputs.status()), "FAIL " + outputs.status().to_string());
  auto expected = read_expected(expected_path);
  if (!expected.ok()) return fail(CheckOutcome::kInvalid, "FAIL " + expected.status().to_string());
  CheckReport report;
  compare_outputs(**session, *outputs, {NamedTensor{"", std::move(*expected)}}, stem, options, report);
  if (report.outcome == CheckOutcome::kPass) report.message = "PASS";
  return report;
}

}  // namespace

CheckReport check_test_case(const std::string& path, const CheckOptions& options) {
  fs::path dir(path);
  std::error_code ec;
  if (fs::is_regular_file(dir, ec) && dir.extension() == ".onnx") return check_light_model(dir, options);
  if (!fs::is_directory(dir, ec)) return fail(CheckOutcome::kInvalid, "FAIL " + path + ": not a test folder");
  fs::path model_path = dir / "model.onnx";
  if (!fs::exists(model_path, ec)) return fail(CheckOutcome::kInvalid, "FAIL " + path + ": no model.onnx");
  auto session = Session::open(model_path.string(), options.session);
  if (!session.ok()) return fail(outcome_of(session.status()), "FAIL " + session.status().to_string());

  std::vector<fs::path> sets;
  for (const auto& entry : fs::directory_iterator(dir, ec))
    if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0)
      sets.push_back(entry.path());
  std::sort(sets.begin(), sets.end());
  if (sets.empty()) return fail(CheckOutcome::kInvalid, "FAIL " + path + ": no test_data_set_* folders");

  CheckReport report;
  const auto& model_inputs = (*session)->inputs();
  for (const fs::path& set : sets) {
    std::vector<NamedTensor> inputs;
    for (size_t i = 0;; ++i) {
      fs::path p = set / fmt::format("input_{}.pb", i);
      if (!fs::exists(p, ec)) break;
      auto t = read_value(p, i < model_inputs.size() ? model_inputs[i].kind : ValueKind::kTensor);
      if (!t.ok()) return fail(CheckOutcome::kInvalid, "FAIL " + p.string() + ": " + t.status().message());
      if (i < model_inputs.size()) t->name = model_inputs[i].name;
      inputs.push_back(std::move(*t));
    }
    const auto& model_outputs = (*session)->outputs();
    std::vector<NamedTensor> expected;
    for (size_t i = 0;; ++i) {
      fs::path p = set / fmt::format("output_{}.pb", i);
      if (!fs::exists(p, ec)) break;
      auto t = read_value(p, i < model_outputs.size() ? model_outputs[i].kind : ValueKind::kTensor);
      if (!t.ok()) return fail(CheckOutcome::kInvalid, "FAIL " + p.string() + ": " + t.status().message());
      expected.push_back(std::move(*t));
    }
    auto outputs = (*session)->run(inputs);
    if (!outputs.ok()) return fail(outcome_of(outputs.status()), "FAIL " + outputs.status().to_string());
    if (outputs->size() < expected.size())
      return fail(CheckOutcome::kMismatch, fmt::format("FAIL {}: {} outputs, expected {}", set.filename().string(),
                                                       outputs->size(), expected.size()));
    compare_outputs(**session, *outputs, expected, set.filename().string(), options, report);
  }
  if (report.outcome == CheckOutcome::kPass) report.message = "PASS";
  return report;
}

}  // namespace gk

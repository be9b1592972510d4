// `gkrun check`: runs an ONNX test folder (model.onnx + test_data_set_*/ with
// input_N.pb / output_N.pb) or a light model (light_X.onnx + light_X_output_0.pb,
// fed arange(n)/n as the ONNX runner does) and compares every output.
#pragma once

#include "runtime/session.h"

#include <string>
#include <vector>

namespace gk {

struct CheckOptions {
  double rtol = 1e-3;  // the ONNX backend tests' defaults
  double atol = 1e-7;
  SessionOptions session;
};

struct OutputCheck {
  std::string data_set;  // "test_data_set_0"
  std::string name;
  bool pass = false;
  double max_abs = 0, max_rel = 0;
  std::string problem;   // shape/dtype mismatch, NaN where a number was expected, ...
};

enum class CheckOutcome { kPass, kMismatch, kInvalid, kRuntimeError };

struct CheckReport {
  CheckOutcome outcome = CheckOutcome::kPass;
  std::vector<OutputCheck> outputs;
  std::string message;   // the one-line verdict after "check: "
  int exit_code() const; // 0 pass, 1 mismatch, 2 invalid/unsupported, 3 runtime error
};

// `path` is a test folder, or a light model's .onnx file.
CheckReport check_test_case(const std::string& path, const CheckOptions& options);

// Compares one output (numpy allclose semantics: |a - e| <= atol + rtol * |e|,
// NaN equals NaN, integers and bools exact).
OutputCheck compare_tensors(const HostTensor& actual, const HostTensor& expected, double rtol, double atol);

}  // namespace gk

// Runs ONNX backend node tests (shared/onnx-backend-data/node/<name>/) one op at a
// time through the op harness: the model's single node with its attributes and
// opset, inputs from test_data_set_*/input_N.pb (or initializers), outputs checked
// against output_N.pb. Family tests call run_node_cases() with their test-name
// prefixes; multi-node (expanded) models are left to the conformance runner.
#pragma once

#include "graph/loader.h"
#include "backends/kernel_prelude.cuh"
#include "tests/ops/op_builders.h"
#include "tests/ops/op_harness.h"
#include "tests/support/compare.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <type_traits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gk::test {

namespace node_cases_detail {

namespace fs = std::filesystem;

inline fs::path data_dir() { return kData / "node"; }

inline Result<HostTensor> read_pb(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalid_argument("cannot open {}", path.string());
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse_tensor_proto(bytes.data(), bytes.size(), "");
}

}  // namespace node_cases_detail

// A tensor of any computable dtype from doubles (converted as Cast would).
inline HostTensor make_tensor(DType t, Shape shape, const std::vector<double>& values) {
  HostTensor h = HostTensor::allocate(t, std::move(shape)).value();
  auto fill = [&](auto* p) {
    using E = std::remove_pointer_t<decltype(p)>;
    for (int64_t i = 0; i < h.numel(); ++i) {
      if constexpr (std::is_same_v<E, gk_half> || std::is_same_v<E, gk_bf16>) p[i] = E(static_cast<float>(values[i]));
      else p[i] = static_cast<E>(values[i]);
    }
  };
  switch (t) {
    case DType::kF32: fill(h.mutable_data<float>()); break;
    case DType::kF64: fill(h.mutable_data<double>()); break;
    case DType::kF16: fill(h.mutable_data<gk_half>()); break;
    case DType::kBF16: fill(h.mutable_data<gk_bf16>()); break;
    case DType::kI8: fill(h.mutable_data<int8_t>()); break;
    case DType::kU8: fill(h.mutable_data<uint8_t>()); break;
    case DType::kI16: fill(h.mutable_data<int16_t>()); break;
    case DType::kU16: fill(h.mutable_data<uint16_t>()); break;
    case DType::kI32: fill(h.mutable_data<int32_t>()); break;
    case DType::kU32: fill(h.mutable_data<uint32_t>()); break;
    case DType::kI64: fill(h.mutable_data<int64_t>()); break;
    case DType::kU64: fill(h.mutable_data<uint64_t>()); break;
    case DType::kBool: fill(h.mutable_data<bool>()); break;
    default: FAIL("make_tensor: unsupported dtype");
  }
  return h;
}
inline std::vector<double> doubles_of(const HostTensor& t) { return t.to_f64_vector(); }

// "" on success, else the failure; `*skipped` set for multi-node models.
inline std::string run_node_case(const std::filesystem::path& dir, double rtol, double atol, bool* skipped) {
  namespace d = node_cases_detail;
  *skipped = false;
  auto model = load_model((dir / "model.onnx").string());
  if (!model.ok()) return "load: " + model.status().to_string();
  const Graph& g = model->graph;
  if (g.nodes.size() != 1) {
    *skipped = true;
    return "";
  }
  const Node& n = g.nodes[0];
  for (const auto& set : std::filesystem::directory_iterator(dir)) {
    if (!set.is_directory() || set.path().filename().string().rfind("test_data_set_", 0) != 0) continue;
    OpCall call;
    call.op_type = n.view.op_type;
    call.domain = n.view.domain;
    call.opset = n.view.opset;
    call.attrs = n.attrs;
    for (ValueId v : n.inputs) {
      if (v == kNoValue) {
        call.inputs.emplace_back(std::nullopt);
        continue;
      }
      const Value& val = g.values[v];
      if (val.initializer) {
        call.inputs.emplace_back(*val.initializer);
        continue;
      }
      auto it = std::find(g.inputs.begin(), g.inputs.end(), v);
      if (it == g.inputs.end()) return fmt::format("input '{}' is neither a graph input nor an initializer", val.name);
      auto t = d::read_pb(set.path() / fmt::format("input_{}.pb", it - g.inputs.begin()));
      if (!t.ok()) return t.status().to_string();
      call.inputs.emplace_back(std::move(t).value());
    }
    call.num_outputs = static_cast<int>(n.outputs.size());
    auto result = run_op_all_backends(call);
    if (!result.ok()) return "run: " + result.status().to_string();
    for (size_t j = 0; j < n.outputs.size(); ++j) {
      if (n.outputs[j] == kNoValue) continue;
      auto it = std::find(g.outputs.begin(), g.outputs.end(), n.outputs[j]);
      if (it == g.outputs.end()) continue;
      auto want = d::read_pb(set.path() / fmt::format("output_{}.pb", it - g.outputs.begin()));
      if (!want.ok()) return want.status().to_string();
      std::string diff = mismatch(result->outputs[j], *want, Tol{.rtol = rtol, .atol = atol});
      if (!diff.empty()) return fmt::format("{} output {}: {}", set.path().filename().string(), j, diff);
    }
  }
  return "";
}

// Every node test whose name starts with one of `prefixes` (and is not in
// `expected_unsupported`, each listed with its reason by the caller) must pass.
inline void run_node_cases(const std::vector<std::string>& prefixes,
                           const std::vector<std::string>& expected_unsupported = {}, double rtol = 1e-3,
                           double atol = 1e-5) {
  namespace fs = std::filesystem;
  const fs::path root = node_cases_detail::data_dir();
  if (!fs::is_directory(root)) skip("ONNX node test data not found at " + root.string());
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root)) {
    const std::string name = e.path().filename().string();
    for (const std::string& p : prefixes)
      if (name.rfind(p, 0) == 0 && name.find("_expanded") == std::string::npos &&
          name.find("cross_entropy") == std::string::npos)  // SoftmaxCrossEntropyLoss, another op
        dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(!dirs.empty());
  int passed = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    bool skipped = false;
    std::string err = run_node_case(dir, rtol, atol, &skipped);
    const bool expected_fail =
        std::find(expected_unsupported.begin(), expected_unsupported.end(), name) != expected_unsupported.end();
    INFO(name << ": " << err);
    if (expected_fail) {
      CHECK(!err.empty());  // a listed case that starts passing must leave the list
      continue;
    }
    CHECK(err.empty());
    passed += err.empty() && !skipped;
  }
  INFO("node tests passed: " << passed << " of " << dirs.size());
  CHECK(passed > 0);
}

}  // namespace gk::test

// Runs an in-memory ONNX model on ONNX Runtime (ort_file_runner.h) and on gkrun's
// CPU backend with the same named inputs, for the differential tests whose models
// are built with ONNX's protobuf classes.
#pragma once

#include "runtime/session.h"
#include "runtime/tensor_io.h"
#include "tests/diff/ort_file_runner.h"
#include "tests/support/skip.h"

#include <onnx/onnx_pb.h>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

namespace gk::test {

inline std::string serialize(const onnx::ModelProto& m) {
  std::string bytes;
  m.SerializeToString(&bytes);
  return bytes;
}

// gkrun's outputs by name (CPU backend); the session error's message on failure.
inline Result<std::map<std::string, HostTensor>> gk_outputs(const onnx::ModelProto& m,
                                                           const std::vector<NamedTensor>& inputs) {
  const std::string bytes = serialize(m);
  SessionOptions o;
  o.backend = "cpu";
  GK_TRY(auto session, Session::open_from_memory(bytes.data(), bytes.size(), o));
  GK_TRY(auto outs, session->run(inputs));
  std::map<std::string, HostTensor> r;
  for (auto& t : outs) r.emplace(t.name, std::move(t.tensor));
  return r;
}

// ONNX Runtime's outputs by name: the model is written to a fresh folder under
// the build tree (`key` names it) and run there by ort_run_file.
inline Result<std::map<std::string, HostTensor>> ort_outputs(const onnx::ModelProto& m,
                                                            const std::vector<NamedTensor>& inputs,
                                                            const std::string& key) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(GK_BINARY_DIR) / "ort_models" / fmt::format("{}_{}", key, ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "model.onnx", std::ios::binary);
    const std::string bytes = serialize(m);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  auto r = ort_run_file(dir / "model.onnx", inputs, dir / "run");
  if (r.ok()) fs::remove_all(dir);
  return r;
}

// The same inside a test case: a failure fails the case with the session's message;
// run_ort skips the case where ONNX Runtime is absent.
using Outputs = std::map<std::string, HostTensor>;

inline Outputs run_gk(const onnx::ModelProto& m, const std::vector<NamedTensor>& in) {
  auto r = gk_outputs(m, in);
  INFO((r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

inline Outputs run_ort(const onnx::ModelProto& m, const std::vector<NamedTensor>& in, const std::string& key) {
  if (std::string why = ort_skip_reason(); !why.empty()) skip(why);
  auto r = ort_outputs(m, in, key);
  INFO((r.ok() ? "" : r.status().to_string()));
  REQUIRE(r.ok());
  return std::move(r).value();
}

}  // namespace gk::test

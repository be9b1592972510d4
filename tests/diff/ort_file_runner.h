// Runs an ONNX model file on ONNX Runtime (onnxruntime-node through
// tools/ort/run_ort.js) with named host inputs and reads its outputs back: the
// reference of the differential tests. No protobuf here: tests that build their
// models in memory use ort_runner.h, which writes the model and calls this.
#pragma once

#include "runtime/tensor_io.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace gk::test {

inline const std::filesystem::path& ort_dir() {
  static const std::filesystem::path dir = std::filesystem::path(GK_SOURCE_DIR) / "tools" / "ort";
  return dir;
}

// Why ONNX Runtime cannot run here ("" when it can).
inline std::string ort_skip_reason() {
  if (std::system("node --version >/dev/null 2>&1") != 0) return "node is not installed";
  if (!std::filesystem::exists(ort_dir() / "node_modules" / "onnxruntime-node"))
    return "tools/ort/node_modules/onnxruntime-node absent (scripts/setup.sh)";
  return {};
}

// ONNX Runtime's outputs of MODEL by name. The inputs are written into WORK_DIR
// (created, emptied first) and run_ort.js writes one .npy per output there;
// output names are file names with '/', '\' and ':' as '_' (run_ort.js's rule).
// WORK_DIR is left in place for the caller (a cache, or to remove).
inline Result<std::map<std::string, HostTensor>> ort_run_file(const std::filesystem::path& model,
                                                             const std::vector<NamedTensor>& inputs,
                                                             const std::filesystem::path& work_dir) {
  namespace fs = std::filesystem;
  fs::remove_all(work_dir);
  fs::create_directories(work_dir / "out");
  std::string cmd = fmt::format("node {} {}", (ort_dir() / "run_ort.js").string(), model.string());
  for (const NamedTensor& in : inputs) {
    const fs::path file = work_dir / (in.name + ".npy");
    GK_RETURN_IF_ERROR(write_npy(file.string(), in.tensor));
    cmd += fmt::format(" --input {}={}", in.name, file.string());
  }
  cmd += fmt::format(" --out-dir {} > {} 2>&1", (work_dir / "out").string(), (work_dir / "ort.log").string());
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(work_dir / "ort.log");
    std::string text((std::istreambuf_iterator<char>(log)), {});
    return internal_error("ONNX Runtime failed on {}: {}", model.string(), text);
  }
  std::map<std::string, HostTensor> r;
  for (const auto& e : fs::directory_iterator(work_dir / "out")) {
    if (e.path().extension() != ".npy") continue;
    GK_TRY(HostTensor t, read_npy(e.path().string()));
    r.emplace(e.path().stem().string(), std::move(t));
  }
  return r;
}

// The file-name form run_ort.js gives output NAME.
inline std::string ort_file_stem(std::string name) {
  for (char& c : name)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  return name;
}

}  // namespace gk::test

// Runs an ONNX model file on ONNX Runtime (onnxruntime-node through
// tools/ort/run_ort.js) with named host inputs and reads its outputs back: the
// reference of the differential tests. No protobuf here: tests that build their
// models in memory use ort_runner.h, which writes the model and calls this.
#pragma once

#include "runtime/session.h"
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

inline Result<std::map<std::string, HostTensor>> read_npy_folder(const std::filesystem::path& dir) {
  std::map<std::string, HostTensor> r;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".npy") continue;
    GK_TRY(HostTensor t, read_npy(e.path().string()));
    r.emplace(e.path().stem().string(), std::move(t));
  }
  return r;
}

// ONNX Runtime's outputs of MODEL by name, for each input set in turn, on one
// session (creating it is most of the time for a large graph). The inputs are
// written into WORK_DIR (created, emptied first) and run_ort.js writes one .npy
// per output into WORK_DIR/out<i>; output names are file names with '/', '\' and
// ':' as '_' (run_ort.js's rule). WORK_DIR is left for the caller (a cache, or
// to remove).
inline Result<std::vector<std::map<std::string, HostTensor>>> ort_run_file_sets(
    const std::filesystem::path& model, const std::vector<std::vector<NamedTensor>>& sets,
    const std::filesystem::path& work_dir) {
  namespace fs = std::filesystem;
  fs::remove_all(work_dir);
  fs::create_directories(work_dir);
  std::string cmd = fmt::format("node {} {}", (ort_dir() / "run_ort.js").string(), model.string());
  for (size_t i = 0; i < sets.size(); ++i) {
    for (const NamedTensor& in : sets[i]) {
      const fs::path file = work_dir / fmt::format("{}.{}.npy", in.name, i);
      GK_RETURN_IF_ERROR(write_npy(file.string(), in.tensor));
      cmd += fmt::format(" --input {}={}", in.name, file.string());
    }
    fs::create_directories(work_dir / fmt::format("out{}", i));
    cmd += fmt::format(" --out-dir {}", (work_dir / fmt::format("out{}", i)).string());
  }
  cmd += fmt::format(" > {} 2>&1", (work_dir / "ort.log").string());
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream log(work_dir / "ort.log");
    std::string text((std::istreambuf_iterator<char>(log)), {});
    return internal_error("ONNX Runtime failed on {}: {}", model.string(), text);
  }
  std::vector<std::map<std::string, HostTensor>> r;
  for (size_t i = 0; i < sets.size(); ++i) {
    GK_TRY(auto outs, read_npy_folder(work_dir / fmt::format("out{}", i)));
    r.push_back(std::move(outs));
  }
  return r;
}

// The same for one input set.
inline Result<std::map<std::string, HostTensor>> ort_run_file(const std::filesystem::path& model,
                                                             const std::vector<NamedTensor>& inputs,
                                                             const std::filesystem::path& work_dir) {
  GK_TRY(auto r, ort_run_file_sets(model, {inputs}, work_dir));
  return std::move(r[0]);
}

// The file-name form run_ort.js gives output NAME.
inline std::string ort_file_stem(std::string name) {
  for (char& c : name)
    if (c == '/' || c == '\\' || c == ':') c = '_';
  return name;
}

}  // namespace gk::test

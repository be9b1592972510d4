// What the gkrun subcommands share: session options from flags, input tensors
// (files, --shape bindings, seeded random data), exit codes and error lines.
#pragma once

#include "runtime/session.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gk::cli {

// DESIGN.md's CLI contract.
enum ExitCode { kExitOk = 0, kExitMismatch = 1, kExitInvalid = 2, kExitRuntime = 3 };

int exit_code_for(const Status& status);
// Prints "gkrun: <message>" on stderr (one line) and returns the exit code.
int report_error(const Status& status);

struct ModelFlags {
  std::string model;
  std::string backend = "auto";
  int device = -1;
  int threads = 0;
  uint64_t seed = 0;
  std::vector<std::string> inputs;     // NAME=FILE
  std::vector<std::string> shapes;     // NAME=1x3x224x224
  std::vector<std::string> disable_passes;
  bool graphs = true;
  std::string memory_limit;  // --memory-limit: bytes, or with a K/M/G suffix (KiB, MiB, GiB); "" = none

  void add_to(CLI::App& app, bool with_inputs = true);
  Result<SessionOptions> session_options() const;
};

// "1x3x640x640" → {1,3,640,640}; InvalidArgument naming the flag otherwise.
Result<Shape> parse_shape(const std::string& text);
// "1048576", "512K", "64M", "2G" (binary units) → bytes; InvalidArgument naming
// --memory-limit and the text otherwise (0, overflow, junk).
Result<size_t> parse_byte_size(const std::string& text);
// NAME=VALUE pairs; InvalidArgument naming the flag and the text.
Result<std::map<std::string, std::string>> parse_pairs(const std::vector<std::string>& items, const char* flag);

// Inputs for a run: files where given, else seeded random data of each input's
// shape (symbolic dims from --shape), dtype-appropriate: floats in [0,1), integer
// ids in [0,10), bools random.
Result<std::vector<NamedTensor>> make_inputs(const Session& session, const ModelFlags& flags);

Result<std::shared_ptr<Session>> open_session(const ModelFlags& flags, double* open_ms = nullptr);

std::string format_bytes(size_t bytes);
double now_ms();

}  // namespace gk::cli

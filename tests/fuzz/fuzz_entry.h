// The fuzz targets' bodies, shared by the libFuzzer binaries (tests/fuzz/*_fuzzer.cpp,
// built with GK_FUZZ=ON) and by the regression test that replays every committed
// input (tests/fuzz/regressions/, label fuzz-regressions) in every build. Each
// takes untrusted bytes and returns the Status the library gave: an error is a
// fine outcome, a signal is the bug.
#pragma once

#include "backends/status.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gk::fuzz {

// Parse + convert + validate a ModelProto from memory (no external data).
Status load_model_bytes(const uint8_t* data, size_t size);

// Load, then plan and run on the CPU backend at small shapes: symbolic dims bound
// to 2, no input over kMaxInputElements elements, values drawn from a generator
// seeded by the input's bytes (never the clock), under a memory limit and a
// kFuzzRunSeconds deadline.
Status run_model_bytes(const uint8_t* data, size_t size);

// The tensor-file decoders: TensorProto, SequenceProto and OptionalProto (.pb),
// and .npy, all on the same bytes; the first error, else OK.
Status decode_tensor_bytes(const uint8_t* data, size_t size);

// The target named `name` ("load", "run", "tensor", "mutate"); "mutate" runs
// like "run" (its mutator only shapes the inputs). InvalidArgument otherwise.
Status run_target(const std::string& name, const uint8_t* data, size_t size);

constexpr int64_t kMaxInputElements = 4096;
constexpr size_t kFuzzMemoryLimit = size_t{64} << 20;
constexpr double kFuzzRunSeconds = 2.0;

}  // namespace gk::fuzz

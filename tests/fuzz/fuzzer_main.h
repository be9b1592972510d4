// The libFuzzer entry points of one target: GK_FUZZ_TARGET names the target in
// tests/fuzz/fuzz_entry.h ("load", "run", "tensor", "mutate"). Included once by
// each *_fuzzer.cpp. Logging is silenced: protobuf prints every refused parse,
// and the fuzzer would spend its time writing to stderr.
#pragma once

#include "tests/fuzz/fuzz_entry.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // An error is a fine outcome; only a signal (a sanitizer report) is a finding.
  (void)gk::fuzz::run_target(GK_FUZZ_TARGET, data, size);
  return 0;
}

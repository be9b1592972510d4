// A test case that cannot run here (its data folder, the GPU or NVRTC is absent)
// calls skip(reason): it prints "SKIP: <reason>", records the skip and ends the
// case. The main (tests/catch_main.cpp) then exits 77, which ctest reports as
// skipped (SKIP_RETURN_CODE in gk_test), when every case it ran was skipped and
// none failed. A case that failed before it skipped stays failed: a skip never hides
// a failure. Catch2 v2 has no SKIP macro; skip() throws the exception a failed
// REQUIRE throws once it has recorded its failure, which Catch catches without
// recording anything.
#pragma once

#include "backends/status.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace gk::test {

// Read by the main's listener at the end of each case; reset at its start.
struct SkipRecord {
  bool skipped = false;
  std::string reason;
};
inline SkipRecord& current_skip() {
  static SkipRecord r;
  return r;
}

[[noreturn]] inline void skip(std::string_view reason) {
  std::printf("SKIP: %.*s\n", static_cast<int>(reason.size()), reason.data());
  std::fflush(stdout);
  current_skip().skipped = true;
  current_skip().reason = std::string(reason);
  throw Catch::TestFailureException();
}

// Skips on Unavailable (the library or device is absent); any other error is a
// real failure and is returned for the caller to assert on.
inline void skip_if_unavailable(const Status& s) {
  if (s.code() == StatusCode::kUnavailable) skip(s.message());
}

}  // namespace gk::test

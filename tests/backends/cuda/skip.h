// A test case that cannot run here (no GPU, no NVRTC) says why on one line and
// exits 77, which ctest reports as skipped (SKIP_RETURN_CODE in gk_test). ctest
// runs each case in its own process, so one skip ends only its own case.
#pragma once

#include "backends/status.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace gk::test {

[[noreturn]] inline void skip(std::string_view reason) {
  std::printf("SKIP: %.*s\n", static_cast<int>(reason.size()), reason.data());
  std::fflush(stdout);
  std::_Exit(77);
}

// Skips on Unavailable (the library or device is absent); any other error is a
// real failure and is returned for the caller to assert on.
inline void skip_if_unavailable(const Status& s) {
  if (s.code() == StatusCode::kUnavailable) skip(s.message());
}

}  // namespace gk::test

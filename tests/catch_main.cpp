// The tests' main: Catch2's session plus a listener that counts skipped cases
// (tests/support/skip.h). ctest runs one case per process and reads exit code 77
// as skipped (SKIP_RETURN_CODE in gk_test), so the main returns 77 when the cases
// it ran were all skipped and none failed. Any failure returns Catch's non-zero
// code; a whole-binary run with some cases passed and some skipped returns 0 and
// names the skipped ones. A run asked for cases by name that matches none fails:
// ctest registers one test per case name (catch_discover_tests), and a name CMake
// splits or mangles (a ';' or an unbalanced '[' in it) would otherwise run nothing
// and pass.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "tests/support/skip.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct SkipCounts {
  int passed = 0;
  int failed = 0;
  std::vector<std::string> skipped;  // "name: reason"
};
SkipCounts& counts() {
  static SkipCounts c;
  return c;
}

struct SkipListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testCaseStarting(const Catch::TestCaseInfo& info) override {
    TestEventListenerBase::testCaseStarting(info);
    gk::test::current_skip() = {};
  }
  void testCaseEnded(const Catch::TestCaseStats& stats) override {
    TestEventListenerBase::testCaseEnded(stats);
    auto& skip = gk::test::current_skip();
    if (stats.totals.assertions.failed > 0 || stats.totals.testCases.failed > 0) {
      ++counts().failed;  // failed, whether or not it skipped afterwards
    } else if (skip.skipped) {
      counts().skipped.push_back(stats.testInfo.name + ": " + skip.reason);
    } else {
      ++counts().passed;
    }
    skip = {};
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(SkipListener)

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  const int rc = session.run();
  const SkipCounts& c = counts();
  if (rc != 0 || c.failed > 0) return rc != 0 ? rc : 1;
  const bool listing = session.config().listTests() || session.config().listTestNamesOnly() ||
                       session.config().listTags() || session.config().listReporters();
  if (!listing && session.config().hasTestFilters() && c.passed == 0 && c.skipped.empty()) {
    std::fprintf(stderr, "no test case matches the given name or tags\n");
    return 2;
  }
  if (!c.skipped.empty()) {
    std::fprintf(stderr, "%zu test case(s) skipped:\n", c.skipped.size());
    for (const auto& s : c.skipped) std::fprintf(stderr, "  SKIPPED %s\n", s.c_str());
    if (c.passed == 0) return 77;
  }
  return 0;
}

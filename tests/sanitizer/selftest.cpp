// Deliberate bugs, one per checked build, that prove the check is on: each case
// FAILS (the sanitizer or libstdc++ aborts the process) when its check is
// compiled in. Built only in checked builds (GK_SANITIZE, GK_GLIBCXX_ASSERTIONS),
// labelled sanitizer-selftest, left out of the suite (`ctest -LE
// sanitizer-selftest`); scripts/sanitize.sh runs them and requires each to fail
// with its checker's report. Values go through volatile so no optimiser can
// prove the bug away.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace {
volatile int g_index = 8;       // one past the end of an 8-element buffer
volatile int32_t g_big = INT32_MAX;
int g_racy = 0;                 // written by two threads with no lock
}  // namespace

TEST_CASE("sanitizer selftest: heap buffer overflow (ASan)", "[asan]") {
  auto buf = std::make_unique<int[]>(8);
  buf[g_index] = 1;  // heap-buffer-overflow, 4 bytes past an 8-int block
  CHECK(buf[0] == 0);
}

TEST_CASE("sanitizer selftest: leaked allocation (LeakSanitizer)", "[lsan]") {
  int* leaked = new int[16];
  leaked[0] = g_index;
  leaked = nullptr;  // the only pointer is dropped: LSan reports at exit
  CHECK(leaked == nullptr);
}

TEST_CASE("sanitizer selftest: signed overflow (UBSan)", "[ubsan]") {
  int32_t v = g_big;
  v += 1;  // signed integer overflow
  CHECK(v != 0);
}

TEST_CASE("sanitizer selftest: data race (TSan)", "[tsan]") {
  std::thread a([] { for (int i = 0; i < 1000; ++i) g_racy = g_racy + 1; });
  std::thread b([] { for (int i = 0; i < 1000; ++i) g_racy = g_racy + 1; });
  a.join();
  b.join();
  CHECK(g_racy > 0);
}

TEST_CASE("sanitizer selftest: vector index out of range (_GLIBCXX_ASSERTIONS)", "[glibcxx]") {
  std::vector<int> v(8, 0);
  v[static_cast<size_t>(g_index)] = 1;  // operator[] past size(): the assertion aborts
  CHECK(v[0] == 0);
}

// Helpers for the session tests that compare runs bit for bit: a seeded input
// image, bit equality of outputs, and the many-threads-on-one-session check
// (tests/session/{stress,runtime_shapes,graph_replay}_test.cpp).
#pragma once

#include "runtime/session.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace gk::test {

// `shape` of f32 in [0, 1) from a linear congruential generator seeded by `seed`:
// the same numbers on every machine, different for every seed.
inline HostTensor seeded_image(const Shape& shape, uint32_t seed) {
  std::vector<float> v(numel(shape));
  uint32_t x = seed * 2654435761u + 1;
  for (float& f : v) {
    x = x * 1664525u + 1013904223u;
    f = static_cast<float>(x >> 8) / 16777216.0f;
  }
  return HostTensor::from_vector(DType::kF32, shape, v);
}

inline bool same_bits(const HostTensor& a, const HostTensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

inline bool same_bits(const std::vector<NamedTensor>& a, const std::vector<NamedTensor>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!same_bits(a[i].tensor, b[i].tensor)) return false;
  return true;
}

// Runs each of `cases` once on this thread (`run(i)` returns a run's
// Result<std::vector<NamedTensor>>), then `threads` threads `reps` times each,
// thread t's r-th run being case case_of(t, r); CHECKs that every thread's every
// run succeeded and equalled its case's single-threaded outputs bit for bit.
template <typename Run, typename CaseOf>
void check_threads_match_one_thread(size_t cases, int threads, int reps, CaseOf case_of, Run run) {
  std::vector<std::vector<NamedTensor>> want;
  for (size_t i = 0; i < cases; ++i) {
    auto r = run(i);
    REQUIRE(r.ok());
    want.push_back(std::move(*r));
  }
  std::vector<int> ok(threads, 0);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int rep = 0; rep < reps; ++rep) {
        const size_t i = case_of(t, rep);
        auto r = run(i);
        if (!r.ok() || !same_bits(*r, want[i])) return;
      }
      ok[t] = 1;
    });
  for (auto& th : pool) th.join();
  CHECK(ok == std::vector<int>(threads, 1));
}

}  // namespace gk::test

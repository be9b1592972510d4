// fma_peak: the machine's measured f32 FMA peak, the ceiling that benchmark figures
// (GFLOP/s achieved by gkrun and ONNX Runtime) are read against. Each thread runs
// independent FMA chains in registers, enough of them to cover the FMA latency on
// every port (AVX-512: 16 zmm chains; AVX2: 12 ymm chains, for 4-cycle latency x 2
// ports with headroom), chosen at run time by cpuid, so a portable build measures
// the same as a native one.
//   fma_peak [--threads N] [--isa auto|avx512|avx2|portable] [--ms M]
// Prints one JSON object: the ISA, the one-thread and N-thread GFLOP/s (best of
// several timed repetitions) and N.
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

// Each kernel runs `iters` rounds of `chains` independent FMAs and returns a value
// that depends on every chain, so the compiler keeps them all. Returns the flops.
using Kernel = double (*)(int64_t iters, float* sink);

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx512f"))) double fma_avx512(int64_t iters, float* sink) {
  constexpr int kChains = 16;
  __m512 acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = _mm512_set1_ps(1.0f + 1e-3f * static_cast<float>(i));
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (int64_t it = 0; it < iters; ++it)
    for (int i = 0; i < kChains; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  __m512 s = acc[0];
  for (int i = 1; i < kChains; ++i) s = _mm512_add_ps(s, acc[i]);
  alignas(64) float lanes[16];  // stored, not _mm512_reduce_add_ps: GCC 12 warns inside it
  _mm512_store_ps(lanes, s);
  float t = 0;
  for (float v : lanes) t += v;
  *sink = t;
  return 2.0 * 16 * kChains * static_cast<double>(iters);
}

__attribute__((target("avx2,fma"))) double fma_avx2(int64_t iters, float* sink) {
  constexpr int kChains = 12;
  __m256 acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = _mm256_set1_ps(1.0f + 1e-3f * static_cast<float>(i));
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (int64_t it = 0; it < iters; ++it)
    for (int i = 0; i < kChains; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  __m256 s = acc[0];
  for (int i = 1; i < kChains; ++i) s = _mm256_add_ps(s, acc[i]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, s);
  float t = 0;
  for (float v : lanes) t += v;
  *sink = t;
  return 2.0 * 8 * kChains * static_cast<double>(iters);
}
#endif

// Portable: scalar multiply-add chains (no FMA assumed: std::fmaf without hardware
// FMA is a library call, 0.9 GFLOP/s here); what a machine without the vector ISAs
// reaches.
double fma_portable(int64_t iters, float* sink) {
  constexpr int kChains = 8;
  float acc[kChains];
  for (int i = 0; i < kChains; ++i) acc[i] = 1.0f + 1e-3f * static_cast<float>(i);
  for (int64_t it = 0; it < iters; ++it)
    for (float& v : acc) v = v * 0.999999f + 1e-7f;
  float t = 0;
  for (float v : acc) t += v;
  *sink = t;
  return 2.0 * kChains * static_cast<double>(iters);
}

struct Isa {
  const char* name;
  Kernel kernel;
};

bool pick_isa(const std::string& want, Isa* out) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  const bool has512 = __builtin_cpu_supports("avx512f");
  const bool has2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if ((want == "auto" || want == "avx512") && has512) return *out = {"avx512f", fma_avx512}, true;
  if (want == "avx512") return false;
  if ((want == "auto" || want == "avx2") && has2) return *out = {"avx2+fma", fma_avx2}, true;
  if (want == "avx2") return false;
#else
  if (want == "avx512" || want == "avx2") return false;
#endif
  *out = {"portable", fma_portable};
  return true;
}

// Runs the kernel on `threads` threads started together; returns GFLOP/s of the
// slowest-to-finish window (wall time from the common start to the last join).
double measure(Kernel kernel, int threads, int64_t iters) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<double> flops(static_cast<size_t>(threads));
  std::vector<float> sink(static_cast<size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) {
      }
      flops[static_cast<size_t>(t)] = kernel(iters, &sink[static_cast<size_t>(t)]);
    });
  while (ready.load() < threads) {
  }
  const auto t0 = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double total = 0;
  for (double f : flops) total += f;
  volatile float keep = 0;
  for (float v : sink) keep = keep + v;
  return total / s * 1e-9;
}

// Best of `reps` repetitions of about `ms` milliseconds each.
double peak(Kernel kernel, int threads, double ms, int reps) {
  int64_t iters = 1 << 16;
  // Calibrate on one thread: grow until a run takes about a tenth of the target.
  for (;;) {
    const auto t0 = std::chrono::steady_clock::now();
    float sink = 0;
    kernel(iters, &sink);
    const double took = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (took >= ms / 10 || iters > (int64_t{1} << 40)) {
      iters = static_cast<int64_t>(static_cast<double>(iters) * ms / std::max(took, 1e-3));
      break;
    }
    iters *= 4;
  }
  double best = 0;
  for (int r = 0; r < reps; ++r) best = std::max(best, measure(kernel, threads, iters));
  return best;
}

int usage(const char* why) {
  std::fprintf(stderr, "fma_peak: %s\nusage: fma_peak [--threads N] [--isa auto|avx512|avx2|portable] [--ms M]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::string isa_name = "auto";
  double ms = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return usage(("missing value after " + a).c_str());
    char* end = nullptr;
    if (a == "--threads") {
      const long v = std::strtol(argv[++i], &end, 10);
      if (*end || v < 1 || v > 4096) return usage("--threads takes an integer in [1, 4096]");
      threads = static_cast<int>(v);
    } else if (a == "--isa") {
      isa_name = argv[++i];
    } else if (a == "--ms") {
      ms = std::strtod(argv[++i], &end);
      if (*end || !(ms >= 1 && ms <= 60000)) return usage("--ms takes a number in [1, 60000]");
    } else {
      return usage(("unknown argument " + a).c_str());
    }
  }
  if (isa_name != "auto" && isa_name != "avx512" && isa_name != "avx2" && isa_name != "portable")
    return usage(("--isa " + isa_name + ": expected auto, avx512, avx2 or portable").c_str());
  Isa isa{};
  if (!pick_isa(isa_name, &isa)) {
    std::fprintf(stderr, "fma_peak: this CPU cannot run --isa %s\n", isa_name.c_str());
    return 2;
  }
  const double one = peak(isa.kernel, 1, ms, 5);
  const double all = peak(isa.kernel, threads, ms, 5);
  std::printf("{\"isa\":\"%s\",\"gflops_1t\":%.1f,\"threads\":%d,\"gflops_nt\":%.1f}\n", isa.name, one, threads, all);
  return 0;
}

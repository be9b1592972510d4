// gk_fuzz_mutate_driver: the structure-aware mutator without libFuzzer, for
// builds without clang (and for a quick count like "N of 4000 mutations crash").
//   gk_fuzz_mutate_driver OUT_DIR COUNT [FIRST] SEED_MODEL...
// Mutation i (FIRST <= i < FIRST + COUNT) takes seed model i % len(seeds), applies
// mutate_model with a generator seeded by i (never the clock), and runs the "run"
// target in a forked child with a 60 s alarm. A child that dies by a signal, or
// hangs, is a finding: its input is written to OUT_DIR/crash-<i>.onnx (on a
// loaded machine, re-run a timeout alone before believing it). Prints one
// line per finding and a summary; exits 1 when anything was found.
#include "tests/fuzz/fuzz_entry.h"
#include "tests/fuzz/model_mutator.h"

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s OUT_DIR COUNT FIRST SEED_MODEL...\n", argv[0]);
    return 2;
  }
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);
  const std::filesystem::path out_dir = argv[1];
  const long count = std::atol(argv[2]), first = std::atol(argv[3]);
  std::vector<std::string> seeds;
  for (int a = 4; a < argc; ++a) {
    std::ifstream f(argv[a], std::ios::binary);
    seeds.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  std::filesystem::create_directories(out_dir);
  long findings = 0, ran = 0, errors = 0;
  for (long i = first; i < first + count; ++i) {
    onnx::ModelProto model;
    if (!model.ParseFromString(seeds[static_cast<size_t>(i) % seeds.size()])) continue;
    std::mt19937_64 rng(static_cast<uint64_t>(i));
    if (!gk::fuzz::mutate_model(model, rng)) continue;
    std::string bytes;
    model.SerializeToString(&bytes);
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid == 0) {
      alarm(60);
      const gk::Status s = gk::fuzz::run_model_bytes(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      _exit(s.ok() ? 0 : 1);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ++ran;
    if (WIFEXITED(status)) {
      errors += WEXITSTATUS(status) == 1;
      if (WEXITSTATUS(status) <= 1) continue;
    }
    ++findings;
    const auto path = out_dir / ("crash-" + std::to_string(i) + ".onnx");
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::printf("finding: mutation %ld of seed %s: %s %d -> %s\n", i, argv[4 + static_cast<size_t>(i) % seeds.size()],
                WIFSIGNALED(status) ? "signal" : "exit", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
                path.c_str());
  }
  std::printf("mutate_driver: %ld mutations run, %ld refused with an error, %ld findings\n", ran, errors, findings);
  return findings ? 1 : 0;
}

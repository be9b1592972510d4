// Every input a fuzzer found (tests/fuzz/regressions/<target>/<case>, minimised)
// replayed through the same target body in every build, and the outcome its
// <case>.expect names: "OK" or "<StatusCode> <message substring>". A case that
// crashed before its fix ends this process with a signal. Also: the mutator is
// deterministic for a seed and each of its mutation kinds applies to a real model.
#include "tests/fuzz/fuzz_entry.h"
#include "tests/fuzz/model_mutator.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;
using namespace gk;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

const fs::path kRegressions = fs::path(GK_SOURCE_DIR) / "tests" / "fuzz" / "regressions";

}  // namespace

TEST_CASE("fuzz regressions: every committed input gives its expected outcome", "[fuzz]") {
  if (!fs::is_directory(kRegressions)) test::skip("no fuzzer finding committed yet (" + kRegressions.string() + ")");
  int cases = 0;
  for (const auto& target_dir : fs::directory_iterator(kRegressions)) {
    if (!target_dir.is_directory()) continue;
    const std::string target = target_dir.path().filename().string();
    for (const auto& entry : fs::directory_iterator(target_dir.path())) {
      if (entry.path().extension() == ".expect") continue;
      const fs::path expect_path = fs::path(entry.path()).concat(".expect");
      INFO(entry.path().string());
      REQUIRE(fs::exists(expect_path));
      std::string expect = slurp(expect_path);
      while (!expect.empty() && (expect.back() == '\n' || expect.back() == ' ')) expect.pop_back();
      const std::string bytes = slurp(entry.path());
      const Status s = fuzz::run_target(target, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      INFO("got " << (s.ok() ? std::string("OK") : s.to_string()) << "; expected " << expect);
      if (expect == "OK") {
        CHECK(s.ok());
      } else {
        const size_t space = expect.find(' ');
        REQUIRE(space != std::string::npos);
        REQUIRE_FALSE(s.ok());
        CHECK(std::string(status_code_name(s.code())) == expect.substr(0, space));
        CHECK_THAT(s.message(), Catch::Contains(expect.substr(space + 1)));
      }
      ++cases;
    }
  }
  if (cases == 0) test::skip("no fuzzer finding committed yet (" + kRegressions.string() + ")");
}

TEST_CASE("fuzz mutator: deterministic per seed and every kind applies without a crash", "[fuzz]") {
  const fs::path model_path = test::kData / "node" / "test_attention_4d_attn_mask" / "model.onnx";
  test::skip_unless_exists(model_path, "the ONNX backend test data");
  const std::string seed_bytes = slurp(model_path);
  onnx::ModelProto seed;
  REQUIRE(seed.ParseFromString(seed_bytes));
  // The node test has no initializer; one gives the initializer kinds a target.
  auto* w = seed.mutable_graph()->add_initializer();
  w->set_name("fuzz_w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  w->add_dims(2);
  w->set_raw_data(std::string(8, '\0'));

  // The same seed gives the same bytes; another seed (almost surely) other bytes.
  auto mutated = [&](uint64_t s) {
    onnx::ModelProto m = seed;
    std::mt19937_64 rng(s);
    REQUIRE(fuzz::mutate_model(m, rng));
    std::string out;
    REQUIRE(m.SerializeToString(&out));
    return out;
  };
  CHECK(mutated(7) == mutated(7));
  std::set<std::string> distinct;
  for (uint64_t s = 0; s < 16; ++s) distinct.insert(mutated(s));
  CHECK(distinct.size() > 8);

  // Each kind applies to this model, and load + run of the result returns (an
  // error or OK), for 8 seeds per kind.
  for (int kind = 0; kind < fuzz::kMutationKinds; ++kind) {
    int applied = 0;
    for (uint64_t s = 0; s < 8; ++s) {
      onnx::ModelProto m = seed;
      std::mt19937_64 rng(1000 * kind + s);
      if (!fuzz::apply_mutation(m, kind, rng)) continue;
      ++applied;
      std::string out;
      REQUIRE(m.SerializeToString(&out));
      INFO(fuzz::mutation_name(kind) << " seed " << s);
      (void)fuzz::run_model_bytes(reinterpret_cast<const uint8_t*>(out.data()), out.size());
    }
    INFO(fuzz::mutation_name(kind));
    CHECK(applied > 0);
  }
}

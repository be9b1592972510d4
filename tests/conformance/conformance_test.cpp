// The ONNX backend test data through the same path as `gkrun check`, with an
// allow-list ratchet (tests/conformance/allowlist.txt): a listed case that fails
// fails the suite, and so does an unlisted case that passes, so the list moves in
// the same commit as the code. GK_UPDATE_ALLOWLIST=1 rewrites the list.
#include "runtime/conformance.h"
#include "tests/support/data.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace gk {
namespace {

using test::kData;
const fs::path kAllowList = fs::path(GK_SOURCE_DIR) / "tests" / "conformance" / "allowlist.txt";

std::set<std::string> read_allow_list() {
  std::set<std::string> out;
  std::ifstream in(kAllowList);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] != '#') out.insert(line);
  return out;
}

void write_allow_list_suite(const std::string& suite, const std::set<std::string>& passing) {
  std::set<std::string> all = read_allow_list();
  for (auto it = all.begin(); it != all.end();)
    it = it->rfind(suite + "/", 0) == 0 ? all.erase(it) : std::next(it);
  all.insert(passing.begin(), passing.end());
  std::ofstream out(kAllowList);
  out << "# Conformance cases that pass (suite/case). Maintained by tests/conformance;\n"
         "# regenerate with GK_UPDATE_ALLOWLIST=1 ctest -L conformance.\n";
  for (const std::string& c : all) out << c << "\n";
}

Kit& shared_kit() {
  static Kit kit = std::move(open_kit("cpu", -1, 0, 0)).value();
  return kit;
}

void run_suite(const std::string& suite) {
  const fs::path dir = kData / suite;
  if (!fs::is_directory(dir)) test::skip(dir.string() + " is absent; conformance suite '" + suite + "' not run");
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (suite == "light" ? e.path().extension() == ".onnx" : e.is_directory()) cases.push_back(e.path());
  }
  std::sort(cases.begin(), cases.end());
  const std::set<std::string> allowed = read_allow_list();
  CheckOptions options;
  options.session.kit = shared_kit();
  std::set<std::string> passing;
  std::vector<std::string> regressions, new_passes;
  for (const fs::path& c : cases) {
    const std::string key = suite + "/" + c.filename().string();
    CheckReport r = check_test_case(c.string(), options);
    const bool pass = r.outcome == CheckOutcome::kPass;
    if (pass) passing.insert(key);
    if (allowed.count(key) && !pass) regressions.push_back(key + ": " + r.message);
    if (!allowed.count(key) && pass) new_passes.push_back(key);
  }
  std::printf("conformance %s: %zu of %zu cases pass\n", suite.c_str(), passing.size(), cases.size());
  if (std::getenv("GK_UPDATE_ALLOWLIST")) {
    write_allow_list_suite(suite, passing);
    return;
  }
  for (const std::string& r : regressions) UNSCOPED_INFO("regressed: " << r);
  for (const std::string& n : new_passes) UNSCOPED_INFO("passes but is not in the allow-list: " << n);
  CHECK(regressions.empty());
  CHECK(new_passes.empty());
}

TEST_CASE("conformance: node", "[conformance]") { run_suite("node"); }
TEST_CASE("conformance: simple", "[conformance]") { run_suite("simple"); }
TEST_CASE("conformance: pytorch-converted", "[conformance]") { run_suite("pytorch-converted"); }
TEST_CASE("conformance: pytorch-operator", "[conformance]") { run_suite("pytorch-operator"); }
TEST_CASE("conformance: light", "[conformance][slow]") { run_suite("light"); }

}  // namespace
}  // namespace gk

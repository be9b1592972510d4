// The registration table is hand-written: this walks it for mistakes a reader
// would not see (overlapping opset ranges, missing functions, kernel families
// without kernels).
#include "ops/core/family.h"
#include "ops/core/op.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string_view>

namespace gk {
namespace {

TEST_CASE("registry: opset ranges of one op never overlap", "[ops][registry]") {
  std::map<std::pair<std::string, std::string>, std::vector<const OpSchema*>> by_op;
  for (const OpSchema& s : op_table()) by_op[{s.domain, s.op_type}].push_back(&s);
  REQUIRE(by_op.size() > 100);
  for (auto& [key, schemas] : by_op) {
    std::sort(schemas.begin(), schemas.end(),
              [](const OpSchema* a, const OpSchema* b) { return a->since_version < b->since_version; });
    for (size_t i = 0; i < schemas.size(); ++i) {
      INFO(key.second << " since " << schemas[i]->since_version << " end " << schemas[i]->end_version);
      CHECK(schemas[i]->since_version <= schemas[i]->end_version);
      if (i + 1 < schemas.size()) CHECK(schemas[i]->end_version < schemas[i + 1]->since_version);
    }
  }
}

TEST_CASE("registry: every entry has a shape rule and a launcher", "[ops][registry]") {
  for (const OpSchema& s : op_table()) {
    INFO(s.op_type);
    REQUIRE(s.impl != nullptr);
    CHECK(s.impl->infer != nullptr);
    CHECK(s.impl->run != nullptr);
  }
}

TEST_CASE("registry: find_op takes the largest since_version not above the opset", "[ops][registry]") {
  const OpSchema* add7 = find_op("", "Add", 7);
  const OpSchema* add14 = find_op("", "Add", 14);
  const OpSchema* add20 = find_op("ai.onnx", "Add", 20);
  REQUIRE(add7);
  REQUIRE(add14);
  REQUIRE(add20);
  CHECK(add7->since_version <= 7);
  CHECK(add14->since_version <= 14);
  CHECK(add14->since_version >= add7->since_version);
  CHECK(add20 == find_op("", "Add", 20));
  CHECK(find_op("", "NoSuchOp", 17) == nullptr);
  CHECK(find_op("com.example", "Add", 17) == nullptr);
}

TEST_CASE("registry: every family folder is listed once and holds its kernels", "[ops][registry]") {
  namespace fs = std::filesystem;
  const fs::path ops = fs::path(GK_SOURCE_DIR) / "ops";
  std::set<std::string> listed;
  for (const OpFamily& f : op_families()) {
    INFO(f.name);
    CHECK(listed.insert(f.name).second);
    CHECK(fs::exists(ops / f.name / "family.cpp"));
    CHECK_FALSE(f.tables.empty());
    if (f.kernels) CHECK(fs::exists(ops / f.name / (std::string(f.kernels->source->name) + ".cuh")));
  }
  for (const fs::directory_entry& e : fs::directory_iterator(ops)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name == "core" || name == "common") continue;
    INFO(name);
    CHECK(listed.count(name) == 1);
  }
}

TEST_CASE("registry: every kernel family has a source and CPU kernels", "[ops][registry]") {
  REQUIRE_FALSE(kernel_families().empty());
  std::set<std::string> names;
  for (const KernelFamily& f : kernel_families()) {
    INFO(f.source->name);
    CHECK_FALSE(f.source->text.empty());
    CHECK_FALSE(f.cpu.portable.empty());
    for (const CpuKernelEntry& e : f.cpu.portable) CHECK(names.insert(e.name).second);  // names are unique
    // Every ISA's table lists the same kernels in the same order (one source, compiled per ISA).
    for (CpuKernelTable t : {f.cpu.avx2, f.cpu.avx512}) {
      REQUIRE(t.size() == f.cpu.portable.size());
      for (size_t i = 0; i < t.size(); ++i) CHECK(std::string_view(t[i].name) == f.cpu.portable[i].name);
    }
  }
}

}  // namespace
}  // namespace gk

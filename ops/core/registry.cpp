// The registration table: every operator family once, walked by find_op. A family
// is a folder ops/<family>/ whose family.cpp defines families::<family>_family()
// (its ops' tables and its kernels); adding one is a new folder and a line here.
#include "ops/core/family.h"
#include "ops/core/op.h"

#include <vector>

// Families, in the order DESIGN.md lists them.
#define GK_OP_FAMILIES(X) \
  X(matmul)               \
  X(conv)                 \
  X(pool)                 \
  X(elementwise)          \
  X(unary)                \
  X(cast)                 \
  X(data_movement)        \
  X(gather_scatter)       \
  X(reduce)               \
  X(topk)                 \
  X(softmax)              \
  X(normalization)        \
  X(resize)               \
  X(detection)            \
  X(loss)                 \
  X(grid_sample)          \
  X(attention)            \
  X(quantize)             \
  X(rnn)                  \
  X(control_flow)         \
  X(sequence)             \
  X(signal)               \
  X(dft)                  \
  X(linalg)               \
  X(tensor_scatter)       \
  X(string)               \
  X(tfidf)                \
  X(ml)                   \
  X(tree_ensemble)

namespace gk {
namespace families {
#define GK_DECLARE_FAMILY(name) OpFamily name##_family();
GK_OP_FAMILIES(GK_DECLARE_FAMILY)
#undef GK_DECLARE_FAMILY
}  // namespace families

namespace {

using FamilyFn = OpFamily (*)();

#define GK_FAMILY_ENTRY(name) &families::name##_family,
constexpr FamilyFn kFamilies[] = {GK_OP_FAMILIES(GK_FAMILY_ENTRY)};
#undef GK_FAMILY_ENTRY

}  // namespace

std::span<const OpFamily> op_families() {
  static const std::vector<OpFamily> families = [] {
    std::vector<OpFamily> all;
    for (FamilyFn f : kFamilies) all.push_back(f());
    return all;
  }();
  return families;
}

std::span<const OpSchema> op_table() {
  static const std::vector<OpSchema> table = [] {
    std::vector<OpSchema> all;
    for (const OpFamily& family : op_families())
      for (std::span<const OpSchema> t : family.tables) all.insert(all.end(), t.begin(), t.end());
    return all;
  }();
  return table;
}

const OpSchema* find_op(std::string_view domain, std::string_view op_type, int opset) {
  if (domain == "ai.onnx") domain = "";
  const OpSchema* best = nullptr;
  for (const OpSchema& s : op_table()) {
    if (s.op_type != op_type || std::string_view(s.domain) != domain) continue;
    if (s.since_version <= opset && opset <= s.end_version &&
        (!best || s.since_version > best->since_version))
      best = &s;
  }
  return best;
}

std::span<const KernelFamily> kernel_families() {
  static const std::vector<KernelFamily> families = [] {
    std::vector<KernelFamily> all;
    for (const OpFamily& family : op_families())
      if (family.kernels) all.push_back(*family.kernels);
    return all;
  }();
  return families;
}

std::vector<CpuIsaTables> cpu_kernel_tables() {
  std::vector<CpuIsaTables> tables;
  for (const KernelFamily& f : kernel_families()) tables.push_back(f.cpu);
  return tables;
}

}  // namespace gk

// Run-time ISA dispatch of the CPU kernel tables (ops/common/isa_variant.h): for
// every ISA this machine runs, a CPU device opened under it gives the portable
// tables' bits on random inputs (the project's rule: -ffp-contract=off and explicit
// fmas, so no ISA may round differently), the device reports the ISA it took, and
// in a portable build each ISA's table holds its own code (the linker did not fold
// one ISA's kernel instances into another's).
#include "backends/cpu/cpu_isa.h"
#include "ops/core/op_eval.h"
#include "tests/ops/nn_test_util.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

namespace gk::test {
namespace {

// Restores the ISA the kernels ran before the test.
struct IsaOverride {
  CpuIsa previous;
  explicit IsaOverride(CpuIsa isa) : previous(set_active_cpu_isa(isa)) {}
  ~IsaOverride() { set_active_cpu_isa(previous); }
};

Kit open_cpu_kit() {
  KitOptions options;
  options.device.kind = BackendKind::kCpu;
  options.device.threads = 1;
  options.cpu_kernels = cpu_kernel_tables();
  auto kit = Kit::open(std::move(options));
  REQUIRE(kit.ok());
  return std::move(kit).value();
}

struct Case {
  const char* op;
  AttrMap attrs;
  std::vector<HostTensor> inputs;
  Epilogue epilogue;
};

AttrMap conv_attrs(int64_t group, std::vector<int64_t> pads, std::vector<int64_t> strides) {
  AttrMap a;
  a.set("group", int_attr(group));
  a.set("pads", ints_attr(std::move(pads)));
  a.set("strides", ints_attr(std::move(strides)));
  return a;
}

std::vector<Case> cases() {
  using nn::tensor_f32;
  std::vector<Case> c;
  // Sizes off the vector widths (tails), and long enough rows to take the vector loops.
  c.push_back({"Sigmoid", {}, {tensor_f32({3, 67, 41}, 1)}, {}});
  c.push_back({"Tanh", {}, {tensor_f32({2, 1031}, 2)}, {}});
  c.push_back({"Erf", {}, {tensor_f32({5, 333}, 3)}, {}});
  c.push_back({"Add", {}, {tensor_f32({2, 3, 37, 29}, 4), tensor_f32({3, 1, 29}, 5)}, {}});
  c.push_back({"Mul", {}, {tensor_f32({4, 1, 77}, 6), tensor_f32({1, 9, 77}, 7)}, {}});
  c.push_back({"Div", {}, {tensor_f32({1000}, 8), tensor_f32({1}, 9)}, {}});
  c.push_back({"Conv", conv_attrs(1, {1, 1, 1, 1}, {1, 1}),
               {tensor_f32({1, 13, 23, 19}, 10), tensor_f32({21, 13, 3, 3}, 11), tensor_f32({21}, 12)},
               {Epilogue::Kind::kHardSwish, 0, 0}});
  c.push_back({"Conv", conv_attrs(1, {0, 0, 0, 0}, {1, 1}),
               {tensor_f32({1, 40, 15, 17}, 13), tensor_f32({24, 40, 1, 1}, 14), tensor_f32({24}, 15)},
               {Epilogue::Kind::kSilu, 0, 0}});
  c.push_back({"Conv", conv_attrs(32, {1, 1, 1, 1}, {1, 1}),
               {tensor_f32({1, 32, 29, 61}, 16), tensor_f32({32, 1, 3, 3}, 17), tensor_f32({32}, 18)},
               {Epilogue::Kind::kClip, 0, 6}});
  c.push_back({"Conv", conv_attrs(24, {2, 2, 2, 2}, {2, 2}),
               {tensor_f32({1, 24, 33, 35}, 19), tensor_f32({24, 1, 5, 5}, 20), tensor_f32({24}, 21)},
               {Epilogue::Kind::kRelu, 0, 0}});
  AttrMap pool;
  pool.set("kernel_shape", ints_attr({3, 3}));
  pool.set("strides", ints_attr({2, 2}));
  pool.set("pads", ints_attr({1, 1, 1, 1}));
  c.push_back({"MaxPool", pool, {tensor_f32({1, 16, 45, 39}, 22)}, {}});
  c.push_back({"AveragePool", pool, {tensor_f32({1, 16, 45, 39}, 23)}, {}});
  c.push_back({"GlobalAveragePool", {}, {tensor_f32({2, 40, 13, 17}, 24)}, {}});
  c.push_back({"Softmax", attr_map("axis", int_attr(-1)), {tensor_f32({7, 1001}, 25)}, {}});
  c.push_back({"LayerNormalization", attr_map("axis", int_attr(-1)),
               {tensor_f32({9, 385}, 26), tensor_f32({385}, 27), tensor_f32({385}, 28)}, {}});
  c.push_back({"MatMul", {}, {tensor_f32({37, 71}, 29), tensor_f32({71, 45}, 30)}, {}});
  // The recurrent cells (rnn_cpu.cpp) in runs of 64 hidden units: 70 and 45 leave tails.
  c.push_back({"LSTM", attr_map("hidden_size", int_attr(70)),
               {tensor_f32({5, 3, 19}, 31), tensor_f32({1, 280, 19}, 32), tensor_f32({1, 280, 70}, 33),
                tensor_f32({1, 560}, 34)},
               {}});
  AttrMap gru = attr_map("hidden_size", int_attr(45));
  gru.set("direction", string_attr("bidirectional"));
  c.push_back({"GRU", gru,
               {tensor_f32({4, 2, 23}, 35), tensor_f32({2, 135, 23}, 36), tensor_f32({2, 135, 45}, 37),
                tensor_f32({2, 270}, 38)},
               {}});
  return c;
}

std::vector<HostTensor> run_case(Kit& kit, const Case& c) {
  const OpSchema* schema = find_op("", c.op, 17);
  REQUIRE(schema);
  NodeView node;
  node.name = std::string(c.op) + "_isa";
  node.op_type = c.op;
  node.opset = 17;
  std::vector<const HostTensor*> inputs;
  for (const HostTensor& t : c.inputs) inputs.push_back(&t), node.input_present.push_back(true);
  node.num_outputs = 1;
  node.output_present.assign(1, true);
  node.epilogue = c.epilogue;
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    auto p = schema->impl->parse(c.attrs, node);
    REQUIRE(p.ok());
    parsed = std::move(p).value();
  }
  auto r = evaluate_op(kit, *schema, node, parsed, inputs);
  INFO(r.status().to_string());
  REQUIRE(r.ok());
  return std::move(r).value().outputs;
}

std::vector<CpuIsa> runnable_isas() {
  std::vector<CpuIsa> isas;
  for (CpuIsa isa : {CpuIsa::kPortable, CpuIsa::kAvx2Fma, CpuIsa::kAvx512})
    if (isa <= detected_cpu_isa()) isas.push_back(isa);
  return isas;
}

TEST_CASE("every ISA's kernel tables give the portable tables' bits", "[isa]") {
  std::vector<std::vector<HostTensor>> reference;
  {
    IsaOverride portable(CpuIsa::kPortable);
    Kit kit = open_cpu_kit();
    for (const Case& c : cases()) reference.push_back(run_case(kit, c));
  }
  for (CpuIsa isa : runnable_isas()) {
    IsaOverride use(isa);
    Kit kit = open_cpu_kit();
    REQUIRE(kit.device().info().isa == cpu_isa_name(isa));
    const std::vector<Case> all = cases();
    for (size_t i = 0; i < all.size(); ++i) {
      INFO(cpu_isa_name(isa) << " " << all[i].op << " case " << i);
      const std::vector<HostTensor> out = run_case(kit, all[i]);
      REQUIRE(out.size() == reference[i].size());
      for (size_t k = 0; k < out.size(); ++k) {
        REQUIRE(out[k].shape() == reference[i][k].shape());
        REQUIRE(out[k].bytes() == reference[i][k].bytes());
        CHECK(std::memcmp(out[k].raw(), reference[i][k].raw(), out[k].bytes()) == 0);
      }
    }
  }
}

TEST_CASE("a portable build holds one kernel table per ISA", "[isa]") {
  bool distinct = false;
  for (const KernelFamily& f : kernel_families()) {
    if (std::string_view(f.source->name) != "unary") continue;
    REQUIRE_FALSE(f.cpu.portable.empty());
    distinct = f.cpu.portable[0].invoke != f.cpu.avx2[0].invoke && f.cpu.avx2[0].invoke != f.cpu.avx512[0].invoke &&
               f.cpu.portable[0].invoke != f.cpu.avx512[0].invoke;
  }
#if defined(GK_ISA_TABLES)
  CHECK(distinct);
#else
  CHECK_FALSE(distinct);  // a native build: one table, for this machine
#endif
}

TEST_CASE("the CPU device reports the ISA it dispatched", "[isa]") {
  Kit kit = open_cpu_kit();
  CHECK(kit.device().info().isa == cpu_isa_name(active_cpu_isa()));
#if defined(GK_ISA_TABLES)
  // GK_CPU_ISA unset: a portable build takes the best table this machine runs.
  if (!std::getenv("GK_CPU_ISA")) CHECK(active_cpu_isa() == detected_cpu_isa());
#endif
}

}  // namespace
}  // namespace gk::test

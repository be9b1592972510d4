#include "tests/ops/op_harness.h"

#include "ops/core/op_eval.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <mutex>
#include <optional>
#include <string_view>

namespace gk::test {

Kit& cpu_kit() {
  static Kit kit = [] {
    KitOptions options;
    options.device.kind = BackendKind::kCpu;
    options.cpu_kernels = cpu_kernel_tables();
    auto k = Kit::open(std::move(options));
    if (!k.ok()) {
      fmt::print(stderr, "cannot open the CPU kit: {}\n", k.status().to_string());
      std::abort();
    }
    return std::move(k).value();
  }();
  return kit;
}

Result<OpResult> run_op(const OpCall& call, Kit& kit) {
  const OpSchema* schema = find_op(call.domain, call.op_type, call.opset);
  if (!schema) return unimplemented("no op {} at opset {}", call.op_type, call.opset);
  NodeView node;
  node.name = call.op_type + "_test";
  node.op_type = call.op_type;
  node.domain = call.domain;
  node.opset = call.opset;
  std::vector<const HostTensor*> inputs;
  for (const auto& in : call.inputs) {
    node.input_present.push_back(in.has_value());
    inputs.push_back(in ? &*in : nullptr);
  }
  node.num_outputs = call.num_outputs;
  node.output_present.assign(call.num_outputs, true);
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(call.attrs, node));
  }
  GK_TRY(OpEvalResult r, evaluate_op(kit, *schema, node, parsed, inputs, call.inputs_host_known));
  return OpResult{std::move(r.outputs)};
}

std::vector<Kit*> other_backend_kits() {
  // Opened once per process (ctest runs one case per process): compiling kernels
  // with NVRTC is the slow part, and the kit keeps what it compiled.
  static Result<Kit> cuda = [] {
    KitOptions options;
    options.device.kind = BackendKind::kCuda;
    options.device.ordinal = -1;  // GK_DEVICE, else the best device
    options.cpu_kernels = cpu_kernel_tables();
    return Kit::open(std::move(options));
  }();
  if (cuda.ok()) return {&*cuda};
  if (cuda.status().code() != StatusCode::kUnavailable) {
    FAIL("the CUDA kit does not open: " << cuda.status().to_string());
  }
  return {};  // no driver or no GPU: the CPU alone
}

namespace {

// Ops whose every output another backend must reproduce bit for bit: they move,
// select or index elements, compare, or do one exactly rounded IEEE operation per
// element (NVRTC compiles with --fmad=false and the CPU with -ffp-contract=off, so
// a*b+c is rounded the same way on both; sqrt and division are correctly rounded on
// both), or take their long sums blocked and pairwise in the same tree on both
// (ops/common/blocked_sum.cuh) with no libm function after it.
constexpr std::string_view kExactOps[] = {
    // data movement and shape
    "Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice", "Expand",
    "Tile", "Pad", "DepthToSpace", "SpaceToDepth", "Shape", "Size", "ConcatFromSequence", "SplitToSequence",
    "ReverseSequence", "Trilu", "CenterCropPad", "Col2Im", "Optional", "OptionalGetElement", "OptionalHasElement",
    "EyeLike", "ConstantOfShape", "Range", "Compress", "Where", "Cast", "CastLike", "BitCast",
    // index and selection
    "Gather", "GatherElements", "GatherND", "Scatter", "ScatterElements", "ScatterND", "NonZero", "TopK", "ArgMax",
    "ArgMin", "OneHot", "Unique", "MaxPool", "MaxUnpool", "MaxRoiPool", "Hardmax",
    "ReduceMax", "ReduceMin", "Max", "Min", "Clip", "Relu",
    // comparison and logic
    "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "And", "Or", "Xor", "Not", "IsNaN", "IsInf",
    "BitShift", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot",
    // one exactly rounded operation per element
    "Add", "Sub", "Mul", "Div", "Neg", "Abs", "Sign", "Sqrt", "Reciprocal", "Floor", "Ceil", "Round", "Mod",
    "PRelu", "LeakyRelu", "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "MatMulInteger",
    "ConvInteger", "QLinearMatMul", "QLinearConv",
    // blocked sums, the same tree on every backend, then only +, *, /, sqrt
    "ReduceSum", "ReduceMean", "ReduceL1", "ReduceL2", "ReduceSumSquare", "AveragePool", "GlobalAveragePool",
    "InstanceNormalization", "LayerNormalization", "GroupNormalization", "MeanVarianceNormalization",
    "RMSNormalization", "LpNormalization"};

struct OpTolerance {
  std::string_view op_type;
  Tol tol;
};

// Float ops whose results may differ in the last bits between backends, with the
// allowed difference (|other - cpu| <= atol + rtol * |cpu|). // untuned: stated from
// the arithmetic, not yet measured against a GPU.
//  - libm functions (exp, log, tanh, erf, pow, sin ...): CUDA's libdevice and glibc
//    are each within a few ulp of the true value; f32's ulp is 1.2e-7 relative.
//  - reductions, products and sums over many terms (matmul, conv, pooling, norms):
//    the backends may add in a different order; the error grows with the length.
constexpr Tol kLibm{.rtol = 1e-6, .atol = 1e-7};
constexpr Tol kReduction{.rtol = 1e-5, .atol = 1e-6};
constexpr Tol kLongReduction{.rtol = 1e-4, .atol = 1e-5};
constexpr OpTolerance kFloatTolerance[] = {
    {"Conv", kLongReduction},       {"ConvTranspose", kLongReduction}, {"DeformConv", kLongReduction},
    {"MatMul", kLongReduction},     {"Gemm", kLongReduction},         {"Einsum", kLongReduction},
    {"Attention", kLongReduction},  {"DFT", kLongReduction},          {"STFT", kLongReduction},
    {"MelWeightMatrix", kLongReduction}, {"LSTM", kLongReduction},    {"GRU", kLongReduction},
    {"RNN", kLongReduction},        {"Det", kLongReduction},          {"ReduceProd", kReduction},
    {"ReduceLogSum", kReduction},   {"ReduceLogSumExp", kReduction},  {"CumSum", kReduction},
    {"LpPool", kReduction},         {"BatchNormalization", kReduction}, {"LRN", kReduction},
    {"Softmax", kReduction},        {"LogSoftmax", kReduction},
    {"SoftmaxCrossEntropyLoss", kReduction}, {"NegativeLogLikelihoodLoss", kReduction},
    {"Resize", kReduction},         {"RoiAlign", kReduction},         {"AffineGrid", kReduction},
    {"GridSample", kReduction},
};

// Any other float op (the libm unary and activation functions, Pow, Gelu ...).
constexpr Tol kDefaultFloat = kLibm;

}  // namespace

Tol backend_tolerance(std::string_view op_type, DType dtype) {
  if (!dtype_is_float(dtype)) return Tol{};
  if (std::find(std::begin(kExactOps), std::end(kExactOps), op_type) != std::end(kExactOps)) return Tol{};
  Tol tol = kDefaultFloat;
  for (const OpTolerance& t : kFloatTolerance)
    if (t.op_type == op_type) tol = t.tol;
  // A one-ulp difference in the float result can round to the neighbouring half
  // (2^-10 relative) or bfloat16 (2^-7).
  if (dtype == DType::kF16) tol.rtol = std::max(tol.rtol, 1.0 / 1024);
  if (dtype == DType::kBF16) tol.rtol = std::max(tol.rtol, 1.0 / 128);
  return tol;
}

Result<OpResult> run_op_all_backends(const OpCall& call) {
  Result<OpResult> cpu = run_op(call, cpu_kit());
  for (Kit* kit : other_backend_kits()) {
    const std::string backend = kit->backend() == BackendKind::kCuda ? "cuda" : "other";
    INFO(call.op_type << " opset " << call.opset << " on " << backend << " against the CPU");
    Result<OpResult> other = run_op(call, *kit);
    if (!cpu.ok()) {
      // Backends must not silently disagree: where the CPU refuses, so does the other.
      INFO("the CPU's error: " << cpu.status().to_string());
      INFO("the other backend's: " << (other.ok() ? std::string("OK") : other.status().to_string()));
      CHECK((!other.ok() && other.status().code() == cpu.status().code()));
      continue;
    }
    INFO((other.ok() ? std::string() : other.status().to_string()));
    REQUIRE(other.ok());
    REQUIRE(other->outputs.size() == cpu->outputs.size());
    for (size_t i = 0; i < cpu->outputs.size(); ++i) {
      const HostTensor& want = cpu->outputs[i];
      const Tol tol = backend_tolerance(call.op_type, want.dtype());
      const bool exact = tol.rtol == 0 && tol.atol == 0;
      const std::string diff = exact ? exact_mismatch(other->outputs[i], want) : mismatch(other->outputs[i], want, tol);
      INFO("output " << i << " (" << dtype_name(want.dtype()) << ", "
                     << (exact ? std::string("0 ulp") : fmt::format("rtol {} atol {}", tol.rtol, tol.atol))
                     << "): " << diff);
      CHECK(diff.empty());
    }
  }
  return cpu;
}

HostTensor f32(Shape shape, std::vector<float> values) {
  return HostTensor::from_vector(DType::kF32, std::move(shape), values);
}
HostTensor i64(Shape shape, std::vector<int64_t> values) {
  return HostTensor::from_vector(DType::kI64, std::move(shape), values);
}

}  // namespace gk::test

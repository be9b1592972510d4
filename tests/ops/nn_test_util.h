// Shared by the matmul, conv and pool tests: seeded random tensors, running one op
// with a fused epilogue (evaluate_op with an explicit NodeView), closeness checks,
// and the double-precision activation reference.
#pragma once

#include "ops/core/op_eval.h"
#include "tests/ops/op_builders.h"
#include "tests/ops/op_harness.h"
#include "tests/support/compare.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace gk::test::nn {

// A window tap of the conv and pooling references: the row-major index into
// spatial dims `in` of position o[i] * s[i] - pb[i] + kk[i] * dil[i] in every dim
// (output position o, kernel offset kk, stride s, leading pad pb, dilation dil), or
// -1 where the tap falls in the padding. ConvTranspose's scatter is the same map
// from an input position onto the output dims.
inline int64_t window_tap(const std::vector<int64_t>& o, const std::vector<int64_t>& kk,
                          const std::vector<int64_t>& s, const std::vector<int64_t>& pb,
                          const std::vector<int64_t>& dil, const std::vector<int64_t>& in) {
  int64_t index = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const int64_t pos = o[i] * s[i] - pb[i] + kk[i] * dil[i];
    if (pos < 0 || pos >= in[i]) return -1;
    index = index * in[i] + pos;
  }
  return index;
}

inline std::vector<float> random_floats(size_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

inline HostTensor tensor_f32(const Shape& shape, uint32_t seed) {
  return f32(shape, random_floats(static_cast<size_t>(numel(shape)), seed));
}

// Runs op_type at `opset` on `inputs` (nullptr = absent) with an epilogue, on `kit`.
inline Result<std::vector<HostTensor>> run_with(const std::string& op_type, const AttrMap& attrs,
                                                std::vector<const HostTensor*> inputs, Epilogue epilogue = {},
                                                int num_outputs = 1, int opset = 17, Kit& kit = cpu_kit()) {
  const OpSchema* schema = find_op("", op_type, opset);
  if (!schema) return unimplemented("no {} at opset {}", op_type, opset);
  NodeView node;
  node.name = op_type + "_test";
  node.op_type = op_type;
  node.opset = opset;
  for (const HostTensor* in : inputs) node.input_present.push_back(in != nullptr);
  node.num_outputs = num_outputs;
  node.output_present.assign(num_outputs, true);
  node.epilogue = epilogue;
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(attrs, node));
  }
  GK_TRY(OpEvalResult r, evaluate_op(kit, *schema, node, parsed, inputs));
  return std::move(r.outputs);
}

// Odometer over a multi-index `idx` < `dims`; false after the last.
inline bool next_index(std::vector<int64_t>& idx, const std::vector<int64_t>& dims) {
  for (size_t d = idx.size(); d-- > 0;) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}

inline double activation_ref(double x, const Epilogue& e) {
  switch (e.kind) {
    case Epilogue::Kind::kNone: return x;
    case Epilogue::Kind::kRelu: return x < 0 ? 0 : x;
    case Epilogue::Kind::kClip: return std::min<double>(std::max<double>(x, e.alpha), e.beta);
    case Epilogue::Kind::kSigmoid: return 1 / (1 + std::exp(-x));
    case Epilogue::Kind::kSilu: return x / (1 + std::exp(-x));
    case Epilogue::Kind::kHardSigmoid: return std::clamp(e.alpha * x + e.beta, 0.0, 1.0);
    case Epilogue::Kind::kHardSwish: return x * std::clamp(x / 6 + 0.5, 0.0, 1.0);
    case Epilogue::Kind::kLeakyRelu: return x < 0 ? e.alpha * x : x;
    case Epilogue::Kind::kTanh: return std::tanh(x);
  }
  return x;
}

}  // namespace gk::test::nn

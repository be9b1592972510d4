#include "graph/passes/passes.h"

#include <catch2/catch.hpp>

#include <cmath>

// Only for f16 test data: the same conversion the kernels use.
#include "backends/kernel_prelude.cuh"

namespace gk {
namespace {

HostTensor f32(Shape shape, std::vector<float> v) { return HostTensor::from_vector(DType::kF32, std::move(shape), v); }

struct Builder {
  Graph g;
  ValueId value(const std::string& name) {
    Value v;
    v.name = name;
    v.dtype = DType::kF32;
    return g.add_value(std::move(v));
  }
  ValueId input(const std::string& name) {
    ValueId v = value(name);
    g.values[v].is_graph_input = true;
    g.inputs.push_back(v);
    return v;
  }
  ValueId init(const std::string& name, HostTensor t) {
    ValueId v = value(name);
    g.values[v].dtype = t.dtype();
    g.values[v].initializer = std::make_shared<const HostTensor>(std::move(t));
    return v;
  }
  void output(ValueId v) {
    g.values[v].is_graph_output = true;
    g.outputs.push_back(v);
  }
  // Outputs named in `outs` ("" = absent); returns the node index.
  int node(const std::string& op, const std::string& name, std::vector<ValueId> in, std::vector<std::string> outs,
           AttrMap attrs = {}, int opset = 13) {
    Node n;
    n.view.name = name;
    n.view.op_type = op;
    n.view.opset = opset;
    for (ValueId v : in) n.view.input_present.push_back(v != kNoValue);
    for (const std::string& o : outs) {
      n.outputs.push_back(o.empty() ? kNoValue : value(o));
      n.view.output_present.push_back(!o.empty());
    }
    n.view.num_outputs = static_cast<int>(outs.size());
    n.inputs = std::move(in);
    n.attrs = std::move(attrs);
    g.nodes.push_back(std::move(n));
    return static_cast<int>(g.nodes.size() - 1);
  }
  ValueId out(int node, size_t k = 0) const { return g.nodes[node].outputs[k]; }
  ValueId id(const std::string& name) const { return g.find(name); }
};

Attribute float_attr(float f) {
  Attribute a;
  a.kind = Attribute::Kind::kFloat;
  a.f = f;
  return a;
}
Attribute int_attr(int64_t i) {
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = i;
  return a;
}

std::vector<std::string> op_types(const Graph& g) {
  std::vector<std::string> s;
  for (const Node& n : g.nodes) s.push_back(n.view.op_type);
  return s;
}

std::vector<double> values_of(const Graph& g, ValueId v) {
  REQUIRE(v != kNoValue);
  REQUIRE(g.values[v].initializer);
  return g.values[v].initializer->to_f64_vector();
}

Status run(Graph& g, std::set<std::string> disabled = {}, HostEvaluator* eval = nullptr) {
  PassOptions o;
  o.disabled = std::move(disabled);
  return run_passes(g, o, eval);
}

// Adds two f32 tensors of one shape (or a scalar second operand); counts its calls.
class FakeEvaluator : public HostEvaluator {
 public:
  int calls = 0;
  Result<std::vector<HostTensor>> evaluate(const Node& node, std::span<const HostTensor* const> in) override {
    ++calls;
    if (node.view.op_type != "Add") return unimplemented("fake evaluator: only Add");
    const HostTensor &a = *in[0], &b = *in[1];
    GK_TRY(HostTensor out, HostTensor::allocate(DType::kF32, a.shape()));
    for (int64_t i = 0; i < a.numel(); ++i)
      out.mutable_data<float>()[i] = a.data<float>()[i] + b.data<float>()[b.numel() == 1 ? 0 : i];
    std::vector<HostTensor> r;
    r.push_back(std::move(out));
    return r;
  }
};

struct Bn {
  std::vector<double> gamma, beta, mean, var;
  double eps;
};

// Adds BatchNormalization(x) with the given parameters; returns the node index.
int add_bn(Builder& b, ValueId x, const Bn& p, const std::string& out) {
  auto vec = [](const std::vector<double>& d) { return std::vector<float>(d.begin(), d.end()); };
  const Shape c{static_cast<int64_t>(p.gamma.size())};
  ValueId g = b.init("gamma", f32(c, vec(p.gamma)));
  ValueId be = b.init("beta", f32(c, vec(p.beta)));
  ValueId m = b.init("mean", f32(c, vec(p.mean)));
  ValueId v = b.init("var", f32(c, vec(p.var)));
  AttrMap a;
  a.set("epsilon", float_attr(static_cast<float>(p.eps)));
  return b.node("BatchNormalization", "bn", {x, g, be, m, v}, {out}, a);
}

// The reference: BN applied to a per-channel value y, in double with the float
// parameters the model holds.
double bn_ref(const Bn& p, int c, double y) {
  auto f = [](double d) { return static_cast<double>(static_cast<float>(d)); };
  return (y - f(p.mean[c])) * f(p.gamma[c]) / std::sqrt(f(p.var[c]) + f(static_cast<float>(p.eps))) + f(p.beta[c]);
}

const Bn kBn{{1.5, -0.5}, {0.25, 2.0}, {0.1, -3.0}, {4.0, 0.25}, 1e-3};

}  // namespace

TEST_CASE("fold-batchnorm: Conv + BN folds into weights and bias (2 channels)", "[passes]") {
  Builder b;
  ValueId x = b.input("x");
  // W: 2 output channels, 1 input channel, 1x2 kernel.
  const std::vector<float> w = {0.5f, -1.0f, 2.0f, 0.75f};
  const std::vector<float> bias = {0.2f, -0.4f};
  ValueId wv = b.init("W", f32({2, 1, 1, 2}, w));
  ValueId bv = b.init("B", f32({2}, bias));
  int conv = b.node("Conv", "conv", {x, wv, bv}, {"y"});
  add_bn(b, b.out(conv), kBn, "z");
  b.output(b.id("z"));
  REQUIRE(run(b.g).ok());
  REQUIRE(op_types(b.g) == std::vector<std::string>{"Conv"});
  const Node& n = b.g.nodes[0];
  CHECK(n.outputs[0] == b.id("z"));
  CHECK(n.covers == std::vector<std::string>{"conv", "bn"});
  CHECK(n.inputs[1] == wv);  // the weight had no other reader: folded in place, name kept
  const std::vector<double> w2 = values_of(b.g, n.inputs[1]);
  const std::vector<double> b2 = values_of(b.g, n.inputs[2]);
  // Conv + BN on an input (x0, x1) against the folded conv, per channel.
  const double x0 = 0.3, x1 = -1.7;
  for (int c = 0; c < 2; ++c) {
    const double y = w[2 * c] * x0 + w[2 * c + 1] * x1 + bias[c];
    const double folded = w2[2 * c] * x0 + w2[2 * c + 1] * x1 + b2[c];
    CHECK(folded == Approx(bn_ref(kBn, c, y)).epsilon(1e-6));
    const double s = 1.5 / std::sqrt(4.0 + 1e-3);
    if (c == 0) CHECK(w2[0] == Approx(0.5 * s).epsilon(1e-7));
  }
  // BN parameters nobody reads any more are released.
  CHECK_FALSE(b.g.values[b.id("gamma")].initializer);
}

TEST_CASE("fold-batchnorm: Conv without bias gets one; a shared weight is copied", "[passes]") {
  Builder b;
  ValueId x = b.input("x");
  ValueId wv = b.init("W", f32({2, 1, 1, 1}, {2.0f, -3.0f}));
  int conv = b.node("Conv", "conv", {x, wv}, {"y"});
  int other = b.node("Conv", "conv2", {x, wv}, {"y2"});
  add_bn(b, b.out(conv), kBn, "z");
  b.output(b.id("z"));
  b.output(b.out(other));
  REQUIRE(run(b.g).ok());
  REQUIRE(op_types(b.g) == std::vector<std::string>{"Conv", "Conv"});
  const Node& folded = b.g.nodes[0];
  REQUIRE(folded.inputs.size() == 3);
  CHECK(folded.view.has_input(2));
  CHECK(folded.inputs[1] != wv);
  CHECK(b.g.nodes[1].inputs[1] == wv);
  CHECK(values_of(b.g, wv) == std::vector<double>{2.0, -3.0});
  const std::vector<double> w2 = values_of(b.g, folded.inputs[1]);
  const std::vector<double> b2 = values_of(b.g, folded.inputs[2]);
  for (int c = 0; c < 2; ++c) {
    const double wc = c == 0 ? 2.0 : -3.0, xin = 1.25;
    CHECK(w2[c] * xin + b2[c] == Approx(bn_ref(kBn, c, wc * xin)).epsilon(1e-6));
  }
}

TEST_CASE("fold-batchnorm: Gemm with and without transB, bias scaled by beta", "[passes]") {
  for (int64_t trans_b : {0, 1}) {
    Builder b;
    ValueId a = b.input("a");
    // K = 3, N = 2. B stored [K, N] or [N, K].
    const double bmat[3][2] = {{1.0, -2.0}, {0.5, 0.25}, {-1.5, 3.0}};
    std::vector<float> stored;
    if (trans_b)
      for (int n = 0; n < 2; ++n)
        for (int k = 0; k < 3; ++k) stored.push_back(static_cast<float>(bmat[k][n]));
    else
      for (int k = 0; k < 3; ++k)
        for (int n = 0; n < 2; ++n) stored.push_back(static_cast<float>(bmat[k][n]));
    ValueId bv = b.init("B", f32(trans_b ? Shape{2, 3} : Shape{3, 2}, stored));
    ValueId cv = b.init("C", f32({1, 2}, {0.5f, -1.0f}));
    AttrMap at;
    at.set("transB", int_attr(trans_b));
    at.set("alpha", float_attr(2.0f));
    at.set("beta", float_attr(0.5f));
    int gemm = b.node("Gemm", "gemm", {a, bv, cv}, {"y"}, at);
    add_bn(b, b.out(gemm), kBn, "z");
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    REQUIRE(op_types(b.g) == std::vector<std::string>{"Gemm"});
    const Node& n = b.g.nodes[0];
    CHECK(n.attrs.get_float("beta", 0).value() == 1.0f);
    CHECK(n.attrs.get_float("alpha", 0).value() == 2.0f);
    CHECK(n.attrs.get_int("transB", 0).value() == trans_b);
    const std::vector<double> w2 = values_of(b.g, n.inputs[1]);
    const std::vector<double> c2 = values_of(b.g, n.inputs[2]);
    const double arow[3] = {0.7, -0.2, 1.1};
    for (int col = 0; col < 2; ++col) {
      double y = 0, folded = 0;
      for (int k = 0; k < 3; ++k) {
        y += arow[k] * bmat[k][col];
        folded += arow[k] * w2[trans_b ? col * 3 + k : k * 2 + col];
      }
      y = 2.0 * y + 0.5 * (col == 0 ? 0.5 : -1.0);
      folded = 2.0 * folded + 1.0 * c2[col];
      CHECK(folded == Approx(bn_ref(kBn, col, y)).epsilon(1e-6));
    }
  }
}

TEST_CASE("fold-batchnorm: f16 weights stay f16, rounded from the double result", "[passes]") {
  Builder b;
  ValueId x = b.input("x");
  auto wt = HostTensor::allocate(DType::kF16, {2, 1, 1, 1});
  REQUIRE(wt.ok());
  wt->mutable_data<uint16_t>()[0] = gk_float_to_half_bits(0.5f);
  wt->mutable_data<uint16_t>()[1] = gk_float_to_half_bits(-2.0f);
  ValueId wv = b.init("W", std::move(*wt));
  int conv = b.node("Conv", "conv", {x, wv}, {"y"});
  add_bn(b, b.out(conv), kBn, "z");
  b.output(b.id("z"));
  REQUIRE(run(b.g).ok());
  const Node& n = b.g.nodes.at(0);
  const HostTensor& w2 = *b.g.values[n.inputs[1]].initializer;
  const HostTensor& b2 = *b.g.values[n.inputs[2]].initializer;
  CHECK(w2.dtype() == DType::kF16);
  CHECK(b2.dtype() == DType::kF16);
  auto f = [](double d) { return static_cast<double>(static_cast<float>(d)); };
  for (int c = 0; c < 2; ++c) {
    const double s = f(kBn.gamma[c]) / std::sqrt(f(kBn.var[c]) + f(static_cast<float>(kBn.eps)));
    const double want_w = (c == 0 ? 0.5 : -2.0) * s;
    CHECK(w2.data<uint16_t>()[c] == gk_float_to_half_bits(static_cast<float>(want_w)));
    const double want_b = f(kBn.beta[c]) - f(kBn.mean[c]) * s;
    CHECK(b2.as_f64(c) == Approx(want_b).epsilon(1.0 / 1024));
  }
}

TEST_CASE("fold-batchnorm: left alone when the pattern does not hold", "[passes]") {
  SECTION("conv output read twice") {
    Builder b;
    ValueId x = b.input("x");
    int conv = b.node("Conv", "conv", {x, b.init("W", f32({2, 1, 1, 1}, {1, 2}))}, {"y"});
    add_bn(b, b.out(conv), kBn, "z");
    int relu = b.node("Relu", "relu", {b.out(conv)}, {"r"});
    b.output(b.id("z"));
    b.output(b.out(relu));
    REQUIRE(run(b.g, {"fuse-activation"}).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "BatchNormalization", "Relu"});
  }
  SECTION("training mode, or parameters not constant") {
    for (int variant = 0; variant < 2; ++variant) {
      Builder b;
      ValueId x = b.input("x");
      int conv = b.node("Conv", "conv", {x, b.init("W", f32({2, 1, 1, 1}, {1, 2}))}, {"y"});
      int bn = add_bn(b, b.out(conv), kBn, "z");
      if (variant == 0) b.g.nodes[bn].attrs.set("training_mode", int_attr(1));
      if (variant == 1) b.g.nodes[bn].inputs[3] = b.input("runtime_mean");
      b.output(b.id("z"));
      REQUIRE(run(b.g).ok());
      CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "BatchNormalization"});
    }
  }
  SECTION("disabled by name") {
    Builder b;
    ValueId x = b.input("x");
    int conv = b.node("Conv", "conv", {x, b.init("W", f32({2, 1, 1, 1}, {1, 2}))}, {"y"});
    add_bn(b, b.out(conv), kBn, "z");
    b.output(b.id("z"));
    REQUIRE(run(b.g, {"fold-batchnorm"}).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "BatchNormalization"});
  }
}

TEST_CASE("fuse-activation: each activation becomes the producer's epilogue", "[passes]") {
  using K = Epilogue::Kind;
  struct Case {
    std::string op;
    AttrMap attrs;
    int opset;
    K kind;
    float alpha, beta;
  };
  AttrMap leaky, hsig, clip6;
  leaky.set("alpha", float_attr(0.2f));
  clip6.set("min", float_attr(-1.0f));
  clip6.set("max", float_attr(6.0f));
  std::vector<Case> cases = {
      {"Relu", {}, 13, K::kRelu, 0, 0},          {"Sigmoid", {}, 13, K::kSigmoid, 0, 0},
      {"Tanh", {}, 13, K::kTanh, 0, 0},          {"HardSwish", {}, 14, K::kHardSwish, 0, 0},
      {"LeakyRelu", {}, 13, K::kLeakyRelu, 0.01f, 0}, {"LeakyRelu", leaky, 13, K::kLeakyRelu, 0.2f, 0},
      {"HardSigmoid", {}, 13, K::kHardSigmoid, 0.2f, 0.5f}, {"Clip", clip6, 6, K::kClip, -1.0f, 6.0f},
  };
  for (const char* producer : {"Conv", "Gemm", "MatMul"}) {
    for (const Case& c : cases) {
      Builder b;
      ValueId x = b.input("x");
      int p = b.node(producer, "p", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
      b.node(c.op, "act", {b.out(p)}, {"z"}, c.attrs, c.opset);
      b.output(b.id("z"));
      REQUIRE(run(b.g).ok());
      INFO(producer << " + " << c.op);
      REQUIRE(op_types(b.g) == std::vector<std::string>{producer});
      const Node& n = b.g.nodes[0];
      CHECK(n.view.epilogue.kind == c.kind);
      CHECK(n.view.epilogue.alpha == c.alpha);
      CHECK(n.view.epilogue.beta == c.beta);
      CHECK(n.outputs[0] == b.id("z"));
      CHECK(n.covers == std::vector<std::string>{"p", "act"});
    }
  }
}

TEST_CASE("fuse-activation: Clip with constant inputs, and SiLU as x * Sigmoid(x)", "[passes]") {
  {
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    b.node("Clip", "clip", {b.out(p), b.init("lo", f32({}, {0.0f})), b.init("hi", f32({}, {6.0f}))}, {"z"});
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    REQUIRE(b.g.nodes.size() == 1);
    CHECK(b.g.nodes[0].view.epilogue.kind == Epilogue::Kind::kClip);
    CHECK(b.g.nodes[0].view.epilogue.alpha == 0.0f);
    CHECK(b.g.nodes[0].view.epilogue.beta == 6.0f);
  }
  {  // Clip with a bound computed at run time: kept.
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    b.node("Clip", "clip", {b.out(p), b.input("lo")}, {"z"});
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    CHECK(b.g.nodes.size() == 2);
  }
  for (bool sig_first : {true, false}) {
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    int s = b.node("Sigmoid", "sig", {b.out(p)}, {"s"});
    std::vector<ValueId> mul_in = sig_first ? std::vector<ValueId>{b.out(s), b.out(p)}
                                            : std::vector<ValueId>{b.out(p), b.out(s)};
    b.node("Mul", "mul", mul_in, {"z"});
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    REQUIRE(op_types(b.g) == std::vector<std::string>{"Conv"});
    CHECK(b.g.nodes[0].view.epilogue.kind == Epilogue::Kind::kSilu);
    CHECK(b.g.nodes[0].covers == std::vector<std::string>{"conv", "sig", "mul"});
    CHECK(b.g.nodes[0].outputs[0] == b.id("z"));
  }
}

TEST_CASE("fuse-activation: not when the producer's output is seen elsewhere or traits say no", "[passes]") {
  {  // y is a graph output too.
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    b.node("Relu", "relu", {b.out(p)}, {"z"});
    b.output(b.id("z"));
    b.output(b.id("y"));
    REQUIRE(run(b.g).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "Relu"});
    CHECK(b.g.nodes[0].view.epilogue.kind == Epilogue::Kind::kNone);
  }
  {  // The schema's traits decline an epilogue.
    static const OpSchema kNoEpilogue{"", "Conv", 1, kOpsetCurrent, nullptr, {}};
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    b.g.nodes[p].schema = &kNoEpilogue;
    b.node("Relu", "relu", {b.out(p)}, {"z"});
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "Relu"});
  }
  {  // Disabled by name.
    Builder b;
    ValueId x = b.input("x");
    int p = b.node("Conv", "conv", {x, b.init("W", f32({1, 1}, {1}))}, {"y"});
    b.node("Relu", "relu", {b.out(p)}, {"z"});
    b.output(b.id("z"));
    REQUIRE(run(b.g, {"fuse-activation"}).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Conv", "Relu"});
  }
}

TEST_CASE("remove-identity: consumers rewired, graph output names kept", "[passes]") {
  {  // Identity in the middle.
    Builder b;
    ValueId x = b.input("x");
    int r1 = b.node("Relu", "r1", {x}, {"a"});
    b.node("Identity", "id", {b.out(r1)}, {"b"});
    int r2 = b.node("Tanh", "r2", {b.id("b")}, {"c"});
    b.output(b.out(r2));
    REQUIRE(run(b.g).ok());
    REQUIRE(op_types(b.g) == std::vector<std::string>{"Relu", "Tanh"});
    CHECK(b.g.nodes[1].inputs[0] == b.id("a"));
  }
  {  // Identity producing a graph output: the producer writes the output itself.
    Builder b;
    ValueId x = b.input("x");
    int r1 = b.node("Relu", "r1", {x}, {"a"});
    b.node("Identity", "id", {b.out(r1)}, {"out"});
    int t = b.node("Tanh", "t", {b.out(r1)}, {"other"});
    b.output(b.id("out"));
    b.output(b.out(t));
    REQUIRE(run(b.g).ok());
    REQUIRE(op_types(b.g) == std::vector<std::string>{"Relu", "Tanh"});
    CHECK(b.g.nodes[0].outputs[0] == b.id("out"));
    CHECK(b.g.nodes[1].inputs[0] == b.id("out"));
    CHECK(b.g.outputs == std::vector<ValueId>{b.id("out"), b.id("other")});
  }
  {  // Graph input straight to a graph output: the Identity stays as the copy.
    Builder b;
    ValueId x = b.input("x");
    b.node("Identity", "id", {x}, {"out"});
    b.output(b.id("out"));
    REQUIRE(run(b.g).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"Identity"});
  }
}

TEST_CASE("remove-identity: Dropout goes unless its mask is read or training is on", "[passes]") {
  for (int variant = 0; variant < 4; ++variant) {
    Builder b;
    ValueId x = b.input("x");
    int r = b.node("Relu", "r", {x}, {"a"});
    std::vector<ValueId> in = {b.out(r)};
    if (variant == 2) in = {b.out(r), b.init("ratio", f32({}, {0.5f})), b.init("tm", HostTensor::from_vector<uint8_t>(DType::kBool, {}, {1}))};
    if (variant == 3) in = {b.out(r), b.init("ratio", f32({}, {0.5f})), b.init("tm", HostTensor::from_vector<uint8_t>(DType::kBool, {}, {0}))};
    int d = b.node("Dropout", "drop", in, {"b", variant == 1 ? "mask" : ""});
    int t = b.node("Tanh", "t", {b.out(d)}, {"c"});
    b.output(b.out(t));
    if (variant == 1) b.output(b.id("mask"));
    REQUIRE(run(b.g).ok());
    INFO("variant " << variant);
    const bool kept = variant == 1 || variant == 2;
    CHECK(b.g.nodes.size() == (kept ? 3u : 2u));
  }
}

TEST_CASE("eliminate-dead: nodes reaching no output go, outputs stay", "[passes]") {
  Builder b;
  ValueId x = b.input("x");
  int live = b.node("Relu", "live", {x}, {"a"});
  int dead1 = b.node("Tanh", "dead1", {x}, {"d1"});
  b.node("Add", "dead2", {b.out(dead1), b.init("k", f32({}, {1}))}, {"d2"});
  b.output(b.out(live));
  REQUIRE(run(b.g).ok());
  CHECK(op_types(b.g) == std::vector<std::string>{"Relu"});
  CHECK(b.g.outputs == std::vector<ValueId>{b.id("a")});
  CHECK(b.g.values[b.id("a")].producer == 0);
  CHECK_FALSE(b.g.values[b.id("k")].initializer);
}

TEST_CASE("fold-constants: constant subgraphs become initializers", "[passes]") {
  Builder b;
  ValueId x = b.input("x");
  ValueId k1 = b.init("k1", f32({3}, {1.0f, 2.0f, 3.0f}));
  ValueId k2 = b.init("k2", f32({3}, {0.5f, -4.0f, 10.0f}));
  int c1 = b.node("Add", "c1", {k1, k2}, {"s1"});
  int c2 = b.node("Add", "c2", {b.out(c1), b.init("one", f32({}, {1.0f}))}, {"s2"});
  int live = b.node("Add", "live", {x, b.out(c2)}, {"y"});
  b.output(b.out(live));
  FakeEvaluator eval;
  REQUIRE(run(b.g, {}, &eval).ok());
  CHECK(eval.calls == 2);
  REQUIRE(op_types(b.g) == std::vector<std::string>{"Add"});
  CHECK(b.g.nodes[0].view.name == "live");
  CHECK(values_of(b.g, b.g.nodes[0].inputs[1]) == std::vector<double>{2.5, -1.0, 14.0});
  CHECK(b.g.values[b.id("s2")].dims.size() == 1);
  CHECK(b.g.values[b.id("s2")].dims[0].value == 3);
  CHECK_FALSE(b.g.values[b.id("k1")].initializer);  // released: nothing reads it now
}

TEST_CASE("fold-constants: skipped above the size cap, for random ops, and when disabled", "[passes]") {
  auto make = [](Builder& b, const std::string& op) {
    ValueId x = b.input("x");
    int c = b.node(op, "c", {b.init("k1", f32({4}, {1, 2, 3, 4})), b.init("k2", f32({4}, {1, 1, 1, 1}))}, {"s"});
    b.output(b.out(b.node("Add", "live", {x, b.out(c)}, {"y"})));
  };
  {
    Builder b;
    make(b, "Add");
    FakeEvaluator eval;
    PassOptions o;
    o.fold_max_bytes = 8;  // the 16-byte result is over the cap
    REQUIRE(run_passes(b.g, o, &eval).ok());
    CHECK(b.g.nodes.size() == 2);
  }
  {
    Builder b;
    make(b, "RandomUniformLike");
    FakeEvaluator eval;
    REQUIRE(run(b.g, {}, &eval).ok());
    CHECK(eval.calls == 0);
    CHECK(b.g.nodes.size() == 2);
  }
  {
    Builder b;
    make(b, "Mul");  // the evaluator cannot: Unimplemented keeps the node
    FakeEvaluator eval;
    REQUIRE(run(b.g, {}, &eval).ok());
    CHECK(eval.calls == 1);
    CHECK(b.g.nodes.size() == 2);
  }
  {
    Builder b;
    make(b, "Add");
    FakeEvaluator eval;
    REQUIRE(run(b.g, {"fold-constants"}, &eval).ok());
    CHECK(eval.calls == 0);
    CHECK(b.g.nodes.size() == 2);
  }
  {  // A node writing a graph output keeps writing it.
    Builder b;
    int c = b.node("Add", "c", {b.init("k1", f32({1}, {1})), b.init("k2", f32({1}, {2}))}, {"s"});
    b.output(b.out(c));
    FakeEvaluator eval;
    REQUIRE(run(b.g, {}, &eval).ok());
    CHECK(b.g.nodes.size() == 1);
  }
}

TEST_CASE("passes: names, unknown names, covers, and no-op on graphs without patterns", "[passes]") {
  std::vector<std::string> names(pass_names().begin(), pass_names().end());
  CHECK(names == std::vector<std::string>{"eliminate-dead", "remove-identity", "fold-constants", "fold-batchnorm",
                                          "fuse-activation"});
  Builder b;
  ValueId x = b.input("x");
  ValueId w = b.init("w", f32({1}, {2}));
  int m = b.node("Mul", "m", {x, w}, {"a"});
  int a = b.node("Add", "a", {b.out(m), x}, {"b"});
  int c = b.node("Conv", "conv", {b.out(a), w}, {"c"});
  int s = b.node("Softmax", "sm", {b.out(c)}, {"d"});
  b.output(b.out(s));
  const Graph before = b.g;
  Status bad = run(b.g, {"fold-constant"});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.code() == StatusCode::kInvalidArgument);
  CHECK_THAT(bad.message(), Catch::Contains("'fold-constant'") && Catch::Contains("fold-constants"));
  FakeEvaluator eval;
  REQUIRE(run(b.g, {}, &eval).ok());
  REQUIRE(b.g.nodes.size() == before.nodes.size());
  for (size_t i = 0; i < before.nodes.size(); ++i) {
    CHECK(b.g.nodes[i].view.op_type == before.nodes[i].view.op_type);
    CHECK(b.g.nodes[i].inputs == before.nodes[i].inputs);
    CHECK(b.g.nodes[i].outputs == before.nodes[i].outputs);
    CHECK(b.g.nodes[i].covers == std::vector<std::string>{before.nodes[i].view.name});
    CHECK(b.g.nodes[i].view.epilogue.kind == Epilogue::Kind::kNone);
  }
  CHECK(b.g.outputs == before.outputs);
  CHECK(values_of(b.g, w) == std::vector<double>{2.0});
}

}  // namespace gk

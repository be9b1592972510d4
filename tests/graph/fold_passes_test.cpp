#include "tests/graph/pass_builder.h"

#include <cmath>

// Only for f16 test data: the same conversion the kernels use.
#include "backends/kernel_prelude.cuh"

namespace gk {
using namespace gk::test;
namespace {

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

TEST_CASE("fold-batchnorm: Conv without bias gets one, a shared weight is copied", "[passes]") {
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
    REQUIRE(run(b.g, {"pretranspose-weights"}).ok());
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

TEST_CASE("pretranspose-weights: a constant transB weight is stored [K, N], a shared one copied", "[passes]") {
  for (const bool shared : {false, true}) {
    Builder b;
    ValueId a = b.input("a");
    // B [N = 2, K = 3] under transB = 1.
    ValueId bv = b.init("B", f32({2, 3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}));
    AttrMap at;
    at.set("transB", int_attr(1));
    at.set("alpha", float_attr(0.5f));
    int gemm = b.node("Gemm", "gemm", {a, bv}, {"y"}, at);
    b.output(b.out(gemm));
    if (shared) {  // a second reader keeps the original layout
      int other = b.node("Gemm", "gemm2", {a, bv}, {"y2"}, at);
      b.output(b.out(other));
    }
    REQUIRE(run(b.g).ok());
    for (const Node& n : b.g.nodes) {
      CHECK(n.attrs.get_int("transB", 1).value() == 0);
      CHECK(n.attrs.get_float("alpha", 0).value() == 0.5f);
      CHECK(values_of(b.g, n.inputs[1]) == std::vector<double>{1, 4, 2, 5, 3, 6});
      CHECK(b.g.values[n.inputs[1]].dims.size() == 2);
      CHECK(b.g.values[n.inputs[1]].dims[0].value == 3);
    }
    CHECK((b.g.nodes[0].inputs[1] == bv) == !shared);  // kept in place only when private
  }
}

TEST_CASE("pretranspose-weights: left alone without transB, for a computed B and when disabled", "[passes]") {
  Builder b;
  ValueId a = b.input("a"), bx = b.input("bx");
  ValueId bv = b.init("B", f32({3, 2}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}));
  AttrMap at;
  at.set("transB", int_attr(1));
  b.output(b.out(b.node("Gemm", "plain", {a, bv}, {"y"})));
  b.output(b.out(b.node("Gemm", "computed", {a, bx}, {"y2"}, at)));
  REQUIRE(run(b.g).ok());
  CHECK(b.g.nodes[0].inputs[1] == bv);
  CHECK(values_of(b.g, bv) == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(b.g.nodes[1].attrs.get_int("transB", 0).value() == 1);

  Builder c;
  ValueId ca = c.input("a");
  ValueId cb = c.init("B", f32({2, 3}, {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f}));
  c.output(c.out(c.node("Gemm", "gemm", {ca, cb}, {"y"}, at)));
  REQUIRE(run(c.g, {"pretranspose-weights"}).ok());
  CHECK(c.g.nodes[0].attrs.get_int("transB", 0).value() == 1);
  CHECK(values_of(c.g, cb) == std::vector<double>{1, 2, 3, 4, 5, 6});
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

// Paddle's ConvTranspose + Add(bias) + BN: the Add joins the bias, then BN folds
// along W's dim 1 (ConvTranspose W is [C_in, C_out / group, k...]).
TEST_CASE("fold-batchnorm: ConvTranspose + bias Add + BN, one and two groups", "[passes]") {
  const std::vector<float> k = {0.5f, -2.0f};
  for (int64_t group : {1, 2}) {
    Builder b;
    ValueId x = b.input("x");
    // group 1: C_in 1, C_out 2, 1x2 kernel; group 2: C_in 2, one output channel each, 1x1.
    const std::vector<float> w = group == 1 ? std::vector<float>{0.5f, -1.0f, 2.0f, 0.75f}
                                            : std::vector<float>{1.25f, -0.5f};
    ValueId wv = b.init("W", group == 1 ? f32({1, 2, 1, 2}, w) : f32({2, 1, 1, 1}, w));
    AttrMap a;
    a.set("group", int_attr(group));
    int convt = b.node("ConvTranspose", "convt", {x, wv}, {"y"}, a);
    // [2, 1, 1] right-aligns onto y's [N, C, H, W] at C.
    int add = b.node("Add", "add", {b.init("k", f32({2, 1, 1}, k)), b.out(convt)}, {"ya"});
    add_bn(b, b.out(add), kBn, "z");
    b.output(b.id("z"));
    REQUIRE(run(b.g).ok());
    REQUIRE(op_types(b.g) == std::vector<std::string>{"ConvTranspose"});
    const Node& n = b.g.nodes[0];
    CHECK(n.outputs[0] == b.id("z"));
    CHECK(n.covers == std::vector<std::string>{"convt", "add", "bn"});
    const std::vector<double> w2 = values_of(b.g, n.inputs[1]);
    const std::vector<double> b2 = values_of(b.g, n.inputs[2]);
    REQUIRE(w2.size() == w.size());
    REQUIRE(b2.size() == 2);
    const double x0 = 0.3, x1 = -1.7;
    if (group == 1) {  // y[c, 0, t] = x0 * W[0, c, 0, t] + k[c]
      for (int c = 0; c < 2; ++c)
        for (int t = 0; t < 2; ++t)
          CHECK(x0 * w2[2 * c + t] + b2[c] == Approx(bn_ref(kBn, c, x0 * w[2 * c + t] + k[c])).epsilon(1e-6));
    } else {  // y[c] = x[c] * W[c] + k[c]
      const double xs[2] = {x0, x1};
      for (int c = 0; c < 2; ++c)
        CHECK(xs[c] * w2[c] + b2[c] == Approx(bn_ref(kBn, c, xs[c] * w[c] + k[c])).epsilon(1e-6));
    }
  }
}

TEST_CASE("fold-batchnorm: a bias Add that is not per channel stays", "[passes]") {
  for (int variant = 0; variant < 2; ++variant) {
    Builder b;
    ValueId x = b.input("x");
    int convt = b.node("ConvTranspose", "convt", {x, b.init("W", f32({1, 2, 1, 2}, {1, 2, 3, 4}))}, {"y"});
    // variant 0: [2] right-aligns onto W (the last axis), not C; variant 1: the
    // conv output is also a graph output.
    ValueId kv = variant == 0 ? b.init("k", f32({2}, {1, 2})) : b.init("k", f32({1, 2, 1, 1}, {1, 2}));
    int add = b.node("Add", "add", {b.out(convt), kv}, {"ya"});
    b.output(b.out(add));
    if (variant == 1) b.output(b.out(convt));
    REQUIRE(run(b.g).ok());
    CHECK(op_types(b.g) == std::vector<std::string>{"ConvTranspose", "Add"});
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

}  // namespace gk

#include "tests/graph/pass_builder.h"

namespace gk {
using namespace gk::test;

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

TEST_CASE("passes: names, unknown names, covers, and no-op on graphs without patterns", "[passes]") {
  std::vector<std::string> names(pass_names().begin(), pass_names().end());
  CHECK(names == std::vector<std::string>{"eliminate-dead", "remove-identity", "fold-constants", "fold-batchnorm",
                                          "pretranspose-weights", "fuse-activation"});
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

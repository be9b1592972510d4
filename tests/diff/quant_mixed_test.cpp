// Mixed-type integer ops as exporters write them (ORT's quantize_dynamic and
// quantize_static output: uint8 activations, int8 weights): MatMulInteger over
// every u8/s8 pairing with and without per-tensor, per-row and per-column zero
// points, DynamicQuantizeLinear + MatMulInteger + Cast + Mul, ConvInteger,
// QLinearMatMul, QLinearConv and a dynamically quantized attention layer. Integer
// results are compared exactly with an int64 reference computed here and with ONNX
// Runtime; float results with ONNX Runtime at rtol 1e-4 and with a float64
// reference.
#include "tests/diff/ort_runner.h"
#include "tests/graph/onnx_builders.h"
#include "tests/support/compare.h"

#include <cmath>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <random>

namespace gk::test {
namespace {

constexpr int kU8 = onnx::TensorProto::UINT8, kS8 = onnx::TensorProto::INT8, kF32 = onnx::TensorProto::FLOAT,
              kI32 = onnx::TensorProto::INT32;

const char* name_of(int t) { return t == kU8 ? "u8" : "s8"; }

// Seeded integers over the type's whole range.
std::vector<int64_t> random_ints(int type, int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(type == kU8 ? 0 : -128, type == kU8 ? 255 : 127);
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// ONNX Runtime's x86 u8 x s8 kernels (MLAS) multiply with vpmaddubsw on a CPU
// without VNNI: each pair of u8 x s8 products is summed in int16 and saturates, so
// there ORT is no exact reference for full-range int8 weights (its quantization
// guide asks for 7-bit weights, reduce_range, on such CPUs). On an AMD EPYC with
// AVX2 and no VNNI, MatMulInteger u8 x s8 at K = 300 gave 187780 for 163181;
// gkrun matched the int64 reference there, as everywhere.
bool ort_u8s8_exact() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool avx512_vnni = (c >> 11) & 1;
  const unsigned max_sub = a;
  bool avx_vnni = false;
  if (max_sub >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) avx_vnni = (a >> 4) & 1;
  return avx512_vnni || avx_vnni;
#else
  return true;  // ORT's int8 kernels elsewhere widen before they add
#endif
}

// Weights the ORT comparison can hold exactly on this CPU: int8 over [-64, 63]
// where ORT's pair sums would otherwise saturate; the whole range elsewhere.
std::vector<int64_t> ort_weights(int type, int64_t n, uint64_t seed) {
  std::vector<int64_t> v = random_ints(type, n, seed);
  if (type == kS8 && !ort_u8s8_exact())
    for (auto& x : v) x = x >> 1;
  return v;
}

HostTensor int_tensor(int type, Shape shape, const std::vector<int64_t>& v) {
  if (type == kU8) return HostTensor::from_vector(DType::kU8, shape, std::vector<uint8_t>(v.begin(), v.end()));
  if (type == kS8) return HostTensor::from_vector(DType::kI8, shape, std::vector<int8_t>(v.begin(), v.end()));
  return HostTensor::from_vector(DType::kI32, shape, std::vector<int32_t>(v.begin(), v.end()));
}

void add_int_init(onnx::GraphProto* g, const std::string& name, int type, const std::vector<int64_t>& dims,
                  const std::vector<int64_t>& v) {
  auto* t = add_initializer(g, name, type, dims);
  for (int64_t x : v) t->add_int32_data(static_cast<int32_t>(x));  // int8/uint8/int32 live in int32_data
}
void add_float_init(onnx::GraphProto* g, const std::string& name, const std::vector<int64_t>& dims,
                    const std::vector<float>& v) {
  auto* t = add_initializer(g, name, kF32, dims);
  for (float x : v) t->add_float_data(x);
}

// ---- MatMulInteger over every pairing ----

enum class Zp { kNone, kScalar, kVector };  // vector: per-row for A ([M]), per-column for B ([N])

struct MmCase {
  int ta, tb;
  Zp za, zb;
};

// y[m, n] = sum_k (a[m, k] - za[m]) (b[k, n] - zb[n]), in int64.
std::vector<double> int_matmul_ref(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                   const std::vector<int64_t>& za, const std::vector<int64_t>& zb, int64_t M,
                                   int64_t K, int64_t N) {
  std::vector<double> y(static_cast<size_t>(M * N));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      int64_t s = 0;
      for (int64_t k = 0; k < K; ++k) {
        const int64_t av = a[m * K + k] - (za.empty() ? 0 : za[za.size() == 1 ? 0 : m]);
        const int64_t bv = b[k * N + n] - (zb.empty() ? 0 : zb[zb.size() == 1 ? 0 : n]);
        s += av * bv;
      }
      y[m * N + n] = static_cast<double>(s);
    }
  return y;
}

TEST_CASE("MatMulInteger: u8 x s8, s8 x u8, s8 x s8, u8 x u8 with every zero-point form", "[diff][quant]") {
  // K = 300: pairs of u8 x s8 products overflow int16 (a saturating pairwise
  // multiply-add would show here), and the sums need more than 24 bits.
  const int64_t M = 7, K = 300, N = 9;
  uint64_t seed = 100;
  for (int ta : {kU8, kS8})
    for (int tb : {kU8, kS8})
      for (Zp za : {Zp::kNone, Zp::kScalar, Zp::kVector})
        for (Zp zb : {Zp::kNone, Zp::kScalar, Zp::kVector}) {
          const std::string key = fmt::format("mmi_{}{}_{}{}", name_of(ta), name_of(tb), int(za), int(zb));
          INFO(key);
          onnx::ModelProto m = make_model(8, 13);
          auto* g = m.mutable_graph();
          add_info(g->mutable_input(), "A", ta, {M, K});
          add_info(g->mutable_input(), "B", tb, {K, N});
          std::vector<NamedTensor> in;
          const auto a = random_ints(ta, M * K, ++seed), b = random_ints(tb, K * N, ++seed);
          in.push_back({"A", int_tensor(ta, {M, K}, a)});
          in.push_back({"B", int_tensor(tb, {K, N}, b)});
          std::vector<int64_t> zav, zbv;
          std::vector<std::string> ins = {"A", "B"};
          if (za != Zp::kNone) {
            const int64_t n = za == Zp::kScalar ? 1 : M;
            zav = random_ints(ta, n, ++seed);
            add_info(g->mutable_input(), "za", ta, za == Zp::kScalar ? std::vector<int64_t>{} : std::vector<int64_t>{M});
            in.push_back({"za", int_tensor(ta, za == Zp::kScalar ? Shape{} : Shape{M}, zav)});
            ins.push_back("za");
          }
          if (zb != Zp::kNone) {
            const int64_t n = zb == Zp::kScalar ? 1 : N;
            zbv = random_ints(tb, n, ++seed);
            add_info(g->mutable_input(), "zb", tb, zb == Zp::kScalar ? std::vector<int64_t>{} : std::vector<int64_t>{N});
            in.push_back({"zb", int_tensor(tb, zb == Zp::kScalar ? Shape{} : Shape{N}, zbv)});
            if (za == Zp::kNone) ins.push_back("");
            ins.push_back("zb");
          }
          add_node(g, "MatMulInteger", ins, {"Y"});
          add_info(g->mutable_output(), "Y", kI32, {M, N});
          const auto want = int_matmul_ref(a, b, zav, zbv, M, K, N);
          Outputs ours = run_gk(m, in);
          check_close(ours.at("Y"), {M, N}, want, Tol{});
          // ONNX Runtime takes a per-tensor a_zero_point only (its MatMulInteger
          // refuses a per-row one); those cases have the int64 reference alone.
          if (za == Zp::kVector) continue;
          if (ta == kU8 && tb == kS8 && !ort_u8s8_exact()) {
            WARN(key << ": ONNX Runtime saturates u8 x s8 pair sums on this CPU (no VNNI); int64 reference only");
            continue;
          }
          Outputs ort = run_ort(m, in, key);
          check_close(ort.at("Y"), {M, N}, want, Tol{});
        }
}

// ---- DynamicQuantizeLinear + MatMulInteger, as quantize_dynamic writes it ----

struct Dql {
  float scale;
  int64_t zp;
  std::vector<int64_t> q;
};

// The spec's function body, in float: the range includes 0, scale = range / 255,
// zp = saturate(round(-min / scale)), q = saturate(round(x / scale) + zp).
Dql dql_ref(const std::vector<float>& x) {
  float mn = 0, mx = 0;
  for (float v : x) mn = std::min(mn, v), mx = std::max(mx, v);
  Dql d;
  d.scale = (mx - mn) / 255.0f;
  d.zp = static_cast<int64_t>(std::nearbyint(std::clamp(-mn / d.scale, 0.0f, 255.0f)));
  for (float v : x)
    d.q.push_back(static_cast<int64_t>(std::clamp<float>(std::nearbyint(v / d.scale) + static_cast<float>(d.zp), 0, 255)));
  return d;
}

std::vector<float> random_floats(int64_t n, uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// x [M, K] f32 -> DynamicQuantizeLinear -> MatMulInteger(x_q, W s8, x_zp, W_zp)
// -> Cast(float) -> Mul(x_scale * W_scale). W_zp: absent, 0 (symmetric) or per column.
onnx::ModelProto dynamic_matmul_model(int64_t M, int64_t K, int64_t N, const std::vector<int64_t>& w,
                                      const std::vector<int64_t>& wzp, const std::vector<float>& wscale) {
  onnx::ModelProto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF32, {M, K});
  add_int_init(g, "W", kS8, {K, N}, w);
  add_float_init(g, "W_scale", wscale.size() == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{N}, wscale);
  std::vector<std::string> mm_in = {"x_q", "W", "x_zp"};
  if (!wzp.empty()) {
    add_int_init(g, "W_zp", kS8, wzp.size() == 1 ? std::vector<int64_t>{} : std::vector<int64_t>{N}, wzp);
    mm_in.push_back("W_zp");
  }
  add_node(g, "DynamicQuantizeLinear", {"x"}, {"x_q", "x_scale", "x_zp"});
  add_node(g, "MatMulInteger", mm_in, {"y_i32"});
  auto* cast = add_node(g, "Cast", {"y_i32"}, {"y_f"});
  auto* to = cast->add_attribute();
  to->set_name("to"), to->set_type(onnx::AttributeProto::INT), to->set_i(kF32);
  add_node(g, "Mul", {"x_scale", "W_scale"}, {"s"});
  add_node(g, "Mul", {"y_f", "s"}, {"y"});
  add_info(g->mutable_output(), "x_q", kU8, {M, K});
  add_info(g->mutable_output(), "x_scale", kF32, {});
  add_info(g->mutable_output(), "x_zp", kU8, {});
  add_info(g->mutable_output(), "y_i32", kI32, {M, N});
  add_info(g->mutable_output(), "y", kF32, {M, N});
  return m;
}

TEST_CASE("DynamicQuantizeLinear + MatMulInteger with int8 weights matches ONNX Runtime", "[diff][quant]") {
  const int64_t M = 6, K = 256, N = 10;
  const auto w = ort_weights(kS8, K * N, 7);
  std::vector<int64_t> per_col = ort_weights(kS8, N, 8);
  std::vector<float> col_scales = random_floats(N, 9, 0.001f, 0.01f);
  struct Variant {
    const char* name;
    std::vector<int64_t> wzp;
    std::vector<float> wscale;
  };
  const Variant variants[] = {{"no W zero point", {}, {0.0042f}},
                              {"symmetric W (zero point 0)", {0}, {0.0042f}},
                              {"per-column W zero points and scales", per_col, col_scales}};
  uint64_t seed = 20;
  for (const Variant& v : variants) {
    INFO(v.name);
    const auto x = random_floats(M * K, ++seed, -1.3f, 2.9f);
    onnx::ModelProto m = dynamic_matmul_model(M, K, N, w, v.wzp, v.wscale);
    std::vector<NamedTensor> in = {{"x", HostTensor::from_vector(DType::kF32, {M, K}, x)}};
    Outputs ours = run_gk(m, in);

    const Dql d = dql_ref(x);
    check_close(ours.at("x_scale"), {}, {d.scale}, Tol{});
    check_close(ours.at("x_zp"), {}, {static_cast<double>(d.zp)}, Tol{});
    check_close(ours.at("x_q"), {M, K}, std::vector<double>(d.q.begin(), d.q.end()), Tol{});
    const auto acc = int_matmul_ref(d.q, w, {d.zp}, v.wzp, M, K, N);
    check_close(ours.at("y_i32"), {M, N}, acc, Tol{});
    std::vector<double> y(acc.size());
    for (int64_t i = 0; i < M * N; ++i) y[i] = acc[i] * d.scale * v.wscale[v.wscale.size() == 1 ? 0 : i % N];
    check_close(ours.at("y"), {M, N}, y, Tol{1e-6, 0});

    Outputs ort = run_ort(m, in, "dql_mmi");
    for (const char* o : {"x_q", "x_zp", "y_i32"}) {
      INFO(o);
      CHECK(mismatch(ours.at(o), ort.at(o), Tol{}).empty());
    }
    CHECK(mismatch(ours.at("x_scale"), ort.at("x_scale"), Tol{}).empty());
    INFO(mismatch(ours.at("y"), ort.at("y"), Tol{1e-4, 1e-6}));
    CHECK(mismatch(ours.at("y"), ort.at("y"), Tol{1e-4, 1e-6}).empty());
  }
}

// ---- ConvInteger, QLinearMatMul, QLinearConv ----

void set_ints(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  auto* a = n->add_attribute();
  a->set_name(name), a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

// y[n, co, oh, ow] = sum (x - zx)(w - zw[co]) over a 2-D window, stride 1, pad 1
// (padding reads the zero point, so contributes 0).
std::vector<int64_t> int_conv_ref(const std::vector<int64_t>& x, const std::vector<int64_t>& w, int64_t zx,
                                  const std::vector<int64_t>& zw, int64_t C, int64_t H, int64_t W, int64_t Co,
                                  int64_t k) {
  std::vector<int64_t> y(static_cast<size_t>(Co * H * W));
  for (int64_t co = 0; co < Co; ++co)
    for (int64_t oh = 0; oh < H; ++oh)
      for (int64_t ow = 0; ow < W; ++ow) {
        int64_t s = 0;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t kh = 0; kh < k; ++kh)
            for (int64_t kw = 0; kw < k; ++kw) {
              const int64_t ih = oh - 1 + kh, iw = ow - 1 + kw;
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              s += (x[(c * H + ih) * W + iw] - zx) *
                   (w[((co * C + c) * k + kh) * k + kw] - zw[zw.size() == 1 ? 0 : co]);
            }
        y[(co * H + oh) * W + ow] = s;
      }
  return y;
}

TEST_CASE("ConvInteger and QLinearConv with uint8 input and int8 per-channel weights", "[diff][quant]") {
  const int64_t C = 5, H = 6, W = 7, Co = 4, k = 3;
  for (int tw : {kS8, kU8}) {
    INFO("w is " << name_of(tw));
    const auto x = random_ints(kU8, C * H * W, 31), w = ort_weights(tw, Co * C * k * k, 32);
    const std::vector<int64_t> zx = {131}, zw = ort_weights(tw, Co, 33);

    onnx::ModelProto m = make_model(8, 13);
    auto* g = m.mutable_graph();
    add_info(g->mutable_input(), "x", kU8, {1, C, H, W});
    add_int_init(g, "w", tw, {Co, C, k, k}, w);
    add_int_init(g, "zx", kU8, {}, zx);
    add_int_init(g, "zw", tw, {Co}, zw);
    set_ints(add_node(g, "ConvInteger", {"x", "w", "zx", "zw"}, {"y"}), "pads", {1, 1, 1, 1});
    add_info(g->mutable_output(), "y", kI32, {1, Co, H, W});
    std::vector<NamedTensor> in = {{"x", int_tensor(kU8, {1, C, H, W}, x)}};
    const auto ref = int_conv_ref(x, w, zx[0], zw, C, H, W, Co, k);
    Outputs ours = run_gk(m, in);
    check_close(ours.at("y"), {1, Co, H, W}, std::vector<double>(ref.begin(), ref.end()), Tol{});
    // ONNX Runtime's ConvInteger takes a per-tensor w_zero_point only ("Non
    // per-tensor quantization is not supported now"): compared with one.
    g->mutable_initializer(2)->clear_dims();
    g->mutable_initializer(2)->clear_int32_data();
    g->mutable_initializer(2)->add_int32_data(static_cast<int32_t>(zw[1]));
    const auto ref1 = int_conv_ref(x, w, zx[0], {zw[1]}, C, H, W, Co, k);
    Outputs ours1 = run_gk(m, in);
    check_close(ours1.at("y"), {1, Co, H, W}, std::vector<double>(ref1.begin(), ref1.end()), Tol{});
    Outputs ort = run_ort(m, in, "conv_integer");
    CHECK(mismatch(ours1.at("y"), ort.at("y"), Tol{}).empty());

    // QLinearConv as quantize_static writes it: symmetric int8 weights (zero
    // points 0, which ONNX Runtime requires for int8 weights), per-channel scales,
    // an int32 bias, uint8 output.
    const std::vector<int64_t> zw0(static_cast<size_t>(Co), tw == kS8 ? 0 : 128);
    const std::vector<float> ws = random_floats(Co, 34, 0.002f, 0.02f);
    const auto bias = random_ints(kI32, Co, 35);
    const float xs = 0.0157f, ys = 0.37f;
    const int64_t zy = 119;
    onnx::ModelProto q = make_model(8, 13);
    auto* qg = q.mutable_graph();
    add_info(qg->mutable_input(), "x", kU8, {1, C, H, W});
    add_float_init(qg, "xs", {}, {xs});
    add_int_init(qg, "zx", kU8, {}, zx);
    add_int_init(qg, "w", tw, {Co, C, k, k}, w);
    add_float_init(qg, "ws", {Co}, ws);
    add_int_init(qg, "zw", tw, {Co}, zw0);
    add_float_init(qg, "ys", {}, {ys});
    add_int_init(qg, "zy", kU8, {}, {zy});
    std::vector<int64_t> b32;
    for (int64_t v : bias) b32.push_back(v * 50);  // int32 in a few thousand
    add_int_init(qg, "B", kI32, {Co}, b32);
    set_ints(add_node(qg, "QLinearConv", {"x", "xs", "zx", "w", "ws", "zw", "ys", "zy", "B"}, {"y"}), "pads",
             {1, 1, 1, 1});
    add_info(qg->mutable_output(), "y", kU8, {1, Co, H, W});
    const auto acc = int_conv_ref(x, w, zx[0], zw0, C, H, W, Co, k);
    std::vector<double> want(acc.size());
    for (size_t i = 0; i < acc.size(); ++i) {
      const size_t co = i / static_cast<size_t>(H * W);
      const double v = std::nearbyint(static_cast<double>(acc[i] + b32[co]) * xs * ws[co] / ys) + zy;
      want[i] = std::clamp(v, 0.0, 255.0);
    }
    Outputs qo = run_gk(q, in);
    // Requantization rounds a product of float scales: within one step of the
    // float64 reference, the rest exact.
    check_close(qo.at("y"), {1, Co, H, W}, want, Tol{0, 1});
    Outputs qort = run_ort(q, in, "qlinear_conv");
    CHECK(mismatch(qo.at("y"), qort.at("y"), Tol{0, 1}).empty());
  }
}

TEST_CASE("QLinearMatMul with uint8 a and int8 b (per-column scales)", "[diff][quant]") {
  const int64_t M = 5, K = 200, N = 6;
  for (int ta : {kU8, kS8})
    for (int tb : {kS8, kU8}) {
      INFO(name_of(ta) << " x " << name_of(tb));
      const auto a = random_ints(ta, M * K, 41), b = random_ints(tb, K * N, 42);
      const std::vector<int64_t> za = random_ints(ta, 1, 43), zb = random_ints(tb, N, 44);
      const std::vector<float> bs = random_floats(N, 45, 0.001f, 0.004f);
      const float as = 0.02f, ys = 2.5f;
      const std::vector<int64_t> zy = random_ints(ta, 1, 46);
      onnx::ModelProto m = make_model(8, 13);
      auto* g = m.mutable_graph();
      add_info(g->mutable_input(), "a", ta, {M, K});
      add_float_init(g, "as", {}, {as});
      add_int_init(g, "za", ta, {}, za);
      add_int_init(g, "b", tb, {K, N}, b);
      add_float_init(g, "bs", {N}, bs);
      add_int_init(g, "zb", tb, {N}, zb);
      add_float_init(g, "ys", {}, {ys});
      add_int_init(g, "zy", ta, {}, zy);
      add_node(g, "QLinearMatMul", {"a", "as", "za", "b", "bs", "zb", "ys", "zy"}, {"y"});
      add_info(g->mutable_output(), "y", ta, {M, N});
      const auto acc = int_matmul_ref(a, b, za, zb, M, K, N);
      const double lo = ta == kU8 ? 0 : -128, hi = ta == kU8 ? 255 : 127;
      std::vector<double> want(acc.size());
      for (size_t i = 0; i < acc.size(); ++i)
        want[i] = std::clamp(std::nearbyint(acc[i] * as * bs[i % N] / ys) + zy[0], lo, hi);
      std::vector<NamedTensor> in = {{"a", int_tensor(ta, {M, K}, a)}};
      Outputs ours = run_gk(m, in);
      check_close(ours.at("y"), {M, N}, want, Tol{0, 1});
      if (ta == kS8 && tb == kU8) continue;  // ONNX Runtime has no int8 x uint8 QLinearMatMul kernel
      Outputs ort = run_ort(m, in, "qlinear_matmul");
      CHECK(mismatch(ours.at("y"), ort.at("y"), Tol{0, 1}).empty());
    }
}

// ---- a dynamically quantized attention layer ----

// x [S, D] f32; Q, K, V each DynamicQuantizeLinear(x) -> MatMulInteger(int8 W,
// symmetric) -> Cast -> Mul(scale); softmax(Q K^T / sqrt(D)) V; the output
// projection quantized the same way. The layout ORT's quantize_dynamic gives a
// BERT-style self-attention block.
TEST_CASE("A dynamically quantized attention layer (u8 activations, s8 weights) matches ONNX Runtime",
          "[diff][quant]") {
  const int64_t S = 12, D = 64;
  onnx::ModelProto m = make_model(8, 13);
  auto* g = m.mutable_graph();
  add_info(g->mutable_input(), "x", kF32, {S, D});
  add_node(g, "DynamicQuantizeLinear", {"x"}, {"xq", "xs", "xz"});
  uint64_t seed = 60;
  auto projection = [&](const std::string& in_q, const std::string& in_s, const std::string& in_z,
                        const std::string& out) {
    add_int_init(g, out + "_W", kS8, {D, D}, ort_weights(kS8, D * D, ++seed));
    add_float_init(g, out + "_Ws", {}, {0.0021f + 0.0003f * static_cast<float>(seed % 5)});
    add_int_init(g, out + "_Wz", kS8, {}, {0});
    add_node(g, "MatMulInteger", {in_q, out + "_W", in_z, out + "_Wz"}, {out + "_i"});
    auto* c = add_node(g, "Cast", {out + "_i"}, {out + "_f"});
    auto* to = c->add_attribute();
    to->set_name("to"), to->set_type(onnx::AttributeProto::INT), to->set_i(kF32);
    add_node(g, "Mul", {in_s, out + "_Ws"}, {out + "_s"});
    add_node(g, "Mul", {out + "_f", out + "_s"}, {out});
  };
  projection("xq", "xs", "xz", "Q");
  projection("xq", "xs", "xz", "K");
  projection("xq", "xs", "xz", "V");
  auto* t = add_node(g, "Transpose", {"K"}, {"Kt"});
  set_ints(t, "perm", {1, 0});
  add_node(g, "MatMul", {"Q", "Kt"}, {"scores"});
  add_float_init(g, "inv_sqrt_d", {}, {1.0f / 8.0f});
  add_node(g, "Mul", {"scores", "inv_sqrt_d"}, {"scaled"});
  auto* sm = add_node(g, "Softmax", {"scaled"}, {"P"});
  auto* ax = sm->add_attribute();
  ax->set_name("axis"), ax->set_type(onnx::AttributeProto::INT), ax->set_i(-1);
  add_node(g, "MatMul", {"P", "V"}, {"ctx"});
  add_node(g, "DynamicQuantizeLinear", {"ctx"}, {"cq", "cs", "cz"});
  projection("cq", "cs", "cz", "out");
  add_info(g->mutable_output(), "Q_i", kI32, {S, D});
  add_info(g->mutable_output(), "P", kF32, {S, S});
  add_info(g->mutable_output(), "out", kF32, {S, D});

  const auto x = random_floats(S * D, 61, -2.0f, 2.0f);
  std::vector<NamedTensor> in = {{"x", HostTensor::from_vector(DType::kF32, {S, D}, x)}};
  Outputs ours = run_gk(m, in);
  Outputs ort = run_ort(m, in, "quant_attention");
  CHECK(mismatch(ours.at("Q_i"), ort.at("Q_i"), Tol{}).empty());
  INFO(mismatch(ours.at("P"), ort.at("P"), Tol{1e-4, 1e-6}));
  CHECK(mismatch(ours.at("P"), ort.at("P"), Tol{1e-4, 1e-6}).empty());
  // The second quantization rounds ctx / scale: a float difference near a rounding
  // boundary moves a code by one, so `out` is compared at a few output quanta.
  const HostTensor& o = ours.at("out");
  double max_abs = 0;
  for (int64_t i = 0; i < o.numel(); ++i) max_abs = std::max(max_abs, std::fabs(ort.at("out").as_f64(i)));
  INFO(mismatch(o, ort.at("out"), Tol{1e-4, 1e-3 * max_abs}));
  CHECK(mismatch(o, ort.at("out"), Tol{1e-4, 1e-3 * max_abs}).empty());
}

}  // namespace
}  // namespace gk::test

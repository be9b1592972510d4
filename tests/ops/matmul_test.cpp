// MatMul, Gemm, Einsum: hand-computed cases, random shapes against a double
// reference (and, for f32 MatMul, against an ascending-k fmaf fold bit for bit),
// fused epilogues, and the ONNX node tests.
#include "tests/ops/nn_test_util.h"
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/cpu_isa.h"
#include "tests/support/errors.h"

#include <cstring>

namespace gk::test {
namespace {

using namespace nn;

TEST_CASE("MatMul: 2x2 by hand", "[ops][matmul]") {
  OpCall c;
  c.op_type = "MatMul";
  c.inputs = {f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {5, 6, 7, 8})};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{19, 22, 43, 50});
}

// Batched matmul reference in double, numpy semantics (1-D promotion, broadcast).
std::vector<double> matmul_ref(const HostTensor& a, const HostTensor& b, Shape* out_shape) {
  Shape as = a.shape(), bs = b.shape();
  const bool av = as.size() == 1, bv = bs.size() == 1;
  if (av) as.insert(as.begin(), 1);
  if (bv) bs.push_back(1);
  const int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  Shape ab(as.begin(), as.end() - 2), bb(bs.begin(), bs.end() - 2);
  const size_t r = std::max(ab.size(), bb.size());
  ab.insert(ab.begin(), r - ab.size(), 1);
  bb.insert(bb.begin(), r - bb.size(), 1);
  Shape ob(r);
  for (size_t i = 0; i < r; ++i) ob[i] = std::max(ab[i], bb[i]);
  *out_shape = ob;
  if (!av) out_shape->push_back(M);
  if (!bv) out_shape->push_back(N);
  const int64_t batch = numel(ob);
  std::vector<double> out(batch * M * N);
  for (int64_t bi = 0; bi < batch; ++bi) {
    int64_t rest = bi, ao = 0, bo = 0, astep = M * K, bstep = K * N;
    for (size_t d = r; d-- > 0;) {
      int64_t x = rest % ob[d];
      rest /= ob[d];
      ao += (ab[d] == 1 ? 0 : x) * astep;
      bo += (bb[d] == 1 ? 0 : x) * bstep;
      astep *= ab[d];
      bstep *= bb[d];
    }
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k) s += a.as_f64(ao + m * K + k) * b.as_f64(bo + k * N + n);
        out[(bi * M + m) * N + n] = s;
      }
  }
  return out;
}

TEST_CASE("MatMul: random shapes with broadcast and 1-D operands", "[ops][matmul]") {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{70, 150}, {150, 67}},         // partial tiles, two k slices
      {{3, 1, 5, 9}, {4, 9, 6}},      // batch broadcast both ways
      {{9}, {2, 9, 5}},               // 1-D A
      {{2, 3, 9}, {9}},               // 1-D B
      {{9}, {9}},                     // dot product
      {{5, 130, 20}, {20, 33}},       // batch folded into M
      {{1, 4, 3}, {2, 3, 0}},         // empty output
      {{2, 4, 0}, {0, 3}},            // K = 0: zeros
  };
  uint32_t seed = 1;
  for (const auto& [sa, sb] : cases) {
    HostTensor a = tensor_f32(sa, seed++), b = tensor_f32(sb, seed++);
    Shape os;
    auto want = matmul_ref(a, b, &os);
    OpCall c;
    c.op_type = "MatMul";
    c.inputs = {a, b};
    auto r = run_op_all_backends(c);
    INFO(shape_str(sa) << " x " << shape_str(sb));
    REQUIRE(r.ok());
    check_close(r->outputs[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
  }
}

// The fold ../shared/DESIGN.md (Numerics) specifies, written out independently:
// blocks of 32 ascending k with fmaf from zero, each block sum added in order.
float blocked_dot(const float* a, int64_t a_step, const float* b, int64_t b_step, int64_t K) {
  float total = 0;
  for (int64_t k0 = 0; k0 < K; k0 += 32) {
    float block = 0;
    for (int64_t k = k0; k < std::min<int64_t>(K, k0 + 32); ++k) block = std::fmaf(a[k * a_step], b[k * b_step], block);
    total += block;
  }
  return total;
}

TEST_CASE("MatMul: f32 folds K in blocks of 32 on every ISA the CPU has, bit for bit", "[ops][matmul]") {
  // N = 80: the second column tile (16 columns) takes the half-width register block;
  // M = 1: the one-row block reading B in place (N = 128), and beside it a tile
  // that is packed (N = 70).
  const auto [M, N] = GENERATE(std::pair<int64_t, int64_t>{67, 90}, std::pair<int64_t, int64_t>{67, 80},
                               std::pair<int64_t, int64_t>{1, 128}, std::pair<int64_t, int64_t>{1, 70});
  const int64_t K = 300;
  HostTensor a = tensor_f32({M, K}, 11), b = tensor_f32({K, N}, 12);
  OpCall c;
  c.op_type = "MatMul";
  c.inputs = {a, b};
  const float *pa = a.data<float>(), *pb = b.data<float>();
  double naive_err = 0, blocked_err = 0;
  for (CpuIsa isa : isas_to_test()) {
    IsaScope scope(isa);
    INFO("isa " << cpu_isa_name(active_cpu_isa()));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    const float* py = r->outputs[0].data<float>();
    int64_t mismatches = 0;
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        const float want = blocked_dot(pa + m * K, 1, pb + n, N, K);
        mismatches += std::memcmp(&want, &py[m * N + n], 4) != 0;
      }
    CHECK(mismatches == 0);
  }
  // The blocked fold is closer to the float64 sum than one running accumulator.
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      double exact = 0;
      float naive = 0;
      for (int64_t k = 0; k < K; ++k) {
        exact += double(pa[m * K + k]) * pb[k * N + n];
        naive = std::fmaf(pa[m * K + k], pb[k * N + n], naive);
      }
      naive_err += std::abs(naive - exact);
      blocked_err += std::abs(blocked_dot(pa + m * K, 1, pb + n, N, K) - exact);
    }
  CHECK(blocked_err < naive_err);
}

// Restores the cache sizes the GEMM's blocks are cut from.
struct CacheScope {
  CpuCaches previous;
  explicit CacheScope(CpuCaches c) : previous(set_cpu_caches(c)) {}
  ~CacheScope() { set_cpu_caches(previous); }
};

Kit open_cpu_kit(int threads) {
  KitOptions options;
  options.device.kind = BackendKind::kCpu;
  options.device.threads = threads;
  options.cpu_kernels = cpu_kernel_tables();
  auto kit = Kit::open(std::move(options));
  REQUIRE(kit.ok());
  return std::move(kit).value();
}

TEST_CASE("Gemm: f32 across the cache blocks folds bit for bit on every ISA and thread count", "[ops][matmul]") {
  // The direct GEMM (ops/common/gemm_direct.h) with the blocks cut for an 8 KB L1d
  // and a 64 KB L2 (AVX2 f32: kc 64, mc 60, nc 512), so that 133 x 600 x 300 has
  // a ragged last slice of K (44 terms), row block, column panel and register
  // tile; and with the machine's own caches. Transposed operands take the
  // strided packers; alpha, C and an activation the in-place epilogue.
  const int64_t M = 133, N = 600, K = 300;
  const bool ta = GENERATE(false, true), tb = GENERATE(false, true);
  HostTensor a = ta ? tensor_f32({K, M}, 41) : tensor_f32({M, K}, 41);
  HostTensor b = tb ? tensor_f32({N, K}, 42) : tensor_f32({K, N}, 42);
  HostTensor cv = tensor_f32({N}, 43);
  AttrMap attrs;
  attrs.set("transA", int_attr(ta));
  attrs.set("transB", int_attr(tb));
  attrs.set("alpha", float_attr(0.5f));
  std::vector<float> want(M * N);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t n = 0; n < N; ++n) {
      const float dot = blocked_dot(a.data<float>() + (ta ? m : m * K), ta ? M : 1,
                                    b.data<float>() + (tb ? n * K : n), tb ? 1 : N, K);
      want[m * N + n] = std::max(0.5f * dot + cv.data<float>()[n], 0.0f);
    }
  const CpuCaches small{8192, 65536};
  for (const CpuCaches& caches : {small, cpu_caches()})
    for (int threads : {1, 2}) {
      CacheScope cache_scope(caches);
      Kit kit = open_cpu_kit(threads);
      for (CpuIsa isa : isas_to_test()) {
        IsaScope scope(isa);
        INFO("transA " << ta << " transB " << tb << " L1d " << caches.l1d << " threads " << threads << " isa "
                       << cpu_isa_name(active_cpu_isa()));
        auto r = run_with("Gemm", attrs, {&a, &b, &cv}, Epilogue{Epilogue::Kind::kRelu}, 1, 13, kit);
        REQUIRE(r.ok());
        const float* py = (*r)[0].data<float>();
        int64_t mismatches = 0;
        for (int64_t i = 0; i < M * N; ++i) mismatches += std::memcmp(&want[i], &py[i], 4) != 0;
        CHECK(mismatches == 0);
      }
    }
}

TEST_CASE("Gemm: a row against a transposed B folds as MatMul does, bit for bit", "[ops][matmul]") {
  // M = 1 with transB: the CPU computes the row as Bᵀ·Aᵀ (B's rows read in place).
  const int64_t K = 300, N = GENERATE(int64_t{70}, int64_t{128});
  HostTensor a = tensor_f32({1, K}, 21), b = tensor_f32({N, K}, 22);
  OpCall c;
  c.op_type = "Gemm";
  c.attrs.set("transB", int_attr(1));
  c.inputs = {a, b};
  for (CpuIsa isa : isas_to_test()) {
    IsaScope scope(isa);
    INFO("N " << N << " isa " << cpu_isa_name(active_cpu_isa()));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    const float* py = r->outputs[0].data<float>();
    int64_t mismatches = 0;
    for (int64_t n = 0; n < N; ++n) {
      const float want = blocked_dot(a.data<float>(), 1, b.data<float>() + n * K, 1, K);
      mismatches += std::memcmp(&want, &py[n], 4) != 0;
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("Gemm: a single column folds as MatMul does, bit for bit, with C and transA", "[ops][matmul]") {
  // N = 1 (a squeeze-excite 1x1 conv on a 1x1 map): launched as the row Yᵀ = Bᵀ Aᵀ.
  const int64_t K = 300, M = GENERATE(int64_t{70}, int64_t{129});
  const bool trans_a = GENERATE(false, true);
  HostTensor a = trans_a ? tensor_f32({K, M}, 31) : tensor_f32({M, K}, 31), b = tensor_f32({K, 1}, 32);
  HostTensor cm = tensor_f32({M, 1}, 33);
  OpCall c;
  c.op_type = "Gemm";
  c.attrs.set("transA", int_attr(trans_a ? 1 : 0));
  c.attrs.set("beta", float_attr(0.5f));
  c.inputs = {a, b, cm};
  for (CpuIsa isa : isas_to_test()) {
    IsaScope scope(isa);
    INFO("M " << M << " transA " << trans_a << " isa " << cpu_isa_name(active_cpu_isa()));
    auto r = run_op_all_backends(c);
    REQUIRE(r.ok());
    REQUIRE(r->outputs[0].shape() == Shape{M, 1});
    const float* py = r->outputs[0].data<float>();
    int64_t mismatches = 0;
    for (int64_t m = 0; m < M; ++m) {
      const float* row = a.data<float>() + (trans_a ? m : m * K);
      const float want = blocked_dot(row, trans_a ? M : 1, b.data<float>(), 1, K) + 0.5f * cm.data<float>()[m];
      mismatches += std::memcmp(&want, &py[m], 4) != 0;
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("MatMul: integer and half types", "[ops][matmul]") {
  OpCall c;
  c.op_type = "MatMul";
  c.inputs = {HostTensor::from_vector<int64_t>(DType::kI64, {2, 3}, {1, -2, 3, 4, 5, -6}),
              HostTensor::from_vector<int64_t>(DType::kI64, {3, 1}, {7, 8, 9})};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[0]) == std::vector<int64_t>{18, 14});
  c.inputs = {HostTensor::from_vector<int32_t>(DType::kI32, {1, 2}, {3, 4}),
              HostTensor::from_vector<int32_t>(DType::kI32, {2, 2}, {1, 2, 3, 4})};
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{15, 22});

  for (DType t : {DType::kF16, DType::kBF16, DType::kF64}) {
    std::vector<double> av(40 * 30), bv(30 * 20);
    auto fa = random_floats(av.size(), 5), fb = random_floats(bv.size(), 6);
    for (size_t i = 0; i < av.size(); ++i) av[i] = fa[i];
    for (size_t i = 0; i < bv.size(); ++i) bv[i] = fb[i];
    HostTensor a = make_tensor(t, {40, 30}, av), b = make_tensor(t, {30, 20}, bv);
    Shape os;
    auto want = matmul_ref(a, b, &os);
    c.inputs = {a, b};
    r = run_op_all_backends(c);
    INFO(dtype_name(t));
    REQUIRE(r.ok());
    REQUIRE(r->outputs[0].dtype() == t);
    const double tol = t == DType::kF64 ? 1e-12 : 2e-2;
    check_close(r->outputs[0], os, want, Tol{.rtol = tol, .atol = tol});
  }
}

TEST_CASE("MatMul and Einsum over int32 wrap in two's complement", "[ops][matmul]") {
  // numpy's int32 matmul wraps; K = 40 crosses a block of 32, so the block sums add
  // too. The reference is the same sum in uint32 (the sanitizer build checks the
  // arithmetic stays defined).
  const uint32_t v = 65537u;
  uint32_t want = 0;
  for (int k = 0; k < 40; ++k) want += v * v;
  OpCall c;
  c.op_type = "MatMul";
  c.inputs = {make_tensor(DType::kI32, {2, 40}, std::vector<double>(80, v)),
              make_tensor(DType::kI32, {40, 3}, std::vector<double>(120, v))};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>(6, static_cast<int32_t>(want)));
  OpCall e = call("Einsum", 12, {make_tensor(DType::kI32, {40}, std::vector<double>(40, v)),
                                 make_tensor(DType::kI32, {40}, std::vector<double>(40, v))});
  e.attrs.set("equation", string_attr("i,i->"));
  r = run_op_all_backends(e);
  REQUIRE(r.ok());
  CHECK(values_of<int32_t>(r->outputs[0]) == std::vector<int32_t>{static_cast<int32_t>(want)});
}

TEST_CASE("MatMul: every fused epilogue kind", "[ops][matmul][epilogue]") {
  HostTensor a = tensor_f32({13, 17}, 21), b = tensor_f32({17, 70}, 22);
  Shape os;
  auto base = matmul_ref(a, b, &os);
  using K = Epilogue::Kind;
  const std::vector<Epilogue> kinds = {{K::kRelu},        {K::kClip, -0.5f, 0.7f}, {K::kSigmoid},
                                       {K::kSilu},        {K::kHardSigmoid, 0.2f, 0.5f}, {K::kHardSwish},
                                       {K::kLeakyRelu, 0.1f}, {K::kTanh}};
  for (const Epilogue& e : kinds) {
    auto r = run_with("MatMul", {}, {&a, &b}, e);
    INFO("epilogue kind " << static_cast<int>(e.kind));
    REQUIRE(r.ok());
    std::vector<double> want(base.size());
    for (size_t i = 0; i < base.size(); ++i) want[i] = activation_ref(base[i], e);
    check_close((*r)[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
  }
}

TEST_CASE("Gemm: transposes, alpha/beta, every C broadcast, no C", "[ops][gemm]") {
  const int64_t M = 70, K = 33, N = 65;
  struct Case {
    bool ta, tb;
    Shape c;  // {} = scalar, {-1} = absent
  };
  const std::vector<Case> cases = {{false, false, {M, N}}, {true, false, {N}}, {false, true, {M, 1}},
                                   {true, true, {1, N}},   {false, false, {}}, {true, false, {-1}}};
  uint32_t seed = 30;
  for (const Case& cs : cases) {
    HostTensor a = tensor_f32(cs.ta ? Shape{K, M} : Shape{M, K}, seed++);
    HostTensor b = tensor_f32(cs.tb ? Shape{N, K} : Shape{K, N}, seed++);
    const bool has_c = cs.c != Shape{-1};
    HostTensor c = tensor_f32(has_c ? cs.c : Shape{}, seed++);
    OpCall call;
    call.op_type = "Gemm";
    call.opset = 13;
    call.attrs.set("transA", int_attr(cs.ta));
    call.attrs.set("transB", int_attr(cs.tb));
    call.attrs.set("alpha", float_attr(0.5f));
    call.attrs.set("beta", float_attr(2.0f));
    call.inputs = {a, b};
    if (has_c) call.inputs.push_back(c);
    auto r = run_op_all_backends(call);
    INFO("transA " << cs.ta << " transB " << cs.tb << " C " << shape_str(cs.c));
    REQUIRE(r.ok());
    std::vector<double> want(M * N);
    for (int64_t m = 0; m < M; ++m)
      for (int64_t n = 0; n < N; ++n) {
        double s = 0;
        for (int64_t k = 0; k < K; ++k)
          s += a.as_f64(cs.ta ? k * M + m : m * K + k) * b.as_f64(cs.tb ? n * K + k : k * N + n);
        double cv = 0;
        if (has_c) {
          const int64_t rows = cs.c.size() == 2 ? cs.c[0] : 1, cols = cs.c.empty() ? 1 : cs.c.back();
          cv = c.as_f64((rows == 1 ? 0 : m) * cols + (cols == 1 ? 0 : n));
        }
        want[m * N + n] = 0.5 * s + 2.0 * cv;
      }
    check_close(r->outputs[0], {M, N}, want, Tol{.rtol = 1e-5, .atol = 1e-5});
  }
}

TEST_CASE("Gemm: bad shapes are named errors", "[ops][gemm]") {
  OpCall call;
  call.op_type = "Gemm";
  call.inputs = {f32({2, 3}, std::vector<float>(6)), f32({4, 2}, std::vector<float>(8))};
  auto r = run_op_all_backends(call);
  require_error(r, StatusCode::kInvalidModel, "inner dims");
  call.inputs = {f32({2, 3}, std::vector<float>(6)), f32({3, 2}, std::vector<float>(6)),
                 f32({3, 2}, std::vector<float>(6))};
  r = run_op_all_backends(call);
  require_error(r, StatusCode::kInvalidModel, "broadcast");
}

TEST_CASE("Einsum: transpose, diagonal, sums, ellipsis, implicit output, three operands", "[ops][einsum]") {
  auto einsum = [](const std::string& eq, std::vector<HostTensor> ins) {
    OpCall c;
    c.op_type = "Einsum";
    c.opset = 12;
    c.attrs.set("equation", string_attr(eq));
    for (auto& t : ins) c.inputs.push_back(std::move(t));
    auto r = run_op_all_backends(c);
    INFO(eq);
    REQUIRE(r.ok());
    return r->outputs[0];
  };
  HostTensor m = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  HostTensor sq = f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  auto t = einsum("ij->ji", {m});
  CHECK(t.shape() == Shape{3, 2});
  CHECK(values_of<float>(t) == std::vector<float>{1, 4, 2, 5, 3, 6});
  CHECK(values_of<float>(einsum("ii->i", {sq})) == std::vector<float>{1, 5, 9});
  CHECK(values_of<float>(einsum("ii", {sq})) == std::vector<float>{15});  // implicit: trace
  CHECK(values_of<float>(einsum("ij->", {m})) == std::vector<float>{21});
  CHECK(values_of<float>(einsum("ij->i", {m})) == std::vector<float>{6, 15});
  // Implicit output keeps labels seen once, alphabetically: "ba" -> "ab" (a transpose).
  CHECK(values_of<float>(einsum("ba", {m})) == std::vector<float>{1, 4, 2, 5, 3, 6});
  auto mm = einsum("ij,jk", {m, sq});
  CHECK(values_of<float>(mm) == std::vector<float>{30, 36, 42, 66, 81, 96});
  auto ell = einsum("...j,jk->...k", {m, sq});
  CHECK(values_of<float>(ell) == values_of<float>(mm));
  // Three operands: (m . sq) . v, with the middle label reduced at the first step.
  HostTensor v = f32({3}, {1, 0, -1});
  CHECK(values_of<float>(einsum("ij,jk,k->i", {m, sq, v})) == std::vector<float>{-12, -30});
  // Batch diagonal with ellipsis broadcast.
  HostTensor bsq = f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(values_of<float>(einsum("...ii->...i", {bsq})) == std::vector<float>{1, 4, 5, 8});
  // Outer product.
  CHECK(values_of<float>(einsum("i,j->ij", {f32({2}, {1, 2}), f32({2}, {3, 4})})) ==
        std::vector<float>{3, 4, 6, 8});
}

TEST_CASE("MatMul/Gemm/Einsum: ONNX node tests", "[ops][matmul][onnx]") {
  run_node_cases({"test_matmul", "test_gemm", "test_einsum"}, {});
}

}  // namespace
}  // namespace gk::test

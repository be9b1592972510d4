// Pooling ops against a direct double reference written here (its own window
// geometry, ceil_mode rule and divisors), hand-computed cases and the ONNX node
// tests.
#include "tests/ops/nn_test_util.h"
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/errors.h"

#include <cmath>
#include <limits>

namespace gk::test {
namespace {

using namespace nn;

TEST_CASE("MaxPool: 2x2 stride 2 with indices, by hand", "[ops][pool]") {
  OpCall c;
  c.op_type = "MaxPool";
  c.attrs.set("kernel_shape", ints_attr({2, 2}));
  c.attrs.set("strides", ints_attr({2, 2}));
  c.inputs = {f32({1, 1, 4, 4}, {1, 5, 2, 0, 3, 4, 8, 1, 0, 0, 1, 1, 9, 0, 1, 7})};
  c.num_outputs = 2;
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{5, 8, 9, 7});
  CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{1, 6, 12, 15});
  c.attrs.set("storage_order", int_attr(1));  // column-major: h + w * H
  r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(values_of<int64_t>(r->outputs[1]) == std::vector<int64_t>{4, 9, 3, 15});
}

struct PoolCase {
  Shape x;
  std::vector<int64_t> k, s, pads, dil;
  bool ceil = false;
  std::string auto_pad = "NOTSET";
};

enum class Kind { kMax, kAvg, kAvgPad, kLp };

// Reference pooling; `idx` receives MaxPool's row-major argmax.
std::vector<double> pool_ref(const PoolCase& c, Kind kind, const HostTensor& x, Shape* os, std::vector<int64_t>* idx) {
  const size_t nd = c.x.size() - 2;
  std::vector<int64_t> in(c.x.begin() + 2, c.x.end()), out(nd), pb(nd), pe(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t dk = (c.k[i] - 1) * c.dil[i] + 1;
    if (c.auto_pad != "NOTSET") {
      out[i] = (in[i] + c.s[i] - 1) / c.s[i];
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * c.s[i] + dk - in[i]);
      pb[i] = c.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe[i] = total - pb[i];
    } else {
      pb[i] = c.pads[i], pe[i] = c.pads[nd + i];
      const double span = static_cast<double>(in[i] + pb[i] + pe[i] - dk) / c.s[i];
      out[i] = static_cast<int64_t>(c.ceil ? std::ceil(span) : std::floor(span)) + 1;
      if (c.ceil && (out[i] - 1) * c.s[i] >= in[i] + pb[i]) --out[i];
    }
  }
  *os = {c.x[0], c.x[1]};
  os->insert(os->end(), out.begin(), out.end());
  const int64_t osz = numel(out), isz = numel(in), planes = c.x[0] * c.x[1];
  std::vector<double> y(planes * osz);
  idx->assign(y.size(), -1);
  for (int64_t pl = 0; pl < planes; ++pl) {
    std::vector<int64_t> o(nd, 0);
    int64_t op = 0;
    do {
      double best = -std::numeric_limits<double>::infinity(), sum = 0;
      int64_t arg = -1, valid = 0, padded = 1;
      for (size_t i = 0; i < nd; ++i) {
        int64_t cnt = 0;
        for (int64_t k = 0; k < c.k[i]; ++k) {
          const int64_t pos = o[i] * c.s[i] - pb[i] + k * c.dil[i];
          cnt += pos >= -pb[i] && pos < in[i] + pe[i];
        }
        padded *= cnt;
      }
      std::vector<int64_t> kk(nd, 0);
      do {
        const int64_t ip = nn::window_tap(o, kk, c.s, pb, c.dil, in);
        if (ip < 0) continue;
        const double v = x.as_f64(pl * isz + ip);
        if (v > best) best = v, arg = pl * isz + ip;
        sum += kind == Kind::kLp ? v * v : v;
        ++valid;
      } while (next_index(kk, c.k));
      double r = 0;
      switch (kind) {
        case Kind::kMax: r = best; break;
        case Kind::kAvg: r = sum / valid; break;
        case Kind::kAvgPad: r = sum / padded; break;
        case Kind::kLp: r = std::sqrt(sum); break;
      }
      (*idx)[pl * osz + op] = arg;
      y[pl * osz + op++] = r;
    } while (next_index(o, out));
  }
  return y;
}

TEST_CASE("Pooling: random cases against a direct reference", "[ops][pool]") {
  const std::vector<PoolCase> cases = {
      {{1, 3, 9, 10}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}},
      {{2, 2, 9, 10}, {3, 2}, {2, 3}, {0, 1, 1, 0}, {1, 1}, true},     // ceil_mode
      {{1, 2, 8, 8}, {3, 3}, {3, 3}, {1, 1, 1, 1}, {1, 1}, true},      // ceil_mode, last window dropped
      {{1, 2, 11, 9}, {2, 3}, {1, 2}, {1, 0, 0, 1}, {2, 2}},           // dilations
      {{1, 2, 7, 8}, {3, 3}, {2, 2}, {}, {1, 1}, false, "SAME_UPPER"},
      {{1, 2, 7, 8}, {4, 2}, {3, 1}, {}, {1, 1}, false, "SAME_LOWER"},
      {{2, 3, 13}, {4}, {3}, {2, 1}, {1}},                             // 1-D
      {{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 1, 2}, {1, 1, 0, 0, 1, 1}, {1, 1, 2}, true},  // 3-D
  };
  uint32_t seed = 400;
  for (const PoolCase& c : cases) {
    HostTensor x = tensor_f32(c.x, seed++);
    for (Kind kind : {Kind::kMax, Kind::kAvg, Kind::kAvgPad, Kind::kLp}) {
      Shape os;
      std::vector<int64_t> want_idx;
      auto want = pool_ref(c, kind, x, &os, &want_idx);
      OpCall call;
      call.op_type = kind == Kind::kMax ? "MaxPool" : kind == Kind::kLp ? "LpPool" : "AveragePool";
      call.opset = 19;
      call.attrs.set("kernel_shape", ints_attr(c.k));
      call.attrs.set("strides", ints_attr(c.s));
      call.attrs.set("dilations", ints_attr(c.dil));
      if (c.auto_pad == "NOTSET") call.attrs.set("pads", ints_attr(c.pads));
      else call.attrs.set("auto_pad", string_attr(c.auto_pad));
      if (kind != Kind::kLp) call.attrs.set("ceil_mode", int_attr(c.ceil));
      if (kind == Kind::kAvgPad) call.attrs.set("count_include_pad", int_attr(1));
      if (kind == Kind::kLp && c.ceil) continue;  // LpPool's ceil_mode is opset 18's; covered by max/avg
      call.inputs = {x};
      call.num_outputs = kind == Kind::kMax ? 2 : 1;
      auto r = run_op_all_backends(call);
      INFO(call.op_type << " x " << shape_str(c.x) << " kind " << static_cast<int>(kind) << " " << c.auto_pad);
      REQUIRE(r.ok());
      check_close(r->outputs[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-6});
      if (kind == Kind::kMax) CHECK(values_of<int64_t>(r->outputs[1]) == want_idx);
    }
  }
}

TEST_CASE("Global pools and MaxUnpool", "[ops][pool]") {
  HostTensor x = tensor_f32({2, 3, 4, 5}, 500);
  OpCall g;
  g.op_type = "GlobalAveragePool";
  g.inputs = {x};
  auto avg = run_op_all_backends(g);
  g.op_type = "GlobalMaxPool";
  auto mx = run_op_all_backends(g);
  REQUIRE(avg.ok());
  REQUIRE(mx.ok());
  CHECK(avg->outputs[0].shape() == Shape{2, 3, 1, 1});
  for (int64_t pl = 0; pl < 6; ++pl) {
    double s = 0, m = -1e30;
    for (int64_t j = 0; j < 20; ++j) s += x.as_f64(pl * 20 + j), m = std::max(m, x.as_f64(pl * 20 + j));
    CHECK(avg->outputs[0].as_f64(pl) == Approx(s / 20).epsilon(1e-6));
    CHECK(mx->outputs[0].as_f64(pl) == m);
  }
  // GlobalLpPool: (sum |x|^p)^(1/p) over each plane, p = 2 by default, 1 and 3 given.
  g.op_type = "GlobalLpPool";
  for (int p : {0, 1, 3}) {
    INFO("p " << p);
    g.attrs = {};
    if (p) g.attrs.set("p", int_attr(p));
    const double pp = p ? p : 2;
    auto lp = run_op_all_backends(g);
    REQUIRE(lp.ok());
    CHECK(lp->outputs[0].shape() == Shape{2, 3, 1, 1});
    for (int64_t pl = 0; pl < 6; ++pl) {
      double s = 0;
      for (int64_t j = 0; j < 20; ++j) s += std::pow(std::abs(x.as_f64(pl * 20 + j)), pp);
      CHECK(lp->outputs[0].as_f64(pl) == Approx(std::pow(s, 1 / pp)).epsilon(1e-5));
    }
  }

  // MaxPool then MaxUnpool puts each maximum back where it came from.
  HostTensor x4 = tensor_f32({2, 3, 4, 4}, 501);
  OpCall p;
  p.op_type = "MaxPool";
  p.attrs.set("kernel_shape", ints_attr({2, 2}));
  p.attrs.set("strides", ints_attr({2, 2}));
  p.inputs = {x4};
  p.num_outputs = 2;
  auto pooled = run_op_all_backends(p);
  REQUIRE(pooled.ok());
  const auto idx = values_of<int64_t>(pooled->outputs[1]);
  OpCall u;
  u.op_type = "MaxUnpool";
  u.opset = 11;
  u.attrs = p.attrs;
  u.inputs = {pooled->outputs[0], pooled->outputs[1]};
  auto un = run_op_all_backends(u);
  REQUIRE(un.ok());
  std::vector<double> want(x4.numel(), 0);
  for (size_t j = 0; j < idx.size(); ++j) want[idx[j]] = pooled->outputs[0].as_f64(j);
  check_close(un->outputs[0], {2, 3, 4, 4}, want, Tol{.rtol = 0, .atol = 0});

  // A larger output_shape keeps each value at its (h, w) and pads at the end.
  u.inputs.push_back(i64({4}, {2, 3, 5, 6}));
  un = run_op_all_backends(u);
  REQUIRE(un.ok());
  std::vector<double> want56(2 * 3 * 5 * 6, 0);
  for (size_t j = 0; j < idx.size(); ++j) {
    const int64_t plane = idx[j] / 16, h = idx[j] % 16 / 4, w = idx[j] % 4;
    want56[plane * 30 + h * 6 + w] = pooled->outputs[0].as_f64(j);
  }
  check_close(un->outputs[0], {2, 3, 5, 6}, want56, Tol{.rtol = 0, .atol = 0});

  // An index past the unpooled tensor is an OutOfRange error.
  u.inputs = {f32({1, 1, 1, 1}, {1}), i64({1, 1, 1, 1}, {99})};
  auto bad = run_op_all_backends(u);
  require_error(bad, StatusCode::kOutOfRange, "an index was out of range");
}

TEST_CASE("Pooling: ONNX node tests", "[ops][pool][onnx]") {
  run_node_cases({"test_maxpool", "test_averagepool", "test_globalaveragepool", "test_globalmaxpool",
                  "test_lppool", "test_maxunpool"});
}

}  // namespace
}  // namespace gk::test

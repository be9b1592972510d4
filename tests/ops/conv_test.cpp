// Conv and ConvTranspose against a direct double-precision reference written here
// (its own geometry, a scatter for ConvTranspose), hand-computed cases, fused
// epilogues on every launch path, and the ONNX node tests.
#include "tests/ops/nn_test_util.h"
#include "tests/ops/onnx_node_cases.h"
#include "tests/support/cpu_isa.h"
#include "tests/support/errors.h"

#include <cstring>

namespace gk::test {
namespace {

using namespace nn;

struct ConvCase {
  Shape x;
  int64_t cout, group;
  std::vector<int64_t> k, s, pads, dil;
  std::string auto_pad = "NOTSET";
  bool bias = true;
};

std::vector<double> conv_ref(const ConvCase& c, const HostTensor& x, const HostTensor& w, const HostTensor* b,
                             Shape* out_shape) {
  const size_t nd = c.x.size() - 2;
  std::vector<int64_t> in(c.x.begin() + 2, c.x.end()), out(nd), pb(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t dk = (c.k[i] - 1) * c.dil[i] + 1;
    if (c.auto_pad == "SAME_UPPER" || c.auto_pad == "SAME_LOWER") {
      out[i] = (in[i] + c.s[i] - 1) / c.s[i];
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * c.s[i] + dk - in[i]);
      pb[i] = c.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    } else if (c.auto_pad == "VALID") {
      out[i] = (in[i] - dk) / c.s[i] + 1;
      pb[i] = 0;
    } else {
      out[i] = (in[i] + c.pads[i] + c.pads[nd + i] - dk) / c.s[i] + 1;
      pb[i] = c.pads[i];
    }
  }
  const int64_t N = c.x[0], C = c.x[1], cg = C / c.group, mg = c.cout / c.group;
  *out_shape = {N, c.cout};
  out_shape->insert(out_shape->end(), out.begin(), out.end());
  const int64_t osz = numel(out), isz = numel(in), ksz = numel(c.k);
  std::vector<double> y(N * c.cout * osz);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t co = 0; co < c.cout; ++co) {
      const int64_t g = co / mg;
      std::vector<int64_t> o(nd, 0);
      int64_t op = 0;
      do {
        double s = b ? b->as_f64(co) : 0;
        for (int64_t ci = 0; ci < cg; ++ci) {
          std::vector<int64_t> kk(nd, 0);
          int64_t kp = 0;
          do {
            const int64_t ip = nn::window_tap(o, kk, c.s, pb, c.dil, in);
            if (ip >= 0) s += x.as_f64((n * C + g * cg + ci) * isz + ip) * w.as_f64((co * cg + ci) * ksz + kp);
            ++kp;
          } while (next_index(kk, c.k));
        }
        y[(n * c.cout + co) * osz + op++] = s;
      } while (next_index(o, out));
    }
  return y;
}

AttrMap conv_attrs(const ConvCase& c) {
  AttrMap a;
  a.set("group", int_attr(c.group));
  a.set("strides", ints_attr(c.s));
  a.set("dilations", ints_attr(c.dil));
  if (c.auto_pad == "NOTSET") a.set("pads", ints_attr(c.pads));
  else a.set("auto_pad", string_attr(c.auto_pad));
  return a;
}

TEST_CASE("Conv: 3x3 input, 2x2 ones kernel, by hand", "[ops][conv]") {
  OpCall c;
  c.op_type = "Conv";
  c.inputs = {f32({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8}), f32({1, 1, 2, 2}, {1, 1, 1, 1})};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  CHECK(r->outputs[0].shape() == Shape{1, 1, 2, 2});
  CHECK(values_of<float>(r->outputs[0]) == std::vector<float>{8, 12, 20, 24});
}

const std::vector<ConvCase>& conv_cases() {
  static const std::vector<ConvCase> cases = {
      {{1, 3, 17, 19}, 8, 1, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},                 // plain 3x3
      {{2, 16, 12, 13}, 70, 1, {3, 3}, {2, 2}, {1, 0, 2, 1}, {1, 1}},               // >64 channels, K > 128
      {{1, 6, 11, 10}, 9, 3, {3, 2}, {1, 2}, {0, 1, 1, 0}, {2, 1}},                 // groups, dilation
      {{2, 8, 9, 9}, 8, 8, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},                   // depthwise
      {{1, 4, 15, 14}, 8, 4, {5, 5}, {2, 2}, {2, 2, 2, 2}, {2, 1}},                 // depthwise, multiplier 2
      {{1, 3, 5, 150}, 3, 3, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 2}},                // depthwise, wide rows, dilated
      {{1, 2, 6, 83}, 4, 2, {5, 5}, {1, 1}, {2, 2, 2, 2}, {1, 1}},                  // depthwise 5x5, multiplier 2
      {{2, 20, 9, 11}, 12, 2, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}, "NOTSET", false},  // grouped pointwise
      {{1, 5, 70, 3}, 66, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}},                 // pointwise, 2 tiles
      {{1, 3, 10, 9}, 4, 1, {3, 3}, {2, 2}, {}, {1, 1}, "SAME_UPPER"},
      {{1, 3, 10, 9}, 4, 1, {4, 4}, {3, 2}, {}, {1, 1}, "SAME_LOWER"},
      {{1, 3, 10, 9}, 4, 1, {3, 2}, {1, 2}, {}, {1, 1}, "VALID", false},
      {{2, 3, 21}, 5, 1, {4}, {3}, {2, 1}, {2}},                                    // 1-D
      {{1, 4, 5, 6, 7}, 6, 2, {3, 2, 3}, {1, 2, 1}, {1, 0, 1, 1, 1, 0}, {1, 1, 2}},  // 3-D, groups
      {{1, 2, 6, 7, 5}, 2, 2, {2, 3, 3}, {2, 1, 1}, {0, 1, 1, 1, 1, 1}, {1, 2, 1}},  // 3-D depthwise
  };
  return cases;
}

TEST_CASE("Conv: random cases against a direct reference", "[ops][conv]") {
  uint32_t seed = 100;
  for (const ConvCase& c : conv_cases()) {
    const int64_t cg = c.x[1] / c.group;
    Shape ws{c.cout, cg};
    ws.insert(ws.end(), c.k.begin(), c.k.end());
    HostTensor x = tensor_f32(c.x, seed++), w = tensor_f32(ws, seed++), b = tensor_f32({c.cout}, seed++);
    Shape os;
    auto want = conv_ref(c, x, w, c.bias ? &b : nullptr, &os);
    OpCall call;
    call.op_type = "Conv";
    call.attrs = conv_attrs(c);
    call.inputs = {x, w};
    if (c.bias) call.inputs.push_back(b);
    auto r = run_op_all_backends(call);
    INFO("x " << shape_str(c.x) << " group " << c.group << " kernel " << shape_str(c.k) << " " << c.auto_pad);
    REQUIRE(r.ok());
    check_close(r->outputs[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
  }
}

// 2-D conv in float as ../shared/DESIGN.md (Numerics) specifies, written out
// independently: each output folds its (ci, kh, kw) taps with fmaf in blocks of 32
// tap indices from zero (taps in the padding add nothing), the blocks added in
// order, then the bias.
std::vector<float> conv2d_blocked_ref(const ConvCase& c, const HostTensor& x, const HostTensor& w,
                                      const HostTensor& b) {
  const int64_t N = c.x[0], C = c.x[1], H = c.x[2], W = c.x[3], cg = C / c.group, mg = c.cout / c.group;
  const int64_t KH = c.k[0], KW = c.k[1];
  const int64_t OH = (H + c.pads[0] + c.pads[2] - ((KH - 1) * c.dil[0] + 1)) / c.s[0] + 1;
  const int64_t OW = (W + c.pads[1] + c.pads[3] - ((KW - 1) * c.dil[1] + 1)) / c.s[1] + 1;
  const float *px = x.data<float>(), *pw = w.data<float>(), *pb = b.data<float>();
  std::vector<float> y(N * c.cout * OH * OW);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t co = 0; co < c.cout; ++co)
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          float total = 0, block = 0;
          for (int64_t t = 0; t < cg * KH * KW; ++t) {
            const int64_t ci = t / (KH * KW), kh = t / KW % KH, kw = t % KW;
            const int64_t ih = oh * c.s[0] - c.pads[0] + kh * c.dil[0], iw = ow * c.s[1] - c.pads[1] + kw * c.dil[1];
            if (ih >= 0 && ih < H && iw >= 0 && iw < W)
              block = std::fmaf(px[((n * C + co / mg * cg + ci) * H + ih) * W + iw], pw[co * cg * KH * KW + t], block);
            if ((t + 1) % 32 == 0) total += block, block = 0;
          }
          y[((n * c.cout + co) * OH + oh) * OW + ow] = (total + block) + pb[co];
        }
  return y;
}

TEST_CASE("Conv: f32 folds taps in blocks of 32 on every path and ISA, bit for bit", "[ops][conv]") {
  const std::vector<ConvCase> cases = {
      {{1, 8, 13, 70}, 20, 1, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},   // row windows, K = 72
      {{1, 8, 13, 21}, 70, 1, {3, 3}, {2, 2}, {1, 0, 1, 1}, {1, 1}},   // im2col, K = 72, 2 row tiles
      {{1, 100, 5, 30}, 9, 1, {1, 1}, {1, 1}, {0, 0, 0, 0}, {1, 1}},  // pointwise, K = 100
      {{1, 3, 12, 90}, 3, 3, {7, 7}, {1, 1}, {3, 3, 3, 3}, {1, 1}},   // depthwise 7x7: 32 + 17 taps
      {{1, 2, 12, 40}, 2, 2, {7, 7}, {2, 2}, {3, 3, 3, 3}, {1, 1}},   // depthwise 7x7, strided
      // Stride 2 across wide rows (the per-tap path): odd dilated offsets, uneven
      // pads, an odd input width.
      {{1, 4, 21, 101}, 4, 4, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}},
      {{1, 3, 17, 160}, 3, 3, {5, 5}, {2, 2}, {2, 2, 2, 2}, {1, 1}},
      {{1, 2, 15, 77}, 2, 2, {3, 3}, {2, 2}, {0, 2, 1, 0}, {1, 3}},
      {{2, 6, 9, 48}, 6, 6, {3, 3}, {1, 2}, {1, 1, 1, 1}, {1, 1}},  // stride 1 down, 2 across
      // Narrow images: 16 channels at a time channels-last, the rest by rows.
      {{1, 32, 9, 9}, 32, 32, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {{1, 48, 14, 14}, 48, 48, {5, 5}, {2, 2}, {2, 2, 2, 2}, {1, 1}},
      {{2, 20, 7, 7}, 20, 20, {7, 7}, {1, 1}, {3, 3, 3, 3}, {1, 1}},  // 49 taps: 32 + 17
      {{1, 16, 10, 12}, 16, 16, {3, 3}, {1, 1}, {2, 1, 2, 3}, {2, 2}},  // dilated, uneven pads
      // Whole planes (DepthwisePlane): 8-row blocks and their remainders, 1-4
      // vectors per row, stride 2 with odd widths and dilation, uneven pads.
      {{1, 5, 28, 28}, 5, 5, {5, 5}, {1, 1}, {2, 2, 2, 2}, {1, 1}},
      {{1, 3, 23, 112}, 3, 3, {3, 3}, {1, 1}, {1, 1, 1, 1}, {1, 1}},
      {{1, 4, 19, 57}, 4, 4, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}},
      {{1, 2, 17, 64}, 2, 2, {3, 3}, {2, 2}, {2, 2, 2, 2}, {2, 2}},
      {{1, 3, 11, 33}, 3, 3, {5, 3}, {3, 2}, {0, 2, 3, 1}, {1, 3}},
      // Taps that read only padding for a whole 64-pixel tile (the live-term
      // blocks): dilation past the image (DeepLabV3's ASPP), every tile's outer
      // taps; then a geometry whose first block of 32 taps is all padding, in the
      // first K chunk and again in the second (K = 168, chunks of 128).
      {{1, 6, 40, 5}, 20, 1, {3, 3}, {1, 1}, {16, 16, 16, 16}, {16, 16}},
      {{1, 40, 9, 9}, 9, 1, {3, 3}, {1, 1}, {12, 12, 12, 12}, {12, 12}},
      {{1, 4, 4, 8}, 20, 1, {6, 7}, {1, 1}, {50, 3, 0, 3}, {10, 1}},
  };
  uint32_t seed = 700;
  for (const ConvCase& c : cases) {
    Shape ws{c.cout, c.x[1] / c.group, c.k[0], c.k[1]};
    HostTensor x = tensor_f32(c.x, seed++), w = tensor_f32(ws, seed++), b = tensor_f32({c.cout}, seed++);
    const std::vector<float> want = conv2d_blocked_ref(c, x, w, b);
    OpCall call;
    call.op_type = "Conv";
    call.attrs = conv_attrs(c);
    call.inputs = {x, w, b};
    for (CpuIsa isa : isas_to_test()) {
      IsaScope scope(isa);
      INFO("x " << shape_str(c.x) << " group " << c.group << " kernel " << shape_str(c.k) << " isa "
                << cpu_isa_name(active_cpu_isa()));
      auto r = run_op_all_backends(call);
      REQUIRE(r.ok());
      const std::vector<float> got = values_of<float>(r->outputs[0]);
      REQUIRE(got.size() == want.size());
      int64_t mismatches = 0;
      for (size_t i = 0; i < got.size(); ++i) mismatches += std::memcmp(&got[i], &want[i], 4) != 0;
      CHECK(mismatches == 0);
    }
  }
}

TEST_CASE("Conv: fused epilogues on the implicit-GEMM, depthwise and pointwise paths", "[ops][conv][epilogue]") {
  using K = Epilogue::Kind;
  const std::vector<Epilogue> kinds = {{K::kRelu},        {K::kClip, 0.0f, 0.3f}, {K::kSigmoid},
                                       {K::kSilu},        {K::kHardSigmoid, 0.2f, 0.5f}, {K::kHardSwish},
                                       {K::kLeakyRelu, 0.01f}, {K::kTanh}};
  const std::vector<size_t> paths = {0, 3, 6};  // indices into conv_cases()
  uint32_t seed = 200;
  for (size_t p : paths) {
    const ConvCase& c = conv_cases()[p];
    Shape ws{c.cout, c.x[1] / c.group};
    ws.insert(ws.end(), c.k.begin(), c.k.end());
    HostTensor x = tensor_f32(c.x, seed++), w = tensor_f32(ws, seed++), b = tensor_f32({c.cout}, seed++);
    Shape os;
    auto base = conv_ref(c, x, w, &b, &os);
    for (const Epilogue& e : kinds) {
      auto r = run_with("Conv", conv_attrs(c), {&x, &w, &b}, e);
      INFO("case " << p << " epilogue " << static_cast<int>(e.kind));
      REQUIRE(r.ok());
      std::vector<double> want(base.size());
      for (size_t i = 0; i < base.size(); ++i) want[i] = activation_ref(base[i], e);
      check_close((*r)[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
    }
  }
}

TEST_CASE("Conv: depthwise taps in the padding are skipped, as on CUDA", "[ops][conv]") {
  // Channel 0's first tap is infinite: a padded zero times it would be NaN, so
  // column 0 (whose first tap falls in the padding) must read 1 + 1 = 2.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> ones(2 * 40, 1.0f);
  OpCall c;
  c.op_type = "Conv";
  c.attrs.set("group", int_attr(2));
  c.attrs.set("pads", ints_attr({0, 1, 0, 1}));
  c.inputs = {f32({1, 2, 1, 40}, ones), f32({2, 1, 1, 3}, {inf, 1, 1, 1, 2, 3})};
  auto r = run_op_all_backends(c);
  REQUIRE(r.ok());
  const std::vector<float> y = values_of<float>(r->outputs[0]);
  REQUIRE(y.size() == 80);
  CHECK(y[0] == 2);
  for (int j = 1; j < 40; ++j) CHECK(y[j] == inf);
  CHECK(y[40] == 5);  // channel 1: taps 2 + 3 at the left edge, 1 + 2 + 3 inside, 1 + 2 at the right
  for (int j = 41; j < 79; ++j) CHECK(y[j] == 6);
  CHECK(y[79] == 3);
}

TEST_CASE("Conv: f16, bf16 and f64", "[ops][conv]") {
  const ConvCase& c = conv_cases()[2];
  Shape ws{c.cout, c.x[1] / c.group};
  ws.insert(ws.end(), c.k.begin(), c.k.end());
  HostTensor xf = tensor_f32(c.x, 7), wf = tensor_f32(ws, 8);
  for (DType t : {DType::kF16, DType::kBF16, DType::kF64}) {
    HostTensor x = make_tensor(t, c.x, xf.to_f64_vector()), w = make_tensor(t, ws, wf.to_f64_vector());
    Shape os;
    auto want = conv_ref(c, x, w, nullptr, &os);
    OpCall call;
    call.op_type = "Conv";
    call.attrs = conv_attrs(c);
    call.inputs = {x, w};
    auto r = run_op_all_backends(call);
    INFO(dtype_name(t));
    REQUIRE(r.ok());
    const double tol = t == DType::kF64 ? 1e-12 : 3e-2;
    check_close(r->outputs[0], os, want, Tol{.rtol = tol, .atol = tol});
  }
}

struct ConvTCase {
  Shape x;
  int64_t cout, group;
  std::vector<int64_t> k, s, pads, dil, out_pad, out_shape;
  std::string auto_pad = "NOTSET";
};

std::vector<double> conv_transpose_ref(const ConvTCase& c, const HostTensor& x, const HostTensor& w,
                                       const HostTensor& b, int opset, Shape* out_shape) {
  const size_t nd = c.x.size() - 2;
  std::vector<int64_t> in(c.x.begin() + 2, c.x.end()), out(nd), pb(nd);
  for (size_t i = 0; i < nd; ++i) {
    const int64_t op = c.out_pad.empty() ? 0 : c.out_pad[i];
    const int64_t full = c.s[i] * (in[i] - 1) + op + (c.k[i] - 1) * c.dil[i] + 1;
    const bool same = c.auto_pad != "NOTSET";
    if (!c.out_shape.empty() || same) {
      out[i] = c.out_shape.empty() ? in[i] * c.s[i] : c.out_shape[i];
      const int64_t total = full - out[i];
      bool extra_first = c.auto_pad != "SAME_UPPER";
      if (opset < 11) extra_first = !extra_first;
      const int64_t half = static_cast<int64_t>(std::floor(total / 2.0));
      pb[i] = extra_first ? total - half : half;
    } else {
      pb[i] = c.pads[i];
      out[i] = full - c.pads[i] - c.pads[nd + i];
    }
  }
  const int64_t N = c.x[0], C = c.x[1], cg = C / c.group, mg = c.cout / c.group;
  *out_shape = {N, c.cout};
  out_shape->insert(out_shape->end(), out.begin(), out.end());
  const int64_t osz = numel(out), isz = numel(in), ksz = numel(c.k);
  std::vector<double> y(N * c.cout * osz);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t co = 0; co < c.cout; ++co)
      for (int64_t p = 0; p < osz; ++p) y[(n * c.cout + co) * osz + p] = b.as_f64(co);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t ci = 0; ci < C; ++ci) {
      const int64_t g = ci / cg;
      std::vector<int64_t> ii(nd, 0);
      int64_t ip = 0;
      do {
        for (int64_t m = 0; m < mg; ++m) {
          std::vector<int64_t> kk(nd, 0);
          int64_t kp = 0;
          do {
            const int64_t op = nn::window_tap(ii, kk, c.s, pb, c.dil, out);
            const int64_t co = g * mg + m;
            if (op >= 0)
              y[(n * c.cout + co) * osz + op] +=
                  x.as_f64((n * C + ci) * isz + ip) * w.as_f64((ci * mg + m) * ksz + kp);
            ++kp;
          } while (next_index(kk, c.k));
        }
        ++ip;
      } while (next_index(ii, in));
    }
  return y;
}

TEST_CASE("ConvTranspose: random cases against a scatter reference", "[ops][conv_transpose]") {
  const std::vector<ConvTCase> cases = {
      {{1, 3, 5, 6}, 4, 1, {3, 3}, {2, 2}, {1, 1, 1, 1}, {1, 1}, {1, 1}, {}},
      {{2, 4, 4, 5}, 6, 2, {2, 3}, {2, 1}, {0, 1, 1, 0}, {1, 2}, {}, {}},
      {{1, 2, 7}, 3, 1, {3}, {3}, {0, 0}, {2}, {}, {20}},                        // 1-D, output_shape
      {{1, 2, 3, 3}, 2, 1, {3, 3}, {3, 2}, {}, {1, 1}, {}, {11, 9}},             // output_shape past the natural size
      {{1, 2, 3, 4, 3}, 2, 1, {2, 2, 2}, {2, 1, 2}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}, {1, 0, 1}, {}},  // 3-D
      {{1, 70, 6, 6}, 3, 1, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, {}, {}},       // K > 64
      {{1, 2, 4, 4}, 2, 1, {3, 3}, {2, 2}, {}, {1, 1}, {}, {}, "SAME_UPPER"},
      {{1, 2, 4, 4}, 2, 1, {3, 3}, {2, 2}, {}, {1, 1}, {}, {}, "SAME_LOWER"},
  };
  uint32_t seed = 300;
  for (int opset : {17, 10}) {
    for (const ConvTCase& c : cases) {
      Shape ws{c.x[1], c.cout / c.group};
      ws.insert(ws.end(), c.k.begin(), c.k.end());
      HostTensor x = tensor_f32(c.x, seed++), w = tensor_f32(ws, seed++), b = tensor_f32({c.cout}, seed++);
      Shape os;
      auto want = conv_transpose_ref(c, x, w, b, opset, &os);
      AttrMap a;
      a.set("group", int_attr(c.group));
      a.set("strides", ints_attr(c.s));
      a.set("dilations", ints_attr(c.dil));
      if (!c.pads.empty()) a.set("pads", ints_attr(c.pads));
      if (!c.out_pad.empty()) a.set("output_padding", ints_attr(c.out_pad));
      if (!c.out_shape.empty()) a.set("output_shape", ints_attr(c.out_shape));
      if (c.auto_pad != "NOTSET") a.set("auto_pad", string_attr(c.auto_pad));
      auto r = run_with("ConvTranspose", a, {&x, &w, &b}, {}, 1, opset);
      INFO("opset " << opset << " x " << shape_str(c.x) << " " << c.auto_pad);
      REQUIRE(r.ok());
      check_close((*r)[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
    }
  }
}

// The CPU col2im walks output rows in 256-pixel chunks and adds each tap's column
// run with stride s: rows wider than a chunk, a tap whose first pixel sits past the
// chunk start (negative pad offsets), stride == kernel with output_padding (pixels
// no tap reaches get the bias alone) and a fused activation.
TEST_CASE("ConvTranspose: wide rows, stride == kernel, fused activation", "[ops][conv_transpose]") {
  const std::vector<ConvTCase> cases = {
      {{1, 3, 4, 150}, 5, 1, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, {}, {}},        // the detector's 2x2 / 2
      {{1, 2, 3, 130}, 4, 2, {2, 2}, {2, 2}, {0, 0, 0, 0}, {1, 1}, {1, 1}, {}},    // output_padding, groups
      {{2, 2, 3, 100}, 3, 1, {3, 5}, {2, 3}, {1, 2, 0, 1}, {1, 1}, {}, {}},        // overlapping taps
      {{1, 2, 2, 300}, 2, 1, {1, 3}, {1, 1}, {0, 1, 0, 1}, {1, 2}, {}, {}},        // stride 1, dilation
      {{1, 2, 3, 3, 90}, 2, 1, {2, 2, 3}, {2, 2, 3}, {0, 0, 0, 0, 0, 0}, {1, 1, 1}, {}, {}},  // 3-D
  };
  const Epilogue relu{Epilogue::Kind::kRelu};
  uint32_t seed = 700;
  for (const ConvTCase& c : cases) {
    Shape ws{c.x[1], c.cout / c.group};
    ws.insert(ws.end(), c.k.begin(), c.k.end());
    HostTensor x = tensor_f32(c.x, seed++), w = tensor_f32(ws, seed++), b = tensor_f32({c.cout}, seed++);
    Shape os;
    auto want = conv_transpose_ref(c, x, w, b, 17, &os);
    for (double& v : want) v = activation_ref(v, relu);
    AttrMap a;
    a.set("group", int_attr(c.group));
    a.set("strides", ints_attr(c.s));
    a.set("dilations", ints_attr(c.dil));
    a.set("pads", ints_attr(c.pads));
    if (!c.out_pad.empty()) a.set("output_padding", ints_attr(c.out_pad));
    auto r = run_with("ConvTranspose", a, {&x, &w, &b}, relu, 1, 17);
    INFO("x " << shape_str(c.x) << " k " << shape_str(c.k) << " s " << shape_str(c.s));
    REQUIRE(r.ok());
    check_close((*r)[0], os, want, Tol{.rtol = 1e-5, .atol = 1e-5});
  }
}

TEST_CASE("Conv: channel mismatch is a named error", "[ops][conv]") {
  OpCall c;
  c.op_type = "Conv";
  c.attrs.set("group", int_attr(2));
  c.inputs = {f32({1, 3, 4, 4}, std::vector<float>(48)), f32({2, 1, 3, 3}, std::vector<float>(18))};
  auto r = run_op_all_backends(c);
  require_error(r, StatusCode::kInvalidModel, "group 2");
}

TEST_CASE("Conv / ConvTranspose / MaxPool: pads, strides and dilations that overflow int64 are named errors",
          "[ops][conv]") {
  const int64_t big = INT64_MAX - 1;
  auto x = f32({1, 1, 4, 4}, std::vector<float>(16));
  auto w = f32({1, 1, 3, 3}, std::vector<float>(9));
  OpCall pads{"Conv", "", 17, {}, {x, w}};
  pads.attrs.set("pads", ints_attr({0, big, 0, big}));
  require_error(run_op_all_backends(pads), StatusCode::kInvalidModel, "axis 1 (input 4, kernel 3, stride 1");
  OpCall dil{"Conv", "", 17, {}, {x, w}};
  dil.attrs.set("dilations", ints_attr({1, int64_t{1} << 62}));
  require_error(run_op_all_backends(dil), StatusCode::kInvalidModel, "overflows int64");
  OpCall same{"MaxPool", "", 12, {}, {x}};
  same.attrs.set("kernel_shape", ints_attr({2, 2}));
  same.attrs.set("auto_pad", string_attr("SAME_UPPER"));
  same.attrs.set("strides", ints_attr({1, big}));
  require_error(run_op_all_backends(same), StatusCode::kInvalidModel, "overflows int64");
  OpCall tr{"ConvTranspose", "", 17, {}, {x, w}};
  tr.attrs.set("strides", ints_attr({1, int64_t{1} << 62}));
  require_error(run_op_all_backends(tr), StatusCode::kInvalidModel,
                "ConvTranspose axis 1 (input 4, kernel 3, stride 4611686018427387904");
  OpCall tp{"ConvTranspose", "", 17, {}, {x, w}};
  tp.attrs.set("pads", ints_attr({0, -big, 0, -big}));
  require_error(run_op_all_backends(tp), StatusCode::kInvalidModel, "overflows int64");
}

TEST_CASE("Conv/ConvTranspose: ONNX node tests", "[ops][conv][onnx]") {
  run_node_cases({"test_conv"});  // includes ConvInteger (ops/quantize/qlinear.cpp)
}

}  // namespace
}  // namespace gk::test

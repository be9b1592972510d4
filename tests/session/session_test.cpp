// The session API: open, describe, run with host tensors and device buffers, the
// plan cache, and concurrent runs from 8 threads (bit-identical to one thread).
#include "runtime/session.h"
#include "tests/support/data.h"
#include "tests/support/errors.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <thread>

namespace fs = std::filesystem;

namespace gk {
namespace {

using test::kData;

#define REQUIRE_DATA(path) test::skip_unless_exists(path)

SessionOptions cpu_options() {
  SessionOptions o;
  o.backend = "cpu";
  return o;
}

HostTensor ramp(Shape shape, float scale) {
  std::vector<float> v(numel(shape));
  for (size_t i = 0; i < v.size(); ++i) v[i] = scale * static_cast<float>(static_cast<int>(i % 17) - 8);
  return HostTensor::from_vector(DType::kF32, shape, v);
}

TEST_CASE("session: describes inputs and outputs, runs a model", "[session]") {
  const fs::path model = kData / "node" / "test_relu" / "model.onnx";
  REQUIRE_DATA(model);
  auto s = Session::open(model.string(), cpu_options());
  REQUIRE(s.ok());
  REQUIRE((*s)->inputs().size() == 1);
  CHECK((*s)->inputs()[0].dtype == DType::kF32);
  auto in = ramp({3, 4, 5}, 0.5f);
  auto out = (*s)->run({{(*s)->inputs()[0].name, in}});
  REQUIRE(out.ok());
  REQUIRE(out->size() == 1);
  const HostTensor& y = (*out)[0].tensor;
  REQUIRE(y.shape() == Shape{3, 4, 5});
  for (int64_t i = 0; i < y.numel(); ++i) CHECK(y.data<float>()[i] == std::max(0.0f, in.data<float>()[i]));
}

TEST_CASE("session: unknown input names and wrong shapes are named errors", "[session][errors]") {
  const fs::path model = kData / "node" / "test_relu" / "model.onnx";
  REQUIRE_DATA(model);
  auto s = Session::open(model.string(), cpu_options());
  REQUIRE(s.ok());
  auto bad_name = (*s)->run({{"nope", ramp({3, 4, 5}, 1)}});
  gk::test::require_error(bad_name, StatusCode::kInvalidArgument, "nope");
  auto bad_shape = (*s)->run({{(*s)->inputs()[0].name, ramp({3, 4, 6}, 1)}});
  gk::test::require_error(bad_shape, StatusCode::kInvalidArgument, "dim 2 is 6");
}

TEST_CASE("session: device-resident inputs and outputs", "[session]") {
  const fs::path model = kData / "node" / "test_relu" / "model.onnx";
  REQUIRE_DATA(model);
  auto s = Session::open(model.string(), cpu_options());
  REQUIRE(s.ok());
  Kit kit = (*s)->kit();
  auto in = ramp({3, 4, 5}, 0.25f);
  auto buf = kit.upload(in);
  REQUIRE(buf.ok());
  auto outs = (*s)->run_device({{(*s)->inputs()[0].name, *buf, {3, 4, 5}}});
  REQUIRE(outs.ok());
  auto y = (*outs)[0].buf.download((*outs)[0].shape);
  REQUIRE(y.ok());
  for (int64_t i = 0; i < y->numel(); ++i) CHECK(y->data<float>()[i] == std::max(0.0f, in.data<float>()[i]));
}

TEST_CASE("session: one plan per input-shape signature", "[session]") {
  const fs::path model = kData / "node" / "test_relu" / "model.onnx";
  REQUIRE_DATA(model);
  auto s = Session::open(model.string(), cpu_options());
  REQUIRE(s.ok());
  const std::string name = (*s)->inputs()[0].name;
  for (int i = 0; i < 3; ++i) REQUIRE((*s)->run({{name, ramp({3, 4, 5}, 1)}}).ok());
  CHECK((*s)->plans_created() == 1);
  RunInfo info;
  REQUIRE((*s)->run({{name, ramp({3, 4, 5}, 2)}}, {}, &info).ok());
  CHECK_FALSE(info.new_plan);
}

TEST_CASE("session: a small input that a Range length is computed from joins the plan signature",
          "[session]") {
  // HannWindow expanded: the window length x flows through Cast/Sub/Div into Range,
  // whose length must be known at plan time.
  const fs::path model = kData / "node" / "test_hannwindow_expanded" / "model.onnx";
  REQUIRE_DATA(model);
  auto s = Session::open(model.string(), cpu_options());
  REQUIRE(s.ok());
  const std::string name = (*s)->inputs()[0].name;
  for (int32_t n : {10, 7, 10}) {
    auto out = (*s)->run({{name, HostTensor::from_vector(DType::kI32, {}, std::vector<int32_t>{n})}});
    REQUIRE(out.ok());
    const HostTensor& y = (*out)[0].tensor;
    REQUIRE(y.shape() == Shape{n});
    for (int32_t i = 0; i < n; ++i)  // periodic Hann: 0.5 - 0.5 cos(2 pi i / n)
      CHECK(y.data<float>()[i] == Approx(0.5 - 0.5 * std::cos(2 * M_PI * i / n)).margin(1e-6));
  }
  CHECK((*s)->plans_created() == 2);
}

TEST_CASE("session: 8 concurrent runs equal a single-threaded run bit for bit", "[session][threads]") {
  const fs::path dir = kData / "pytorch-converted" / "test_Conv2d";
  REQUIRE_DATA(dir);
  auto s = Session::open((dir / "model.onnx").string(), cpu_options());
  INFO((s.ok() ? std::string() : s.status().to_string()));
  REQUIRE(s.ok());
  const IoDesc& in = (*s)->inputs()[0];
  Shape shape;
  for (const Dim& d : in.dims) shape.push_back(d.value);
  std::vector<HostTensor> inputs;
  std::vector<std::vector<float>> expected;
  for (int t = 0; t < 8; ++t) {
    inputs.push_back(ramp(shape, 0.1f * static_cast<float>(t + 1)));
    auto out = (*s)->run({{in.name, inputs.back()}});
    REQUIRE(out.ok());
    const HostTensor& y = (*out)[0].tensor;
    expected.emplace_back(y.data<float>(), y.data<float>() + y.numel());
  }
  std::vector<std::vector<float>> got(8);
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 5; ++rep) {
        auto out = (*s)->run({{in.name, inputs[t]}});
        if (!out.ok()) {
          ++failures;
          return;
        }
        const HostTensor& y = (*out)[0].tensor;
        std::vector<float> v(y.data<float>(), y.data<float>() + y.numel());
        if (v != expected[t]) ++failures;
        got[t] = std::move(v);
      }
    });
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  for (int t = 0; t < 8; ++t) CHECK(got[t] == expected[t]);
}

}  // namespace
}  // namespace gk

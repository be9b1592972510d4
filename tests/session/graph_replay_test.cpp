// Graph capture and replay in the executor, on the CPU backend's recorder (the
// same capture/rebind/fallback path a CUDA Graph takes): the second run of a shape
// is captured, later runs replay it with their own input and output buffers, and
// what cannot be captured falls back once, naming the node.
#include "backends/cpu/cpu_device.h"
#include "tests/support/data.h"
#include "tests/support/session_runs.h"
#include "ops/core/op.h"
#include "runtime/session.h"
#include "runtime/tensor_io.h"

#include <catch2/catch.hpp>

#include <filesystem>

namespace fs = std::filesystem;

namespace gk {
namespace {

using test::kData;

#define REQUIRE_DATA(path) test::skip_unless_exists(path)

Kit graph_kit() {
  CpuDeviceOptions d;
  d.threads = 2;
  d.kernel_tables = cpu_kernel_tables();
  d.graphs = true;
  return Kit::adopt(make_cpu_device(std::move(d)));
}

std::shared_ptr<Session> open(const fs::path& model, Kit kit) {
  SessionOptions o;
  o.backend = "cpu";
  o.kit = std::move(kit);
  auto s = Session::open(model.string(), o);
  REQUIRE(s.ok());
  return *s;
}

using test::same_bits;
using test::seeded_image;

TEST_CASE("graph replay: the second run is captured, later runs replay with rebound buffers", "[session][graphs]") {
  const fs::path model = kData / "light" / "light_squeezenet.onnx";
  REQUIRE_DATA(model);
  auto replay = open(model, graph_kit());
  auto plain = open(model, Kit());
  const IoDesc& in = replay->inputs()[0];
  const Shape shape = {1, 3, 224, 224};

  for (uint32_t run = 0; run < 5; ++run) {
    const HostTensor x = seeded_image(shape, run % 3);
    RunInfo info;
    auto got = replay->run({{in.name, x}}, {}, &info);
    REQUIRE(got.ok());
    auto want = plain->run({{in.name, x}});
    REQUIRE(want.ok());
    INFO("run " << run << ": " << info.graph_fallback);
    REQUIRE(got->size() == want->size());
    for (size_t o = 0; o < got->size(); ++o) CHECK(same_bits((*got)[o].tensor, (*want)[o].tensor));
    CHECK(info.graph_captured == (run == 1));
    CHECK(info.graph_replayed == (run >= 1));
    if (run == 0) CHECK_THAT(info.graph_fallback, Catch::Contains("first run"));
  }
}

TEST_CASE("graph replay: device-resident inputs and outputs move with each run", "[session][graphs]") {
  const fs::path model = kData / "pytorch-converted" / "test_Conv2d" / "model.onnx";
  REQUIRE_DATA(model);
  Kit kit = graph_kit();
  auto replay = open(model, kit);
  auto plain = open(model, Kit());
  const IoDesc& in = replay->inputs()[0];
  Shape shape;
  for (const Dim& d : in.dims) shape.push_back(d.value);
  std::vector<GkBuf> keep;  // fresh input buffers each run: the pool cannot hand back the same block
  for (uint32_t run = 0; run < 4; ++run) {
    const HostTensor x = seeded_image(shape, 10 + run);
    auto buf = kit.upload(x);
    REQUIRE(buf.ok());
    keep.push_back(*buf);
    RunInfo info;
    auto outs = replay->run_device({{in.name, *buf, shape}}, {}, &info);
    REQUIRE(outs.ok());
    auto got = (*outs)[0].buf.download((*outs)[0].shape);
    REQUIRE(got.ok());
    auto want = plain->run({{in.name, x}});
    REQUIRE(want.ok());
    CHECK(same_bits(*got, (*want)[0].tensor));
    CHECK(info.graph_replayed == (run >= 1));
  }
}

TEST_CASE("graph replay: a node that cannot be captured falls back once, named", "[session][graphs]") {
  // NonZero's output shape is known only during the run (a sync mid-run).
  const fs::path dir = kData / "node" / "test_nonzero_example";
  REQUIRE_DATA(dir);
  auto replay = open(dir / "model.onnx", graph_kit());
  auto plain = open(dir / "model.onnx", Kit());
  auto x = read_tensor_file((dir / "test_data_set_0" / "input_0.pb").string());
  REQUIRE(x.ok());
  const std::vector<NamedTensor> inputs = {{replay->inputs()[0].name, *x}};
  auto want = plain->run(inputs);
  REQUIRE(want.ok());
  for (int run = 0; run < 3; ++run) {
    RunInfo info;
    auto got = replay->run(inputs, {}, &info);
    REQUIRE(got.ok());
    CHECK(same_bits((*got)[0].tensor, (*want)[0].tensor));
    CHECK_FALSE(info.graph_replayed);
    if (run >= 1) {
      CHECK_THAT(info.graph_fallback, Catch::Contains("not captured"));
      CHECK_THAT(info.graph_fallback, Catch::Contains("NonZero"));
    }
  }
}

TEST_CASE("graph replay: one buffer bound to two inputs is not captured, named", "[session][graphs]") {
  // Rebinding moves pointers by address range; two inputs in one range could not
  // be told apart on a later run.
  const fs::path dir = kData / "node" / "test_add";
  REQUIRE_DATA(dir);
  Kit kit = graph_kit();
  auto replay = open(dir / "model.onnx", kit);
  const Shape shape = {3, 4, 5};
  const HostTensor x = seeded_image(shape, 7);
  auto buf = kit.upload(x);
  REQUIRE(buf.ok());
  for (int run = 0; run < 3; ++run) {
    RunInfo info;
    auto outs = replay->run_device({{replay->inputs()[0].name, *buf, shape}, {replay->inputs()[1].name, *buf, shape}},
                                   {}, &info);
    REQUIRE(outs.ok());
    auto y = (*outs)[0].buf.download(shape);
    REQUIRE(y.ok());
    for (int64_t i = 0; i < y->numel(); ++i) REQUIRE(y->data<float>()[i] == x.data<float>()[i] + x.data<float>()[i]);
    CHECK_FALSE(info.graph_replayed);
    if (run >= 1) CHECK_THAT(info.graph_fallback, Catch::Contains("shares memory"));
  }
}

TEST_CASE("graph replay: 8 threads on one shape equal a single-threaded run", "[session][graphs][threads]") {
  const fs::path model = kData / "pytorch-converted" / "test_Conv2d" / "model.onnx";
  REQUIRE_DATA(model);
  auto replay = open(model, graph_kit());
  const IoDesc& in = replay->inputs()[0];
  Shape shape;
  for (const Dim& d : in.dims) shape.push_back(d.value);
  std::vector<HostTensor> xs;
  for (uint32_t t = 0; t < 8; ++t) xs.push_back(seeded_image(shape, 100 + t));
  test::check_threads_match_one_thread(
      xs.size(), 8, 5, [](int t, int) { return static_cast<size_t>(t); },
      [&](size_t i) { return replay->run({{in.name, xs[i]}}); });
}

}  // namespace
}  // namespace gk

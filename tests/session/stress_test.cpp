// Concurrency, leaks and allocation failure (issue #16 item 4): 8 threads x 500
// runs on one session equal one thread's results bit for bit; 1000 sessions opened,
// run and closed on one kit leave its pool and the device as they were; and the
// i-th device allocation of an open and a run, failed for every i, is a clean
// ResourceExhausted, after which the session runs right. Under the asan and tsan
// presets (scripts/sanitize.sh) the same cases check leaks and races.
#include "proto_models.h"

#include "backends/cpu/cpu_device.h"
#include "ops/core/op.h"
#include "tests/support/data.h"
#include "tests/support/errors.h"
#include "tests/support/forwarding_device.h"
#include "tests/support/session_runs.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <numeric>

namespace gk {
namespace {

using namespace proto_models;
namespace fs = std::filesystem;

// The CPU backend with every op kernel, refusing allocations from the
// `fail_from`-th on (counted from 0) when that is set: a device that fills up.
struct AllocLog {
  std::atomic<int64_t> attempts{0}, live{0}, fail_from{-1};
};

class FailingDevice final : public test::ForwardingDevice {
 public:
  explicit FailingDevice(std::shared_ptr<AllocLog> log)
      : ForwardingDevice(make_cpu_device(CpuDeviceOptions{2, cpu_kernel_tables()})), log_(std::move(log)) {}
  Result<DevPtr> alloc(size_t bytes) override {
    const int64_t n = log_->attempts++;
    if (log_->fail_from >= 0 && n >= log_->fail_from)
      return resource_exhausted("injected: device allocation {} of {} bytes refused", n, bytes);
    GK_TRY(DevPtr p, inner_->alloc(bytes));
    ++log_->live;
    return p;
  }
  Status free(DevPtr ptr) override {
    --log_->live;
    return inner_->free(ptr);
  }

 private:
  std::shared_ptr<AllocLog> log_;
};

std::string bytes_of(const onnx::ModelProto& m) {
  std::string b;
  m.SerializeToString(&b);
  return b;
}

std::string file_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

Result<std::shared_ptr<Session>> open_on(const std::string& model, Kit kit) {
  SessionOptions o;
  o.backend = "cpu";
  o.kit = std::move(kit);
  return Session::open_from_memory(model.data(), model.size(), o);
}

std::vector<NamedTensor> tail_inputs(std::vector<float> logits) {
  const int64_t n = static_cast<int64_t>(logits.size());
  std::vector<float> boxes(n * 4);
  std::iota(boxes.begin(), boxes.end(), 0.0f);
  return {{"logits", floats({n}, std::move(logits))}, {"boxes", floats({n, 4}, boxes)}};
}

// Fails allocation i of an open and a run, for every i up to what a clean open and
// run take; `input` is the run's feed.
void check_every_allocation_failure(const std::string& model, const std::vector<NamedTensor>& input) {
  auto clean_log = std::make_shared<AllocLog>();
  std::vector<NamedTensor> want;
  {
    auto s = open_on(model, Kit::adopt(std::make_unique<FailingDevice>(clean_log)));
    REQUIRE(s.ok());
    auto r = (*s)->run(input);
    REQUIRE(r.ok());
    want = std::move(*r);
  }
  const int64_t total = clean_log->attempts;
  REQUIRE(total > 2);
  int open_failures = 0, run_failures = 0;
  for (int64_t i = 0; i < total; ++i) {
    INFO("failing allocation " << i << " of " << total);
    auto log = std::make_shared<AllocLog>();
    log->fail_from = i;
    {
      auto s = open_on(model, Kit::adopt(std::make_unique<FailingDevice>(log)));
      if (!s.ok()) {
        test::require_error(s, StatusCode::kResourceExhausted, "injected");
        ++open_failures;
      } else {
        auto r = (*s)->run(input);
        if (!r.ok()) {
          test::require_error(r, StatusCode::kResourceExhausted, "injected");
          ++run_failures;
        } else {
          CHECK(test::same_bits(*r, want));
        }
        // Room again: the same session runs, and right.
        log->fail_from = -1;
        auto again = (*s)->run(input);
        INFO((again.ok() ? "" : again.status().to_string()));
        REQUIRE(again.ok());
        CHECK(test::same_bits(*again, want));
      }
    }
    // Session and kit gone: every device block went back.
    CHECK(log->live == 0);
  }
  CHECK(open_failures > 0);
  CHECK(run_failures > 0);
}

}  // namespace

TEST_CASE("stress: 8 threads x 500 runs on one session equal a single-threaded run bit for bit",
          "[session][stress][threads]") {
  auto s = open(detection_tail_model());
  const std::vector<std::vector<float>> logits = {{0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f},
                                                  {-1.0f, -2.0f, -0.5f},
                                                  {5.0f, -1.0f, 2.0f, 0.3f, 1.5f},
                                                  {1.0f, 2.0f, 3.0f, 4.0f, -5.0f, 6.0f, 0.25f, 8.0f}};
  test::check_threads_match_one_thread(
      logits.size(), 8, 500, [&](int t, int rep) { return static_cast<size_t>(t * 7 + rep) % logits.size(); },
      [&](size_t i) { return s->run(tail_inputs(logits[i])); });
}

TEST_CASE("stress: 1000 sessions opened, run and closed on one kit leave its pool and device as they were",
          "[session][stress]") {
  auto log = std::make_shared<AllocLog>();
  Kit kit = Kit::adopt(std::make_unique<FailingDevice>(log));
  const std::string model = bytes_of(detection_tail_model());
  const auto input = tail_inputs({0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f});
  // One cycle first: the pool then holds the blocks a cycle needs, idle.
  auto cycle = [&] {
    auto s = open_on(model, kit);
    REQUIRE(s.ok());
    auto r = (*s)->run(input);
    REQUIRE(r.ok());
  };
  cycle();
  const PoolCounters before = kit.pool().counters();
  const int64_t live_before = log->live;
  for (int i = 0; i < 1000; ++i) cycle();
  const PoolCounters after = kit.pool().counters();
  CHECK(after.in_use_bytes == 0);
  CHECK(after.in_use_bytes == before.in_use_bytes);
  // Every block the cycles asked for came from the idle ones: none was leaked or added.
  CHECK(after.blocks_held == before.blocks_held);
  CHECK(log->live == live_before);
  CHECK(after.reuses > before.reuses);
}

TEST_CASE("stress: every device allocation of an open and a run, failed in turn, is a clean ResourceExhausted",
          "[session][stress][alloc-failure]") {
  SECTION("run-time shapes: a NonZero/TopK tail") {
    check_every_allocation_failure(bytes_of(detection_tail_model()),
                                   tail_inputs({0.3f, -1.0f, 2.0f, 0.3f, 1.5f, -2.0f, 0.9f}));
  }
  SECTION("a convolutional net (SqueezeNet)") {
    const fs::path model = test::kData / "light" / "light_squeezenet.onnx";
    test::skip_unless_exists(model);
    const std::string bytes = file_bytes(model);
    auto probe = open_on(bytes, Kit());
    REQUIRE(probe.ok());
    check_every_allocation_failure(bytes, {{(*probe)->inputs()[0].name, test::seeded_image({1, 3, 224, 224}, 5)}});
  }
}

}  // namespace gk

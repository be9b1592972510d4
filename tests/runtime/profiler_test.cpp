#include "runtime/kit/kit.h"
#include "tests/runtime/fake_device.h"

#include <catch2/catch.hpp>

#include <chrono>

using namespace gk;
using gk::test::FakeKit;
using gk::test::test_kernel_source;

namespace {

struct Launcher {
  FakeKit& f;
  GkBuf a, c;
  const Kernel* add;
  const Kernel* saxpy;
  explicit Launcher(FakeKit& fk) : f(fk) {
    a = f.kit.alloc(DType::kF32, 64).value();
    c = f.kit.alloc(DType::kF32, 64).value();
    REQUIRE(a.upload_f64(std::vector<double>(64, 1.0)).ok());
    add = f.kit.kernel(test_kernel_source(), "gk_test_vector_add<float>").value();
    saxpy = f.kit.kernel(test_kernel_source(), "gk_test_saxpy").value();
  }
  void add_once(Profiler* p, const LaunchTag* tag) {
    KernelArgs args;
    args.ptr(a.ptr()).ptr(a.ptr()).ptr(c.ptr()).i64(64);
    REQUIRE(f.kit.launch(*add, grid_for(64), args, p, tag).ok());
  }
  void saxpy_once(Profiler* p, const LaunchTag* tag) {
    KernelArgs args;
    args.f32(2.0f).ptr(a.ptr()).ptr(c.ptr()).i64(64);
    REQUIRE(f.kit.launch(*saxpy, grid_for(64), args, p, tag).ok());
  }
};

}  // namespace

TEST_CASE("no profiler: no events", "[runtime][profiler]") {
  FakeKit f;
  Launcher l(f);
  for (int i = 0; i < 10; ++i) l.add_once(nullptr, nullptr);
  CHECK(f.log->launches == 10);
  CHECK(f.log->events_recorded == 0);
}

TEST_CASE("profiler: one event pair per launch, read after one sync", "[runtime][profiler]") {
  FakeKit f;
  Launcher l(f);
  // The host clock starts before the profiler can record its origin event, so every
  // device-timed interval (CPU steady clock or GPU event clock) lies inside wall_ms.
  const auto t0 = std::chrono::steady_clock::now();
  Profiler prof(f.kit.device());
  const LaunchTag add_tag{"add_1", "Add", "64"}, mul_tag{"mul_1", "Mul", "64"};
  for (int i = 0; i < 7; ++i) l.add_once(&prof, &add_tag);
  for (int i = 0; i < 3; ++i) l.saxpy_once(&prof, &mul_tag);
  CHECK(prof.launches() == 10);
  CHECK(f.log->syncs == 0);  // profiling does not serialise the stream
  REQUIRE(f.kit.sync().ok());
  REQUIRE(prof.resolve().ok());
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  CHECK(f.log->events_recorded == 2 * 10 + 1);  // plus the session origin
  CHECK(f.log->events_released == 2 * 10);
  REQUIRE(prof.records().size() == 10);
  auto rows = prof.by_kernel();
  REQUIRE(rows.size() == 2);
  int64_t calls = 0;
  double percent = 0;
  for (const ProfileRow& r : rows) {
    calls += r.calls;
    percent += r.percent;
    if (r.kernel == "gk_test_vector_add<float>") {
      CHECK(r.calls == 7);
      CHECK(r.nodes == "add_1");
      CHECK(r.op_type == "Add");
    } else {
      CHECK(r.kernel == "gk_test_saxpy");
      CHECK(r.calls == 3);
    }
  }
  CHECK(calls == f.log->launches);
  CHECK(rows[0].total_ms >= rows[1].total_ms);
  CHECK(percent == Approx(100.0));
  CHECK(prof.total_ms() > 0);
  CHECK(prof.total_ms() <= wall_ms);
  for (const KernelRecord& r : prof.records()) CHECK(r.start_ms + r.duration_ms <= wall_ms);
  prof.clear();
  CHECK(f.log->events_released == 2 * 10 + 1);
  CHECK(prof.launches() == 0);
}

TEST_CASE("profiler reports: exact numbers, ranked, table and JSON", "[runtime][profiler]") {
  FakeKit f;
  Launcher l(f);
  Profiler prof(f.kit.device());
  const LaunchTag add1{"add_1", "Add", ""}, add2{"add_2", "Add", ""}, mul1{"mul_1", "Mul", ""};
  f.log->launch_cost_us = 1500;
  l.add_once(&prof, &add1);
  l.add_once(&prof, &add1);
  f.log->launch_cost_us = 500;
  l.saxpy_once(&prof, &mul1);
  f.log->launch_cost_us = 250;
  l.add_once(&prof, &add2);
  REQUIRE(prof.resolve().ok());
  CHECK(prof.total_ms() == 3.75);
  CHECK(prof.records()[3].start_ms == 3.5);

  auto ops = prof.by_op_type();
  REQUIRE(ops.size() == 2);
  CHECK(ops[0].op_type == "Add");
  CHECK(ops[0].calls == 3);
  CHECK(ops[0].total_ms == 3.25);
  CHECK(ops[0].max_us == 1500);
  CHECK(ops[0].median_us == 1500);  // 1500, 1500, 250

  CHECK(prof.json() ==
        "{\"total_ms\":3.75,\"kernels\":["
        "{\"name\":\"gk_test_vector_add<float>\",\"nodes\":\"add_1\",\"op_type\":\"Add\",\"calls\":2,"
        "\"total_ms\":3,\"percent\":80,\"mean_us\":1500,\"median_us\":1500,\"max_us\":1500},"
        "{\"name\":\"gk_test_saxpy\",\"nodes\":\"mul_1\",\"op_type\":\"Mul\",\"calls\":1,"
        "\"total_ms\":0.5,\"percent\":13.333333333333334,\"mean_us\":500,\"median_us\":500,\"max_us\":500},"
        "{\"name\":\"gk_test_vector_add<float>\",\"nodes\":\"add_2\",\"op_type\":\"Add\",\"calls\":1,"
        "\"total_ms\":0.25,\"percent\":6.666666666666667,\"mean_us\":250,\"median_us\":250,\"max_us\":250}],"
        "\"op_types\":["
        "{\"op_type\":\"Add\",\"calls\":3,\"total_ms\":3.25,\"percent\":86.66666666666667,"
        "\"mean_us\":1083.3333333333333,\"median_us\":1500,\"max_us\":1500},"
        "{\"op_type\":\"Mul\",\"calls\":1,\"total_ms\":0.5,\"percent\":13.333333333333334,"
        "\"mean_us\":500,\"median_us\":500,\"max_us\":500}]}");
  CHECK(prof.json(1).find("add_2") == std::string::npos);

  const std::string table = prof.table();
  CHECK(table ==
        "kernel                     node(s)  op type  calls  total ms     %  mean µs  median µs  max µs\n"
        "gk_test_vector_add<float>  add_1    Add          2     3.000  80.0   1500.0     1500.0  1500.0\n"
        "gk_test_saxpy              mul_1    Mul          1     0.500  13.3    500.0      500.0   500.0\n"
        "gk_test_vector_add<float>  add_2    Add          1     0.250   6.7    250.0      250.0   250.0\n"
        "total 3.750 ms in 4 launches\n");
}

TEST_CASE("profiler JSON escapes strings", "[runtime][profiler]") {
  FakeKit f;
  Launcher l(f);
  Profiler prof(f.kit.device());
  const LaunchTag odd{"a\"b\\c\nd\x01", "Op\t", ""};
  l.add_once(&prof, &odd);
  REQUIRE(prof.resolve().ok());
  const std::string j = prof.json();
  CHECK(j.find("\"nodes\":\"a\\\"b\\\\c\\nd\\u0001\"") != std::string::npos);
  CHECK(j.find("\"op_type\":\"Op\\t\"") != std::string::npos);
}

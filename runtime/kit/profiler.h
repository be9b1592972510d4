// Per-kernel timing. With profiling on, each launch is bracketed by two events
// (host clock on CPU); the pairs are read once after the run's sync, so profiling
// adds no sync per kernel. Time and calls accumulate per kernel name and per
// caller tag (the executor passes ONNX node names and op type).
#pragma once

#include "backends/device.h"

#include <mutex>
#include <string>
#include <vector>

namespace gk {

struct LaunchTag {
  std::string nodes;    // ONNX node name(s) the kernel covers, comma-separated
  std::string op_type;  // "Conv", "Conv+Relu", ...
  std::string shapes;   // input shapes, for traces
};

struct KernelRecord {      // one launch, after resolve()
  std::string kernel;
  LaunchTag tag;
  double start_ms = 0;     // from the first event of the session
  double duration_ms = 0;
};

struct ProfileRow {
  std::string kernel;
  std::string nodes;
  std::string op_type;
  int64_t calls = 0;
  // The median is what a launch costs where another process shares the core: the
  // mean carries the scheduler's 4 ms slices (a 0.12 ms depthwise conv profiled at
  // a 0.27 ms mean beside a build, median 0.12).
  double total_ms = 0, mean_us = 0, median_us = 0, max_us = 0, percent = 0;
};

class Profiler {
 public:
  explicit Profiler(Device& device) : device_(device) {}
  ~Profiler();

  // Called by Kit::launch around a launch.
  Result<EventId> begin();
  Status end(EventId begin_event, std::string kernel, LaunchTag tag);
  // After the run's sync: read every pending event pair into records.
  Status resolve();

  const std::vector<KernelRecord>& records() const { return records_; }
  int64_t launches() const { return static_cast<int64_t>(records_.size() + pending_.size()); }
  void clear();

  // Ranked by total time: rows keyed by (kernel, nodes) and by op type.
  std::vector<ProfileRow> by_kernel() const;
  std::vector<ProfileRow> by_op_type() const;
  double total_ms() const;
  std::string table(size_t top = 0) const;  // aligned text
  std::string json(size_t top = 0) const;   // {"kernels":[...],"op_types":[...]}

 private:
  struct Pending {
    EventId begin, end;
    std::string kernel;
    LaunchTag tag;
  };
  Device& device_;
  std::mutex mutex_;
  std::vector<Pending> pending_;
  std::vector<KernelRecord> records_;
  EventId origin_ = 0;
  bool has_origin_ = false;
};

}  // namespace gk

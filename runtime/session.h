// The public C++ API: open a model once, run it many times, from many threads.
//
//   auto session = gk::Session::open("model.onnx", {.backend = "auto"});
//   auto outputs = (*session)->run({{"x", tensor}});
//
// The session is immutable after load; each run has its own frame (arena,
// inputs, outputs), so concurrent run() calls on one session are safe. A new set
// of input shapes plans once (shape inference, plan-time evaluation of shape
// arithmetic, memory plan); the plan is cached by shape signature.
#pragma once

#include "graph/ir.h"
#include "runtime/kit/kit.h"

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gk {

struct SessionOptions {
  std::string backend = "auto";            // auto | cpu | cuda
  int device = -1;                         // CUDA ordinal; -1: GK_DEVICE or the best
  int threads = 0;                         // CPU workers; 0: all cores
  std::set<std::string> disabled_passes;   // pass names (see graph/passes)
  bool cuda_graphs = true;                 // capture the second run of a shape, replay later
  size_t memory_budget = 0;                // idle bytes the pool keeps; 0 = unlimited
  // The most device bytes one plan may need (its arena, device constants and
  // per-run outputs); a plan over it is refused with ResourceExhausted naming the
  // need and the limit, before any run allocates. 0 = unlimited.
  size_t memory_limit = 0;
  Kit kit;                                 // share a device and pool with other sessions
  // Prefixed to the node names in profiles and traces ("det/"), so sessions sharing
  // one profiler keep their rows apart.
  std::string profile_prefix;
};

// A graph input or output: dims are known (value >= 0) or named symbols.
struct IoDesc {
  std::string name;
  DType dtype = DType::kUndefined;  // a sequence's element type
  std::vector<Dim> dims;
  bool has_shape = false;
  ValueKind kind = ValueKind::kTensor;
};

struct NamedTensor {
  std::string name;
  HostTensor tensor;
  // A sequence value (ONNX seq(tensor)): its elements, and `tensor` is unused.
  std::shared_ptr<const std::vector<HostTensor>> sequence = nullptr;
  bool none = false;  // an empty optional
};

// A device-resident tensor: the buffer and its shape. String tensors cannot live
// on a device: they travel as `host` with an empty `buf`, and the plan reads them
// by value.
struct NamedBuf {
  std::string name;
  GkBuf buf;
  Shape shape;
  std::shared_ptr<const HostTensor> host = nullptr;
  // A sequence value: its elements (immutable once built; ops that change a
  // sequence make a new list sharing the untouched elements).
  std::shared_ptr<const std::vector<NamedBuf>> sequence = nullptr;
  // An empty optional (ONNX optional(...) with no value). An optional that holds a
  // value is that tensor or sequence.
  bool none = false;

  DType dtype() const { return host ? host->dtype() : buf.dtype(); }
  int64_t count() const { return host ? host->numel() : buf.count(); }
};

struct RunOptions {
  Profiler* profiler = nullptr;  // tag every launch with its ONNX node(s) and op type
  // Checked before each step (a node, each iteration of a Loop or Scan body): past
  // the deadline the run stops with DeadlineExceeded; once *cancel is true (set from
  // any thread) with Cancelled. A kernel already launched runs to its end, and on
  // CUDA the check sees enqueue time, not the device's. The session stays usable.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  const std::atomic<bool>* cancel = nullptr;

  bool limited() const { return cancel || deadline != std::chrono::steady_clock::time_point::max(); }
  // A deadline `seconds` from now (<= 0: already past).
  static std::chrono::steady_clock::time_point deadline_in(double seconds);
};

struct RunInfo {
  bool new_plan = false;          // this run planned a new shape signature
  bool graph_replayed = false;    // CUDA: this run replayed a captured graph
  bool graph_captured = false;
  // Steps the replay covered: all of them, or the static ones ahead of the first
  // step with run-time shapes (the rest ran as plain launches after it).
  int replayed_steps = 0;
  std::string graph_fallback;     // why this shape runs without a CUDA graph, if it does
  // Steps of the main graph planned during this run (their shapes came from the
  // run's data), and the host reads of device data they made, each a sync.
  int runtime_steps = 0;
  int host_reads = 0;
};

// What `gkrun info` and `bench` report about a plan.
struct PlanSummary {
  size_t planned_peak_bytes = 0;
  size_t naive_bytes = 0;
  size_t lower_bound_bytes = 0;
  size_t constant_bytes = 0;      // initializers and plan-time values on the device
  int device_nodes = 0;           // launched per run
  int host_nodes = 0;             // evaluated at plan time (shape arithmetic, constants)
  int dynamic_nodes = 0;          // shapes known only during the run
  // Those steps, as "node (Op)", in execution order.
  std::vector<std::string> runtime_steps;
  std::string table;              // per-tensor table (name, bytes, offset, first, last)
  // Arena bytes alive at each launched step, keyed by the step's node names (the
  // profiler's LaunchTag::nodes): the memory counter track of a trace.
  std::map<std::string, size_t> live_bytes_by_nodes;
};

class Executor;
struct Plan;

class Session {
 public:
  static Result<std::shared_ptr<Session>> open(const std::string& path, SessionOptions options = {});
  static Result<std::shared_ptr<Session>> open_from_memory(const void* data, size_t size,
                                                           SessionOptions options = {});
  ~Session();

  const std::vector<IoDesc>& inputs() const { return inputs_; }
  const std::vector<IoDesc>& outputs() const { return outputs_; }
  const Model& model() const { return model_; }
  Kit kit() const { return kit_; }
  BackendKind backend() const { return kit_.backend(); }

  // Host tensors in, host tensors out (in the model's output order).
  Result<std::vector<NamedTensor>> run(const std::vector<NamedTensor>& inputs,
                                       const RunOptions& options = {}, RunInfo* info = nullptr) const;
  // Device-resident: inputs bound without a copy, outputs returned as GkBufs.
  Result<std::vector<NamedBuf>> run_device(const std::vector<NamedBuf>& inputs,
                                           const RunOptions& options = {}, RunInfo* info = nullptr) const;

  // Plans (or finds) the plan for these input shapes; for info and bench.
  Result<PlanSummary> plan_summary(const std::vector<std::pair<std::string, Shape>>& input_shapes,
                                   bool per_tensor_table = false) const;
  size_t plans_created() const;

 private:
  Session() = default;
  static Result<std::shared_ptr<Session>> finish_open(Model model, SessionOptions options);

  Model model_;
  SessionOptions options_;
  Kit kit_;
  Kit host_kit_;  // the CPU kit for plan-time evaluation (== kit_ on the CPU backend)
  std::vector<IoDesc> inputs_, outputs_;
  std::unique_ptr<Executor> executor_;
};

// Opens the kit `options` asks for: "auto" tries CUDA and falls back to CPU.
Result<Kit> open_kit(const std::string& backend, int device, int threads, size_t memory_budget);

}  // namespace gk

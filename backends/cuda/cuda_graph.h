// CUDA Graph capture of the device's stream, and rebinding of the captured
// kernels' pointer arguments so one graph serves new inputs and outputs.
#pragma once

#include "backends/cuda/cuda_context.h"
#include "backends/device.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace gk::cuda {

class CudaGraphs final : public GraphCapture {
 public:
  explicit CudaGraphs(const CudaContext& context) : c_(context) {}
  ~CudaGraphs() override;

  bool capturing() const { return capturing_.load(std::memory_order_acquire); }
  // True when the calling thread holds the open capture.
  bool capturing_here() const;
  // The stream is shared: while one thread captures, the others' stream work
  // would land in its graph, so they wait here until the capture closes.
  void wait_for_other_capture();
  // The device reports each launch made while capturing: the driver's kernel node
  // holds raw parameter bytes, and only these records say which are pointers.
  void record_launch(CUfunction function, const KernelArgs& args);

  Status begin_capture() override;
  Result<GraphId> end_capture() override;
  Status launch_graph(GraphId graph) override;
  Status rebind_pointers(GraphId graph, const std::vector<PointerRemap>& remap) override;
  void destroy_graph(GraphId graph) override;

 private:
  struct Launch {
    CUfunction function;
    KernelArgs args;
  };
  struct Node {
    CUgraphNode node;
    CudaKernelNodeParams params;  // as captured; kernelParams not kept
    KernelArgs args;              // current values, after any rebinding
  };
  struct Graph {
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    std::vector<Node> kernels;
  };

  Result<std::vector<Node>> match_nodes(CUgraph graph, std::vector<Launch>& launches) const;
  void release(Graph& g) const;

  const CudaContext& c_;
  mutable std::mutex mutex_;
  std::condition_variable capture_closed_;
  std::atomic<bool> capturing_{false};
  std::thread::id owner_;
  std::vector<Launch> launches_;
  std::unordered_map<GraphId, Graph> graphs_;
  GraphId next_id_ = 1;
};

}  // namespace gk::cuda

// CUDA Graph capture of the device's stream, and rebinding of the captured
// kernels' pointer arguments so one graph serves new inputs and outputs.
#pragma once

#include "backends/cuda/cuda_context.h"
#include "backends/device.h"

#include <atomic>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace gk::cuda {

class CudaGraphs final : public GraphCapture {
 public:
  explicit CudaGraphs(const CudaContext& context) : c_(context) {}
  ~CudaGraphs() override;

  bool capturing() const { return capturing_.load(std::memory_order_acquire); }
  // The device reports each launch made while capturing: the driver's kernel node
  // holds raw parameter bytes, and only these records say which are pointers.
  void record_launch(CUfunction function, const KernelArgs& args);

  Status begin_capture() override;
  Result<GraphId> end_capture() override;
  Status launch_graph(GraphId graph) override;
  Status rebind_pointers(GraphId graph, const std::vector<std::pair<DevPtr, DevPtr>>& remap) override;
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
  std::mutex mutex_;
  std::atomic<bool> capturing_{false};
  std::vector<Launch> launches_;
  std::unordered_map<GraphId, Graph> graphs_;
  GraphId next_id_ = 1;
};

}  // namespace gk::cuda

// Graph capture for the CPU backend: the capturing thread's launches, copies and
// memsets are recorded and replayed in order. It mirrors CUDA Graph semantics
// (nothing runs while capturing; uploads, downloads and syncs are refused), so
// the executor's capture, rebind and fallback paths run and are tested here.
#pragma once

#include "backends/device.h"

#include <atomic>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace gk {

class CpuGraphs final : public GraphCapture {
 public:
  explicit CpuGraphs(Device& device) : device_(device) {}

  // True when the calling thread is capturing; the device then hands its work here.
  bool capturing_here() const;
  void record_launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args);
  void record_copy(DevPtr dst, DevPtr src, size_t bytes);
  void record_memset(DevPtr dst, uint8_t value, size_t bytes);

  Status begin_capture() override;
  Result<GraphId> end_capture() override;
  Status launch_graph(GraphId graph) override;
  Status rebind_pointers(GraphId graph, const std::vector<PointerRemap>& remap) override;
  void destroy_graph(GraphId graph) override;

 private:
  enum class Kind : uint8_t { kLaunch, kCopy, kMemset };
  struct Item {
    Kind kind = Kind::kLaunch;
    const Kernel* kernel = nullptr;
    LaunchConfig config;
    KernelArgs args;
    DevPtr dst = 0, src = 0;
    size_t bytes = 0;
    uint8_t value = 0;
  };

  void record(Item item);

  Device& device_;
  mutable std::mutex mutex_;
  std::atomic<bool> capturing_{false};
  std::thread::id owner_;
  std::vector<Item> recording_;
  std::unordered_map<GraphId, std::vector<Item>> graphs_;
  GraphId next_id_ = 1;
};

}  // namespace gk

#include "backends/cpu/cpu_graph.h"

namespace gk {

bool CpuGraphs::capturing_here() const {
  if (!capturing_.load(std::memory_order_acquire)) return false;
  std::lock_guard lock(mutex_);
  return capturing_ && owner_ == std::this_thread::get_id();
}

void CpuGraphs::record(Item item) {
  std::lock_guard lock(mutex_);
  recording_.push_back(std::move(item));
}

void CpuGraphs::record_launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) {
  Item item;
  item.kind = Kind::kLaunch;
  item.kernel = &kernel;
  item.config = config;
  item.args = args;
  record(std::move(item));
}

void CpuGraphs::record_copy(DevPtr dst, DevPtr src, size_t bytes) {
  Item item;
  item.kind = Kind::kCopy;
  item.dst = dst;
  item.src = src;
  item.bytes = bytes;
  record(std::move(item));
}

void CpuGraphs::record_memset(DevPtr dst, uint8_t value, size_t bytes) {
  Item item;
  item.kind = Kind::kMemset;
  item.dst = dst;
  item.value = value;
  item.bytes = bytes;
  record(std::move(item));
}

Status CpuGraphs::begin_capture() {
  std::lock_guard lock(mutex_);
  if (capturing_) return invalid_argument("cpu: begin_capture while a capture is already open");
  recording_.clear();
  owner_ = std::this_thread::get_id();
  capturing_.store(true, std::memory_order_release);
  return ok_status();
}

Result<GraphId> CpuGraphs::end_capture() {
  std::lock_guard lock(mutex_);
  if (!capturing_) return invalid_argument("cpu: end_capture without begin_capture");
  if (owner_ != std::this_thread::get_id())
    return invalid_argument("cpu: end_capture from a thread that did not begin the capture");
  capturing_.store(false, std::memory_order_release);
  const GraphId id = next_id_++;
  graphs_.emplace(id, std::move(recording_));
  recording_.clear();
  return id;
}

Status CpuGraphs::launch_graph(GraphId graph) {
  std::vector<Item> items;
  {
    std::lock_guard lock(mutex_);
    auto it = graphs_.find(graph);
    if (it == graphs_.end()) return invalid_argument("cpu: unknown graph id {}", graph);
    if (capturing_ && owner_ == std::this_thread::get_id())
      return invalid_argument("cpu: launch_graph while this thread is capturing");
    items = it->second;  // a copy: replays on other threads may rebind meanwhile
  }
  for (const Item& item : items) {
    switch (item.kind) {
      case Kind::kLaunch: GK_RETURN_IF_ERROR(device_.launch(*item.kernel, item.config, item.args)); break;
      case Kind::kCopy: GK_RETURN_IF_ERROR(device_.copy(item.dst, item.src, item.bytes)); break;
      case Kind::kMemset: GK_RETURN_IF_ERROR(device_.memset(item.dst, item.value, item.bytes)); break;
    }
  }
  return ok_status();
}

Status CpuGraphs::rebind_pointers(GraphId graph, const std::vector<PointerRemap>& remap) {
  std::lock_guard lock(mutex_);
  auto it = graphs_.find(graph);
  if (it == graphs_.end()) return invalid_argument("cpu: unknown graph id {}", graph);
  for (Item& item : it->second) {
    item.dst = remap_pointer(item.dst, remap);
    item.src = remap_pointer(item.src, remap);
    for (size_t i = 0; i < item.args.size(); ++i)
      if (item.args.kind(i) == ArgKind::kPtr) item.args.set_ptr(i, remap_pointer(item.args.get<DevPtr>(i), remap));
  }
  return ok_status();
}

void CpuGraphs::destroy_graph(GraphId graph) {
  std::lock_guard lock(mutex_);
  graphs_.erase(graph);
}

}  // namespace gk

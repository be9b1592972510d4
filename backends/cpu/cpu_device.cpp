#include "backends/cpu/cpu_device.h"

#include "backends/cpu/cpu_isa.h"

#include "backends/cpu/cpu_graph.h"
#include "backends/cpu/cuda_compat.h"
#include "backends/cpu/thread_pool.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

thread_local gk_dim3 threadIdx;
thread_local gk_dim3 blockIdx;
thread_local gk_dim3 blockDim;
thread_local gk_dim3 gridDim;
thread_local gk_cpu_part gk_part;

namespace gk {
namespace {

// Below this many loop iterations per worker a range kernel runs on fewer workers:
// waking a thread costs about as much as 16K float adds. // untuned
constexpr int64_t kMinRangePerWorker = 16 * 1024;
constexpr size_t kAlignment = 64;

std::string strip_spaces(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\t' && c != '\n') out += c;
  return out;
}

size_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return size_t{1} << 34;
  return static_cast<size_t>(pages) * static_cast<size_t>(page);
}

class CpuDevice final : public Device {
 public:
  explicit CpuDevice(CpuDeviceOptions options) : pool_(options.threads) {
    // The one place the kernels' ISA is chosen: each family's table compiled for
    // the active ISA, for the device's lifetime.
    const CpuIsa isa = active_cpu_isa();
    for (const CpuIsaTables& tables : options.kernel_tables)
      for (const CpuKernelEntry& e : tables.for_isa(isa)) kernels_.emplace(strip_spaces(e.name), Kernel{e.name, const_cast<CpuKernelEntry*>(&e)});
    info_.kind = BackendKind::kCpu;
    info_.name = "cpu";
    info_.isa = cpu_isa_name(isa);
    info_.total_bytes = physical_memory();
    info_.threads = pool_.size();
    if (options.graphs) graphs_ = std::make_unique<CpuGraphs>(*this);
  }

  const DeviceInfo& info() const override { return info_; }

  MemoryInfo memory_info() const override {
    long avail = sysconf(_SC_AVPHYS_PAGES);
    long page = sysconf(_SC_PAGE_SIZE);
    return {avail > 0 ? static_cast<size_t>(avail) * static_cast<size_t>(page) : 0, info_.total_bytes};
  }

  Result<DevPtr> alloc(size_t bytes) override {
    if (bytes > info_.total_bytes)
      return resource_exhausted("cpu: allocation of {} bytes exceeds the machine's {} bytes", bytes,
                                info_.total_bytes);
    size_t rounded = (std::max<size_t>(bytes, 1) + kAlignment - 1) / kAlignment * kAlignment;
    void* p = std::aligned_alloc(kAlignment, rounded);
    if (!p) return resource_exhausted("cpu: out of memory allocating {} bytes", bytes);
    return static_cast<DevPtr>(reinterpret_cast<uintptr_t>(p));
  }

  Status free(DevPtr ptr) override {
    std::free(reinterpret_cast<void*>(static_cast<uintptr_t>(ptr)));
    return ok_status();
  }

  Status upload(DevPtr dst, const void* src, size_t bytes) override {
    GK_RETURN_IF_ERROR(no_capture("upload"));
    if (bytes) std::memcpy(as_ptr(dst), src, bytes);
    return ok_status();
  }
  Status download(void* dst, DevPtr src, size_t bytes) override {
    GK_RETURN_IF_ERROR(no_capture("download"));
    if (bytes) std::memcpy(dst, as_ptr(src), bytes);
    return ok_status();
  }
  Status copy(DevPtr dst, DevPtr src, size_t bytes) override {
    if (graphs_ && graphs_->capturing_here()) {
      if (bytes) graphs_->record_copy(dst, src, bytes);
      return ok_status();
    }
    if (bytes) std::memmove(as_ptr(dst), as_ptr(src), bytes);
    return ok_status();
  }
  Status memset(DevPtr dst, uint8_t value, size_t bytes) override {
    if (graphs_ && graphs_->capturing_here()) {
      if (bytes) graphs_->record_memset(dst, value, bytes);
      return ok_status();
    }
    if (bytes) std::memset(as_ptr(dst), value, bytes);
    return ok_status();
  }

  Result<const Kernel*> compile(const KernelSource& source, std::string_view entry) override {
    auto it = kernels_.find(strip_spaces(entry));
    if (it == kernels_.end())
      return unimplemented("cpu: kernel '{}' (source '{}') is not compiled into the CPU backend",
                           entry, source.name);
    std::lock_guard lock(stats_mutex_);
    ++stats_.memory_hits;
    return &it->second;
  }

  Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) override {
    const auto& entry = *static_cast<const CpuKernelEntry*>(kernel.native);
    if (args.size() != entry.arity)
      return invalid_argument("cpu: kernel '{}' takes {} arguments, got {}", entry.name, entry.arity,
                              args.size());
    for (size_t i = 0; i < entry.arity; ++i)
      if (args.kind(i) != entry.signature[i].kind || args.arg_bytes(i) != entry.signature[i].bytes)
        return invalid_argument("cpu: kernel '{}' argument {} is {} ({} bytes), got {} ({} bytes)",
                                entry.name, i, arg_kind_name(entry.signature[i].kind),
                                entry.signature[i].bytes, arg_kind_name(args.kind(i)),
                                args.arg_bytes(i));
    const Dim3 g = config.grid, b = config.block;
    const int64_t blocks = int64_t{g.x} * g.y * g.z;
    const int64_t threads_per_block = int64_t{b.x} * b.y * b.z;
    if (blocks <= 0 || threads_per_block <= 0)
      return invalid_argument("cpu: kernel '{}' launched with an empty grid", entry.name);
    if (graphs_ && graphs_->capturing_here()) {
      graphs_->record_launch(kernel, config, args);
      return ok_status();
    }
    auto set_dims = [&] {
      gridDim = {g.x, g.y, g.z};
      blockDim = {b.x, b.y, b.z};
    };
    auto set_block = [&](int64_t block) {
      blockIdx = {static_cast<unsigned>(block % g.x), static_cast<unsigned>((block / g.x) % g.y),
                  static_cast<unsigned>(block / (int64_t{g.x} * g.y))};
    };
    switch (entry.mode) {
      case CpuKernelMode::kRange: {
        const int64_t total = blocks * threads_per_block;
        const int64_t parts = std::clamp<int64_t>(total / kMinRangePerWorker, 1, pool_.size());
        pool_.parallel_for(parts, [&](int64_t part) {
          set_dims();
          blockIdx = {0, 0, 0};
          threadIdx = {0, 0, 0};
          gk_part = {part, parts};
          entry.invoke(args);
        });
        break;
      }
      case CpuKernelMode::kThreads:
        pool_.parallel_for(blocks, [&](int64_t block) {
          set_dims();
          set_block(block);
          for (int64_t t = 0; t < threads_per_block; ++t) {
            threadIdx = {static_cast<unsigned>(t % b.x), static_cast<unsigned>((t / b.x) % b.y),
                         static_cast<unsigned>(t / (int64_t{b.x} * b.y))};
            gk_part = {block * threads_per_block + t, blocks * threads_per_block};
            entry.invoke(args);
          }
        });
        break;
      case CpuKernelMode::kBlocks:
        pool_.parallel_for(blocks, [&](int64_t block) {
          set_dims();
          set_block(block);
          threadIdx = {0, 0, 0};
          gk_part = {block, blocks};
          entry.invoke(args);
        });
        break;
    }
    return ok_status();
  }

  Status sync() override { return no_capture("sync"); }

  Result<EventId> record_event() override {
    std::lock_guard lock(events_mutex_);
    EventId id = next_event_++;
    events_[id] = std::chrono::steady_clock::now();
    return id;
  }
  Result<double> elapsed_ms(EventId start, EventId end) override {
    std::lock_guard lock(events_mutex_);
    auto a = events_.find(start), b = events_.find(end);
    if (a == events_.end() || b == events_.end())
      return invalid_argument("cpu: unknown event id {} or {}", start, end);
    return std::chrono::duration<double, std::milli>(b->second - a->second).count();
  }
  void release_event(EventId event) override {
    std::lock_guard lock(events_mutex_);
    events_.erase(event);
  }

  CompileStats compile_stats() const override {
    std::lock_guard lock(stats_mutex_);
    return stats_;
  }
  GraphCapture* graphs() override { return graphs_.get(); }

 private:
  static void* as_ptr(DevPtr p) { return reinterpret_cast<void*>(static_cast<uintptr_t>(p)); }
  Status no_capture(const char* what) const {
    if (graphs_ && graphs_->capturing_here())
      return invalid_argument("cpu: {} while this thread captures a graph (only launches, copies and memsets "
                              "can be captured)", what);
    return ok_status();
  }

  ThreadPool pool_;
  DeviceInfo info_;
  std::unordered_map<std::string, Kernel> kernels_;
  mutable std::mutex stats_mutex_;
  CompileStats stats_;
  std::mutex events_mutex_;
  std::unordered_map<EventId, std::chrono::steady_clock::time_point> events_;
  EventId next_event_ = 1;
  std::unique_ptr<CpuGraphs> graphs_;
};

}  // namespace

std::unique_ptr<Device> make_cpu_device(CpuDeviceOptions options) {
  return std::make_unique<CpuDevice>(std::move(options));
}

}  // namespace gk

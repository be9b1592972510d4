// A test double for the kit tests: forwards to the test backend (CPU, or CUDA with
// GK_TEST_BACKEND=cuda: tests/runtime/test_device.h) and counts what the kit asks
// of the device. `capacity` makes it refuse allocations past a total, the
// way a full GPU does, so the pool's trim-and-retry path can be driven.
#pragma once

#include "backends/device.h"
#include "runtime/kit/kit.h"
#include "tests/backends/test_kernels.h"
#include "tests/runtime/test_device.h"
#include "tests/support/forwarding_device.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

namespace gk::test {

struct DeviceLog {
  std::atomic<int64_t> allocs{0}, failed_allocs{0}, frees{0}, launches{0}, syncs{0};
  std::atomic<int64_t> events_recorded{0}, events_released{0}, compiles{0};
  std::atomic<int64_t> live_blocks{0};
  std::atomic<bool> destroyed{false};
  std::atomic<int64_t> live_blocks_at_destruction{-1};
  // >= 0: events read a virtual clock that each launch advances by this much, so
  // profiler reports are exact numbers.
  std::atomic<int64_t> launch_cost_us{-1};
};

class FakeDevice final : public ForwardingDevice {
 public:
  FakeDevice(std::shared_ptr<DeviceLog> log, size_t capacity = SIZE_MAX, int threads = 2)
      : ForwardingDevice(make_test_device(threads)), log_(std::move(log)), capacity_(capacity) {}
  ~FakeDevice() override {
    log_->live_blocks_at_destruction = log_->live_blocks.load();
    log_->destroyed = true;
  }

  MemoryInfo memory_info() const override { return {capacity_ - live_bytes_, capacity_}; }

  Result<DevPtr> alloc(size_t bytes) override {
    std::lock_guard lock(mutex_);
    if (bytes > capacity_ - live_bytes_) {
      ++log_->failed_allocs;
      return resource_exhausted("fake: {} bytes requested, {} of {} in use", bytes, live_bytes_,
                                capacity_);
    }
    GK_TRY(DevPtr p, inner_->alloc(bytes));
    sizes_[p] = bytes;
    live_bytes_ += bytes;
    ++log_->allocs;
    ++log_->live_blocks;
    return p;
  }
  Status free(DevPtr ptr) override {
    {
      std::lock_guard lock(mutex_);
      auto it = sizes_.find(ptr);
      if (it == sizes_.end()) return internal_error("fake: free of unknown pointer {:#x}", ptr);
      live_bytes_ -= it->second;
      sizes_.erase(it);
    }
    ++log_->frees;
    --log_->live_blocks;
    return inner_->free(ptr);
  }
  Result<const Kernel*> compile(const KernelSource& source, std::string_view entry) override {
    ++log_->compiles;
    return inner_->compile(source, entry);
  }
  Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) override {
    ++log_->launches;
    clock_us_ += std::max<int64_t>(log_->launch_cost_us, 0);
    return inner_->launch(kernel, config, args);
  }
  Status sync() override {
    ++log_->syncs;
    return inner_->sync();
  }
  Result<EventId> record_event() override {
    ++log_->events_recorded;
    GK_TRY(EventId id, inner_->record_event());
    std::lock_guard lock(mutex_);
    stamps_[id] = clock_us_;
    return id;
  }
  Result<double> elapsed_ms(EventId start, EventId end) override {
    if (log_->launch_cost_us < 0) return inner_->elapsed_ms(start, end);
    std::lock_guard lock(mutex_);
    return static_cast<double>(stamps_.at(end) - stamps_.at(start)) / 1000.0;
  }
  void release_event(EventId event) override {
    ++log_->events_released;
    inner_->release_event(event);
  }

 private:
  std::shared_ptr<DeviceLog> log_;
  size_t capacity_;
  std::mutex mutex_;
  size_t live_bytes_ = 0;
  std::map<DevPtr, size_t> sizes_;
  std::atomic<int64_t> clock_us_{0};
  std::map<EventId, int64_t> stamps_;
};

// A kit over a FakeDevice, and the log that outlives it.
struct FakeKit {
  std::shared_ptr<DeviceLog> log = std::make_shared<DeviceLog>();
  Kit kit;
  explicit FakeKit(PoolOptions pool = {}, size_t capacity = SIZE_MAX, bool autosync = false)
      : kit(Kit::adopt(std::make_unique<FakeDevice>(log, capacity), pool, autosync)) {}
};

}  // namespace gk::test

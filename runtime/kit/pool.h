// The pooled device allocator: blocks in size classes; a freed block goes idle and
// serves the next request of its class; an idle budget trims least-recently-used
// idle blocks; allocation failure trims and retries before giving up.
#pragma once

#include "backends/device.h"

#include <cstdint>
#include <list>
#include <map>
#include <mutex>

namespace gk {

struct PoolCounters {
  int64_t blocks_held = 0;       // blocks owned by the pool (in use + idle)
  int64_t idle_blocks = 0;
  size_t idle_bytes = 0;
  size_t in_use_bytes = 0;       // class sizes of blocks handed out
  size_t peak_in_use_bytes = 0;
  int64_t device_allocs = 0;     // successful calls to Device::alloc
  int64_t device_frees = 0;
  int64_t reuses = 0;            // requests served from idle blocks
};

struct PoolOptions {
  bool enabled = true;     // off: every free goes straight to the device
  size_t idle_budget = 0;  // bytes of idle blocks kept; 0 = unlimited
};

class Pool {
 public:
  Pool(Device& device, PoolOptions options);
  ~Pool();  // hands every idle block back; in-use blocks must be gone
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;

  // Size class of a request: rounded up so near sizes share blocks.
  static size_t size_class(size_t bytes);

  Result<DevPtr> acquire(size_t bytes);  // returns a block of size_class(bytes)
  void give_back(DevPtr ptr, size_t bytes);
  void release();                        // every idle block back to the device
  void set_idle_budget(size_t bytes);
  PoolCounters counters() const;

 private:
  void trim_to(size_t budget);  // mutex held

  Device& device_;
  PoolOptions options_;
  mutable std::mutex mutex_;
  struct Idle {
    DevPtr ptr;
    size_t bytes;
  };
  std::list<Idle> lru_;                                       // front = least recent
  std::multimap<size_t, std::list<Idle>::iterator> by_size_;  // class -> idle block
  PoolCounters counters_;
};

// Process-wide totals over every pool alive (readable at any time).
PoolCounters global_pool_counters();

}  // namespace gk

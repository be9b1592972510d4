// Private to runtime/kit: what a Kit handle and a GkBuf block share.
#pragma once

#include "backends/device.h"
#include "runtime/kit/pool.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace gk::kit_detail {

struct KitState {
  KitState(std::unique_ptr<Device> d, PoolOptions pool_options, bool sync_each_launch)
      : device(std::move(d)), pool(std::make_unique<Pool>(*device, pool_options)),
        autosync(sync_each_launch) {}
  // The pool hands its idle blocks back through the device, so it goes first; the
  // kernels are owned by the device and go with it.
  ~KitState() {
    kernels.clear();
    pool.reset();
    device.reset();
  }
  KitState(const KitState&) = delete;
  KitState& operator=(const KitState&) = delete;

  std::unique_ptr<Device> device;
  std::unique_ptr<Pool> pool;
  std::atomic<bool> autosync;
  std::mutex kernels_mutex;
  std::map<std::pair<uint64_t, std::string>, const Kernel*, std::less<>> kernels;
};

// One pooled allocation. Holding the kit state keeps the device alive for as long
// as any buffer or view over this block exists.
struct Block {
  Block(std::shared_ptr<KitState> k, DevPtr p, size_t n) : kit(std::move(k)), ptr(p), bytes(n) {}
  ~Block() { kit->pool->give_back(ptr, bytes); }
  Block(const Block&) = delete;
  Block& operator=(const Block&) = delete;

  std::shared_ptr<KitState> kit;
  DevPtr ptr;
  size_t bytes;  // the request; the pool knows its class
};

}  // namespace gk::kit_detail

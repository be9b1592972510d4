#include "runtime/kit/pool.h"

#include <atomic>
#include <bit>

namespace gk {
namespace {

// Size classes. Below 1 MiB a request rounds up to a multiple of 512 B: small
// tensors (biases, shape vectors, scalars) then share few classes and lose at most
// 511 B each, and 512 B is the alignment cuMemAlloc gives anyway. From 1 MiB on,
// each power-of-two range is cut into 8 equal steps, so a class wastes under 12.5%
// of its request; plain powers of two would waste up to 50% on a large activation
// (a 130 MiB tensor would take a 256 MiB block).
constexpr size_t kSmallStep = 512;
constexpr size_t kLargeFrom = size_t{1} << 20;
constexpr int kStepsPerOctave = 8;

struct GlobalCounters {
  std::atomic<int64_t> blocks_held{0}, idle_blocks{0};
  std::atomic<size_t> idle_bytes{0}, in_use_bytes{0}, peak_in_use_bytes{0};
  std::atomic<int64_t> device_allocs{0}, device_frees{0}, reuses{0};
};
GlobalCounters& global() {
  static GlobalCounters g;
  return g;
}

void note_in_use(size_t delta_up) {
  auto& g = global();
  size_t now = g.in_use_bytes.fetch_add(delta_up) + delta_up;
  size_t peak = g.peak_in_use_bytes.load();
  while (now > peak && !g.peak_in_use_bytes.compare_exchange_weak(peak, now)) {}
}

}  // namespace

size_t Pool::size_class(size_t bytes) {
  if (bytes <= kSmallStep) return kSmallStep;
  size_t step = kSmallStep;
  if (bytes >= kLargeFrom) step = std::bit_floor(bytes) / kStepsPerOctave;
  size_t rounded = (bytes + step - 1) / step * step;
  return rounded < bytes ? bytes : rounded;  // overflow: the device will refuse it
}

Pool::Pool(Device& device, PoolOptions options) : device_(device), options_(options) {}

Pool::~Pool() {
  release();
  // In-use blocks hold the kit and with it this pool, so none can be left here.
  std::lock_guard lock(mutex_);
  auto& g = global();
  g.blocks_held -= counters_.blocks_held;
  g.in_use_bytes -= counters_.in_use_bytes;
}

Result<DevPtr> Pool::acquire(size_t bytes) {
  const size_t cls = size_class(bytes);
  auto& g = global();
  std::lock_guard lock(mutex_);
  if (options_.enabled) {
    auto range = by_size_.equal_range(cls);
    if (range.first != range.second) {
      // Within a class, equal keys keep insertion order: the last one is the most
      // recently freed block, the likeliest still to be in cache.
      auto it = std::prev(range.second);
      DevPtr ptr = it->second->ptr;
      lru_.erase(it->second);
      by_size_.erase(it);
      --counters_.idle_blocks;
      counters_.idle_bytes -= cls;
      counters_.in_use_bytes += cls;
      counters_.peak_in_use_bytes = std::max(counters_.peak_in_use_bytes, counters_.in_use_bytes);
      ++counters_.reuses;
      --g.idle_blocks;
      g.idle_bytes -= cls;
      ++g.reuses;
      note_in_use(cls);
      return ptr;
    }
  }
  auto ptr = device_.alloc(cls);
  if (!ptr.ok() && counters_.idle_blocks > 0) {
    // Idle blocks of other classes may be what the device lacks: hand them all
    // back and try once more.
    trim_to(0);
    ptr = device_.alloc(cls);
  }
  if (!ptr.ok())
    return resource_exhausted(
        "pool: cannot allocate {} bytes (size class {}) on {}: {}; pool holds {} bytes in use in {} "
        "blocks, {} bytes idle",
        bytes, cls, device_.info().name, ptr.status().message(), counters_.in_use_bytes,
        counters_.blocks_held - counters_.idle_blocks, counters_.idle_bytes);
  ++counters_.device_allocs;
  ++g.device_allocs;
  ++counters_.blocks_held;
  counters_.in_use_bytes += cls;
  counters_.peak_in_use_bytes = std::max(counters_.peak_in_use_bytes, counters_.in_use_bytes);
  ++g.blocks_held;
  note_in_use(cls);
  return ptr.value();
}

void Pool::give_back(DevPtr ptr, size_t bytes) {
  const size_t cls = size_class(bytes);
  auto& g = global();
  std::lock_guard lock(mutex_);
  counters_.in_use_bytes -= cls;
  g.in_use_bytes -= cls;
  if (!options_.enabled) {
    // A failed free has nowhere to go from a destructor; the device reports it
    // on its next call if it is sticky (CUDA errors are).
    device_.free(ptr).ignore();
    --counters_.blocks_held;
    ++counters_.device_frees;
    --g.blocks_held;
    ++g.device_frees;
    return;
  }
  auto it = lru_.insert(lru_.end(), Idle{ptr, cls});
  by_size_.emplace(cls, it);
  ++counters_.idle_blocks;
  counters_.idle_bytes += cls;
  ++g.idle_blocks;
  g.idle_bytes += cls;
  if (options_.idle_budget > 0) trim_to(options_.idle_budget);
}

void Pool::trim_to(size_t budget) {
  auto& g = global();
  while (counters_.idle_bytes > budget && !lru_.empty()) {
    Idle victim = lru_.front();
    auto range = by_size_.equal_range(victim.bytes);
    for (auto it = range.first; it != range.second; ++it)
      if (it->second == lru_.begin()) {
        by_size_.erase(it);
        break;
      }
    lru_.pop_front();
    device_.free(victim.ptr).ignore();
    --counters_.idle_blocks;
    counters_.idle_bytes -= victim.bytes;
    --counters_.blocks_held;
    ++counters_.device_frees;
    --g.idle_blocks;
    g.idle_bytes -= victim.bytes;
    --g.blocks_held;
    ++g.device_frees;
  }
}

void Pool::release() {
  std::lock_guard lock(mutex_);
  trim_to(0);
}

void Pool::set_idle_budget(size_t bytes) {
  std::lock_guard lock(mutex_);
  options_.idle_budget = bytes;
  if (bytes > 0) trim_to(bytes);
}

PoolCounters Pool::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

PoolCounters global_pool_counters() {
  auto& g = global();
  PoolCounters c;
  c.blocks_held = g.blocks_held.load();
  c.idle_blocks = g.idle_blocks.load();
  c.idle_bytes = g.idle_bytes.load();
  c.in_use_bytes = g.in_use_bytes.load();
  c.peak_in_use_bytes = g.peak_in_use_bytes.load();
  c.device_allocs = g.device_allocs.load();
  c.device_frees = g.device_frees.load();
  c.reuses = g.reuses.load();
  return c;
}

}  // namespace gk

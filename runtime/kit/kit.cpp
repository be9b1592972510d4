#include "runtime/kit/kit.h"

#include "backends/device_factory.h"
#include "runtime/kit/kit_state.h"

#include <algorithm>
#include <cassert>

namespace gk {

using kit_detail::Block;
using kit_detail::KitState;

LaunchConfig grid_for(int64_t n, uint32_t block) {
  if (block == 0) block = 256;
  int64_t blocks = n <= 0 ? 1 : (n + block - 1) / block;
  LaunchConfig c;
  c.grid.x = static_cast<uint32_t>(std::clamp<int64_t>(blocks, 1, 65535));
  c.block.x = block;
  return c;
}

Result<Kit> Kit::open(KitOptions options) {
  GK_TRY(auto device, make_device(options.device, std::move(options.cpu_kernels)));
  return adopt(std::move(device), options.pool, options.autosync);
}

Kit Kit::adopt(std::unique_ptr<Device> device, PoolOptions pool, bool autosync) {
  assert(device != nullptr);
  Kit kit;
  kit.state_ = std::make_shared<KitState>(std::move(device), pool, autosync);
  return kit;
}

Device& Kit::device() const {
  assert(state_ && "Kit used after close() or before open()");
  return *state_->device;
}

BackendKind Kit::backend() const { return device().info().kind; }

bool Kit::autosync() const { return state_->autosync.load(std::memory_order_relaxed); }

void Kit::set_autosync(bool on) { state_->autosync.store(on, std::memory_order_relaxed); }

Pool& Kit::pool() const {
  assert(state_ && "Kit used after close() or before open()");
  return *state_->pool;
}

Result<GkBuf> Kit::alloc(DType dtype, int64_t count) {
  if (!state_) return invalid_argument("Kit::alloc: the kit is closed");
  if (dtype_bits(dtype) == 0)
    return invalid_argument("Kit::alloc: element type {} cannot live on a device", dtype_name(dtype));
  if (count < 0)
    return invalid_argument("Kit::alloc: element count {} of {} must be >= 0", count,
                            dtype_name(dtype));
  if (static_cast<uint64_t>(count) > SIZE_MAX / 64)
    return resource_exhausted("Kit::alloc: {} elements of {} exceed any device", count,
                              dtype_name(dtype));
  if (count == 0) return GkBuf(nullptr, dtype, 0, 0);  // empty tensor: no memory, pointer 0
  const size_t bytes = dtype_storage_bytes(dtype, count);
  GK_TRY(DevPtr ptr, state_->pool->acquire(bytes));
  auto block = std::make_shared<Block>(state_, ptr, bytes);
  return GkBuf(std::move(block), dtype, count, ptr);
}

Result<GkBuf> Kit::upload(const HostTensor& tensor) {
  if (tensor.dtype() == DType::kString)
    return invalid_argument("Kit::upload: string tensors ({}) cannot go to a device",
                            shape_str(tensor.shape()));
  GK_TRY(GkBuf buf, alloc(tensor.dtype(), tensor.numel()));
  if (buf.bytes() == 0) return buf;
  if (tensor.dtype() == DType::kBool) {  // a caller's bools may hold any byte: kernels see 0 or 1
    GK_TRY(HostTensor canonical, canonical_bools(tensor));
    GK_RETURN_IF_ERROR(buf.upload_raw(canonical.raw(), canonical.bytes()));
    return buf;
  }
  GK_RETURN_IF_ERROR(buf.upload_raw(tensor.raw(), tensor.bytes()));
  return buf;
}

Result<const Kernel*> Kit::kernel(const KernelSource& source, std::string_view entry) {
  if (!state_) return invalid_argument("Kit::kernel: the kit is closed");
  // Compiling under the lock: two sessions asking for the same kernel compile it
  // once, and the device's compiler need not be reentrant.
  std::lock_guard lock(state_->kernels_mutex);
  auto key = std::make_pair(source.hash, std::string(entry));
  auto it = state_->kernels.find(key);
  if (it != state_->kernels.end()) return it->second;
  GK_TRY(const Kernel* k, state_->device->compile(source, entry));
  state_->kernels.emplace(std::move(key), k);
  return k;
}

size_t Kit::cached_kernels() const {
  std::lock_guard lock(state_->kernels_mutex);
  return state_->kernels.size();
}

Status Kit::launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args,
                   Profiler* profiler, const LaunchTag* tag) {
  if (!state_) return invalid_argument("Kit::launch: the kit is closed");
  Device& dev = *state_->device;
  if (profiler) {
    GK_TRY(EventId begin, profiler->begin());
    Status st = dev.launch(kernel, config, args);
    if (!st.ok()) {
      dev.release_event(begin);
      return st;
    }
    GK_RETURN_IF_ERROR(profiler->end(begin, kernel.name, tag ? *tag : LaunchTag{}));
  } else {
    GK_RETURN_IF_ERROR(dev.launch(kernel, config, args));
  }
  if (autosync()) GK_RETURN_IF_ERROR(dev.sync());
  return ok_status();
}

Status Kit::sync() {
  if (!state_) return invalid_argument("Kit::sync: the kit is closed");
  return state_->device->sync();
}

}  // namespace gk

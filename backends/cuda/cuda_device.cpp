// The CUDA backend: Driver API on the primary context, one non-blocking stream,
// kernels compiled by NVRTC through the module cache.
#include "backends/cuda/cuda_device.h"

#include "backends/cuda/cuda_builtin_kernels.h"
#include "backends/cuda/cuda_context.h"
#include "backends/cuda/cuda_graph.h"
#include "backends/cuda/module_cache.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace gk {

namespace cuda {

namespace {
std::atomic<uint64_t> context_epoch{1};
}  // namespace

void CudaContext::new_epoch() { context_epoch.fetch_add(1, std::memory_order_acq_rel); }

Status CudaContext::make_current() const {
  thread_local CUcontext bound = nullptr;
  thread_local uint64_t bound_epoch = 0;
  const uint64_t epoch = context_epoch.load(std::memory_order_acquire);
  if (bound == ctx && bound_epoch == epoch) return ok_status();
  GK_RETURN_IF_ERROR(check(api->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"));
  bound = ctx;
  bound_epoch = epoch;
  return ok_status();
}

}  // namespace cuda

namespace {

using namespace cuda;

// Uploads from 1 MiB up go through two pinned 4 MiB buffers in turn: the copy
// into one overlaps the DMA out of the other, and pinned DMA runs at full PCIe
// speed where pageable copies are staged by the driver. // untuned
constexpr size_t kStagedUploadMin = size_t{1} << 20;
constexpr size_t kStagingChunk = size_t{4} << 20;
// Dynamic shared memory above this needs an opt-in per function.
constexpr uint32_t kDefaultSharedLimit = 48 * 1024;

class CudaDevice final : public Device {
 public:
  CudaDevice(CudaContext context, DeviceInfo info)
      : c_(context), info_(std::move(info)), cache_(ModuleCache::default_dir()) {
    if (c_.api->has_graphs) graphs_ = std::make_unique<CudaGraphs>(c_);
  }

  ~CudaDevice() override {
    if (!c_.make_current().ok()) return;
    c_.api->cuStreamSynchronize(c_.stream);
    graphs_.reset();
    for (auto& [id, ev] : events_) c_.api->cuEventDestroy(ev);
    for (CUevent ev : free_events_) c_.api->cuEventDestroy(ev);
    for (Staging& s : staging_) {
      if (s.done) c_.api->cuEventDestroy(s.done);
      if (s.host) c_.api->cuMemFreeHost(s.host);
    }
    for (CUmodule m : modules_) c_.api->cuModuleUnload(m);
    c_.api->cuStreamDestroy(c_.stream);
    c_.api->cuDevicePrimaryCtxRelease(c_.device);
    CudaContext::new_epoch();
  }

  const DeviceInfo& info() const override { return info_; }

  MemoryInfo memory_info() const override {
    size_t free_bytes = 0, total = 0;
    if (!c_.make_current().ok() || c_.api->cuMemGetInfo(&free_bytes, &total) != CUDA_SUCCESS)
      return {0, info_.total_bytes};
    return {free_bytes, total};
  }

  Result<DevPtr> alloc(size_t bytes) override {
    if (bytes > info_.total_bytes)
      return resource_exhausted("cuda: allocation of {} bytes exceeds {}'s {} bytes", bytes, info_.name,
                                info_.total_bytes);
    GK_RETURN_IF_ERROR(c_.make_current());
    CUdeviceptr p = 0;
    CUresult r = c_.api->cuMemAlloc(&p, std::max<size_t>(bytes, 1));
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      MemoryInfo m = memory_info();
      return resource_exhausted("cuda: out of memory allocating {} bytes on {} ({} of {} bytes free)", bytes,
                                info_.name, m.free_bytes, m.total_bytes);
    }
    GK_RETURN_IF_ERROR(c_.check(r, "cuMemAlloc_v2"));
    return static_cast<DevPtr>(p);
  }

  Status free(DevPtr ptr) override {
    if (!ptr) return ok_status();
    GK_RETURN_IF_ERROR(c_.make_current());
    return c_.check(c_.api->cuMemFree(ptr), "cuMemFree_v2");
  }

  Status upload(DevPtr dst, const void* src, size_t bytes) override {
    if (!bytes) return ok_status();
    GK_RETURN_IF_ERROR(no_capture("upload"));
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    if (bytes >= kStagedUploadMin) {
      std::lock_guard lock(staging_mutex_);
      if (staging_ready()) return staged_upload(dst, static_cast<const char*>(src), bytes);
    }
    // From pageable memory the driver copies the source to its own staging area
    // before returning, so the caller may reuse `src` at once.
    return c_.check(c_.api->cuMemcpyHtoDAsync(dst, src, bytes, c_.stream), "cuMemcpyHtoDAsync_v2");
  }

  Status download(void* dst, DevPtr src, size_t bytes) override {
    if (!bytes) return ok_status();
    GK_RETURN_IF_ERROR(no_capture("download"));
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    GK_RETURN_IF_ERROR(c_.check(c_.api->cuMemcpyDtoHAsync(dst, src, bytes, c_.stream), "cuMemcpyDtoHAsync_v2"));
    return c_.check(c_.api->cuStreamSynchronize(c_.stream), "cuStreamSynchronize");
  }

  Status copy(DevPtr dst, DevPtr src, size_t bytes) override {
    if (!bytes) return ok_status();
    if (graphs_ && graphs_->capturing_here())
      return launch_builtin(kBuiltinCopy, KernelArgs().ptr(dst).ptr(src).i64(static_cast<int64_t>(bytes)), bytes);
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    return c_.check(c_.api->cuMemcpyDtoDAsync(dst, src, bytes, c_.stream), "cuMemcpyDtoDAsync_v2");
  }

  Status memset(DevPtr dst, uint8_t value, size_t bytes) override {
    if (!bytes) return ok_status();
    if (graphs_ && graphs_->capturing_here())
      return launch_builtin(kBuiltinMemset, KernelArgs().ptr(dst).i32(value).i64(static_cast<int64_t>(bytes)), bytes);
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    return c_.check(c_.api->cuMemsetD8Async(dst, value, bytes, c_.stream), "cuMemsetD8Async");
  }

  Result<const Kernel*> compile(const KernelSource& source, std::string_view entry) override {
    const std::string key = fmt::format("{:016x}:{}:{}", source.hash, source.name, entry);
    {
      std::lock_guard lock(mutex_);
      if (auto it = kernels_.find(key); it != kernels_.end()) {
        cache_.note_memory_hit();
        return static_cast<const Kernel*>(it->second.get());
      }
    }
    // Compiled outside the lock: two threads asking for different kernels compile
    // in parallel; two asking for the same one both compile and one result stays.
    NvrtcOptions options{info_.cc_major, info_.cc_minor, true};
    GK_TRY(CachedModule m, cache_.get(source, entry, options));
    GK_RETURN_IF_ERROR(c_.make_current());
    CUmodule module = nullptr;
    Status s = c_.check(c_.api->cuModuleLoadData(&module, m.image.c_str()), "cuModuleLoadData");
    if (!s.ok()) {
      // The usual cause: an NVRTC newer than the driver (its CUBIN/PTX too new).
      int driver_version = 0;
      c_.api->cuDriverGetVersion(&driver_version);
      auto nvrtc = nvrtc_version();
      return s.with_context(fmt::format("loading '{}' from '{}' ({}, NVRTC {}.{}, driver {}.{})", entry,
                                        source.name, m.target, nvrtc.ok() ? nvrtc->first : 0,
                                        nvrtc.ok() ? nvrtc->second : 0, driver_version / 1000,
                                        driver_version % 1000 / 10));
    }
    CUfunction fn = nullptr;
    s = c_.check(c_.api->cuModuleGetFunction(&fn, module, m.lowered_name.c_str()), "cuModuleGetFunction");
    if (!s.ok()) {
      c_.api->cuModuleUnload(module);
      return s.with_context(fmt::format("kernel '{}' ({}) in '{}'", entry, m.lowered_name, source.name));
    }
    std::lock_guard lock(mutex_);
    modules_.push_back(module);
    auto [it, inserted] = kernels_.try_emplace(key, nullptr);
    if (inserted) it->second = std::make_unique<Kernel>(Kernel{std::string(entry), fn});
    return static_cast<const Kernel*>(it->second.get());
  }

  Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) override {
    const Dim3 g = config.grid, b = config.block;
    if (!kernel.native) return invalid_argument("cuda: kernel '{}' was not compiled by this device", kernel.name);
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
      return invalid_argument("cuda: kernel '{}' launched with an empty grid ({}x{}x{} blocks of {}x{}x{})",
                              kernel.name, g.x, g.y, g.z, b.x, b.y, b.z);
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    auto fn = static_cast<CUfunction>(kernel.native);
    if (config.shared_bytes > kDefaultSharedLimit) GK_RETURN_IF_ERROR(allow_shared(kernel, config.shared_bytes));
    std::vector<void*> params = args.pointers();
    Status s = c_.check(c_.api->cuLaunchKernel(fn, g.x, g.y, g.z, b.x, b.y, b.z, config.shared_bytes, c_.stream,
                                               params.data(), nullptr),
                        "cuLaunchKernel");
    if (!s.ok()) return s.with_context(fmt::format("kernel '{}'", kernel.name));
    if (graphs_ && graphs_->capturing_here()) graphs_->record_launch(fn, args);
    return ok_status();
  }

  Status sync() override {
    GK_RETURN_IF_ERROR(no_capture("sync"));
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    return c_.check(c_.api->cuStreamSynchronize(c_.stream), "cuStreamSynchronize");
  }

  Result<EventId> record_event() override {
    wait_for_other_capture();
    GK_RETURN_IF_ERROR(c_.make_current());
    std::lock_guard lock(mutex_);
    CUevent ev = nullptr;
    if (!free_events_.empty()) {
      ev = free_events_.back();
      free_events_.pop_back();
    } else {
      GK_RETURN_IF_ERROR(c_.check(c_.api->cuEventCreate(&ev, CU_EVENT_DEFAULT), "cuEventCreate"));
    }
    Status s = c_.check(c_.api->cuEventRecord(ev, c_.stream), "cuEventRecord");
    if (!s.ok()) {
      free_events_.push_back(ev);
      return s;
    }
    EventId id = next_event_++;
    events_.emplace(id, ev);
    return id;
  }

  Result<double> elapsed_ms(EventId start, EventId end) override {
    GK_RETURN_IF_ERROR(c_.make_current());
    CUevent a = nullptr, b = nullptr;
    {
      std::lock_guard lock(mutex_);
      auto ia = events_.find(start), ib = events_.find(end);
      if (ia == events_.end() || ib == events_.end())
        return invalid_argument("cuda: unknown event id {} or {}", start, end);
      a = ia->second;
      b = ib->second;
    }
    GK_RETURN_IF_ERROR(c_.check(c_.api->cuEventSynchronize(b), "cuEventSynchronize"));
    float ms = 0;
    GK_RETURN_IF_ERROR(c_.check(c_.api->cuEventElapsedTime(&ms, a, b), "cuEventElapsedTime"));
    return static_cast<double>(ms);
  }

  void release_event(EventId event) override {
    std::lock_guard lock(mutex_);
    auto it = events_.find(event);
    if (it == events_.end()) return;
    free_events_.push_back(it->second);
    events_.erase(it);
  }

  CompileStats compile_stats() const override { return cache_.stats(); }
  GraphCapture* graphs() override { return graphs_.get(); }

 private:
  struct Staging {
    void* host = nullptr;
    CUevent done = nullptr;  // recorded after the DMA that last read `host`
  };

  void wait_for_other_capture() {
    if (graphs_) graphs_->wait_for_other_capture();
  }

  // A copy or memset inside a capture, as a kernel node that rebinding can move.
  Status launch_builtin(const char* entry, const KernelArgs& args, size_t bytes) {
    GK_TRY(const Kernel* k, compile(builtin_kernel_source(), entry));
    // Up to 1024 blocks of 256 threads, striding: a copy is bandwidth-bound. // untuned
    const size_t units = (bytes + 15) / 16;
    LaunchConfig config;
    config.grid = {static_cast<uint32_t>(std::clamp<size_t>((units + 255) / 256, 1, 1024)), 1, 1};
    config.block = {256, 1, 1};
    return launch(*k, config, args);
  }

  Status no_capture(const char* what) const {
    if (graphs_ && graphs_->capturing_here())
      return invalid_argument("cuda: {} while a graph capture is open (only launches, copies and memsets can "
                              "be captured)", what);
    return ok_status();
  }

  // Allocates the staging pair on first use; false if pinned memory is refused
  // (a container's locked-memory limit), and uploads then go direct.
  bool staging_ready() {
    if (staging_[1].host) return true;
    if (staging_failed_) return false;
    for (Staging& s : staging_) {
      if (c_.api->cuMemAllocHost(&s.host, kStagingChunk) != CUDA_SUCCESS ||
          c_.api->cuEventCreate(&s.done, CU_EVENT_DEFAULT) != CUDA_SUCCESS) {
        staging_failed_ = true;
        return false;
      }
    }
    return true;
  }

  Status staged_upload(DevPtr dst, const char* src, size_t bytes) {
    for (size_t off = 0, chunk = 0; off < bytes; off += kStagingChunk, ++chunk) {
      Staging& s = staging_[chunk % 2];
      const size_t n = std::min(kStagingChunk, bytes - off);
      GK_RETURN_IF_ERROR(c_.check(c_.api->cuEventSynchronize(s.done), "cuEventSynchronize"));
      std::memcpy(s.host, src + off, n);
      GK_RETURN_IF_ERROR(
          c_.check(c_.api->cuMemcpyHtoDAsync(dst + off, s.host, n, c_.stream), "cuMemcpyHtoDAsync_v2"));
      GK_RETURN_IF_ERROR(c_.check(c_.api->cuEventRecord(s.done, c_.stream), "cuEventRecord"));
    }
    return ok_status();
  }

  Status allow_shared(const Kernel& kernel, uint32_t bytes) {
    std::lock_guard lock(mutex_);
    uint32_t& allowed = shared_allowed_[kernel.native];
    if (bytes <= allowed) return ok_status();
    Status s = c_.check(c_.api->cuFuncSetAttribute(static_cast<CUfunction>(kernel.native),
                                                   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                   static_cast<int>(bytes)),
                        "cuFuncSetAttribute");
    if (!s.ok()) return s.with_context(fmt::format("kernel '{}' asks {} bytes of shared memory", kernel.name, bytes));
    allowed = bytes;
    return ok_status();
  }

  const CudaContext c_;
  const DeviceInfo info_;
  ModuleCache cache_;
  std::unique_ptr<CudaGraphs> graphs_;

  std::mutex mutex_;  // kernels, modules, events, shared-memory opt-ins
  std::unordered_map<std::string, std::unique_ptr<Kernel>> kernels_;
  std::vector<CUmodule> modules_;
  std::unordered_map<const void*, uint32_t> shared_allowed_;
  std::unordered_map<EventId, CUevent> events_;
  std::vector<CUevent> free_events_;
  EventId next_event_ = 1;

  std::mutex staging_mutex_;
  Staging staging_[2];
  bool staging_failed_ = false;
};

struct Candidate {
  int ordinal;
  CUdevice device;
  int major, minor;
  size_t total;
};

Result<Candidate> describe(const DriverApi& api, int ordinal) {
  Candidate c{ordinal, 0, 0, 0, 0};
  GK_RETURN_IF_ERROR(check(api, api.cuDeviceGet(&c.device, ordinal), "cuDeviceGet"));
  GK_RETURN_IF_ERROR(check(api, api.cuDeviceGetAttribute(&c.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                                         c.device),
                           "cuDeviceGetAttribute"));
  GK_RETURN_IF_ERROR(check(api, api.cuDeviceGetAttribute(&c.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                                         c.device),
                           "cuDeviceGetAttribute"));
  GK_RETURN_IF_ERROR(check(api, api.cuDeviceTotalMem(&c.total, c.device), "cuDeviceTotalMem_v2"));
  return c;
}

Result<int> pick_ordinal(const DriverApi& api, int ordinal, int count) {
  if (ordinal < 0) {
    if (const char* env = std::getenv("GK_DEVICE"); env && *env) {
      std::string_view s(env);
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), ordinal);
      if (ec != std::errc() || end != s.data() + s.size() || ordinal < 0 || ordinal >= count)
        return invalid_argument("cuda: GK_DEVICE='{}' is not a device ordinal in [0, {}]", s, count - 1);
      return ordinal;
    }
    // The highest compute capability, total memory breaking ties.
    Candidate best{-1, 0, -1, -1, 0};
    for (int i = 0; i < count; ++i) {
      GK_TRY(Candidate c, describe(api, i));
      if (std::tie(c.major, c.minor, c.total) > std::tie(best.major, best.minor, best.total)) best = c;
    }
    return best.ordinal;
  }
  if (ordinal >= count)
    return invalid_argument("cuda: device {} requested, {} present (valid 0..{})", ordinal, count, count - 1);
  return ordinal;
}

}  // namespace

Result<std::unique_ptr<Device>> make_cuda_device(int ordinal) {
  GK_TRY(const DriverApi* api, driver());
  CUresult r = api->cuInit(0);
  if (r != CUDA_SUCCESS)
    return unavailable("no CUDA device: cuInit returned {} ({})", error_name(*api, r), api->path);
  int count = 0;
  r = api->cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS || count <= 0)
    return unavailable("no CUDA device: cuDeviceGetCount returned {} with {} devices", error_name(*api, r), count);
  GK_TRY(int chosen, pick_ordinal(*api, ordinal, count));
  GK_TRY(Candidate d, describe(*api, chosen));

  DeviceInfo info;
  info.kind = BackendKind::kCuda;
  info.ordinal = chosen;
  info.cc_major = d.major;
  info.cc_minor = d.minor;
  info.total_bytes = d.total;
  char name[256] = {};
  GK_RETURN_IF_ERROR(check(*api, api->cuDeviceGetName(name, sizeof(name) - 1, d.device), "cuDeviceGetName"));
  info.name = name;
  GK_RETURN_IF_ERROR(check(*api, api->cuDeviceGetAttribute(&info.threads, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                                           d.device),
                           "cuDeviceGetAttribute"));

  CudaContext c;
  c.api = api;
  c.device = d.device;
  GK_RETURN_IF_ERROR(check(*api, api->cuDevicePrimaryCtxRetain(&c.ctx, d.device), "cuDevicePrimaryCtxRetain"));
  CudaContext::new_epoch();
  Status s = c.make_current();
  if (s.ok()) s = check(*api, api->cuStreamCreate(&c.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  if (!s.ok()) {
    api->cuDevicePrimaryCtxRelease(d.device);
    return s;
  }
  return std::unique_ptr<Device>(std::make_unique<CudaDevice>(c, std::move(info)));
}

}  // namespace gk

// Kit: a shared handle on one device, its kernel cache and its memory pool. Every
// copy is the same kit; the last owner (kit copies and live GkBufs alike) releases
// the pool, the kernels and the device. close() lets go of one owner only.
#pragma once

#include "backends/cpu/cpu_kernel_table.h"
#include "backends/device.h"
#include "runtime/kit/gkbuf.h"
#include "runtime/kit/pool.h"
#include "runtime/kit/profiler.h"

#include <memory>
#include <string>
#include <vector>

namespace gk {

struct KitOptions {
  DeviceOptions device;                      // backend, ordinal, CPU threads
  std::vector<CpuIsaTables> cpu_kernels;   // kernels compiled into the binary
  PoolOptions pool;
  bool autosync = false;  // on: every launch syncs (debugging); off: one sync per run
};

// A launch geometry for a grid-stride kernel over n elements. // untuned: 256 threads,
// at most 65535 blocks (grid-stride covers the rest).
LaunchConfig grid_for(int64_t n, uint32_t block = 256);

class Kit {
 public:
  Kit() = default;
  // CUDA requested but unavailable is an error; backend auto is resolved by the caller.
  static Result<Kit> open(KitOptions options);
  // A kit over a device the caller already opened (embedding apps, test doubles).
  static Kit adopt(std::unique_ptr<Device> device, PoolOptions pool = {}, bool autosync = false);

  bool valid() const { return state_ != nullptr; }
  void close() { state_.reset(); }
  Device& device() const;
  BackendKind backend() const;
  bool autosync() const;
  void set_autosync(bool on);
  Pool& pool() const;

  Result<GkBuf> alloc(DType dtype, int64_t count);
  Result<GkBuf> upload(const HostTensor& tensor);

  // Compiled once per (source, entry) and kept for the kit's life.
  Result<const Kernel*> kernel(const KernelSource& source, std::string_view entry);
  size_t cached_kernels() const;
  // Launch on the kit's stream; with a profiler, bracketed by an event pair tagged
  // with `tag`; with autosync, followed by a sync.
  Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args,
                Profiler* profiler = nullptr, const LaunchTag* tag = nullptr);
  Status sync();

  bool operator==(const Kit& other) const { return state_ == other.state_; }
  long use_count() const { return state_.use_count(); }

 private:
  std::shared_ptr<kit_detail::KitState> state_;
  friend class GkBuf;
};

// One binding of a one-call launch.
struct Binding {
  enum class Kind { kInput, kOutput, kInOut, kScalar } kind;
  // Buffers: host bytes (raw, already in the element type) and their dtype/count.
  DType dtype = DType::kUndefined;
  const void* host_in = nullptr;
  void* host_out = nullptr;
  int64_t count = 0;
  // Scalars: one of the KernelArgs kinds.
  ArgKind scalar_kind = ArgKind::kI32;
  uint64_t scalar_bits = 0;

  static Binding input(DType dtype, const void* data, int64_t count);
  static Binding output(DType dtype, void* data, int64_t count);
  static Binding inout(DType dtype, void* data, int64_t count);
  static Binding i32(int32_t v);
  static Binding i64(int64_t v);
  static Binding f32(float v);
  static Binding f64(double v);
};

// One call: compile-and-cache, stage buffers, launch, sync, download outputs. Adds
// no arithmetic: results equal hand-written backend calls bit for bit.
Status run(Kit& kit, const KernelSource& source, std::string_view entry, const LaunchConfig& config,
           std::span<const Binding> bindings);
// Device-resident form: arguments already on the device; launches and syncs.
Status run(Kit& kit, const KernelSource& source, std::string_view entry, const LaunchConfig& config,
           const KernelArgs& args);

}  // namespace gk

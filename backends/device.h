// The device interface: the only way the rest of gkrun touches a GPU or the CPU.
// Kept small on purpose (ggml's backend vtables have 4–16 entries); what only one
// backend can do sits behind a capability query (graphs()).
#pragma once

#include "backends/kernel_args.h"
#include "backends/kernel_source.h"
#include "backends/status.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gk {

enum class BackendKind { kCpu, kCuda };
const char* backend_name(BackendKind kind);

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t shared_bytes = 0;
};

struct DeviceInfo {
  BackendKind kind = BackendKind::kCpu;
  int ordinal = 0;
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability; 0 on CPU
  size_t total_bytes = 0;
  int threads = 1;                 // CPU worker threads; SM count on CUDA
  std::string isa;                 // CPU: the vector ISA the kernels run (cpu_isa.h); empty on CUDA
};

struct MemoryInfo {
  size_t free_bytes = 0;
  size_t total_bytes = 0;
};

struct CompileStats {
  int64_t memory_hits = 0;  // kernel already loaded in this process
  int64_t disk_hits = 0;    // module read back from the on-disk cache
  int64_t compiles = 0;     // NVRTC ran
};

// A compiled, loaded kernel. Owned by the device; valid until the device goes.
struct Kernel {
  std::string name;
  void* native = nullptr;     // CUfunction, or the CPU table entry
};

using EventId = uint64_t;
using GraphId = uint64_t;

// Rebinding a captured graph: a pointer argument p with from <= p < from + bytes
// becomes to + (p - from), so kernels that were handed an offset into a buffer
// (a Split output, a Slice view) follow the buffer.
struct PointerRemap {
  DevPtr from = 0;
  size_t bytes = 0;
  DevPtr to = 0;
};

// The first remap whose range holds p, applied; p unchanged when none does.
inline DevPtr remap_pointer(DevPtr p, const std::vector<PointerRemap>& remap) {
  for (const PointerRemap& r : remap)
    if (p >= r.from && p - r.from < r.bytes) return r.to + (p - r.from);
  return p;
}

// Capture and replay of a sequence of launches, copies and memsets (a CUDA Graph
// on CUDA). Between begin_capture and end_capture the capturing thread's work is
// recorded, not run; uploads, downloads and syncs on that thread are errors (they
// cannot be replayed), and other threads' work is kept out of the capture.
class GraphCapture {
 public:
  virtual ~GraphCapture() = default;
  virtual Status begin_capture() = 0;
  virtual Result<GraphId> end_capture() = 0;
  virtual Status launch_graph(GraphId graph) = 0;
  // Moves every captured pointer argument that falls in a `from` range, matching
  // against the values before this call (so swapping two buffers does not chain).
  virtual Status rebind_pointers(GraphId graph, const std::vector<PointerRemap>& remap) = 0;
  virtual void destroy_graph(GraphId graph) = 0;
};

class Device {
 public:
  virtual ~Device() = default;

  virtual const DeviceInfo& info() const = 0;
  virtual MemoryInfo memory_info() const = 0;

  virtual Result<DevPtr> alloc(size_t bytes) = 0;
  virtual Status free(DevPtr ptr) = 0;
  virtual Status upload(DevPtr dst, const void* src, size_t bytes) = 0;
  virtual Status download(void* dst, DevPtr src, size_t bytes) = 0;  // synchronises
  virtual Status copy(DevPtr dst, DevPtr src, size_t bytes) = 0;
  virtual Status memset(DevPtr dst, uint8_t value, size_t bytes) = 0;

  // `entry` is a name expression such as "gk_add<float>".
  virtual Result<const Kernel*> compile(const KernelSource& source, std::string_view entry) = 0;
  virtual Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) = 0;
  virtual Status sync() = 0;

  // Timers: an event records the stream position; elapsed_ms reads two after a sync.
  virtual Result<EventId> record_event() = 0;
  virtual Result<double> elapsed_ms(EventId start, EventId end) = 0;
  virtual void release_event(EventId event) = 0;

  virtual CompileStats compile_stats() const = 0;
  // Non-null where the backend can capture and replay launches.
  virtual GraphCapture* graphs() { return nullptr; }
};

struct DeviceOptions {
  BackendKind kind = BackendKind::kCpu;
  int ordinal = -1;   // -1: GK_DEVICE, else the best device
  int threads = 0;    // CPU workers; 0: hardware concurrency
};

}  // namespace gk

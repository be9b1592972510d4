// Compiled kernel images, cached on disk so the second start of a process
// compiles nothing. Needs NVRTC but no GPU, so it is tested on any machine.
// Keyed by source hash + length, entry, target arch and NVRTC version. Each file
// carries its key and a checksum: a corrupt or truncated entry is deleted and
// recompiled, never loaded. Files are written to a temporary name and renamed,
// so concurrent processes see either nothing or a whole entry.
#pragma once

#include "backends/cuda/cuda_device.h"
#include "backends/device.h"

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

namespace gk::cuda {

struct CachedModule {
  std::string image;         // CUBIN or PTX
  bool is_cubin = false;
  std::string lowered_name;  // symbol for cuModuleGetFunction
  std::string target;        // "sm_90" / "compute_90"
};

class ModuleCache {
 public:
  // `dir` empty: no disk cache, every get() compiles.
  explicit ModuleCache(std::filesystem::path dir);

  // GK_KERNEL_CACHE (the value "off" disables the disk cache), else
  // $XDG_CACHE_HOME/gkrun/kernels, else ~/.cache/gkrun/kernels.
  static std::filesystem::path default_dir();

  // The image of `entry`: read back from disk when a valid entry exists, else
  // compiled by NVRTC and written back.
  Result<CachedModule> get(const KernelSource& source, std::string_view entry, const NvrtcOptions& options);

  // Where get() keeps `entry`; empty without a disk cache (tests corrupt it).
  Result<std::filesystem::path> entry_path(const KernelSource& source, std::string_view entry,
                                           const NvrtcOptions& options) const;

  // The device counts its in-process hits here, so one CompileStats covers all.
  void note_memory_hit();
  CompileStats stats() const;
  // Entries found corrupt, truncated or for another key, and deleted.
  int64_t rejected() const;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  Result<std::string> key(const KernelSource& source, std::string_view entry,
                          const NvrtcOptions& options) const;
  bool read(const std::filesystem::path& path, const std::string& key, CachedModule& out);
  void write(const std::filesystem::path& path, const std::string& key, const CachedModule& m);

  std::filesystem::path dir_;
  mutable std::mutex mutex_;
  CompileStats stats_;
  int64_t rejected_ = 0;
};

}  // namespace gk::cuda

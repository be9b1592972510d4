#include "backends/cuda/cuda_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace gk::cuda {
namespace {

std::string last_dlerror() {
  const char* e = dlerror();
  return e ? e : "unknown dlerror";
}

template <typename Fn>
void resolve(void* handle, const char* symbol, Fn& out) {
  out = reinterpret_cast<Fn>(dlsym(handle, symbol));
}

Result<std::unique_ptr<DriverApi>> load_driver(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return unavailable("cuda: driver library {} not found: {}", path, last_dlerror());
  auto api = std::make_unique<DriverApi>();
  api->path = path;
  std::string missing;
#define GK_CU_SYM(name, symbol, ...)                  \
  resolve(handle, symbol, api->name);                 \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + symbol;
#define GK_CU_SYM_OPT(name, symbol, ...) resolve(handle, symbol, api->name);
#define GK_NVRTC_SYM(name, ...)
#define GK_NVRTC_SYM_STR(name, ...)
#include "backends/cuda/cuda_symbols.def"
#undef GK_CU_SYM
#undef GK_CU_SYM_OPT
#undef GK_NVRTC_SYM
#undef GK_NVRTC_SYM_STR
  // The handle is deliberately never closed: the driver keeps threads and
  // atexit hooks that must outlive any dlclose.
  if (!missing.empty())
    return unavailable("cuda: driver library {} lacks {} (driver too old?)", path, missing);
  api->has_graphs = true;
#define GK_CU_SYM(name, symbol, ...)
#define GK_CU_SYM_OPT(name, symbol, ...) api->has_graphs = api->has_graphs && api->name != nullptr;
#define GK_NVRTC_SYM(name, ...)
#define GK_NVRTC_SYM_STR(name, ...)
#include "backends/cuda/cuda_symbols.def"
#undef GK_CU_SYM
#undef GK_CU_SYM_OPT
#undef GK_NVRTC_SYM
#undef GK_NVRTC_SYM_STR
  return api;
}

Result<std::unique_ptr<NvrtcApi>> load_nvrtc_at(const std::string& path, std::string& error) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = last_dlerror();
    return unavailable("{}", error);
  }
  auto api = std::make_unique<NvrtcApi>();
  api->path = path;
  std::string missing;
#define GK_CU_SYM(name, symbol, ...)
#define GK_CU_SYM_OPT(name, symbol, ...)
#define GK_NVRTC_SYM(name, ...)             \
  resolve(handle, #name, api->name);        \
  if (!api->name) missing += std::string(missing.empty() ? "" : ", ") + #name;
#define GK_NVRTC_SYM_STR(name, ...) GK_NVRTC_SYM(name)
#include "backends/cuda/cuda_symbols.def"
#undef GK_CU_SYM
#undef GK_CU_SYM_OPT
#undef GK_NVRTC_SYM
#undef GK_NVRTC_SYM_STR
  if (!missing.empty()) {
    error = fmt::format("{} lacks {}", path, missing);
    return unavailable("{}", error);
  }
  return api;
}

std::mutex& loader_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

Result<const DriverApi*> driver_at(const std::string& path) {
  static std::map<std::string, std::unique_ptr<DriverApi>> loaded;
  std::lock_guard lock(loader_mutex());
  auto it = loaded.find(path);
  if (it != loaded.end()) return static_cast<const DriverApi*>(it->second.get());
  GK_TRY(auto api, load_driver(path));
  const DriverApi* out = api.get();
  loaded.emplace(path, std::move(api));
  return out;
}

Result<const DriverApi*> driver() {
  const char* env = std::getenv("GK_CUDA_LIBRARY");
  return driver_at(env && *env ? env : "libcuda.so.1");
}

Result<const NvrtcApi*> nvrtc() {
  static std::map<std::string, std::unique_ptr<NvrtcApi>> loaded;  // by GK_NVRTC_LIBRARY
  const char* env = std::getenv("GK_NVRTC_LIBRARY");
  std::string key = env ? env : "";
  std::lock_guard lock(loader_mutex());
  auto it = loaded.find(key);
  if (it != loaded.end()) return static_cast<const NvrtcApi*>(it->second.get());
  std::vector<std::string> candidates;
  if (!key.empty()) {
    candidates.push_back(key);
  } else {
    for (const char* dir : {"", "/usr/local/cuda/lib64/"})
      for (const char* name : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"})
        candidates.push_back(std::string(dir) + name);
  }
  std::string errors;
  for (const std::string& path : candidates) {
    std::string error;
    auto api = load_nvrtc_at(path, error);
    if (api.ok()) {
      const NvrtcApi* out = api->get();
      loaded.emplace(key, std::move(*api));
      return out;
    }
    errors += (errors.empty() ? "" : "; ") + error;
  }
  return unavailable("cuda: libnvrtc not found: {}", errors);
}

std::string error_name(const DriverApi& api, CUresult result) {
  const char* name = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(result, &name) == CUDA_SUCCESS && name) return name;
  // The codes cuInit gives when the driver cannot name them (the toolkit's stub
  // library answers every call with 34).
  switch (result) {
    case 34: return "CUDA_ERROR_STUB_LIBRARY (CUresult 34)";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER (CUresult 35)";
    case 100: return "CUDA_ERROR_NO_DEVICE (CUresult 100)";
    default: return fmt::format("CUresult {}", result);
  }
}

Status check(const DriverApi& api, CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return ok_status();
  return device_error("cuda: {} failed: {}", call, error_name(api, result));
}

}  // namespace gk::cuda

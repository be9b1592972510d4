// NVRTC front end: one program per call, every requested entry added as a name
// expression so templates are instantiated and their mangled names come back.
#include "backends/cuda/cuda_device.h"
#include "backends/cuda/cuda_library.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gk {
namespace {

using cuda::NVRTC_SUCCESS;
using cuda::NvrtcApi;
using cuda::nvrtcProgram;
using cuda::nvrtcResult;

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Owns the nvrtcProgram so every early return destroys it.
class Program {
 public:
  explicit Program(const NvrtcApi& api) : api_(api) {}
  ~Program() {
    if (prog_) api_.nvrtcDestroyProgram(&prog_);
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram* out() { return &prog_; }
  nvrtcProgram get() const { return prog_; }

 private:
  const NvrtcApi& api_;
  nvrtcProgram prog_ = nullptr;
};

Result<std::vector<int>> supported_archs(const NvrtcApi& api) {
  int n = 0;
  if (api.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0)
    return unavailable("nvrtc: {} reports no supported architectures", api.path);
  std::vector<int> archs(static_cast<size_t>(n));
  if (api.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS)
    return unavailable("nvrtc: {}: nvrtcGetSupportedArchs failed", api.path);
  std::sort(archs.begin(), archs.end());
  return archs;
}

std::string program_log(const NvrtcApi& api, nvrtcProgram prog) {
  size_t size = 0;
  if (api.nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size <= 1) return {};
  std::string log(size, '\0');
  if (api.nvrtcGetProgramLog(prog, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

}  // namespace

Result<std::pair<int, int>> nvrtc_version() {
  GK_TRY(const NvrtcApi* api, cuda::nvrtc());
  int major = 0, minor = 0;
  if (api->nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
    return unavailable("nvrtc: nvrtcVersion failed in {}", api->path);
  return std::make_pair(major, minor);
}

Result<NvrtcImage> nvrtc_compile(const KernelSource& source, const std::vector<std::string>& entries,
                                 const NvrtcOptions& options) {
  GK_TRY(const NvrtcApi* api_ptr, cuda::nvrtc());
  const NvrtcApi& api = *api_ptr;
  if (entries.empty())
    return invalid_argument("nvrtc: no entries requested from source '{}'", source.name);

  // CUBIN straight for the device's arch when this NVRTC knows it; otherwise PTX
  // for the newest arch it knows below the device, which the driver JIT-compiles.
  const int wanted = options.cc_major * 10 + options.cc_minor;
  GK_TRY(std::vector<int> archs, supported_archs(api));
  const bool cubin = options.want_cubin && std::binary_search(archs.begin(), archs.end(), wanted);
  int arch = wanted;
  if (!cubin) {
    auto below = std::upper_bound(archs.begin(), archs.end(), wanted);
    if (below == archs.begin())
      return unavailable("nvrtc: {} cannot target sm_{} (it supports sm_{} to sm_{})", api.path, wanted,
                         archs.front(), archs.back());
    arch = *(below - 1);
  }
  const std::string arch_option =
      fmt::format("--gpu-architecture={}_{}", cubin ? "sm" : "compute", arch);
  // --fmad=false: the CPU build is compiled with -ffp-contract=off, so neither side
  // contracts a*b+c and elementwise results agree bit for bit. No --use_fast_math
  // for the same reason.
  const char* opts[] = {arch_option.c_str(), "--std=c++17", "--fmad=false", "-default-device"};

  const std::string text(source.text);
  const std::string program_name = std::string(source.name) + ".cu";
  Program prog(api);
  nvrtcResult r = api.nvrtcCreateProgram(prog.out(), text.c_str(), program_name.c_str(), 0, nullptr, nullptr);
  if (r != NVRTC_SUCCESS)
    return internal_error("nvrtc: nvrtcCreateProgram for '{}' failed: {}", source.name,
                          api.nvrtcGetErrorString(r));
  for (const std::string& e : entries) {
    r = api.nvrtcAddNameExpression(prog.get(), e.c_str());
    if (r != NVRTC_SUCCESS)
      return internal_error("nvrtc: nvrtcAddNameExpression('{}') in '{}' failed: {}", e, source.name,
                            api.nvrtcGetErrorString(r));
  }
  r = api.nvrtcCompileProgram(prog.get(), static_cast<int>(std::size(opts)), opts);
  NvrtcImage out;
  out.log = program_log(api, prog.get());
  if (r != NVRTC_SUCCESS)
    return internal_error("nvrtc: compiling '{}' (entries {}) with {} failed: {}\n{}", source.name,
                          join(entries), arch_option, api.nvrtcGetErrorString(r), out.log);

  for (const std::string& e : entries) {
    const char* lowered = nullptr;
    r = api.nvrtcGetLoweredName(prog.get(), e.c_str(), &lowered);
    if (r != NVRTC_SUCCESS || !lowered)
      return internal_error("nvrtc: '{}' has no kernel named '{}': {}", source.name, e,
                            api.nvrtcGetErrorString(r));
    out.lowered_names.emplace_back(lowered);
  }

  size_t size = 0;
  r = cubin ? api.nvrtcGetCUBINSize(prog.get(), &size) : api.nvrtcGetPTXSize(prog.get(), &size);
  if (r != NVRTC_SUCCESS || size == 0)
    return internal_error("nvrtc: '{}': reading the {} size failed: {}", source.name,
                          cubin ? "CUBIN" : "PTX", api.nvrtcGetErrorString(r));
  out.image.resize(size);
  r = cubin ? api.nvrtcGetCUBIN(prog.get(), out.image.data()) : api.nvrtcGetPTX(prog.get(), out.image.data());
  if (r != NVRTC_SUCCESS)
    return internal_error("nvrtc: '{}': reading the {} failed: {}", source.name,
                          cubin ? "CUBIN" : "PTX", api.nvrtcGetErrorString(r));
  out.is_cubin = cubin;
  out.target = fmt::format("{}_{}", cubin ? "sm" : "compute", arch);
  return out;
}

}  // namespace gk

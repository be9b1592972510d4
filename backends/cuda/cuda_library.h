// libcuda and libnvrtc, opened with dlopen at run time so one binary runs with
// and without CUDA. The few types and enum values gkrun needs are declared here
// (ABI-compatible with CUDA 13's cuda.h and nvrtc.h), so the build needs no
// CUDA toolkit. Every entry point is listed once, in cuda_symbols.def.
#pragma once

#include "backends/status.h"

#include <cstddef>
#include <string>

namespace gk::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUkernel = struct CUkern_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphNode = struct CUgraphNode_st*;
using CUgraphExec = struct CUgraphExec_st*;
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

// CUDA_KERNEL_NODE_PARAMS_v2 (cuda.h, CUDA 12.0+).
struct CudaKernelNodeParams {
  CUfunction func;
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  void** kernelParams;
  void** extra;
  CUkernel kern;
  CUcontext ctx;
};

// Enum values, as cuda.h / nvrtc.h number them.
inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0x0;
inline constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr int CU_GRAPH_NODE_TYPE_KERNEL = 0;
inline constexpr int CU_STREAM_CAPTURE_MODE_RELAXED = 2;
inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

struct DriverApi {
#define GK_CU_SYM(name, symbol, ...) CUresult (*name)(__VA_ARGS__) = nullptr;
#define GK_CU_SYM_OPT(name, symbol, ...) CUresult (*name)(__VA_ARGS__) = nullptr;
#define GK_NVRTC_SYM(name, ...)
#define GK_NVRTC_SYM_STR(name, ...)
#include "backends/cuda/cuda_symbols.def"
#undef GK_CU_SYM
#undef GK_CU_SYM_OPT
#undef GK_NVRTC_SYM
#undef GK_NVRTC_SYM_STR
  std::string path;         // what dlopen was given
  bool has_graphs = false;  // every GK_CU_SYM_OPT entry resolved
};

struct NvrtcApi {
#define GK_CU_SYM(name, symbol, ...)
#define GK_CU_SYM_OPT(name, symbol, ...)
#define GK_NVRTC_SYM(name, ...) nvrtcResult (*name)(__VA_ARGS__) = nullptr;
#define GK_NVRTC_SYM_STR(name, ...) const char* (*name)(__VA_ARGS__) = nullptr;
#include "backends/cuda/cuda_symbols.def"
#undef GK_CU_SYM
#undef GK_CU_SYM_OPT
#undef GK_NVRTC_SYM
#undef GK_NVRTC_SYM_STR
  std::string path;
};

// The driver library: GK_CUDA_LIBRARY, else libcuda.so.1. Loaded once per path
// and kept for the life of the process (drivers do not survive dlclose); the
// environment is read on each call, so a test can point it elsewhere.
Result<const DriverApi*> driver();
// The same for an explicit path (tests).
Result<const DriverApi*> driver_at(const std::string& path);

// NVRTC: GK_NVRTC_LIBRARY, else libnvrtc.so.13, .so.12, .so, then the same names
// under /usr/local/cuda/lib64.
Result<const NvrtcApi*> nvrtc();

// "CUDA_ERROR_OUT_OF_MEMORY", or "CUresult 2" when the driver cannot name it.
std::string error_name(const DriverApi& api, CUresult result);

// device_error("cuda: <call> failed: <name>") when result is not CUDA_SUCCESS.
Status check(const DriverApi& api, CUresult result, const char* call);

}  // namespace gk::cuda

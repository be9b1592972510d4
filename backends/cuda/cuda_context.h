// What every piece of the CUDA device shares: the driver table, the primary
// context and the device's one stream.
#pragma once

#include "backends/cuda/cuda_library.h"

namespace gk::cuda {

struct CudaContext {
  const DriverApi* api = nullptr;
  CUdevice device = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;

  // Binds the primary context to the calling thread. Driver calls act on the
  // thread's current context, and runtime threads (a session's callers, the
  // pool) arrive with none; a thread-local remembers the last one bound so the
  // common case costs a compare. Code that binds another context behind our
  // back on the same thread is not supported. Creating or destroying a device
  // starts a new epoch, after which every thread binds once more: the primary
  // context may have been released and retained in between.
  Status make_current() const;
  static void new_epoch();
  Status check(CUresult result, const char* call) const { return cuda::check(*api, result, call); }
};

}  // namespace gk::cuda

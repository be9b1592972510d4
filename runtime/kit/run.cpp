// The one-call launch: what a test or a small tool writes by hand (alloc, upload,
// compile, launch, sync, download), in one place and with no arithmetic of its own.
#include "runtime/kit/kit.h"

#include <bit>
#include <vector>

namespace gk {

Binding Binding::input(DType dtype, const void* data, int64_t count) {
  Binding b{Kind::kInput};
  b.dtype = dtype;
  b.host_in = data;
  b.count = count;
  return b;
}
Binding Binding::output(DType dtype, void* data, int64_t count) {
  Binding b{Kind::kOutput};
  b.dtype = dtype;
  b.host_out = data;
  b.count = count;
  return b;
}
Binding Binding::inout(DType dtype, void* data, int64_t count) {
  Binding b{Kind::kInOut};
  b.dtype = dtype;
  b.host_in = data;
  b.host_out = data;
  b.count = count;
  return b;
}
Binding Binding::i32(int32_t v) {
  Binding b{Kind::kScalar};
  b.scalar_kind = ArgKind::kI32;
  b.scalar_bits = static_cast<uint32_t>(v);
  return b;
}
Binding Binding::i64(int64_t v) {
  Binding b{Kind::kScalar};
  b.scalar_kind = ArgKind::kI64;
  b.scalar_bits = static_cast<uint64_t>(v);
  return b;
}
Binding Binding::f32(float v) {
  Binding b{Kind::kScalar};
  b.scalar_kind = ArgKind::kF32;
  b.scalar_bits = std::bit_cast<uint32_t>(v);
  return b;
}
Binding Binding::f64(double v) {
  Binding b{Kind::kScalar};
  b.scalar_kind = ArgKind::kF64;
  b.scalar_bits = std::bit_cast<uint64_t>(v);
  return b;
}

Status run(Kit& kit, const KernelSource& source, std::string_view entry, const LaunchConfig& config,
           std::span<const Binding> bindings) {
  GK_TRY(const Kernel* kernel, kit.kernel(source, entry));
  std::vector<GkBuf> buffers(bindings.size());
  KernelArgs args;
  for (size_t i = 0; i < bindings.size(); ++i) {
    const Binding& b = bindings[i];
    switch (b.kind) {
      case Binding::Kind::kScalar:
        switch (b.scalar_kind) {
          case ArgKind::kI32: args.i32(static_cast<int32_t>(static_cast<uint32_t>(b.scalar_bits))); break;
          case ArgKind::kI64: args.i64(static_cast<int64_t>(b.scalar_bits)); break;
          case ArgKind::kF32: args.f32(std::bit_cast<float>(static_cast<uint32_t>(b.scalar_bits))); break;
          case ArgKind::kF64: args.f64(std::bit_cast<double>(b.scalar_bits)); break;
          default:
            return invalid_argument("run '{}': binding {} is a {} scalar; only i32/i64/f32/f64 bind",
                                    entry, i, arg_kind_name(b.scalar_kind));
        }
        break;
      case Binding::Kind::kInput:
      case Binding::Kind::kOutput:
      case Binding::Kind::kInOut: {
        GK_TRY(buffers[i], kit.alloc(b.dtype, b.count));
        if (b.kind != Binding::Kind::kOutput && buffers[i].bytes() > 0) {
          if (!b.host_in) return invalid_argument("run '{}': input binding {} has no host data", entry, i);
          GK_RETURN_IF_ERROR(buffers[i].upload_raw(b.host_in, buffers[i].bytes()));
        }
        args.ptr(buffers[i].ptr());
        break;
      }
    }
  }
  GK_RETURN_IF_ERROR(kit.launch(*kernel, config, args));
  GK_RETURN_IF_ERROR(kit.sync());
  for (size_t i = 0; i < bindings.size(); ++i) {
    const Binding& b = bindings[i];
    if (b.kind != Binding::Kind::kOutput && b.kind != Binding::Kind::kInOut) continue;
    if (buffers[i].bytes() == 0) continue;
    if (!b.host_out) return invalid_argument("run '{}': output binding {} has no host memory", entry, i);
    GK_RETURN_IF_ERROR(buffers[i].download_raw(b.host_out, buffers[i].bytes()));
  }
  return ok_status();
}

Status run(Kit& kit, const KernelSource& source, std::string_view entry, const LaunchConfig& config,
           const KernelArgs& args) {
  GK_TRY(const Kernel* kernel, kit.kernel(source, entry));
  GK_RETURN_IF_ERROR(kit.launch(*kernel, config, args));
  return kit.sync();
}

}  // namespace gk

// The C API's vocabulary: version, statuses, element types.
#include "runtime/api/c_handles.h"

#include "backends/dtype.h"

namespace {

// gkrun_code mirrors gk::StatusCode value for value (checked below), so codes cast.
static_assert(static_cast<int>(gk::StatusCode::kInvalidModel) == GKRUN_INVALID_MODEL);
static_assert(static_cast<int>(gk::StatusCode::kInvalidArgument) == GKRUN_INVALID_ARGUMENT);
static_assert(static_cast<int>(gk::StatusCode::kOutOfRange) == GKRUN_OUT_OF_RANGE);
static_assert(static_cast<int>(gk::StatusCode::kUnimplemented) == GKRUN_UNIMPLEMENTED);
static_assert(static_cast<int>(gk::StatusCode::kResourceExhausted) == GKRUN_RESOURCE_EXHAUSTED);
static_assert(static_cast<int>(gk::StatusCode::kUnavailable) == GKRUN_UNAVAILABLE);
static_assert(static_cast<int>(gk::StatusCode::kDeviceError) == GKRUN_DEVICE_ERROR);
static_assert(static_cast<int>(gk::StatusCode::kInternal) == GKRUN_INTERNAL);
static_assert(static_cast<int>(gk::StatusCode::kDeadlineExceeded) == GKRUN_DEADLINE_EXCEEDED);
static_assert(static_cast<int>(gk::StatusCode::kCancelled) == GKRUN_CANCELLED);
// gkrun_dtype is the ONNX code, as gk::DType is.
static_assert(static_cast<int>(gk::DType::kF32) == GKRUN_DTYPE_FLOAT32);
static_assert(static_cast<int>(gk::DType::kString) == GKRUN_DTYPE_STRING);
static_assert(static_cast<int>(gk::DType::kBF16) == GKRUN_DTYPE_BFLOAT16);

static_assert(sizeof(GK_VERSION) > 1, "GK_VERSION comes from the project version");

}  // namespace

extern "C" {

const char* gkrun_version(void) { return GK_VERSION; }

gkrun_code gkrun_status_code(const gkrun_status* status) {
  return status ? static_cast<gkrun_code>(status->code) : GKRUN_OK;
}

const char* gkrun_status_message(const gkrun_status* status) { return status ? status->message.c_str() : ""; }

void gkrun_status_free(gkrun_status* status) { delete status; }

const char* gkrun_code_name(gkrun_code code) {
  if (code < GKRUN_OK || code > GKRUN_CANCELLED) return "Unknown";
  return gk::status_code_name(static_cast<gk::StatusCode>(code));
}

const char* gkrun_dtype_name(gkrun_dtype dtype) {
  gk::Result<gk::DType> t = gk::dtype_from_code(gk::capi::dtype_code(dtype));
  // dtype_name returns views of string literals, so .data() is NUL-terminated.
  return t.ok() ? gk::dtype_name(*t).data() : "undefined";
}

size_t gkrun_dtype_bytes(gkrun_dtype dtype, int64_t count) {
  gk::Result<gk::DType> t = gk::dtype_from_code(gk::capi::dtype_code(dtype));
  if (!t.ok() || count < 0) return 0;
  if (*t == gk::DType::kString) return static_cast<size_t>(count) * sizeof(const char*);
  return gk::dtype_storage_bytes(*t, count);
}

}  // extern "C"

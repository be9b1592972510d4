/* gkrun's C API: open an ONNX model once, run it many times, from C, C++ or any
 * language with a C FFI. Installed as <prefix>/include/gkrun/gkrun.h; link
 * gkrun::gkrun (CMake), `pkg-config --libs gkrun`, or -lgkrun.
 *
 *   gkrun_session* s = NULL;
 *   gkrun_status* st = gkrun_session_open("model.onnx", NULL, &s);
 *   if (st) { fprintf(stderr, "%s\n", gkrun_status_message(st)); gkrun_status_free(st); }
 *
 * Conventions:
 * - Every function that can fail returns a gkrun_status*: NULL on success, else an
 *   error the caller frees with gkrun_status_free. Its message names the file, node
 *   or value and the reason, as the C++ API's Status does.
 * - Handles are opaque; each *_free / *_close accepts NULL.
 * - Strings and arrays a handle returns stay valid until that handle is freed.
 * - A session is immutable after open; gkrun_session_run may be called from many
 *   threads at once on one session.
 * - No function aborts on bad input: a NULL where a handle is required is
 *   GKRUN_INVALID_ARGUMENT.
 */
#ifndef GKRUN_H_
#define GKRUN_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define GKRUN_API
#elif defined(GKRUN_BUILDING)
#define GKRUN_API __attribute__((visibility("default")))
#else
#define GKRUN_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define GKRUN_VERSION_MAJOR 0
#define GKRUN_VERSION_MINOR 2
#define GKRUN_VERSION_PATCH 0

/* The library's version, "0.2.0" (may differ from the header's GKRUN_VERSION_*
 * when an application runs against a newer libgkrun.so of the same SONAME). */
GKRUN_API const char* gkrun_version(void);

/* ---- errors ---- */

typedef enum gkrun_code {
  GKRUN_OK = 0,
  GKRUN_INVALID_MODEL = 1,      /* the model is malformed or uses an unsupported op */
  GKRUN_INVALID_ARGUMENT = 2,   /* a bad input name, dtype, shape or argument */
  GKRUN_OUT_OF_RANGE = 3,       /* an index outside its range */
  GKRUN_UNIMPLEMENTED = 4,
  GKRUN_RESOURCE_EXHAUSTED = 5, /* out of memory */
  GKRUN_UNAVAILABLE = 6,        /* e.g. CUDA asked for and no driver */
  GKRUN_DEVICE_ERROR = 7,
  GKRUN_INTERNAL = 8,
  GKRUN_DEADLINE_EXCEEDED = 9,  /* a run went past its timeout (gkrun_options_set_run_timeout) */
  GKRUN_CANCELLED = 10
} gkrun_code;

typedef struct gkrun_status gkrun_status;

/* The code of `status`; GKRUN_OK for NULL. */
GKRUN_API gkrun_code gkrun_status_code(const gkrun_status* status);
/* Its message; "" for NULL. Valid until gkrun_status_free. */
GKRUN_API const char* gkrun_status_message(const gkrun_status* status);
GKRUN_API void gkrun_status_free(gkrun_status* status);
/* "InvalidModel", "InvalidArgument", ... */
GKRUN_API const char* gkrun_code_name(gkrun_code code);

/* ---- element types: the ONNX TensorProto codes ---- */

typedef enum gkrun_dtype {
  GKRUN_DTYPE_UNDEFINED = 0,
  GKRUN_DTYPE_FLOAT32 = 1,
  GKRUN_DTYPE_UINT8 = 2,
  GKRUN_DTYPE_INT8 = 3,
  GKRUN_DTYPE_UINT16 = 4,
  GKRUN_DTYPE_INT16 = 5,
  GKRUN_DTYPE_INT32 = 6,
  GKRUN_DTYPE_INT64 = 7,
  GKRUN_DTYPE_STRING = 8, /* host only: data is an array of NUL-terminated char* */
  GKRUN_DTYPE_BOOL = 9,   /* one byte per element, 0 or 1 */
  GKRUN_DTYPE_FLOAT16 = 10,
  GKRUN_DTYPE_FLOAT64 = 11,
  GKRUN_DTYPE_UINT32 = 12,
  GKRUN_DTYPE_UINT64 = 13,
  GKRUN_DTYPE_BFLOAT16 = 16
  /* The float8/float4/int4/int2 codes (17-26) pass through as their ONNX values. */
} gkrun_dtype;

/* "float32", "int64", ...; "undefined" for an unknown code. */
GKRUN_API const char* gkrun_dtype_name(gkrun_dtype dtype);
/* Bytes that `count` elements occupy (packed types round up); for strings
 * count * sizeof(const char*); 0 for unknown codes. */
GKRUN_API size_t gkrun_dtype_bytes(gkrun_dtype dtype, int64_t count);

/* ---- session options ---- */

typedef struct gkrun_options gkrun_options;

GKRUN_API gkrun_status* gkrun_options_create(gkrun_options** out);
GKRUN_API void gkrun_options_free(gkrun_options* options);
/* "auto" (CUDA where a driver and GPU are present, else CPU; the default), "cpu"
 * or "cuda". */
GKRUN_API gkrun_status* gkrun_options_set_backend(gkrun_options* options, const char* backend);
/* CUDA device ordinal; -1 (default): GK_DEVICE or the best device. */
GKRUN_API gkrun_status* gkrun_options_set_device(gkrun_options* options, int device);
/* CPU worker threads; 0 (default): all cores. */
GKRUN_API gkrun_status* gkrun_options_set_threads(gkrun_options* options, int threads);
/* Turns a graph pass off by name ("eliminate-dead", "remove-identity",
 * "fold-constants", "fold-batchnorm", "pretranspose-weights", "fuse-activation"); an unknown name is
 * refused when the session opens. */
GKRUN_API gkrun_status* gkrun_options_disable_pass(gkrun_options* options, const char* pass);
/* CUDA graph capture of the second run of a shape (default on). */
GKRUN_API gkrun_status* gkrun_options_set_cuda_graphs(gkrun_options* options, int enable);
/* Profiling: every run records its kernel launches (node, op type, shapes, time)
 * until gkrun_session_end_profiling writes them as a Chrome trace. Default off. */
GKRUN_API gkrun_status* gkrun_options_set_profiling(gkrun_options* options, int enable);
/* Every run of the session stops with GKRUN_DEADLINE_EXCEEDED at its first step
 * (a node, an iteration of a Loop or Scan body) more than `seconds` after it
 * started; a kernel already started finishes first. 0 (the default): no limit.
 * Negative or NaN: GKRUN_INVALID_ARGUMENT. */
GKRUN_API gkrun_status* gkrun_options_set_run_timeout(gkrun_options* options, double seconds);

/* ---- sessions ---- */

typedef struct gkrun_session gkrun_session;

/* Opens (loads, validates, optimises) the model at `path`. `options` may be NULL
 * (defaults) and may be freed after the call. */
GKRUN_API gkrun_status* gkrun_session_open(const char* path, const gkrun_options* options,
                                           gkrun_session** out);
/* The same from a serialized ModelProto in memory (copied; external data is
 * refused, as there is no folder to confine it to). */
GKRUN_API gkrun_status* gkrun_session_open_from_memory(const void* data, size_t size,
                                                       const gkrun_options* options,
                                                       gkrun_session** out);
GKRUN_API void gkrun_session_close(gkrun_session* session);

/* "cpu" or "cuda": where the session runs. */
GKRUN_API const char* gkrun_session_backend(const gkrun_session* session);

/* A graph input or output as the model declares it. */
typedef struct gkrun_io_info {
  const char* name;
  gkrun_dtype dtype;
  /* Rank, or -1 when the model declares no shape. */
  int64_t rank;
  /* `rank` entries: the dim, or -1 for a symbolic or unknown dim. */
  const int64_t* dims;
  /* `rank` entries: the dim's symbol ("batch"), or "" for a known dim. */
  const char* const* dim_symbols;
  /* A gkrun_value_kind: 0 (GKRUN_VALUE_TENSOR) a tensor, 1 (GKRUN_VALUE_SEQUENCE)
   * a sequence of tensors with `dtype` elements, 2 (GKRUN_VALUE_NONE here meaning
   * "optional") an optional, fed as a tensor, a sequence or an empty optional.
   * Sequences and optionals run through gkrun_session_run_values. */
  int kind;
} gkrun_io_info;

GKRUN_API size_t gkrun_session_input_count(const gkrun_session* session);
GKRUN_API size_t gkrun_session_output_count(const gkrun_session* session);
/* Fills `*out` for input / output `index`; GKRUN_OUT_OF_RANGE past the count. */
GKRUN_API gkrun_status* gkrun_session_input_info(const gkrun_session* session, size_t index,
                                                 gkrun_io_info* out);
GKRUN_API gkrun_status* gkrun_session_output_info(const gkrun_session* session, size_t index,
                                                  gkrun_io_info* out);

/* A tensor handed to a run: borrowed, read during the call only. For
 * gkrun_session_run `data` is host memory; for gkrun_session_run_device it is a
 * device pointer (a CUdeviceptr cast to void* on CUDA, host memory on the CPU
 * backend). `bytes` must equal gkrun_dtype_bytes(dtype, product of shape); for a
 * string tensor (host runs only) `data` is an array of `const char*`, one per
 * element, and `bytes` is their count times sizeof(const char*). */
typedef struct gkrun_tensor {
  const char* name;
  gkrun_dtype dtype;
  const int64_t* shape;
  size_t rank;
  const void* data;
  size_t bytes;
} gkrun_tensor;

/* A run's outputs, in the model's output order. */
typedef struct gkrun_values gkrun_values;

/* Runs with host inputs; `*outputs` holds host copies of every output. */
GKRUN_API gkrun_status* gkrun_session_run(const gkrun_session* session, const gkrun_tensor* inputs,
                                          size_t input_count, gkrun_values** outputs);
/* Runs with device-resident inputs, bound without a copy; `*outputs` holds
 * device buffers (gkrun_values_on_device is 1), owned by the gkrun_values. */
GKRUN_API gkrun_status* gkrun_session_run_device(const gkrun_session* session,
                                                 const gkrun_tensor* inputs, size_t input_count,
                                                 gkrun_values** outputs);

GKRUN_API size_t gkrun_values_count(const gkrun_values* values);
/* 1 when the values' data pointers are device pointers (from run_device). */
GKRUN_API int gkrun_values_on_device(const gkrun_values* values);
/* Output `index` as a gkrun_tensor whose pointers stay valid until
 * gkrun_values_free; GKRUN_OUT_OF_RANGE past the count, GKRUN_INVALID_ARGUMENT
 * for a sequence or an empty optional (read those with gkrun_values_value). */
GKRUN_API gkrun_status* gkrun_values_get(const gkrun_values* values, size_t index, gkrun_tensor* out);
/* The output called `name`; GKRUN_INVALID_ARGUMENT naming it when there is none. */
GKRUN_API gkrun_status* gkrun_values_find(const gkrun_values* values, const char* name,
                                          gkrun_tensor* out);
GKRUN_API void gkrun_values_free(gkrun_values* values);

/* ---- values: tensors, sequences of tensors, empty optionals ----
 *
 * What a sequence (ONNX seq(tensor)) or optional input or output is through the C
 * API, the way OrtValue is for onnxruntime:
 *
 *   gkrun_value* parts[1] = {NULL};
 *   gkrun_tensor chunks[2] = {{NULL, GKRUN_DTYPE_FLOAT32, s2, 1, a, sizeof a},
 *                             {NULL, GKRUN_DTYPE_FLOAT32, s3, 1, b, sizeof b}};
 *   st = gkrun_value_sequence(GKRUN_DTYPE_FLOAT32, chunks, 2, &parts[0]);
 *   const char* names[1] = {"parts"};
 *   st = gkrun_session_run_values(s, names, (const gkrun_value* const*)parts, 1, &out);
 *   const gkrun_value* v;  st = gkrun_values_value(out, 0, &v);
 *
 * Ownership: a value from a constructor (gkrun_value_tensor, _sequence,
 * _optional_none) owns a copy of the data it was given and belongs to the caller,
 * who frees it with gkrun_value_free (a run only reads it). A value from
 * gkrun_values_value / gkrun_values_find_value is borrowed from its gkrun_values:
 * valid until gkrun_values_free, never freed on its own. The gkrun_tensor an
 * accessor fills points into the value and is valid as long as the value is.
 * An optional that holds something is just that tensor or sequence value. */

typedef enum gkrun_value_kind {
  GKRUN_VALUE_INVALID = -1, /* gkrun_value_get_kind(NULL) */
  GKRUN_VALUE_TENSOR = 0,
  GKRUN_VALUE_SEQUENCE = 1,
  GKRUN_VALUE_NONE = 2 /* an empty optional */
} gkrun_value_kind;

typedef struct gkrun_value gkrun_value;

/* A tensor value holding a copy of `tensor` (host memory; `tensor->name` is not
 * used and may be NULL). Checked as a run's input is: dtype, shape, byte count. */
GKRUN_API gkrun_status* gkrun_value_tensor(const gkrun_tensor* tensor, gkrun_value** out);
/* A sequence of `count` tensors, each copied, each of element type `dtype` (an
 * empty sequence keeps `dtype` too); `elements` may be NULL when count is 0.
 * GKRUN_INVALID_ARGUMENT naming the element when one has another dtype. */
GKRUN_API gkrun_status* gkrun_value_sequence(gkrun_dtype dtype, const gkrun_tensor* elements, size_t count,
                                             gkrun_value** out);
/* An empty optional (ONNX optional with no value). */
GKRUN_API gkrun_status* gkrun_value_optional_none(gkrun_value** out);
/* Frees a value from a constructor; NULL is accepted. */
GKRUN_API void gkrun_value_free(gkrun_value* value);

GKRUN_API gkrun_value_kind gkrun_value_get_kind(const gkrun_value* value);
/* A tensor's element type, a sequence's element type; GKRUN_DTYPE_UNDEFINED for an
 * empty optional or NULL. */
GKRUN_API gkrun_dtype gkrun_value_dtype(const gkrun_value* value);
/* A sequence's element count; 0 for a tensor, an empty optional or NULL. */
GKRUN_API size_t gkrun_value_element_count(const gkrun_value* value);
/* A tensor value's tensor; GKRUN_INVALID_ARGUMENT naming the kind for a sequence
 * or an empty optional. */
GKRUN_API gkrun_status* gkrun_value_get_tensor(const gkrun_value* value, gkrun_tensor* out);
/* Element `index` of a sequence; GKRUN_INVALID_ARGUMENT for a tensor or an empty
 * optional, GKRUN_OUT_OF_RANGE past gkrun_value_element_count. */
GKRUN_API gkrun_status* gkrun_value_get_element(const gkrun_value* value, size_t index, gkrun_tensor* out);

/* Runs with host values: `inputs[i]` (a tensor, a sequence or an empty optional)
 * feeds the graph input `names[i]`. The values are read during the call only and
 * stay the caller's. `*outputs` holds every output; read each with
 * gkrun_values_value (any kind) or gkrun_values_get (tensors). */
GKRUN_API gkrun_status* gkrun_session_run_values(const gkrun_session* session, const char* const* names,
                                                 const gkrun_value* const* inputs, size_t input_count,
                                                 gkrun_values** outputs);
/* Output `index` of a run as a value, whatever its kind, borrowed from `values`
 * (see Ownership above); GKRUN_OUT_OF_RANGE past the count. The values of
 * gkrun_session_run_device hold device pointers (gkrun_values_on_device). */
GKRUN_API gkrun_status* gkrun_values_value(const gkrun_values* values, size_t index, const gkrun_value** out);
/* The output called `name`, as gkrun_values_find does. */
GKRUN_API gkrun_status* gkrun_values_find_value(const gkrun_values* values, const char* name,
                                                const gkrun_value** out);

/* With profiling on: writes every launch recorded since the session opened (or
 * since the last call) to `path` as a Chrome trace (Perfetto loads it) and starts
 * a new recording. GKRUN_INVALID_ARGUMENT when profiling is off. */
GKRUN_API gkrun_status* gkrun_session_end_profiling(gkrun_session* session, const char* path);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* GKRUN_H_ */

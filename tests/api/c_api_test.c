/* The C API from C (compiled as C11): open from a file and from memory, the
 * input/output queries, a host run and a device-buffer run checked against the
 * model's arithmetic done here, profiling to a Chrome trace, and the error
 * cases' codes and messages, and a run timeout. Usage: c_api_test MODEL_DIR TMP_DIR
 * (MODEL_DIR holds affine.onnx, see make_affine_model.py, and endless_loop.onnx,
 * see make_value_models.py). Exit 0 when every
 * check holds; each failed check prints its line. */
#include "c_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model: y = relu(x @ W + b), n = shape(x). */
static const float W[6] = {0.5f, -1.0f, 2.0f, 0.25f, -0.5f, 1.5f};
static const float B[2] = {0.1f, -0.2f};

static void reference(const float* x, int64_t batch, float* y) {
  for (int64_t r = 0; r < batch; ++r)
    for (int c = 0; c < 2; ++c) {
      float acc = 0.0f;
      for (int k = 0; k < 3; ++k) acc += x[r * 3 + k] * W[k * 2 + c];
      acc += B[c];
      y[r * 2 + c] = acc > 0.0f ? acc : 0.0f;
    }
}

static void check_outputs(const gkrun_values* values, const float* x, int64_t batch) {
  gkrun_tensor y, n;
  float want[8];
  CHECK(gkrun_values_count(values) == 2);
  REQUIRE_OK(gkrun_values_get(values, 0, &y));
  CHECK(strcmp(y.name, "y") == 0);
  CHECK(y.dtype == GKRUN_DTYPE_FLOAT32);
  CHECK(y.rank == 2 && y.shape[0] == batch && y.shape[1] == 2);
  CHECK(y.bytes == (size_t)batch * 2 * sizeof(float));
  reference(x, batch, want);
  for (int64_t i = 0; i < batch * 2; ++i) {
    const float got = ((const float*)y.data)[i];
    if (fabsf(got - want[i]) > 1e-6f + 1e-5f * fabsf(want[i])) {
      fprintf(stderr, "y[%lld] = %g, want %g\n", (long long)i, got, want[i]);
      ++failures;
    }
  }
  REQUIRE_OK(gkrun_values_find(values, "n", &n));
  CHECK(n.dtype == GKRUN_DTYPE_INT64 && n.rank == 1 && n.shape[0] == 2);
  CHECK(((const int64_t*)n.data)[0] == batch && ((const int64_t*)n.data)[1] == 3);
}

static char* slurp(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* data;
  long n;
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = (char*)malloc((size_t)n + 1);
  if (fread(data, 1, (size_t)n, f) != (size_t)n) n = 0;
  data[n] = 0;
  fclose(f);
  *size = (size_t)n;
  return data;
}

int main(int argc, char** argv) {
  char model[4096], loop_model[4096], trace[4096], *bytes, *trace_text;
  size_t size = 0;
  gkrun_options* options = NULL;
  gkrun_session* s = NULL;
  gkrun_session* from_memory = NULL;
  gkrun_session* bad = NULL;
  gkrun_values* values = NULL;
  gkrun_io_info info;
  gkrun_tensor t;
  const float x[8] = {1.0f, 2.0f, 3.0f, -1.0f, 0.5f, 0.25f, 0.0f, 4.0f};
  const int64_t shape[2] = {2, 3};
  gkrun_tensor input;

  if (argc < 3) {
    fprintf(stderr, "usage: c_api_test MODEL_DIR TMP_DIR\n");
    return 2;
  }
  snprintf(model, sizeof model, "%s/affine.onnx", argv[1]);
  snprintf(loop_model, sizeof loop_model, "%s/endless_loop.onnx", argv[1]);
  snprintf(trace, sizeof trace, "%s/c_api_trace.json", argv[2]);

  CHECK(strcmp(gkrun_version(), "0.2.0") == 0);
  CHECK(strcmp(gkrun_dtype_name(GKRUN_DTYPE_FLOAT16), "float16") == 0);
  CHECK(gkrun_dtype_bytes(GKRUN_DTYPE_INT64, 5) == 40);
  /* A code no enumerator has (a C enum holds any int): named as such, never read as the enum. */
  CHECK(strcmp(gkrun_dtype_name((gkrun_dtype)99), "undefined") == 0);
  CHECK(gkrun_dtype_bytes((gkrun_dtype)99, 5) == 0);
  CHECK(gkrun_status_code(NULL) == GKRUN_OK);

  REQUIRE_OK(gkrun_options_create(&options));
  REQUIRE_OK(gkrun_options_set_backend(options, "cpu"));
  REQUIRE_OK(gkrun_options_set_threads(options, 2));
  REQUIRE_OK(gkrun_options_set_profiling(options, 1));
  REQUIRE_OK(gkrun_session_open(model, options, &s));
  CHECK(strcmp(gkrun_session_backend(s), "cpu") == 0);

  /* Queries. */
  CHECK(gkrun_session_input_count(s) == 1);
  CHECK(gkrun_session_output_count(s) == 2);
  REQUIRE_OK(gkrun_session_input_info(s, 0, &info));
  CHECK(strcmp(info.name, "x") == 0 && info.dtype == GKRUN_DTYPE_FLOAT32 && info.rank == 2 && info.kind == 0);
  CHECK(info.dims[0] == -1 && strcmp(info.dim_symbols[0], "batch") == 0);
  CHECK(info.dims[1] == 3 && strcmp(info.dim_symbols[1], "") == 0);
  REQUIRE_OK(gkrun_session_output_info(s, 1, &info));
  CHECK(strcmp(info.name, "n") == 0 && info.dtype == GKRUN_DTYPE_INT64 && info.rank == 1 && info.dims[0] == 2);
  REQUIRE_ERROR(gkrun_session_output_info(s, 2, &info), GKRUN_OUT_OF_RANGE, "index 2 is out of range, the model has 2 outputs");

  /* A host run, then the same inputs as "device" buffers (host memory on the CPU backend). */
  input.name = "x";
  input.dtype = GKRUN_DTYPE_FLOAT32;
  input.shape = shape;
  input.rank = 2;
  input.data = x;
  input.bytes = 6 * sizeof(float);
  REQUIRE_OK(gkrun_session_run(s, &input, 1, &values));
  CHECK(gkrun_values_on_device(values) == 0);
  check_outputs(values, x, 2);
  REQUIRE_ERROR(gkrun_values_find(values, "z", &t), GKRUN_INVALID_ARGUMENT, "no output 'z'; outputs are 'y', 'n'");
  REQUIRE_ERROR(gkrun_values_get(values, 5, &t), GKRUN_OUT_OF_RANGE, "index 5 is out of range");
  gkrun_values_free(values);

  REQUIRE_OK(gkrun_session_run_device(s, &input, 1, &values));
  CHECK(gkrun_values_on_device(values) == 1);
  check_outputs(values, x, 2);
  gkrun_values_free(values);

  /* Profiling: both runs' launches, as a Chrome trace naming the Gemm node. */
  REQUIRE_OK(gkrun_session_end_profiling(s, trace));
  trace_text = slurp(trace, &size);
  CHECK(trace_text != NULL);
  if (trace_text) {
    CHECK(strncmp(trace_text, "{\"traceEvents\":[", 16) == 0);
    CHECK(strstr(trace_text, "\"nodes\":\"gemm") != NULL);
    free(trace_text);
  }

  /* Run-time errors: a wrong input name, a byte count that does not match the shape. */
  input.name = "nope";
  REQUIRE_ERROR(gkrun_session_run(s, &input, 1, &values), GKRUN_INVALID_ARGUMENT, "nope");
  CHECK(values == NULL);
  input.name = "x";
  input.bytes = 5 * sizeof(float);
  REQUIRE_ERROR(gkrun_session_run(s, &input, 1, &values), GKRUN_INVALID_ARGUMENT,
                "input 'x': float32 2x3 needs 24 bytes, got 20");
  input.bytes = 6 * sizeof(float);
  input.dtype = (gkrun_dtype)99;
  REQUIRE_ERROR(gkrun_session_run(s, &input, 1, &values), GKRUN_INVALID_ARGUMENT, "dtype code 99");
  input.dtype = GKRUN_DTYPE_FLOAT32;

  /* Open from memory: the same model, default options, 4 rows. */
  bytes = slurp(model, &size);
  CHECK(bytes != NULL);
  REQUIRE_OK(gkrun_session_open_from_memory(bytes, size, NULL, &from_memory));
  free(bytes);
  {
    const int64_t shape4[2] = {4, 3};
    const float x4[12] = {1, 2, 3, -1, 0.5f, 0.25f, 0, 4, -2, 7, -3, 0.125f};
    gkrun_tensor in4 = {"x", GKRUN_DTYPE_FLOAT32, shape4, 2, x4, sizeof x4};
    REQUIRE_OK(gkrun_session_run(from_memory, &in4, 1, &values));
    check_outputs(values, x4, 4);
    gkrun_values_free(values);
  }
  REQUIRE_ERROR(gkrun_session_end_profiling(from_memory, trace), GKRUN_INVALID_ARGUMENT, "profiling is off");
  gkrun_session_close(from_memory);

  /* Open errors: a missing file, bytes that are not a model, a bad option. */
  REQUIRE_ERROR(gkrun_session_open("/nonexistent/model.onnx", NULL, &bad), GKRUN_INVALID_ARGUMENT,
                "/nonexistent/model.onnx");
  CHECK(bad == NULL);
  REQUIRE_ERROR(gkrun_session_open_from_memory("not a model", 11, NULL, &bad), GKRUN_INVALID_MODEL, "");
  CHECK(bad == NULL);
  REQUIRE_ERROR(gkrun_options_set_backend(options, "tpu"), GKRUN_INVALID_ARGUMENT, "unknown backend 'tpu'");
  REQUIRE_OK(gkrun_options_disable_pass(options, "no-such-pass"));
  REQUIRE_ERROR(gkrun_session_open(model, options, &bad), GKRUN_INVALID_ARGUMENT, "unknown pass 'no-such-pass'");
  REQUIRE_ERROR(gkrun_session_open(NULL, NULL, &bad), GKRUN_INVALID_ARGUMENT, "path or out is NULL");

  /* A run timeout: a Loop of 2^62 iterations stops at its deadline; the session
   * stays open and stops the same way again; bad timeouts are refused. */
  {
    gkrun_options* timed = NULL;
    gkrun_session* endless = NULL;
    const int64_t one[1] = {1};
    const float x1[1] = {1.5f};
    gkrun_tensor in1 = {"x", GKRUN_DTYPE_FLOAT32, one, 1, x1, sizeof x1};
    REQUIRE_OK(gkrun_options_create(&timed));
    REQUIRE_OK(gkrun_options_set_backend(timed, "cpu"));
    REQUIRE_ERROR(gkrun_options_set_run_timeout(timed, -1.0), GKRUN_INVALID_ARGUMENT, "seconds is -1; must be >= 0");
    REQUIRE_ERROR(gkrun_options_set_run_timeout(timed, NAN), GKRUN_INVALID_ARGUMENT, "must be >= 0");
    REQUIRE_OK(gkrun_options_set_run_timeout(timed, 0.2));
    REQUIRE_OK(gkrun_session_open(loop_model, timed, &endless));
    REQUIRE_ERROR(gkrun_session_run(endless, &in1, 1, &values), GKRUN_DEADLINE_EXCEEDED,
                  "the run's deadline passed before node '");
    CHECK(values == NULL);
    REQUIRE_ERROR(gkrun_session_run(endless, &in1, 1, &values), GKRUN_DEADLINE_EXCEEDED, "node 'loop' (Loop)");
    CHECK(strcmp(gkrun_code_name(GKRUN_DEADLINE_EXCEEDED), "DeadlineExceeded") == 0);
    CHECK(strcmp(gkrun_code_name(GKRUN_CANCELLED), "Cancelled") == 0);
    gkrun_session_close(endless);
    gkrun_options_free(timed);
  }

  gkrun_session_close(s);
  gkrun_options_free(options);
  gkrun_session_close(NULL);
  gkrun_values_free(NULL);
  gkrun_status_free(NULL);

  if (failures) {
    fprintf(stderr, "c_api_test: %d checks failed\n", failures);
    return 1;
  }
  printf("c_api_test: all checks passed\n");
  return 0;
}

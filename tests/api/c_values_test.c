/* The C API's sequences and optionals from C (compiled as C11): gkrun_value
 * constructors and accessors, gkrun_session_run_values on sequence.onnx,
 * optional.onnx and optional_get.onnx (make_value_models.py says what each
 * computes), outputs checked against values worked out here by hand, a run's
 * output fed back as the next run's input, a device run's outputs as values (CPU
 * backend: host memory) refused as run_values inputs, and the error cases' codes and
 * messages. Usage: c_values_test MODEL_DIR. Exit 0 when every check holds. */
#include "c_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `t` is a float32 vector equal to want[0..n). Sums of small integers: exact. */
static void check_floats(const gkrun_tensor* t, const float* want, int64_t n, int line) {
  int64_t i;
  if (t->dtype != GKRUN_DTYPE_FLOAT32 || t->rank != 1 || t->shape[0] != n || t->bytes != (size_t)n * sizeof(float)) {
    fprintf(stderr, "line %d: want float32 [%lld], got dtype %d rank %zu\n", line, (long long)n, (int)t->dtype,
            t->rank);
    ++failures;
    return;
  }
  for (i = 0; i < n; ++i)
    if (((const float*)t->data)[i] != want[i]) {
      fprintf(stderr, "line %d: element %lld = %g, want %g\n", line, (long long)i, ((const float*)t->data)[i],
              want[i]);
      ++failures;
    }
}
#define CHECK_FLOATS(t, ...)                                                               \
  do {                                                                                     \
    const float want_[] = {__VA_ARGS__};                                                   \
    check_floats((t), want_, (int64_t)(sizeof want_ / sizeof want_[0]), __LINE__);         \
  } while (0)

static gkrun_session* open_cpu(const char* dir, const char* name) {
  char path[4096];
  gkrun_options* options = NULL;
  gkrun_session* s = NULL;
  snprintf(path, sizeof path, "%s/%s", dir, name);
  REQUIRE_OK(gkrun_options_create(&options));
  REQUIRE_OK(gkrun_options_set_backend(options, "cpu"));
  REQUIRE_OK(gkrun_session_open(path, options, &s));
  gkrun_options_free(options);
  return s;
}

static gkrun_value* float_tensor(const float* data, int64_t n, const int64_t* shape) {
  gkrun_value* v = NULL;
  gkrun_tensor t = {NULL, GKRUN_DTYPE_FLOAT32, shape, 1, data, (size_t)n * sizeof(float)};
  REQUIRE_OK(gkrun_value_tensor(&t, &v));
  return v;
}

static void sequences(const char* dir) {
  gkrun_session* s = open_cpu(dir, "sequence.onnx");
  gkrun_io_info info;
  float a[2] = {1, 2}, b[3] = {3, 4, 5};
  const float x[3] = {7, 8, 9};
  const int64_t s2[1] = {2}, s3[1] = {3};
  const int64_t i64[2] = {1, 2};
  gkrun_tensor parts[2] = {{NULL, GKRUN_DTYPE_FLOAT32, s2, 1, a, sizeof a},
                           {NULL, GKRUN_DTYPE_FLOAT32, s3, 1, b, sizeof b}};
  gkrun_tensor wrong = {NULL, GKRUN_DTYPE_INT64, s2, 1, i64, sizeof i64};
  const char* names[2] = {"parts", "x"};
  gkrun_value* in[2] = {NULL, NULL};
  gkrun_values* out = NULL;
  gkrun_values* again = NULL;
  const gkrun_value *v, *pieces;
  gkrun_tensor t;

  /* The model's declarations: parts is a sequence of float32, x a tensor. */
  REQUIRE_OK(gkrun_session_input_info(s, 0, &info));
  CHECK(strcmp(info.name, "parts") == 0 && info.kind == GKRUN_VALUE_SEQUENCE && info.dtype == GKRUN_DTYPE_FLOAT32);
  REQUIRE_OK(gkrun_session_output_info(s, 2, &info));
  CHECK(strcmp(info.name, "pieces") == 0 && info.kind == GKRUN_VALUE_SEQUENCE);

  /* Constructors copy: changing a and b afterwards changes nothing. */
  REQUIRE_OK(gkrun_value_sequence(GKRUN_DTYPE_FLOAT32, parts, 2, &in[0]));
  a[0] = 100;
  b[2] = 100;
  in[1] = float_tensor(x, 3, s3);
  CHECK(gkrun_value_get_kind(in[0]) == GKRUN_VALUE_SEQUENCE && gkrun_value_element_count(in[0]) == 2);
  CHECK(gkrun_value_dtype(in[0]) == GKRUN_DTYPE_FLOAT32);
  CHECK(gkrun_value_get_kind(in[1]) == GKRUN_VALUE_TENSOR && gkrun_value_element_count(in[1]) == 0);
  REQUIRE_OK(gkrun_value_get_element(in[0], 1, &t));
  CHECK_FLOATS(&t, 3, 4, 5);

  REQUIRE_OK(gkrun_session_run_values(s, names, (const gkrun_value* const*)in, 2, &out));
  CHECK(gkrun_values_count(out) == 4);
  /* total = concat([1, 2], [3, 4, 5]); tensors read through both entry points. */
  REQUIRE_OK(gkrun_values_find(out, "total", &t));
  CHECK_FLOATS(&t, 1, 2, 3, 4, 5);
  REQUIRE_OK(gkrun_values_value(out, 0, &v));
  CHECK(gkrun_value_get_kind(v) == GKRUN_VALUE_TENSOR && gkrun_value_dtype(v) == GKRUN_DTYPE_FLOAT32);
  REQUIRE_OK(gkrun_value_get_tensor(v, &t));
  CHECK(strcmp(t.name, "total") == 0);
  CHECK_FLOATS(&t, 1, 2, 3, 4, 5);
  /* count = 2, a scalar. */
  REQUIRE_OK(gkrun_values_find(out, "count", &t));
  CHECK(t.dtype == GKRUN_DTYPE_INT64 && t.rank == 0 && *(const int64_t*)t.data == 2);
  /* pieces = split([7, 8, 9], [1, 2]) = [7], [8, 9]. */
  REQUIRE_OK(gkrun_values_find_value(out, "pieces", &pieces));
  CHECK(gkrun_value_get_kind(pieces) == GKRUN_VALUE_SEQUENCE && gkrun_value_element_count(pieces) == 2);
  CHECK(gkrun_value_dtype(pieces) == GKRUN_DTYPE_FLOAT32);
  REQUIRE_OK(gkrun_value_get_element(pieces, 0, &t));
  CHECK(strcmp(t.name, "pieces") == 0);
  CHECK_FLOATS(&t, 7);
  REQUIRE_OK(gkrun_value_get_element(pieces, 1, &t));
  CHECK_FLOATS(&t, 8, 9);
  /* pair = (x, total). */
  REQUIRE_OK(gkrun_values_value(out, 3, &v));
  CHECK(gkrun_value_element_count(v) == 2);
  REQUIRE_OK(gkrun_value_get_element(v, 0, &t));
  CHECK_FLOATS(&t, 7, 8, 9);
  REQUIRE_OK(gkrun_value_get_element(v, 1, &t));
  CHECK_FLOATS(&t, 1, 2, 3, 4, 5);

  /* Reading a value as the wrong kind, past its end, past the outputs. */
  REQUIRE_ERROR(gkrun_values_get(out, 2, &t), GKRUN_INVALID_ARGUMENT,
                "output 'pieces' is a sequence; read it with gkrun_values_value");
  REQUIRE_ERROR(gkrun_value_get_tensor(pieces, &t), GKRUN_INVALID_ARGUMENT,
                "output 'pieces' is a sequence, not a tensor (read its elements with gkrun_value_get_element)");
  REQUIRE_ERROR(gkrun_value_get_element(pieces, 2, &t), GKRUN_OUT_OF_RANGE,
                "index 2 is out of range, output 'pieces' has 2 elements");
  REQUIRE_OK(gkrun_values_value(out, 0, &v));
  REQUIRE_ERROR(gkrun_value_get_element(v, 0, &t), GKRUN_INVALID_ARGUMENT,
                "output 'total' is a tensor, not a sequence");
  REQUIRE_ERROR(gkrun_values_value(out, 4, &v), GKRUN_OUT_OF_RANGE, "index 4 is out of range, the run has 4 outputs");
  REQUIRE_ERROR(gkrun_values_find_value(out, "nope", &v), GKRUN_INVALID_ARGUMENT,
                "no output 'nope'; outputs are 'total', 'count', 'pieces', 'pair'");

  /* An output fed back (borrowed from `out`): parts = pieces = [7], [8, 9]. */
  {
    const gkrun_value* chained[2];
    chained[0] = pieces;
    chained[1] = in[1];
    REQUIRE_OK(gkrun_session_run_values(s, names, chained, 2, &again));
    REQUIRE_OK(gkrun_values_find(again, "total", &t));
    CHECK_FLOATS(&t, 7, 8, 9);
    gkrun_values_free(again);
  }
  gkrun_values_free(out);

  /* Wrong kinds and types as inputs: a tensor for the sequence, a sequence for the
   * tensor, a sequence of int64, elements of two types, no value at all. */
  {
    const gkrun_value* swapped[2];
    gkrun_value* ints = NULL;
    gkrun_value* bad = NULL;
    swapped[0] = in[1];
    swapped[1] = in[0];
    REQUIRE_ERROR(gkrun_session_run_values(s, names, swapped, 2, &out), GKRUN_INVALID_ARGUMENT,
                  "input 'parts' is a tensor, the model declares a sequence");
    CHECK(out == NULL);
    REQUIRE_OK(gkrun_value_sequence(GKRUN_DTYPE_INT64, &wrong, 1, &ints));
    swapped[0] = ints;
    swapped[1] = in[1];
    REQUIRE_ERROR(gkrun_session_run_values(s, names, swapped, 2, &out), GKRUN_INVALID_ARGUMENT,
                  "input 'parts' is a sequence of int64, the model declares a sequence of float32");
    gkrun_value_free(ints);
    parts[1] = wrong;
    REQUIRE_ERROR(gkrun_value_sequence(GKRUN_DTYPE_FLOAT32, parts, 2, &bad), GKRUN_INVALID_ARGUMENT,
                  "gkrun_value_sequence: element 1 is int64, the sequence holds float32");
    CHECK(bad == NULL);
    parts[1].dtype = GKRUN_DTYPE_FLOAT32;
    REQUIRE_ERROR(gkrun_value_sequence(GKRUN_DTYPE_FLOAT32, parts, 2, &bad), GKRUN_INVALID_ARGUMENT,
                  "gkrun_value_sequence: element 1: float32 2 needs 8 bytes, got 16");
    swapped[0] = in[0]; /* ints is freed */
    swapped[1] = NULL;
    REQUIRE_ERROR(gkrun_session_run_values(s, names, swapped, 2, &out), GKRUN_INVALID_ARGUMENT,
                  "input 'x': value is NULL");
  }

  /* An empty sequence keeps its dtype. */
  {
    gkrun_value* empty = NULL;
    REQUIRE_OK(gkrun_value_sequence(GKRUN_DTYPE_FLOAT32, NULL, 0, &empty));
    CHECK(gkrun_value_get_kind(empty) == GKRUN_VALUE_SEQUENCE && gkrun_value_element_count(empty) == 0);
    CHECK(gkrun_value_dtype(empty) == GKRUN_DTYPE_FLOAT32);
    REQUIRE_ERROR(gkrun_value_get_element(empty, 0, &t), GKRUN_OUT_OF_RANGE,
                  "index 0 is out of range, the value has 0 elements");
    gkrun_value_free(empty);
  }
  gkrun_value_free(in[0]);
  gkrun_value_free(in[1]);
  gkrun_session_close(s);
}

static void optionals(const char* dir) {
  gkrun_session* s = open_cpu(dir, "optional.onnx");
  gkrun_session* get = open_cpu(dir, "optional_get.onnx");
  gkrun_io_info info;
  const float m[2] = {1, 2}, x[2] = {7, 8};
  const int64_t s2[1] = {2};
  const char* names[2] = {"maybe", "x"};
  gkrun_value* in[2] = {NULL, NULL};
  gkrun_value* none = NULL;
  gkrun_values* out = NULL;
  gkrun_values* refused = NULL;
  const gkrun_value* v;
  gkrun_tensor t;

  REQUIRE_OK(gkrun_session_input_info(s, 0, &info));
  CHECK(strcmp(info.name, "maybe") == 0 && info.kind == 2);
  REQUIRE_OK(gkrun_value_optional_none(&none));
  CHECK(gkrun_value_get_kind(none) == GKRUN_VALUE_NONE && gkrun_value_dtype(none) == GKRUN_DTYPE_UNDEFINED);
  REQUIRE_ERROR(gkrun_value_get_tensor(none, &t), GKRUN_INVALID_ARGUMENT, "the value is an empty optional, not a tensor");
  in[0] = float_tensor(m, 2, s2);
  in[1] = float_tensor(x, 2, s2);

  /* maybe holds [1, 2]: has = true, wrapped = x, empty has nothing. */
  REQUIRE_OK(gkrun_session_run_values(s, names, (const gkrun_value* const*)in, 2, &out));
  REQUIRE_OK(gkrun_values_find(out, "has", &t));
  CHECK(t.dtype == GKRUN_DTYPE_BOOL && t.rank == 0 && *(const unsigned char*)t.data == 1);
  REQUIRE_OK(gkrun_values_find_value(out, "wrapped", &v));
  CHECK(gkrun_value_get_kind(v) == GKRUN_VALUE_TENSOR);
  REQUIRE_OK(gkrun_value_get_tensor(v, &t));
  CHECK_FLOATS(&t, 7, 8);
  REQUIRE_OK(gkrun_values_find_value(out, "empty", &v));
  CHECK(gkrun_value_get_kind(v) == GKRUN_VALUE_NONE && gkrun_value_element_count(v) == 0);
  REQUIRE_ERROR(gkrun_value_get_tensor(v, &t), GKRUN_INVALID_ARGUMENT, "output 'empty' is an empty optional, not a tensor");
  REQUIRE_ERROR(gkrun_values_find(out, "empty", &t), GKRUN_INVALID_ARGUMENT,
                "output 'empty' is an empty optional; read it with gkrun_values_value");
  gkrun_values_free(out);

  /* maybe empty: has = false. */
  {
    const gkrun_value* with_none[2];
    with_none[0] = none;
    with_none[1] = in[1];
    REQUIRE_OK(gkrun_session_run_values(s, names, with_none, 2, &out));
    REQUIRE_OK(gkrun_values_find(out, "has", &t));
    CHECK(*(const unsigned char*)t.data == 0);
    gkrun_values_free(out);

    /* OptionalGetElement: [1, 2] + [7, 8] = [8, 10]; an error on the empty optional. */
    REQUIRE_OK(gkrun_session_run_values(get, names, (const gkrun_value* const*)in, 2, &out));
    REQUIRE_OK(gkrun_values_find(out, "y", &t));
    CHECK_FLOATS(&t, 8, 10);
    gkrun_values_free(out);
    REQUIRE_ERROR(gkrun_session_run_values(get, names, with_none, 2, &out), GKRUN_INVALID_ARGUMENT,
                  "the optional input is empty");
    /* An empty optional where the model wants a tensor. */
    with_none[0] = in[0];
    with_none[1] = none;
    REQUIRE_ERROR(gkrun_session_run_values(s, names, with_none, 2, &out), GKRUN_INVALID_ARGUMENT,
                  "input 'x' is an empty optional, the model declares a tensor");
  }
  /* A device run (host memory on the CPU backend) returns values too: a tensor fed
   * to the optional input, wrapped = [7, 8], empty is an empty optional. */
  {
    gkrun_tensor dev[2] = {{"maybe", GKRUN_DTYPE_FLOAT32, s2, 1, m, sizeof m},
                           {"x", GKRUN_DTYPE_FLOAT32, s2, 1, x, sizeof x}};
    REQUIRE_OK(gkrun_session_run_device(s, dev, 2, &out));
    CHECK(gkrun_values_on_device(out) == 1);
    REQUIRE_OK(gkrun_values_find_value(out, "empty", &v));
    CHECK(gkrun_value_get_kind(v) == GKRUN_VALUE_NONE);
    REQUIRE_OK(gkrun_values_find_value(out, "wrapped", &v));
    REQUIRE_OK(gkrun_value_get_tensor(v, &t));
    CHECK_FLOATS(&t, 7, 8);
    {
      const gkrun_value* back[2];
      back[0] = v;
      back[1] = in[1];
      REQUIRE_ERROR(gkrun_session_run_values(s, names, back, 2, &refused), GKRUN_INVALID_ARGUMENT,
                    "input 'maybe': the value holds device pointers");
    }
    gkrun_values_free(out);
  }
  gkrun_value_free(none);
  gkrun_value_free(in[0]);
  gkrun_value_free(in[1]);
  gkrun_session_close(get);
  gkrun_session_close(s);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: c_values_test MODEL_DIR\n");
    return 2;
  }
  sequences(argv[1]);
  optionals(argv[1]);
  /* NULLs: no crash, documented answers. */
  CHECK(gkrun_value_get_kind(NULL) == GKRUN_VALUE_INVALID);
  CHECK(gkrun_value_element_count(NULL) == 0);
  REQUIRE_ERROR(gkrun_value_tensor(NULL, NULL), GKRUN_INVALID_ARGUMENT, "tensor or out is NULL");
  gkrun_value_free(NULL);
  if (failures) {
    fprintf(stderr, "c_values_test: %d checks failed\n", failures);
    return 1;
  }
  printf("c_values_test: all checks passed\n");
  return 0;
}

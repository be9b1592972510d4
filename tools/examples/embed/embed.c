/* embed_c MODEL [VALUE]: opens MODEL with gkrun's C API, lists its inputs and
 * outputs, runs it once with every float32 input filled with VALUE (default 1;
 * symbolic dims bound to 1) and prints each float32 or int64 output:
 *   y float32 [1x2] 2.1 0.55
 * Exit 0 on success; 1 with the error's code and message on stderr. */
#include <gkrun/gkrun.h>

#include <stdio.h>
#include <stdlib.h>

static int fail(gkrun_status* st) {
  fprintf(stderr, "error: %s: %s\n", gkrun_code_name(gkrun_status_code(st)), gkrun_status_message(st));
  gkrun_status_free(st);
  return 1;
}

int main(int argc, char** argv) {
  gkrun_session* session = NULL;
  gkrun_values* outputs = NULL;
  gkrun_status* st;
  gkrun_tensor inputs[16];
  int64_t shapes[16][8];
  float* buffers[16] = {0};
  size_t n_in, i, k;
  const float value = argc > 2 ? (float)atof(argv[2]) : 1.0f;

  if (argc < 2) {
    fprintf(stderr, "usage: embed_c MODEL [VALUE]\n");
    return 2;
  }
  printf("gkrun %s\n", gkrun_version());
  if ((st = gkrun_session_open(argv[1], NULL, &session))) return fail(st);
  n_in = gkrun_session_input_count(session);
  if (n_in > 16) n_in = 16;
  for (i = 0; i < n_in; ++i) {
    gkrun_io_info info;
    int64_t count = 1;
    if ((st = gkrun_session_input_info(session, i, &info))) return fail(st);
    printf("input %s %s rank %lld\n", info.name, gkrun_dtype_name(info.dtype), (long long)info.rank);
    if (info.dtype != GKRUN_DTYPE_FLOAT32 || info.rank < 0 || info.rank > 8) {
      fprintf(stderr, "embed_c: input %s is not a float32 tensor of rank <= 8\n", info.name);
      return 1;
    }
    for (k = 0; k < (size_t)info.rank; ++k) {
      shapes[i][k] = info.dims[k] < 0 ? 1 : info.dims[k];
      count *= shapes[i][k];
    }
    buffers[i] = (float*)malloc((size_t)count * sizeof(float));
    for (k = 0; k < (size_t)count; ++k) buffers[i][k] = value;
    inputs[i].name = info.name;
    inputs[i].dtype = info.dtype;
    inputs[i].shape = shapes[i];
    inputs[i].rank = (size_t)info.rank;
    inputs[i].data = buffers[i];
    inputs[i].bytes = gkrun_dtype_bytes(info.dtype, count);
  }
  if ((st = gkrun_session_run(session, inputs, n_in, &outputs))) return fail(st);
  for (i = 0; i < gkrun_values_count(outputs); ++i) {
    gkrun_tensor t;
    size_t count = 1;
    if ((st = gkrun_values_get(outputs, i, &t))) return fail(st);
    printf("%s %s [", t.name, gkrun_dtype_name(t.dtype));
    for (k = 0; k < t.rank; ++k) {
      printf("%s%lld", k ? "x" : "", (long long)t.shape[k]);
      count *= (size_t)t.shape[k];
    }
    printf("]");
    for (k = 0; k < count && k < 8; ++k) {
      if (t.dtype == GKRUN_DTYPE_FLOAT32) printf(" %g", ((const float*)t.data)[k]);
      else if (t.dtype == GKRUN_DTYPE_INT64) printf(" %lld", (long long)((const int64_t*)t.data)[k]);
    }
    printf("\n");
  }
  gkrun_values_free(outputs);
  gkrun_session_close(session);
  for (i = 0; i < n_in; ++i) free(buffers[i]);
  return 0;
}

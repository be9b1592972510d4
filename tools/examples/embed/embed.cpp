// embed_cpp MODEL: the C API from C++, with the handles in std::unique_ptr. Runs
// MODEL once with float32 inputs of ones (symbolic dims bound to 1) and prints
// each float32 output's name, shape and values, as embed_c does.
#include <gkrun/gkrun.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Free {
  void operator()(gkrun_session* s) const { gkrun_session_close(s); }
  void operator()(gkrun_values* v) const { gkrun_values_free(v); }
  void operator()(gkrun_status* s) const { gkrun_status_free(s); }
};
using Status = std::unique_ptr<gkrun_status, Free>;

bool failed(gkrun_status* raw) {
  Status st(raw);
  if (!st) return false;
  std::fprintf(stderr, "error: %s: %s\n", gkrun_code_name(gkrun_status_code(st.get())),
               gkrun_status_message(st.get()));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embed_cpp MODEL\n");
    return 2;
  }
  gkrun_session* raw = nullptr;
  if (failed(gkrun_session_open(argv[1], nullptr, &raw))) return 1;
  std::unique_ptr<gkrun_session, Free> session(raw);

  const size_t n = gkrun_session_input_count(session.get());
  std::vector<std::vector<int64_t>> shapes(n);
  std::vector<std::vector<float>> data(n);
  std::vector<gkrun_tensor> inputs(n);
  for (size_t i = 0; i < n; ++i) {
    gkrun_io_info info;
    if (failed(gkrun_session_input_info(session.get(), i, &info))) return 1;
    size_t count = 1;
    for (int64_t d = 0; d < info.rank; ++d) {
      shapes[i].push_back(info.dims[d] < 0 ? 1 : info.dims[d]);
      count *= static_cast<size_t>(shapes[i].back());
    }
    data[i].assign(count, 1.0f);
    inputs[i] = {info.name, info.dtype, shapes[i].data(), shapes[i].size(), data[i].data(), count * sizeof(float)};
  }
  gkrun_values* out_raw = nullptr;
  if (failed(gkrun_session_run(session.get(), inputs.data(), n, &out_raw))) return 1;
  std::unique_ptr<gkrun_values, Free> outputs(out_raw);
  for (size_t i = 0; i < gkrun_values_count(outputs.get()); ++i) {
    gkrun_tensor t;
    if (failed(gkrun_values_get(outputs.get(), i, &t))) return 1;
    if (t.dtype != GKRUN_DTYPE_FLOAT32) continue;
    std::string shape;
    size_t count = 1;
    for (size_t d = 0; d < t.rank; ++d) {
      shape += (d ? "x" : "") + std::to_string(t.shape[d]);
      count *= static_cast<size_t>(t.shape[d]);
    }
    std::printf("%s float32 [%s]", t.name, shape.c_str());
    for (size_t k = 0; k < count && k < 8; ++k) std::printf(" %g", static_cast<const float*>(t.data)[k]);
    std::printf("\n");
  }
  return 0;
}

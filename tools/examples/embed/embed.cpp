// embed_cpp MODEL: gkrun's C++ wrapper (gkrun/gkrun.hpp) over the C API. Runs
// MODEL once with float32 inputs of ones (symbolic dims bound to 1) and prints
// each float32 output's name, shape and values, as embed_c does; a failure is a
// gkrun::Error, printed with its code.
#include <gkrun/gkrun.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: embed_cpp MODEL\n");
    return 2;
  }
  try {
    gkrun::Session session(argv[1]);
    std::vector<std::vector<float>> data;
    std::vector<gkrun::TensorRef> inputs;
    data.reserve(session.inputs().size());  // TensorRef borrows each vector's storage
    for (const gkrun::IoInfo& in : session.inputs()) {
      std::vector<int64_t> shape;
      size_t count = 1;
      for (int64_t d : in.dims) {
        shape.push_back(d < 0 ? 1 : d);
        count *= static_cast<size_t>(shape.back());
      }
      data.emplace_back(count, 1.0f);
      inputs.emplace_back(in.name, shape, data.back());
    }
    const gkrun::Outputs outputs = session.run(inputs);
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (!outputs[i].is_tensor() || outputs[i].dtype() != GKRUN_DTYPE_FLOAT32) continue;
      const gkrun::TensorView t = outputs[i].tensor();
      std::string shape;
      for (int64_t d : t.shape()) shape += (shape.empty() ? "" : "x") + std::to_string(d);
      std::printf("%s float32 [%s]", t.name().c_str(), shape.c_str());
      const std::vector<float> values = t.to_vector<float>();
      for (size_t k = 0; k < values.size() && k < 8; ++k) std::printf(" %g", values[k]);
      std::printf("\n");
    }
  } catch (const gkrun::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}

#pragma once

#include "runtime/session.h"
#include "tools/gkrun/json.h"

#include <string>

namespace gk::cli {

struct TensorStats {
  double min = 0, max = 0, mean = 0;
  int64_t nan = 0;
};
TensorStats tensor_stats(const HostTensor& t);
// "name  float32  1x1x640x640  min 0 max 1 mean 0.5  [0.1, 0.2, ...]"
std::string describe_output(const NamedTensor& out, int first_values = 6);
void output_json(JsonWriter& w, const NamedTensor& out, int first_values = 6);

}  // namespace gk::cli

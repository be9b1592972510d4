// A model's summary without opening a device (gkrun info): its versions, inputs
// and outputs, op counts, parameters, and the ops the registry cannot run.
#pragma once

#include "runtime/session.h"

#include <map>
#include <string>
#include <vector>

namespace gk {

struct ModelInfo {
  int64_t ir_version = 0;
  std::vector<OpsetImport> opsets;
  std::string producer_name, producer_version;
  std::vector<IoDesc> inputs, outputs;
  std::map<std::string, int> ops;  // "Conv", "com.microsoft.FusedConv" -> nodes
  int64_t nodes = 0;
  int64_t parameters = 0;          // initializer elements
  size_t parameter_bytes = 0;
  std::vector<UnsupportedOp> unsupported;  // every one at once, with its nodes
};

// Loads the model with unsupported ops allowed (they are listed, not an error).
Result<ModelInfo> inspect_model(const std::string& path);

}  // namespace gk

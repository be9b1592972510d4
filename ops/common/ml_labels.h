// The outputs of an ai.onnx.ml classifier whose labels are strings (LinearClassifier,
// SVMClassifier, TreeEnsembleClassifier): computed in infer() from X's host value,
// since strings never live on the device; Y the labels [rows], Z the scores.
#pragma once

#include "ops/core/schema.h"

#include <memory>
#include <string>
#include <vector>

namespace gk::ml {

inline Status set_string_label_outputs(InferContext& ctx, std::vector<std::string> labels, HostTensor scores) {
  const auto rows = static_cast<int64_t>(labels.size());
  ctx.output_values.assign(ctx.outputs.size(), nullptr);
  ctx.output_values[0] = std::make_shared<const HostTensor>(HostTensor::strings(Shape{rows}, std::move(labels)));
  if (ctx.outputs.size() > 1) ctx.output_values[1] = std::make_shared<const HostTensor>(std::move(scores));
  return ok_status();
}

}  // namespace gk::ml

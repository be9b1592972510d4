// The profiler's records as a Chrome trace (Perfetto and chrome://tracing load it):
// one complete event per launch with its ONNX node(s), op type and input shapes,
// and, where `live_bytes_by_nodes` has the launch's nodes, a counter event with the
// intermediate bytes alive at that step (PlanSummary::live_bytes_by_nodes).
// `gkrun --trace`, `gkrun profile --trace`, the C API's end_profiling and the
// Python module's end_profiling() all write this document.
#pragma once

#include "runtime/kit/profiler.h"

#include <map>
#include <string>
#include <string_view>

namespace gk {

std::string chrome_trace(const Profiler& profiler, const std::map<std::string, size_t>& live_bytes_by_nodes,
                         std::string_view process_name = "gkrun");

}  // namespace gk

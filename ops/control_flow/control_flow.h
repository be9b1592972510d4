// If, Loop and Scan: the registry knows them and parses their attributes here;
// the executor runs their subgraphs (runtime/control_flow.cpp), since only it can
// plan and run a graph. infer() and run() refuse to be called directly.
#pragma once

#include "ops/core/op.h"

#include <vector>

namespace gk {

// Scan's attributes, both semantics: Scan-8 has a leading batch axis on every
// state and scan tensor and an optional sequence_lens input; Scan-9+ has neither
// and lets each scan tensor choose its axis.
struct ScanAttrs {
  bool batched = false;                 // Scan-8
  int64_t num_scan_inputs = 0;
  std::vector<int64_t> input_axes;      // per scan input; normalised by the executor
  std::vector<int64_t> input_reverse;   // 1: iterate from the end
  std::vector<int64_t> output_axes;     // per scan output
  std::vector<int64_t> output_reverse;  // 1: the first iteration's slice goes last
};

}  // namespace gk

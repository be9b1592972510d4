// A structure-aware mutator over ONNX ModelProto: instead of flipping bytes (which
// mostly makes protobuf refuse the file), it changes what a hostile model would:
// dims, attributes, element types, edges, empty and missing inputs, initializer
// sizes, external-data fields, nested subgraphs, op types and node lists. Every
// choice comes from `rng`, which the caller seeds from libFuzzer's seed (itself
// derived from the input), never from the clock.
#pragma once

#include <onnx/onnx_pb.h>

#include <random>
#include <string>

namespace gk::fuzz {

// Applies 1-3 mutations to `model`; false when the model has nothing to mutate.
bool mutate_model(onnx::ModelProto& model, std::mt19937_64& rng);

// The name of each mutation kind, in the order mutate_model numbers them (for
// the fuzz script's statistics and the tests).
const char* mutation_name(int kind);
constexpr int kMutationKinds = 13;

// Applies mutation `kind` once; false when it did not apply to this model.
bool apply_mutation(onnx::ModelProto& model, int kind, std::mt19937_64& rng);

}  // namespace gk::fuzz

// libFuzzer target "mutate": load, plan and run like "run", but new inputs come
// from the structure-aware ModelProto mutator (tests/fuzz/model_mutator.h) seeded
// with libFuzzer's per-mutation seed; one in eight mutations, and any input that
// does not parse, falls back to libFuzzer's byte mutator (scripts/fuzz.sh mutate).
#define GK_FUZZ_TARGET "mutate"
#include "tests/fuzz/fuzzer_main.h"
#include "tests/fuzz/model_mutator.h"

#include <cstring>

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size, unsigned int seed) {
  std::mt19937_64 rng(seed);
  onnx::ModelProto model;
  if (rng() % 8 == 0 || !model.ParseFromArray(data, static_cast<int>(size)) ||
      !gk::fuzz::mutate_model(model, rng))
    return LLVMFuzzerMutate(data, size, max_size);
  std::string out;
  if (!model.SerializeToString(&out) || out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

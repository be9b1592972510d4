// libFuzzer target "tensor": the .pb (Tensor/Sequence/OptionalProto) and .npy decoders (scripts/fuzz.sh tensor).
#define GK_FUZZ_TARGET "tensor"
#include "tests/fuzz/fuzzer_main.h"

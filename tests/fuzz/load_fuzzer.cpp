// libFuzzer target "load": parse, convert and validate a model from bytes (scripts/fuzz.sh load).
#define GK_FUZZ_TARGET "load"
#include "tests/fuzz/fuzzer_main.h"

// libFuzzer target "run": load, plan and run on the CPU at small shapes (scripts/fuzz.sh run).
#define GK_FUZZ_TARGET "run"
#include "tests/fuzz/fuzzer_main.h"

// The control for plant_upward.cpp: with the same include directories (gk_ops's),
// ops/ sees its own headers and the layers below it (runtime/kit/, backends/).
#include "backends/status.h"
#include "ops/core/op.h"
#include "runtime/kit/kit.h"

namespace gk {
int layer_plant_own_compiles() { return 0; }
}  // namespace gk

// GK_ISA_SHARED(symbol): the one symbol of a function defined once (outside the
// per-ISA namespaces of ops/common/isa_variant.h) but declared in a header that
// every ISA variant of a family includes inside its namespace: the run-time
// dispatched micro-kernels of gemm_micro.h and depthwise_micro.h. Without it each
// variant would call its own, undefined, namespaced copy. Their argument and
// result types are plain structs of the same layout in every variant.
#pragma once

#define GK_ISA_SHARED(symbol) __asm__("gk_isa_shared_" #symbol)

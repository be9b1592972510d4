// The reduce family: the reductions, ArgMax/ArgMin and CumSum/CumProd.
// Kernels: ops/reduce/reduce.cuh; CPU twins: ops/reduce/reduce_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(reduce, reduce_ops, arg_reduce_ops, cumulative_ops)

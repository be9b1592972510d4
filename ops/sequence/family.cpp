// The sequence family: the sequence ops, which the executor runs.
// Host only: no kernels.
#include "ops/core/family.h"

GK_HOST_FAMILY(sequence, sequence_ops)

// The string family: the string ops and LabelEncoder.
// Host only: no kernels.
#include "ops/core/family.h"

GK_HOST_FAMILY(string, string_ops, label_encoder_ops)

// Helpers shared by the Conv and ConvTranspose launchers.
#pragma once

#include "ops/conv/conv.cuh"
#include "ops/common/spatial.h"

namespace gk {

bool is_conv_dtype(DType t);  // f32, f64, f16, bf16

// Kernel arguments for `images` images of C input / Cout output channels.
gk_conv_args conv_args(const Window& w, int64_t images, int64_t C, int64_t Cout, int64_t group, bool has_bias);

// gk_conv decodes (k, p) in 32 bits on CUDA; InvalidArgument when they do not fit.
Status check_int32_decode(const NodeView& node, const gk_conv_args& a);


}  // namespace gk

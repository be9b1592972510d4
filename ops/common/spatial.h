// Window geometry shared by Conv, ConvTranspose and the pooling ops: auto_pad,
// pads, strides, dilations and ceil_mode turned into output sizes and begin pads,
// with 1-D and 2-D padded out to 3-D (leading 1s) for the kernels.
#pragma once

#include "ops/core/op.h"

#include <string>
#include <vector>

namespace gk {

enum class AutoPad { kNotSet, kSameUpper, kSameLower, kValid };

constexpr int kMaxSpatial = 3;  // Window's initialisers list three dims

// The attributes every windowed op shares, as the model wrote them.
struct WindowAttrs {
  AutoPad auto_pad = AutoPad::kNotSet;
  std::vector<int64_t> kernel, strides, pads, dilations;
  bool ceil_mode = false;
};

// Reads auto_pad, kernel_shape, strides, pads, dilations (and ceil_mode if asked).
Result<WindowAttrs> parse_window(const AttrMap& attrs, const NodeView& node, bool with_ceil_mode);

// Geometry of one launch; unused leading dims are 1 (pad 0, stride 1), which is
// what every dim starts as.
struct Window {
  int nd = 0;
  int64_t in[kMaxSpatial] = {1, 1, 1}, out[kMaxSpatial] = {1, 1, 1}, k[kMaxSpatial] = {1, 1, 1};
  int64_t s[kMaxSpatial] = {1, 1, 1}, dil[kMaxSpatial] = {1, 1, 1};
  int64_t pad_begin[kMaxSpatial] = {}, pad_end[kMaxSpatial] = {};
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
  int64_t k_size() const { return k[0] * k[1] * k[2]; }
};

// `in` are the input's spatial dims; `kernel` the window (attribute or W's dims).
// Validates lengths and values (strides, dilations > 0, pads >= 0) and computes
// the output dims: NOTSET floor((in + pads - dk) / s) + 1 (ceil, with the last
// window dropped when it would start in the end padding, under ceil_mode), VALID
// without pads, SAME_* ceil(in / s) with the pad split as the mode says.
Result<Window> make_window(const NodeView& node, const WindowAttrs& attrs, const Shape& in,
                           const std::vector<int64_t>& kernel);

// Output shape [N, C, out...] for the window.
Shape window_output_shape(int64_t n, int64_t c, const Window& w);

}  // namespace gk

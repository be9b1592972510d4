#include "ops/common/spatial.h"

#include "ops/common/checked_int.h"

namespace gk {

Result<WindowAttrs> parse_window(const AttrMap& attrs, const NodeView& node, bool with_ceil_mode) {
  WindowAttrs w;
  GK_TRY(std::string ap, attrs.get_string("auto_pad", "NOTSET"));
  if (ap == "NOTSET" || ap.empty()) w.auto_pad = AutoPad::kNotSet;
  else if (ap == "SAME_UPPER") w.auto_pad = AutoPad::kSameUpper;
  else if (ap == "SAME_LOWER") w.auto_pad = AutoPad::kSameLower;
  else if (ap == "VALID") w.auto_pad = AutoPad::kValid;
  else
    return invalid_model("{}: auto_pad '{}' is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID", node.describe(), ap);
  GK_TRY(w.kernel, attrs.get_ints("kernel_shape"));
  GK_TRY(w.strides, attrs.get_ints("strides"));
  GK_TRY(w.pads, attrs.get_ints("pads"));
  GK_TRY(w.dilations, attrs.get_ints("dilations"));
  if (with_ceil_mode) {
    GK_TRY(int64_t c, attrs.get_int("ceil_mode", 0));
    w.ceil_mode = c != 0;
  }
  return w;
}

Result<Window> make_window(const NodeView& node, const WindowAttrs& a, const Shape& in,
                           const std::vector<int64_t>& kernel) {
  const size_t nd = in.size();
  if (nd < 1 || nd > kMaxSpatial)
    return unimplemented("{}: {} spatial dims; 1 to {} are supported", node.describe(), nd, kMaxSpatial);
  if (kernel.size() != nd)
    return invalid_model("{}: kernel has {} dims for {} spatial dims", node.describe(), kernel.size(), nd);
  auto check_len = [&](const std::vector<int64_t>& v, size_t want, const char* name) -> Status {
    if (!v.empty() && v.size() != want)
      return invalid_model("{}: {} has {} values, expected {}", node.describe(), name, v.size(), want);
    return ok_status();
  };
  GK_RETURN_IF_ERROR(check_len(a.strides, nd, "strides"));
  GK_RETURN_IF_ERROR(check_len(a.dilations, nd, "dilations"));
  GK_RETURN_IF_ERROR(check_len(a.pads, 2 * nd, "pads"));
  Window w;
  w.nd = static_cast<int>(nd);
  const size_t lead = kMaxSpatial - nd;
  for (size_t i = 0; i < nd; ++i) {
    const size_t d = lead + i;
    const int64_t k = kernel[i], s = a.strides.empty() ? 1 : a.strides[i];
    const int64_t dil = a.dilations.empty() ? 1 : a.dilations[i];
    if (k < 1 || s < 1 || dil < 1)
      return invalid_model("{}: kernel {}, stride {}, dilation {} on axis {}; each must be >= 1", node.describe(), k,
                           s, dil, i);
    int64_t pb = a.pads.empty() ? 0 : a.pads[i], pe = a.pads.empty() ? 0 : a.pads[nd + i];
    if (pb < 0 || pe < 0)
      return invalid_model("{}: pads on axis {} are {} and {}; must be >= 0", node.describe(), i, pb, pe);
    // Each sum and product checked: pads, strides and dilations are model data
    // (the fuzzer sets them near int64 max).
    CheckedI64 c;
    const int64_t dk = c.add(c.mul(k - 1, dil), 1);
    int64_t out = 0;
    switch (a.auto_pad) {
      case AutoPad::kSameUpper:
      case AutoPad::kSameLower: {
        out = c.add(in[i], s - 1) / s;
        const int64_t total = std::max<int64_t>(0, c.sub(c.add(c.mul(out - 1, s), dk), in[i]));
        pb = a.auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
        pe = total - pb;
        break;
      }
      case AutoPad::kValid:
        pb = pe = 0;
        [[fallthrough]];
      case AutoPad::kNotSet: {
        const int64_t span = c.sub(c.add(in[i], c.add(pb, pe)), dk);
        if (c.overflow) break;
        if (span < 0) {
          out = 0;
          break;
        }
        out = (a.ceil_mode ? c.add(span, s - 1) / s : span / s) + 1;
        // The last window must start inside the input or the begin padding.
        if (a.ceil_mode && c.mul(out - 1, s) >= c.add(in[i], pb)) --out;
        break;
      }
    }
    if (c.overflow)
      return invalid_model("{}: axis {} (input {}, kernel {}, stride {}, dilation {}, pads {} and {}) overflows int64",
                           node.describe(), i, in[i], k, s, dil, pb, pe);
    w.in[d] = in[i], w.out[d] = out, w.k[d] = k, w.s[d] = s, w.dil[d] = dil;
    w.pad_begin[d] = pb, w.pad_end[d] = pe;
  }
  return w;
}

Shape window_output_shape(int64_t n, int64_t c, const Window& w) {
  Shape s{n, c};
  for (int d = kMaxSpatial - w.nd; d < kMaxSpatial; ++d) s.push_back(w.out[d]);
  return s;
}

}  // namespace gk

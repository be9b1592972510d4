#include "ops/conv/conv_common.h"

#include <algorithm>

namespace gk {

bool is_conv_dtype(DType t) {
  return t == DType::kF32 || t == DType::kF64 || t == DType::kF16 || t == DType::kBF16;
}

gk_conv_args conv_args(const Window& w, int64_t images, int64_t C, int64_t Cout, int64_t group, bool has_bias) {
  gk_conv_args a{};
  for (int d = 0; d < kMaxSpatial; ++d) {
    a.in[d] = w.in[d], a.out[d] = w.out[d], a.k[d] = w.k[d];
    a.s[d] = w.s[d], a.dil[d] = w.dil[d], a.pad[d] = w.pad_begin[d];
  }
  a.C = C, a.Cg = C / group, a.Cout = Cout, a.M = Cout / group;
  a.group = group, a.batch = images * group;
  a.K = a.Cg * w.k_size();
  a.P = w.out_size();
  a.has_bias = has_bias ? 1 : 0;
  return a;
}

Status check_int32_decode(const NodeView& node, const gk_conv_args& a) {
  constexpr int64_t kMax = 0x7fffffff;
  if (a.K > kMax || a.P > kMax)
    return invalid_argument("{}: Conv reduction size {} or output volume {} exceeds {}", node.describe(), a.K, a.P,
                            kMax);
  return ok_status();
}

}  // namespace gk

#include "ops/common/indexing.h"

#include <algorithm>

namespace gk {

Result<Shape> broadcast_shapes(const Shape& a, const Shape& b) {
  const size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return invalid_argument("shapes {} and {} do not broadcast (dim {}: {} vs {})", shape_str(a),
                              shape_str(b), i, da, db);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Result<IndexMap> broadcast_map(const Shape& out, const Shape& in) {
  if (out.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("rank {} exceeds the supported maximum of {}", out.size(), kMaxRank);
  if (in.size() > out.size())
    return invalid_argument("shape {} does not broadcast to {}", shape_str(in), shape_str(out));
  IndexMap m;
  m.rank = static_cast<int32_t>(out.size());
  const size_t lead = out.size() - in.size();
  int64_t stride = 1;
  for (size_t i = out.size(); i-- > 0;) {
    m.dims[i] = out[i];
    if (i < lead) {
      m.strides[i] = 0;
      continue;
    }
    int64_t d = in[i - lead];
    if (d != out[i] && d != 1)
      return invalid_argument("shape {} does not broadcast to {}", shape_str(in), shape_str(out));
    m.strides[i] = (d == 1 && out[i] != 1) ? 0 : stride;
    stride *= d;
  }
  return m;
}

Result<IndexMap> strided_map(const Shape& out, const std::vector<int64_t>& strides) {
  if (out.size() > static_cast<size_t>(kMaxRank))
    return unimplemented("rank {} exceeds the supported maximum of {}", out.size(), kMaxRank);
  if (strides.size() != out.size())
    return internal_error("strided_map: {} strides for rank {}", strides.size(), out.size());
  IndexMap m;
  m.rank = static_cast<int32_t>(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    m.dims[i] = out[i];
    m.strides[i] = strides[i];
  }
  return m;
}

}  // namespace gk

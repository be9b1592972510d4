#include "tools/gkrun/output_format.h"

#include <cmath>
#include <limits>

namespace gk::cli {

TensorStats tensor_stats(const HostTensor& t) {
  TensorStats s;
  if (t.numel() == 0 || t.dtype() == DType::kString) return s;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  double sum = 0;
  int64_t counted = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = t.as_f64(i);
    if (std::isnan(v)) {
      ++s.nan;
      continue;
    }
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    sum += v;
    ++counted;
  }
  s.mean = counted ? sum / static_cast<double>(counted) : 0;
  return s;
}

namespace {
std::string first_values_text(const HostTensor& t, int count) {
  std::string s = "[";
  const int64_t n = std::min<int64_t>(count, t.numel());
  for (int64_t i = 0; i < n; ++i) {
    if (i) s += ", ";
    if (t.dtype() == DType::kString) s += "\"" + t.string_values()[i] + "\"";
    else if (dtype_is_float(t.dtype()) || dtype_is_minifloat(t.dtype())) s += fmt::format("{:.6g}", t.as_f64(i));
    else s += std::to_string(t.as_i64(i));
  }
  if (t.numel() > n) s += ", ...";
  return s + "]";
}
}  // namespace

std::string describe_output(const NamedTensor& out, int first_values) {
  const HostTensor& t = out.tensor;
  TensorStats s = tensor_stats(t);
  std::string text = fmt::format("{}  {}  {}  min {:.6g}  max {:.6g}  mean {:.6g}", out.name, dtype_name(t.dtype()),
                                 shape_str(t.shape()), s.min, s.max, s.mean);
  if (s.nan) text += fmt::format("  NaN x{}", s.nan);
  return text + "  " + first_values_text(t, first_values);
}

void output_json(JsonWriter& w, const NamedTensor& out, int first_values) {
  const HostTensor& t = out.tensor;
  TensorStats s = tensor_stats(t);
  w.begin_object().field("name", out.name).field("dtype", dtype_name(t.dtype()));
  w.begin_array("shape");
  for (int64_t d : t.shape()) w.raw({}, std::to_string(d));
  w.end_array();
  w.field("min", s.min).field("max", s.max).field("mean", s.mean).field("nan_count", s.nan);
  w.begin_array("first");
  for (int64_t i = 0; i < std::min<int64_t>(first_values, t.numel()); ++i)
    if (t.dtype() != DType::kString) w.raw({}, fmt::format("{}", std::isfinite(t.as_f64(i)) ? t.as_f64(i) : 0.0));
  w.end_array();
  w.end_object();
}

}  // namespace gk::cli

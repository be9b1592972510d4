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

std::string chrome_trace(const Profiler& profiler, const PlanSummary& plan) {
  JsonWriter w;
  w.begin_object().begin_array("traceEvents");
  w.begin_object().field("name", "process_name").field("ph", "M").field("pid", 1).field("tid", 1);
  w.begin_object("args").field("name", "gkrun").end_object().end_object();
  for (const KernelRecord& r : profiler.records()) {
    w.begin_object()
        .field("name", r.kernel)
        .field("cat", r.tag.op_type)
        .field("ph", "X")
        .field("ts", r.start_ms * 1000.0)
        .field("dur", r.duration_ms * 1000.0)
        .field("pid", 1)
        .field("tid", 1);
    w.begin_object("args").field("nodes", r.tag.nodes).field("op_type", r.tag.op_type).field("shapes", r.tag.shapes);
    w.end_object().end_object();
    // Bytes of intermediates alive at this launch's step, from the memory plan.
    auto live = plan.live_bytes_by_nodes.find(r.tag.nodes);
    if (live == plan.live_bytes_by_nodes.end()) continue;
    w.begin_object().field("name", "live intermediates").field("ph", "C").field("ts", r.start_ms * 1000.0);
    w.field("pid", 1).begin_object("args").field("bytes", live->second).end_object().end_object();
  }
  w.end_array().field("displayTimeUnit", "ms").end_object();
  return w.str();
}

}  // namespace gk::cli

// The profiler's renderings: an aligned text table for people, one JSON object for
// tools (gkrun profile --json) and a Chrome trace (chrome_trace.h).
#include "runtime/kit/chrome_trace.h"
#include "runtime/kit/profiler.h"

#include <fmt/format.h>

#include <cmath>

namespace gk {
namespace {

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) out += fmt::format("\\u{:04x}", c);
        else out += static_cast<char>(c);  // UTF-8 passes through unchanged
    }
  }
  return out + "\"";
}

// JSON has no inf/nan; a clock glitch must not make the document unreadable.
std::string json_number(double v) { return std::isfinite(v) ? fmt::format("{}", v) : "0"; }

std::vector<ProfileRow> head(std::vector<ProfileRow> rows, size_t top) {
  if (top > 0 && rows.size() > top) rows.resize(top);
  return rows;
}

// Display width in code points, so "µs" and non-ASCII node names line up.
size_t width(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}

}  // namespace

std::string Profiler::table(size_t top) const {
  const std::vector<ProfileRow> rows = head(by_kernel(), top);
  const std::vector<std::string> header = {"kernel", "node(s)", "op type", "calls",
                                           "total ms", "%", "mean µs", "median µs", "max µs"};
  std::vector<std::vector<std::string>> cells;
  cells.push_back(header);
  for (const ProfileRow& r : rows)
    cells.push_back({r.kernel, r.nodes, r.op_type, std::to_string(r.calls),
                     fmt::format("{:.3f}", r.total_ms), fmt::format("{:.1f}", r.percent),
                     fmt::format("{:.1f}", r.mean_us), fmt::format("{:.1f}", r.median_us),
                     fmt::format("{:.1f}", r.max_us)});
  std::vector<size_t> widths(header.size(), 0);
  for (const auto& line : cells)
    for (size_t c = 0; c < line.size(); ++c) widths[c] = std::max(widths[c], width(line[c]));
  std::string out;
  for (const auto& line : cells) {
    std::string text;
    for (size_t c = 0; c < line.size(); ++c) {
      const std::string pad(widths[c] - width(line[c]), ' ');
      // Names align left, numbers right.
      if (c > 0) text += "  ";
      text += c < 3 ? line[c] + pad : pad + line[c];
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  }
  out += fmt::format("total {:.3f} ms in {} launches\n", total_ms(), records().size());
  return out;
}

std::string Profiler::json(size_t top) const {
  std::string out = "{\"total_ms\":" + json_number(total_ms()) + ",\"kernels\":[";
  bool first = true;
  for (const ProfileRow& r : head(by_kernel(), top)) {
    if (!first) out += ",";
    first = false;
    out += "{\"name\":" + json_string(r.kernel) + ",\"nodes\":" + json_string(r.nodes) +
           ",\"op_type\":" + json_string(r.op_type) + ",\"calls\":" + std::to_string(r.calls) +
           ",\"total_ms\":" + json_number(r.total_ms) + ",\"percent\":" + json_number(r.percent) +
           ",\"mean_us\":" + json_number(r.mean_us) + ",\"median_us\":" + json_number(r.median_us) +
           ",\"max_us\":" + json_number(r.max_us) + "}";
  }
  out += "],\"op_types\":[";
  first = true;
  for (const ProfileRow& r : head(by_op_type(), top)) {
    if (!first) out += ",";
    first = false;
    out += "{\"op_type\":" + json_string(r.op_type) + ",\"calls\":" + std::to_string(r.calls) +
           ",\"total_ms\":" + json_number(r.total_ms) + ",\"percent\":" + json_number(r.percent) +
           ",\"mean_us\":" + json_number(r.mean_us) + ",\"median_us\":" + json_number(r.median_us) +
           ",\"max_us\":" + json_number(r.max_us) + "}";
  }
  return out + "]}";
}

std::string chrome_trace(const Profiler& profiler, const std::map<std::string, size_t>& live_bytes_by_nodes,
                         std::string_view process_name) {
  // Chrome trace timestamps are microseconds.
  std::string out = "{\"traceEvents\":[{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"tid\":1,"
                    "\"args\":{\"name\":" + json_string(process_name) + "}}";
  for (const KernelRecord& r : profiler.records()) {
    const std::string ts = json_number(r.start_ms * 1000.0);
    out += ",{\"name\":" + json_string(r.kernel) + ",\"cat\":" + json_string(r.tag.op_type) +
           ",\"ph\":\"X\",\"ts\":" + ts + ",\"dur\":" + json_number(r.duration_ms * 1000.0) +
           ",\"pid\":1,\"tid\":1,\"args\":{\"nodes\":" + json_string(r.tag.nodes) +
           ",\"op_type\":" + json_string(r.tag.op_type) + ",\"shapes\":" + json_string(r.tag.shapes) + "}}";
    auto live = live_bytes_by_nodes.find(r.tag.nodes);
    if (live == live_bytes_by_nodes.end()) continue;
    out += ",{\"name\":\"live intermediates\",\"ph\":\"C\",\"ts\":" + ts +
           ",\"pid\":1,\"args\":{\"bytes\":" + std::to_string(live->second) + "}}";
  }
  return out + "],\"displayTimeUnit\":\"ms\"}";
}

}  // namespace gk

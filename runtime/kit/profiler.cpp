#include "runtime/kit/profiler.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace gk {

Profiler::~Profiler() { clear(); }

Result<EventId> Profiler::begin() {
  std::lock_guard lock(mutex_);
  if (!has_origin_) {
    // The session's time zero: record starts are measured from here.
    GK_TRY(origin_, device_.record_event());
    has_origin_ = true;
  }
  return device_.record_event();
}

Status Profiler::end(EventId begin_event, std::string kernel, LaunchTag tag) {
  std::lock_guard lock(mutex_);
  auto ev = device_.record_event();
  if (!ev.ok()) {
    device_.release_event(begin_event);
    return ev.status();
  }
  pending_.push_back({begin_event, ev.value(), std::move(kernel), std::move(tag)});
  return ok_status();
}

Status Profiler::resolve() {
  std::lock_guard lock(mutex_);
  Status first_error;
  for (Pending& p : pending_) {
    auto duration = device_.elapsed_ms(p.begin, p.end);
    auto start = device_.elapsed_ms(origin_, p.begin);
    device_.release_event(p.begin);
    device_.release_event(p.end);
    if (!duration.ok() || !start.ok()) {
      if (first_error.ok()) first_error = !duration.ok() ? duration.status() : start.status();
      continue;
    }
    records_.push_back({std::move(p.kernel), std::move(p.tag), start.value(), duration.value()});
  }
  pending_.clear();
  return first_error;
}

void Profiler::clear() {
  std::lock_guard lock(mutex_);
  for (const Pending& p : pending_) {
    device_.release_event(p.begin);
    device_.release_event(p.end);
  }
  pending_.clear();
  records_.clear();
  if (has_origin_) device_.release_event(origin_);
  has_origin_ = false;
}

double Profiler::total_ms() const {
  double total = 0;
  for (const KernelRecord& r : records_) total += r.duration_ms;
  return total;
}

namespace {

// A row and its launches' durations, for the median.
struct RowTimes {
  ProfileRow row;
  std::vector<double> ms;
};

void add(RowTimes& t, double ms) {
  ++t.row.calls;
  t.row.total_ms += ms;
  t.row.max_us = std::max(t.row.max_us, ms * 1000.0);
  t.ms.push_back(ms);
}

double median_us(std::vector<double>& ms) {
  if (ms.empty()) return 0.0;
  const size_t mid = ms.size() / 2;
  std::nth_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(mid), ms.end());
  double m = ms[mid];
  if (ms.size() % 2 == 0) m = (m + *std::max_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(mid))) / 2;
  return m * 1000.0;
}

template <typename Key>
std::vector<ProfileRow> ranked(std::map<Key, RowTimes>& rows, double total) {
  std::vector<ProfileRow> out;
  for (auto& [key, t] : rows) {
    ProfileRow& r = t.row;
    r.mean_us = r.calls ? r.total_ms * 1000.0 / static_cast<double>(r.calls) : 0.0;
    r.median_us = median_us(t.ms);
    r.percent = total > 0 ? r.total_ms * 100.0 / total : 0.0;
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const ProfileRow& a, const ProfileRow& b) {
    return std::tie(b.total_ms, a.kernel, a.nodes, a.op_type) <
           std::tie(a.total_ms, b.kernel, b.nodes, b.op_type);
  });
  return out;
}

}  // namespace

std::vector<ProfileRow> Profiler::by_kernel() const {
  std::map<std::pair<std::string, std::string>, RowTimes> rows;
  for (const KernelRecord& r : records_) {
    RowTimes& t = rows[{r.kernel, r.tag.nodes}];
    if (t.row.calls == 0) {
      t.row.kernel = r.kernel;
      t.row.nodes = r.tag.nodes;
      t.row.op_type = r.tag.op_type;
    }
    add(t, r.duration_ms);
  }
  return ranked(rows, total_ms());
}

std::vector<ProfileRow> Profiler::by_op_type() const {
  std::map<std::string, RowTimes> rows;
  for (const KernelRecord& r : records_) {
    RowTimes& t = rows[r.tag.op_type];
    t.row.op_type = r.tag.op_type;
    add(t, r.duration_ms);
  }
  return ranked(rows, total_ms());
}

}  // namespace gk

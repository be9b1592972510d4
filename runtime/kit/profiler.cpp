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

void rank(std::vector<ProfileRow>& rows, double total) {
  for (ProfileRow& r : rows) {
    r.mean_us = r.calls ? r.total_ms * 1000.0 / static_cast<double>(r.calls) : 0.0;
    r.percent = total > 0 ? r.total_ms * 100.0 / total : 0.0;
  }
  std::stable_sort(rows.begin(), rows.end(), [](const ProfileRow& a, const ProfileRow& b) {
    return std::tie(b.total_ms, a.kernel, a.nodes, a.op_type) <
           std::tie(a.total_ms, b.kernel, b.nodes, b.op_type);
  });
}

void add(ProfileRow& row, double ms) {
  ++row.calls;
  row.total_ms += ms;
  row.max_us = std::max(row.max_us, ms * 1000.0);
}

}  // namespace

std::vector<ProfileRow> Profiler::by_kernel() const {
  std::map<std::pair<std::string, std::string>, ProfileRow> rows;
  for (const KernelRecord& r : records_) {
    ProfileRow& row = rows[{r.kernel, r.tag.nodes}];
    if (row.calls == 0) {
      row.kernel = r.kernel;
      row.nodes = r.tag.nodes;
      row.op_type = r.tag.op_type;
    }
    add(row, r.duration_ms);
  }
  std::vector<ProfileRow> out;
  for (auto& [key, row] : rows) out.push_back(std::move(row));
  rank(out, total_ms());
  return out;
}

std::vector<ProfileRow> Profiler::by_op_type() const {
  std::map<std::string, ProfileRow> rows;
  for (const KernelRecord& r : records_) {
    ProfileRow& row = rows[r.tag.op_type];
    row.op_type = r.tag.op_type;
    add(row, r.duration_ms);
  }
  std::vector<ProfileRow> out;
  for (auto& [key, row] : rows) out.push_back(std::move(row));
  rank(out, total_ms());
  return out;
}

}  // namespace gk

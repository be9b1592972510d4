// The captured graph of one plan: recorded on the plan's second run, replayed by
// later runs with each input's and output's address range rebound. The graph owns
// its arena, its error flags and the scratch its steps allocated.
#pragma once

#include "runtime/plan.h"

#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace gk {

class GraphReplay {
 public:
  GraphReplay() = default;
  GraphReplay(const GraphReplay&) = delete;
  GraphReplay& operator=(const GraphReplay&) = delete;
  ~GraphReplay();

  // Which steps an enqueue runs: [first, last), then the output copies when
  // `finish` is set.
  struct Steps {
    size_t first = 0, last = 0;
    bool finish = true;
  };
  // Enqueues those steps over (arena, flags); buffers the steps allocate go to
  // `scratch`, which must outlive the launches.
  using Enqueue = std::function<Status(DevPtr arena, DevPtr flags, std::vector<GkBuf>& scratch, Steps steps)>;
  // Reads the error flags after a replay has synced.
  using CheckFlags = std::function<Status(DevPtr flags)>;

  // True when this run replayed the graph (outputs written, flags checked); false
  // when it must take plain launches, with the reason in `info`. A plan whose
  // later steps have run-time shapes captures its static steps and runs the rest
  // as plain launches over the graph's arena after each replay.
  Result<bool> run(Kit& kit, const Plan& plan, const std::vector<const NamedBuf*>& inputs,
                   const std::vector<NamedBuf>& outputs, const RunOptions& options, RunInfo* info,
                   const Enqueue& enqueue, const CheckFlags& check);

 private:
  Status capture(Kit& kit, const Plan& plan, const std::vector<const NamedBuf*>& inputs,
                 const std::vector<NamedBuf>& outputs, const Enqueue& enqueue);

  // One replay at a time (the graph owns one arena).
  std::mutex mutex_;
  int runs_ = 0;
  bool has_graph_ = false;
  GraphId graph_ = 0;
  GraphCapture* graphs_ = nullptr;
  GkBuf arena_, flags_;
  std::vector<GkBuf> scratch_;
  std::vector<PointerRemap> io_;  // each input's, then each output's bound range (from, bytes)
  std::string fallback_;          // set once: why this plan never replays
};

}  // namespace gk

#include "runtime/graph_replay.h"

#include <spdlog/spdlog.h>

namespace gk {

GraphReplay::~GraphReplay() {
  if (has_graph_ && graphs_) graphs_->destroy_graph(graph_);
}

Status GraphReplay::capture(Kit& kit, const Plan& plan, const std::vector<const NamedBuf*>& inputs,
                            const std::vector<NamedBuf>& outputs, const Enqueue& enqueue) {
  if (plan.captured_steps == 0) return unimplemented("{}", plan.uncapturable);
  // A replay moves each input and output by its address range; two that share
  // bytes could not be told apart.
  std::vector<PointerRemap> io;
  auto bind = [&](const std::string& name, const GkBuf& buf) -> Status {
    const PointerRemap r{buf.ptr(), buf.bytes(), 0};
    for (const PointerRemap& o : io)
      if (r.bytes && o.bytes && r.from < o.from + o.bytes && o.from < r.from + r.bytes)
        return unimplemented("'{}' shares memory with another input or output of this run", name);
    io.push_back(r);
    return ok_status();
  };
  for (const NamedBuf* in : inputs) GK_RETURN_IF_ERROR(bind(in->name, in->buf));
  for (const NamedBuf& out : outputs) GK_RETURN_IF_ERROR(bind(out.name, out.buf));

  const size_t flag_bytes = std::max<size_t>(plan.steps.size(), 1) * 4;
  GK_TRY(GkBuf arena, kit.alloc(DType::kU8, static_cast<int64_t>(plan.memory.arena_bytes)));
  GK_TRY(GkBuf flags, kit.alloc(DType::kU8, static_cast<int64_t>(flag_bytes)));
  GraphCapture& graphs = *kit.device().graphs();
  GK_RETURN_IF_ERROR(graphs.begin_capture());
  std::vector<GkBuf> scratch;
  Status s = kit.device().memset(flags.ptr(), 0, flag_bytes);
  const bool whole = plan.captured_steps == plan.steps.size();
  if (s.ok()) s = enqueue(arena.ptr(), flags.ptr(), scratch, {0, plan.captured_steps, whole});
  Result<GraphId> id = graphs.end_capture();
  if (!s.ok()) {
    if (id.ok()) graphs.destroy_graph(*id);
    return s;
  }
  if (!id.ok()) return id.status();
  graph_ = *id;
  graphs_ = &graphs;
  has_graph_ = true;
  arena_ = std::move(arena);
  flags_ = std::move(flags);
  scratch_ = std::move(scratch);
  io_ = std::move(io);
  return ok_status();
}

Result<bool> GraphReplay::run(Kit& kit, const Plan& plan, const std::vector<const NamedBuf*>& inputs,
                              const std::vector<NamedBuf>& outputs, const RunOptions& options, RunInfo* info,
                              const Enqueue& enqueue, const CheckFlags& check) {
  auto fallback = [&](std::string why) {
    if (info) info->graph_fallback = std::move(why);
    return false;
  };
  if (options.profiler) return fallback("profiling times each launch: plain launches");
  if (kit.autosync()) return fallback("autosync syncs after each launch: plain launches");
  // A concurrent run of the same shape takes plain launches in its own frame
  // instead of waiting.
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return fallback("another run is replaying this shape's graph: plain launches");
  if (!fallback_.empty()) return fallback(fallback_);
  if (!has_graph_) {
    if (++runs_ < 2) return fallback("first run of this shape: plain launches, captured on the next");
    Status s = capture(kit, plan, inputs, outputs, enqueue);
    // A run stopped mid-capture says nothing about the graph: capture again next time.
    if (s.code() == StatusCode::kDeadlineExceeded || s.code() == StatusCode::kCancelled) return s;
    if (!s.ok()) {
      fallback_ = "not captured: " + s.message();
      spdlog::debug("graph replay off for this shape: {}", s.message());
      return fallback(fallback_);
    }
    if (info) info->graph_captured = true;
  }

  std::vector<PointerRemap> remap;
  std::vector<DevPtr> now;
  for (const NamedBuf* in : inputs) now.push_back(in->buf.ptr());
  for (const NamedBuf& out : outputs) now.push_back(out.buf.ptr());
  for (size_t i = 0; i < now.size(); ++i) {
    PointerRemap& bound = io_[i];
    if (bound.from != now[i] && bound.bytes) remap.push_back({bound.from, bound.bytes, now[i]});
  }
  if (!remap.empty()) GK_RETURN_IF_ERROR(graphs_->rebind_pointers(graph_, remap));
  for (size_t i = 0; i < now.size(); ++i) io_[i].from = now[i];
  GK_RETURN_IF_ERROR(graphs_->launch_graph(graph_));
  std::vector<GkBuf> tail_scratch;  // the plain launches' buffers, kept to the sync
  if (plan.captured_steps < plan.steps.size())
    GK_RETURN_IF_ERROR(enqueue(arena_.ptr(), flags_.ptr(), tail_scratch, {plan.captured_steps, plan.steps.size(), true}));
  GK_RETURN_IF_ERROR(kit.sync());
  GK_RETURN_IF_ERROR(check(flags_.ptr()));
  if (info) {
    info->graph_replayed = true;
    info->replayed_steps = static_cast<int>(plan.captured_steps);
  }
  return true;
}

}  // namespace gk

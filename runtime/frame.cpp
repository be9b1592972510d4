#include "runtime/frame.h"

namespace gk {
namespace {

// Frames kept per plan once their runs end: enough for the concurrent runs a
// server makes of one shape (8 threads in the session tests). // untuned
constexpr size_t kMaxFreeFrames = 16;

}  // namespace

Frame::Frame(const Graph& graph, const Plan& plan)
    : values(graph.values.size()), run_buffers(graph.values.size()), steps_(plan.steps.size()) {
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    const StepPlan& step = plan.steps[s];
    if (step.dynamic || step.skip) continue;
    const Node& node = graph.nodes[step.node];
    StepOperands& ops = steps_[s];
    ops.first = static_cast<uint32_t>(operands_.size());
    ops.inputs = static_cast<uint32_t>(node.inputs.size());
    ops.outputs = static_cast<uint32_t>(node.outputs.size());
    auto add = [&](ValueId v) {
      TensorRef ref;
      if (v != kNoValue) {
        const ValuePlan& vp = plan.values[v];
        ref.dtype = vp.type.dtype;
        ref.shape = vp.type.shape;
      }
      operands_.push_back(std::move(ref));
      operand_values_.push_back(v);
    };
    for (ValueId in : node.inputs) add(in);
    for (ValueId out : node.outputs) add(out);
  }
}

void Frame::bind(const Graph& g, const Plan& plan, const std::vector<ValueId>& graph_inputs,
                 const std::vector<const NamedBuf*>& inputs, const std::vector<NamedBuf>& outputs, DevPtr arena) {
  for (size_t v = 0; v < g.values.size(); ++v) {
    const ValuePlan& vp = plan.values[v];
    FrameValue& fv = values[v];
    fv.type = vp.type;  // reuses the shape's storage: no allocation after the first run
    fv.host = vp.host.get();
    fv.owned_host.reset();
    fv.seq.reset();
    fv.none = false;
    run_buffers[v] = GkBuf();
    switch (vp.where) {
      case Where::kInput:
        fv.ptr = inputs[vp.io_index]->buf.ptr();
        break;
      case Where::kOutput:
        fv.ptr = vp.host ? vp.constant.ptr() : outputs[vp.io_index].buf.ptr();
        break;
      case Where::kConstant:
        fv.ptr = vp.constant.ptr();
        break;
      case Where::kArena:
        fv.ptr = arena + static_cast<DevPtr>(vp.offset);
        break;
      default:
        fv.ptr = 0;
        break;
    }
  }
  for (size_t v = 0; v < g.values.size(); ++v)
    if (plan.values[v].where == Where::kAlias) values[v].ptr = values[plan.values[v].alias_root].ptr;
  for (size_t i = 0; i < graph_inputs.size(); ++i) {
    FrameValue& fv = values[graph_inputs[i]];
    fv.seq = inputs[i]->sequence;
    fv.none = inputs[i]->none;
    if (g.values[graph_inputs[i]].kind == ValueKind::kOptional && !fv.seq && !fv.none) {  // planned as dynamic
      fv.ptr = inputs[i]->buf.ptr();
      fv.type = {inputs[i]->dtype(), inputs[i]->shape};
      fv.host = inputs[i]->host.get();
    }
  }
  // Static steps read only static values, so their operands can be bound now.
  for (const StepOperands& ops : steps_)
    for (uint32_t k = ops.first; k < ops.first + ops.inputs + ops.outputs; ++k) {
      const ValueId v = operand_values_[k];
      if (v == kNoValue) continue;
      operands_[k].ptr = values[v].ptr;
      operands_[k].host = k < ops.first + ops.inputs ? values[v].host : nullptr;
    }
}

void Frame::release(std::vector<GkBuf>& until_sync) {
  for (FrameValue& fv : values) {
    fv.owned_host.reset();
    fv.seq.reset();
  }
  for (GkBuf& b : run_buffers)
    if (b.owns_memory()) until_sync.push_back(std::move(b));
  runtime_steps = 0;
  host_reads = 0;
}

std::span<const TensorRef> Frame::step_inputs(size_t step) const {
  const StepOperands& ops = steps_[step];
  return std::span<const TensorRef>(operands_).subspan(ops.first, ops.inputs);
}

std::span<TensorRef> Frame::step_outputs(size_t step) {
  const StepOperands& ops = steps_[step];
  return std::span<TensorRef>(operands_).subspan(ops.first + ops.inputs, ops.outputs);
}

std::unique_ptr<Frame> FramePool::take(const Graph& graph, const Plan& plan) {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<Frame> f = std::move(free_.back());
      free_.pop_back();
      return f;
    }
  }
  return std::make_unique<Frame>(graph, plan);
}

void FramePool::give_back(std::unique_ptr<Frame> frame) {
  std::lock_guard lock(mutex_);
  if (free_.size() < kMaxFreeFrames) free_.push_back(std::move(frame));
}

}  // namespace gk

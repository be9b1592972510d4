#include "ops/core/op.h"

namespace gk {

std::string NodeView::describe() const {
  return fmt::format("node '{}' ({}{}{})", name, domain.empty() ? "" : domain,
                     domain.empty() ? "" : ".", op_type);
}

Result<const HostTensor*> InferContext::value(size_t i) const {
  if (has_value(i)) return values[i];
  return unimplemented("{}: input {} must be known before the run (a constant or computed from "
                       "shapes); data-dependent values here are not supported",
                       node.describe(), i);
}

Status InferContext::fail(std::string_view what) const {
  return invalid_model("{}: {}", node.describe(), what);
}

Status KernelContext::launch(const KernelSource& source, const KernelName& entry, const LaunchConfig& config,
                             const KernelArgs& args) {
  const Kernel* kernel = kernels_ ? kernels_->find(&source, entry.key()) : nullptr;
  if (!kernel) {
    GK_TRY(kernel, kit_.kernel(source, entry.str()));
    if (kernels_) kernels_->remember(&source, entry.key(), kernel);
  }
  Status s = kit_.launch(*kernel, config, args, profiler_, tag_);
  if (!s.ok()) return s.with_context(node_.describe());
  return s;
}

Result<GkBuf> KernelContext::scratch(DType dtype, int64_t count) {
  GK_TRY(GkBuf buf, kit_.alloc(dtype, count));
  scratch_.push_back(buf);
  return buf;
}

Status KernelContext::allocate_output(size_t i, Shape shape) {
  if (i >= outputs_.size()) return internal_error("{}: output {} out of range", node_.describe(), i);
  GK_TRY(int64_t n, checked_numel(shape));
  GK_TRY(GkBuf buf, kit_.alloc(outputs_[i].dtype, n));
  outputs_[i].shape = std::move(shape);
  outputs_[i].ptr = buf.ptr();
  scratch_.push_back(std::move(buf));
  return ok_status();
}

Status KernelContext::fail(std::string_view what) const {
  return invalid_argument("{}: {}", node_.describe(), what);
}

}  // namespace gk

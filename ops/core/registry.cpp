// The registration table: the family tables in one place, walked by find_op.
#include "ops/core/families.h"
#include "ops/core/op.h"

#include <array>
#include <mutex>

namespace gk {
namespace {

using OpsFn = std::span<const OpSchema> (*)();
using KernelsFn = KernelFamily (*)();

// Families, in the order DESIGN.md lists them.
constexpr OpsFn kOpFamilies[] = {
    &families::matmul_ops,
    &families::gemm_ops,
    &families::einsum_ops,
    &families::conv_ops,
    &families::conv_transpose_ops,
    &families::pool_ops,
    &families::elementwise_ops,
    &families::variadic_ops,
    &families::unary_ops,
    &families::activation_ops,
    &families::cast_ops,
    &families::data_movement_ops,
    &families::gather_scatter_ops,
    &families::reduce_ops,
    &families::arg_reduce_ops,
    &families::cumulative_ops,
    &families::topk_ops,
    &families::softmax_ops,
    &families::normalization_ops,
    &families::resize_ops,
    &families::nms_ops,
    &families::roi_align_ops,
    &families::loss_ops,
    &families::grid_sample_ops,
    &families::col2im_ops,
    &families::center_crop_pad_ops,
    &families::deform_conv_ops,
    &families::attention_ops,
    &families::quantize_ops,
    &families::qlinear_ops,
    &families::rnn_ops,
    &families::bitcast_ops,
    &families::control_flow_ops,
    &families::sequence_ops,
    &families::signal_ops,
    &families::dft_ops,
    &families::det_ops,
    &families::tensor_scatter_ops,
    &families::string_ops,
    &families::label_encoder_ops,
    &families::tfidf_ops,
    &families::ml_ops,
    &families::tree_ensemble_ops,
    nullptr,  // keeps the array non-empty while families are added
};

constexpr KernelsFn kKernelFamilies[] = {
    &families::matmul_kernels,
    &families::conv_kernels,
    &families::pool_kernels,
    &families::elementwise_kernels,
    &families::unary_kernels,
    &families::cast_kernels,
    &families::data_movement_kernels,
    &families::gather_scatter_kernels,
    &families::reduce_kernels,
    &families::topk_kernels,
    &families::softmax_kernels,
    &families::normalization_kernels,
    &families::resize_kernels,
    &families::detection_kernels,
    &families::loss_kernels,
    &families::grid_sample_kernels,
    &families::attention_kernels,
    &families::quantize_kernels,
    &families::rnn_kernels,
    &families::signal_kernels,
    &families::dft_kernels,
    &families::linalg_kernels,
    &families::tensor_scatter_kernels,
    &families::tfidf_kernels,
    &families::ml_kernels,
    &families::tree_ensemble_kernels,
    nullptr,
};

}  // namespace

std::span<const OpSchema> op_table() {
  static const std::vector<OpSchema> table = [] {
    std::vector<OpSchema> all;
    for (OpsFn f : kOpFamilies)
      if (f)
        for (const OpSchema& s : f()) all.push_back(s);
    return all;
  }();
  return table;
}

const OpSchema* find_op(std::string_view domain, std::string_view op_type, int opset) {
  if (domain == "ai.onnx") domain = "";
  const OpSchema* best = nullptr;
  for (const OpSchema& s : op_table()) {
    if (s.op_type != op_type || std::string_view(s.domain) != domain) continue;
    if (s.since_version <= opset && opset <= s.end_version &&
        (!best || s.since_version > best->since_version))
      best = &s;
  }
  return best;
}

std::span<const KernelFamily> kernel_families() {
  static const std::vector<KernelFamily> families = [] {
    std::vector<KernelFamily> all;
    for (KernelsFn f : kKernelFamilies)
      if (f) all.push_back(f());
    return all;
  }();
  return families;
}

std::vector<CpuKernelTable> cpu_kernel_tables() {
  std::vector<CpuKernelTable> tables;
  for (const KernelFamily& f : kernel_families()) tables.push_back(f.cpu);
  return tables;
}

}  // namespace gk

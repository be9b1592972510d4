// Each operator family exports its registration entries and its kernel family.
// ops/registry.cpp lists them; nothing registers itself.
#pragma once

#include "ops/core/op.h"

#include <span>
#include <vector>

namespace gk::families {

// One line per family: std::span<const OpSchema> NAME_ops(); and, for families with
// kernels, KernelFamily NAME_kernels();

std::span<const OpSchema> matmul_ops();
std::span<const OpSchema> gemm_ops();
std::span<const OpSchema> einsum_ops();
KernelFamily matmul_kernels();
std::span<const OpSchema> conv_ops();
std::span<const OpSchema> conv_transpose_ops();
KernelFamily conv_kernels();
std::span<const OpSchema> pool_ops();
KernelFamily pool_kernels();
std::span<const OpSchema> elementwise_ops();
std::span<const OpSchema> variadic_ops();
std::span<const OpSchema> unary_ops();
std::span<const OpSchema> activation_ops();
std::span<const OpSchema> cast_ops();
KernelFamily elementwise_kernels();
KernelFamily unary_kernels();
KernelFamily cast_kernels();
std::span<const OpSchema> reduce_ops();
std::span<const OpSchema> arg_reduce_ops();
std::span<const OpSchema> cumulative_ops();
std::span<const OpSchema> topk_ops();
std::span<const OpSchema> softmax_ops();
std::span<const OpSchema> normalization_ops();
KernelFamily reduce_kernels();
KernelFamily topk_kernels();
KernelFamily softmax_kernels();
KernelFamily normalization_kernels();
std::span<const OpSchema> data_movement_ops();
std::span<const OpSchema> gather_scatter_ops();
KernelFamily data_movement_kernels();
KernelFamily gather_scatter_kernels();
std::span<const OpSchema> resize_ops();
KernelFamily resize_kernels();
std::span<const OpSchema> nms_ops();
std::span<const OpSchema> roi_align_ops();
KernelFamily detection_kernels();
std::span<const OpSchema> loss_ops();
KernelFamily loss_kernels();
std::span<const OpSchema> grid_sample_ops();
std::span<const OpSchema> col2im_ops();
std::span<const OpSchema> center_crop_pad_ops();
std::span<const OpSchema> deform_conv_ops();
KernelFamily grid_sample_kernels();
std::span<const OpSchema> attention_ops();
KernelFamily attention_kernels();
std::span<const OpSchema> quantize_ops();
std::span<const OpSchema> qlinear_ops();
KernelFamily quantize_kernels();
std::span<const OpSchema> rnn_ops();
KernelFamily rnn_kernels();
std::span<const OpSchema> bitcast_ops();
std::span<const OpSchema> control_flow_ops();
std::span<const OpSchema> sequence_ops();
std::span<const OpSchema> signal_ops();
std::span<const OpSchema> dft_ops();
std::span<const OpSchema> det_ops();
std::span<const OpSchema> tensor_scatter_ops();
KernelFamily signal_kernels();
KernelFamily dft_kernels();
KernelFamily linalg_kernels();
KernelFamily tensor_scatter_kernels();
std::span<const OpSchema> string_ops();
std::span<const OpSchema> label_encoder_ops();
std::span<const OpSchema> tfidf_ops();
KernelFamily tfidf_kernels();
std::span<const OpSchema> ml_ops();
KernelFamily ml_kernels();
std::span<const OpSchema> tree_ensemble_ops();
KernelFamily tree_ensemble_kernels();
}  // namespace gk::families

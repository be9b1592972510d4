// Reading and writing tensors: NumPy .npy (v1/v2/v3, little-endian, C order) and
// ONNX TensorProto .pb files.
#pragma once

#include "runtime/kit/host_tensor.h"

#include <span>
#include <string>
#include <string_view>

namespace gk {

Result<HostTensor> read_npy(const std::string& path);
// The bytes of a .npy file; `path` names it in errors.
Result<HostTensor> parse_npy(std::string_view data, const std::string& path);
Status write_npy(const std::string& path, const HostTensor& tensor);
// .npy or .pb by extension (anything not .npy is read as a TensorProto).
Result<HostTensor> read_tensor_file(const std::string& path);
// A tensor of `dtype` holding `values` converted as the kernels convert them
// (f16/bf16 round to nearest even through float; integers truncate and saturate).
Result<HostTensor> tensor_from_f64(DType dtype, Shape shape, std::span<const double> values);

}  // namespace gk

// TensorProto decoding: every storage form the spec allows, each length checked
// against the element count before a byte is read.
#include "graph/loader.h"
#include "graph/loader_proto.h"

#include <onnx/onnx-data_pb.h>

#include <google/protobuf/io/coded_stream.h>

#include <bit>
#include <climits>
#include <cstring>
#include <new>

namespace gk::loader {

// raw_data and external data are little-endian; a big-endian host would have to
// byte-swap every element, which nothing here does.
static_assert(std::endian::native == std::endian::little, "gkrun's tensor decoding assumes little-endian");

Status parse_message(google::protobuf::MessageLite& msg, const void* data, size_t size,
                     std::string_view what) {
  if (size > static_cast<size_t>(INT_MAX))
    return invalid_model("{}: {} bytes; a protobuf message is limited to 2 GiB - 1 ({} bytes): store "
                         "large weights as external data",
                         what, size, INT_MAX);
  try {
    google::protobuf::io::CodedInputStream in(static_cast<const uint8_t*>(data), static_cast<int>(size));
    in.SetTotalBytesLimit(INT_MAX);
    if (!msg.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
      return invalid_model("{}: not a valid {} (corrupt or truncated protobuf, {} bytes)", what,
                           msg.GetTypeName(), size);
  } catch (const std::bad_alloc&) {
    return resource_exhausted("{}: out of memory while parsing {} bytes", what, size);
  } catch (const std::exception& e) {
    return invalid_model("{}: protobuf parse failed: {}", what, e.what());
  }
  return ok_status();
}

namespace {

// The dtype, dims and byte size of a tensor header, checked.
struct TensorHeader {
  DType dtype = DType::kUndefined;
  Shape shape;
  int64_t numel = 0;
  size_t bytes = 0;
};

Result<TensorHeader> read_header(int32_t code, const google::protobuf::RepeatedField<int64_t>& dims,
                                 std::string_view what) {
  TensorHeader h;
  if (code == 0) return invalid_model("tensor '{}' has no element type (data_type 0)", what);
  auto dt = dtype_from_code(code);
  if (!dt.ok()) return Status(dt.status().code(), fmt::format("tensor '{}': {}", what, dt.status().message()));
  h.dtype = *dt;
  h.shape.assign(dims.begin(), dims.end());
  for (size_t i = 0; i < h.shape.size(); ++i)
    if (h.shape[i] < 0)
      return invalid_model("tensor '{}': dimension {} is {}, dimensions must be >= 0", what, i, h.shape[i]);
  auto n = checked_numel(h.shape);
  if (!n.ok()) return invalid_model("tensor '{}': {}", what, n.status().message());
  h.numel = *n;
  // dtype_storage_bytes multiplies the count by the bit width; keep that in range.
  if (static_cast<uint64_t>(h.numel) > SIZE_MAX / 64)
    return invalid_model("tensor '{}': {} elements ({}) do not fit in memory", what, h.numel,
                         shape_str(h.shape));
  h.bytes = dtype_storage_bytes(h.dtype, h.numel);
  return h;
}

// Copies a typed repeated field into `count` elements of Dst (narrowing to the
// storage width: float16/bfloat16/float8 travel as bit patterns in int32_data).
template <typename Dst, typename Field>
Result<HostTensor> from_field(const TensorHeader& h, const Field& field, int64_t count,
                              const char* field_name, std::string_view what) {
  if (static_cast<int64_t>(field.size()) != count)
    return invalid_model("tensor '{}': {} has {} values, expected {} for {} {}", what, field_name,
                         field.size(), count, dtype_name(h.dtype), shape_str(h.shape));
  GK_TRY(HostTensor t, HostTensor::allocate(h.dtype, h.shape));
  Dst* out = static_cast<Dst*>(t.mutable_bytes());
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<Dst>(field.Get(static_cast<int>(i)));
  return t;
}

Result<HostTensor> from_typed_fields(onnx::TensorProto& t, const TensorHeader& h, std::string_view what) {
  const int64_t n = h.numel;
  auto has_any = t.float_data_size() || t.int32_data_size() || t.int64_data_size() ||
                 t.double_data_size() || t.uint64_data_size() || t.string_data_size();
  if (n == 0 && !has_any) return HostTensor::allocate(h.dtype, h.shape);
  switch (h.dtype) {
    case DType::kF32: return from_field<float>(h, t.float_data(), n, "float_data", what);
    case DType::kF64: return from_field<double>(h, t.double_data(), n, "double_data", what);
    case DType::kI64: return from_field<int64_t>(h, t.int64_data(), n, "int64_data", what);
    case DType::kU64: return from_field<uint64_t>(h, t.uint64_data(), n, "uint64_data", what);
    case DType::kU32:
      for (uint64_t v : t.uint64_data())
        if (v > UINT32_MAX)
          return invalid_model("tensor '{}': uint64_data value {} does not fit uint32", what, v);
      return from_field<uint32_t>(h, t.uint64_data(), n, "uint64_data", what);
    case DType::kI32: return from_field<int32_t>(h, t.int32_data(), n, "int32_data", what);
    case DType::kI16: return from_field<int16_t>(h, t.int32_data(), n, "int32_data", what);
    case DType::kU16:
    case DType::kF16:
    case DType::kBF16: return from_field<uint16_t>(h, t.int32_data(), n, "int32_data", what);
    case DType::kI8: return from_field<int8_t>(h, t.int32_data(), n, "int32_data", what);
    case DType::kU8:
    case DType::kF8E4M3FN:
    case DType::kF8E4M3FNUZ:
    case DType::kF8E5M2:
    case DType::kF8E5M2FNUZ:
    case DType::kF8E8M0: return from_field<uint8_t>(h, t.int32_data(), n, "int32_data", what);
    case DType::kBool: {
      GK_TRY(HostTensor out, from_field<uint8_t>(h, t.int32_data(), n, "int32_data", what));
      // One byte per element holding exactly 0 or 1, whatever nonzero value was stored.
      uint8_t* p = static_cast<uint8_t*>(out.mutable_bytes());
      for (int64_t i = 0; i < n; ++i) p[i] = t.int32_data(static_cast<int>(i)) != 0;
      return out;
    }
    case DType::kI4:
    case DType::kU4:
    case DType::kF4E2M1:
      // Each int32_data value carries one packed byte: two elements, low nibble first.
      return from_field<uint8_t>(h, t.int32_data(), (n + 1) / 2, "int32_data", what);
    case DType::kI2:
    case DType::kU2:
      // One packed byte per value: four elements, the first in bits 0-1.
      return from_field<uint8_t>(h, t.int32_data(), (n + 3) / 4, "int32_data", what);
    case DType::kString:
    case DType::kUndefined: break;
  }
  return internal_error("tensor '{}': no typed field for {}", what, dtype_name(h.dtype));
}

}  // namespace

Result<HostTensor> decode_tensor_bytes(onnx::TensorProto& t, ExternalDataFiles& files, std::string_view what);

Result<HostTensor> decode_tensor(onnx::TensorProto& t, ExternalDataFiles& files, std::string_view what) {
  GK_TRY(HostTensor h, decode_tensor_bytes(t, files, what));
  return canonical_bools(std::move(h));
}

// The tensor's elements as stored (raw_data, external data, or the typed fields).
Result<HostTensor> decode_tensor_bytes(onnx::TensorProto& t, ExternalDataFiles& files, std::string_view what) {
  if (t.has_segment())
    return unimplemented("tensor '{}': segmented tensors (TensorProto.segment) are not supported", what);
  GK_TRY(TensorHeader h, read_header(t.data_type(), t.dims(), what));

  if (t.data_location() == onnx::TensorProto_DataLocation_EXTERNAL) {
    std::vector<std::pair<std::string, std::string>> entries;
    for (const auto& e : t.external_data()) entries.emplace_back(e.key(), e.value());
    return files.load(what, h.dtype, h.shape, entries);
  }
  if (h.dtype == DType::kString) {
    if (t.has_raw_data()) return invalid_model("tensor '{}': string tensors must use string_data, not raw_data", what);
    if (static_cast<int64_t>(t.string_data_size()) != h.numel)
      return invalid_model("tensor '{}': string_data has {} values, expected {} for {}", what,
                           t.string_data_size(), h.numel, shape_str(h.shape));
    std::vector<std::string> values(t.string_data().begin(), t.string_data().end());
    return HostTensor::strings(h.shape, std::move(values));
  }
  if (t.has_raw_data()) {
    if (t.raw_data().size() != h.bytes)
      return invalid_model("tensor '{}': raw_data has {} bytes, expected {} for {} {}", what,
                           t.raw_data().size(), h.bytes, dtype_name(h.dtype), shape_str(h.shape));
    if (h.bytes == 0) return HostTensor::allocate(h.dtype, h.shape);
    // Moved, not copied: the weights are held once, by the tensor.
    auto owner = std::make_shared<std::string>(std::move(*t.mutable_raw_data()));
    size_t align = static_cast<size_t>(std::max(1, dtype_bits(h.dtype) / 8));
    if (reinterpret_cast<uintptr_t>(owner->data()) % align != 0)
      return HostTensor::from_bytes(h.dtype, h.shape, owner->data(), owner->size());
    const void* p = owner->data();
    return HostTensor::borrow(h.dtype, h.shape, std::shared_ptr<const void>(owner, p), p, h.bytes);
  }
  return from_typed_fields(t, h, what);
}

Result<HostTensor> decode_sparse_tensor(onnx::SparseTensorProto& sp, ExternalDataFiles& files,
                                        std::string_view what) {
  std::string values_name = fmt::format("{} (sparse values)", what);
  std::string indices_name = fmt::format("{} (sparse indices)", what);
  GK_TRY(HostTensor values, decode_tensor(*sp.mutable_values(), files, values_name));
  GK_TRY(HostTensor indices, decode_tensor(*sp.mutable_indices(), files, indices_name));
  Shape dense(sp.dims().begin(), sp.dims().end());
  for (size_t i = 0; i < dense.size(); ++i)
    if (dense[i] < 0)
      return invalid_model("sparse tensor '{}': dimension {} is {}, dimensions must be >= 0", what, i, dense[i]);
  auto numel = checked_numel(dense);
  if (!numel.ok()) return invalid_model("sparse tensor '{}': {}", what, numel.status().message());
  const int bits = dtype_bits(values.dtype());
  if (values.dtype() == DType::kString || bits < 8)
    return unimplemented("sparse tensor '{}': {} values cannot be densified (fixed-width types of 8 bits "
                         "or more only)",
                         what, dtype_name(values.dtype()));
  const size_t elem = static_cast<size_t>(bits / 8);
  // The dense form of a tiny sparse tensor can be huge; 4 GiB is far above any
  // real model's sparse initializer and keeps a hostile dims field from
  // allocating the machine away.
  constexpr uint64_t kMaxDenseBytes = uint64_t{4} << 30;
  if (static_cast<uint64_t>(*numel) > kMaxDenseBytes / elem)
    return unimplemented("sparse tensor '{}': dense form {} of {} exceeds the 4 GiB densify limit", what,
                         shape_str(dense), dtype_name(values.dtype()));
  if (values.shape().size() != 1)
    return invalid_model("sparse tensor '{}': values must be 1-D, got {}", what, shape_str(values.shape()));
  const int64_t nnz = values.shape()[0];
  if (indices.dtype() != DType::kI64)
    return invalid_model("sparse tensor '{}': indices must be int64, got {}", what, dtype_name(indices.dtype()));
  const Shape& is = indices.shape();
  const int64_t rank = static_cast<int64_t>(dense.size());
  bool linear = is.size() == 1 && is[0] == nnz;
  bool coords = is.size() == 2 && is[0] == nnz && is[1] == rank;
  if (!linear && !coords)
    return invalid_model("sparse tensor '{}': indices shape {} must be [{}] or [{}, {}]", what, shape_str(is),
                         nnz, nnz, rank);

  GK_TRY(HostTensor out, HostTensor::allocate(values.dtype(), dense));
  auto* dst = static_cast<uint8_t*>(out.mutable_bytes());
  const auto* src = static_cast<const uint8_t*>(values.raw());
  const int64_t* idx = indices.data<int64_t>();
  for (int64_t k = 0; k < nnz; ++k) {
    int64_t pos = 0;
    if (linear) {
      pos = idx[k];
    } else {
      for (int64_t d = 0; d < rank; ++d) {
        int64_t c = idx[k * rank + d];
        if (c < 0 || c >= dense[static_cast<size_t>(d)])
          return invalid_model("sparse tensor '{}': index {} of value {} is {}, must be in [0, {})", what, d, k, c,
                               dense[static_cast<size_t>(d)]);
        pos = pos * dense[static_cast<size_t>(d)] + c;
      }
    }
    if (pos < 0 || pos >= *numel)
      return invalid_model("sparse tensor '{}': linear index {} of value {} must be in [0, {})", what, pos, k,
                           *numel);
    std::memcpy(dst + static_cast<size_t>(pos) * elem, src + static_cast<size_t>(k) * elem, elem);
  }
  return out;
}

}  // namespace gk::loader

namespace gk {

Result<HostTensor> parse_tensor_proto(const void* data, size_t size, const std::string& base_dir,
                                      std::string* name) {
  onnx::TensorProto t;
  GK_RETURN_IF_ERROR(loader::parse_message(t, data, size, "TensorProto"));
  if (name) *name = t.name();
  ExternalDataFiles files(base_dir);
  return loader::decode_tensor(t, files, t.name().empty() ? "<unnamed>" : t.name());
}

namespace {

Result<std::vector<HostTensor>> decode_sequence(onnx::SequenceProto& s, ExternalDataFiles& files,
                                                std::string_view what) {
  std::vector<HostTensor> out;
  switch (s.elem_type()) {
    case onnx::SequenceProto_DataType_UNDEFINED:
    case onnx::SequenceProto_DataType_TENSOR:
      if (s.sequence_values_size() || s.map_values_size() || s.optional_values_size())
        return unimplemented("sequence '{}': only sequences of tensors are supported", what);
      for (int i = 0; i < s.tensor_values_size(); ++i) {
        GK_TRY(HostTensor t, loader::decode_tensor(*s.mutable_tensor_values(i), files,
                                                   fmt::format("{}[{}]", what, i)));
        out.push_back(std::move(t));
      }
      for (int i = 0; i < s.sparse_tensor_values_size(); ++i) {
        GK_TRY(HostTensor t, loader::decode_sparse_tensor(*s.mutable_sparse_tensor_values(i), files,
                                                          fmt::format("{}[{}]", what, i)));
        out.push_back(std::move(t));
      }
      return out;
    case onnx::SequenceProto_DataType_SPARSE_TENSOR:
      for (int i = 0; i < s.sparse_tensor_values_size(); ++i) {
        GK_TRY(HostTensor t, loader::decode_sparse_tensor(*s.mutable_sparse_tensor_values(i), files,
                                                          fmt::format("{}[{}]", what, i)));
        out.push_back(std::move(t));
      }
      return out;
    default:
      return unimplemented("sequence '{}': element kind {} (sequence/map/optional) is not supported", what,
                           static_cast<int>(s.elem_type()));
  }
}

}  // namespace

Result<std::vector<HostTensor>> parse_sequence_proto(const void* data, size_t size,
                                                     const std::string& base_dir, std::string* name) {
  onnx::SequenceProto s;
  GK_RETURN_IF_ERROR(loader::parse_message(s, data, size, "SequenceProto"));
  if (name) *name = s.name();
  ExternalDataFiles files(base_dir);
  return decode_sequence(s, files, s.name().empty() ? "<unnamed>" : s.name());
}

Result<OptionalValue> parse_optional_proto(const void* data, size_t size, const std::string& base_dir,
                                           std::string* name) {
  onnx::OptionalProto o;
  GK_RETURN_IF_ERROR(loader::parse_message(o, data, size, "OptionalProto"));
  if (name) *name = o.name();
  std::string what = o.name().empty() ? "<unnamed>" : o.name();
  ExternalDataFiles files(base_dir);
  OptionalValue v;
  switch (o.elem_type()) {
    case onnx::OptionalProto_DataType_UNDEFINED:
    case onnx::OptionalProto_DataType_TENSOR:
      if (o.has_tensor_value()) {
        GK_TRY(v.tensor, loader::decode_tensor(*o.mutable_tensor_value(), files, what));
        v.has_value = true;
      }
      break;
    case onnx::OptionalProto_DataType_SPARSE_TENSOR:
      if (o.has_sparse_tensor_value()) {
        GK_TRY(v.tensor, loader::decode_sparse_tensor(*o.mutable_sparse_tensor_value(), files, what));
        v.has_value = true;
      }
      break;
    case onnx::OptionalProto_DataType_SEQUENCE:
      v.is_sequence = true;
      if (o.has_sequence_value()) {
        GK_TRY(v.sequence, decode_sequence(*o.mutable_sequence_value(), files, what));
        v.has_value = true;
      }
      break;
    default:
      return unimplemented("optional '{}': element kind {} (map/optional) is not supported", what,
                           static_cast<int>(o.elem_type()));
  }
  return v;
}

}  // namespace gk

// Declared value types and Constant node values.
#include "graph/loader_proto.h"

namespace gk::loader {
namespace {

// Nesting deeper than this (sequence of optional of sequence of ...) carries no
// element type we would use; protobuf's own recursion limit still bounds parsing.
constexpr int kMaxTypeDepth = 16;

// The innermost tensor element type of a possibly nested type; 0 when none.
int32_t innermost_elem_type(const onnx::TypeProto& tp, int depth = 0) {
  if (depth > kMaxTypeDepth) return 0;
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType: return tp.tensor_type().elem_type();
    case onnx::TypeProto::kSparseTensorType: return tp.sparse_tensor_type().elem_type();
    case onnx::TypeProto::kSequenceType:
      return tp.sequence_type().has_elem_type() ? innermost_elem_type(tp.sequence_type().elem_type(), depth + 1) : 0;
    case onnx::TypeProto::kOptionalType:
      return tp.optional_type().has_elem_type() ? innermost_elem_type(tp.optional_type().elem_type(), depth + 1) : 0;
    default: return 0;
  }
}

const char* kind_name(ValueKind k) {
  switch (k) {
    case ValueKind::kTensor: return "tensor";
    case ValueKind::kSequence: return "sequence";
    case ValueKind::kOptional: return "optional";
    case ValueKind::kMap: return "map";
    case ValueKind::kSparseTensor: return "sparse tensor";
    case ValueKind::kOpaque: return "opaque";
  }
  return "unknown";
}

std::string dim_str(const Dim& d) {
  if (d.known()) return std::to_string(d.value);
  return d.symbol.empty() ? "?" : d.symbol;
}

}  // namespace

void apply_declared_type(Value& v, const onnx::TypeProto& tp, LoadProblems& problems, std::string_view context,
                         bool shape_is_inferred) {
  std::string who = fmt::format("{}value '{}'", context.empty() ? "" : fmt::format("{}: ", context), v.name);
  const char* known_from = v.initializer ? "its initializer" : "another declaration";
  ValueKind kind = ValueKind::kTensor;
  const onnx::TensorShapeProto* shape = nullptr;
  switch (tp.value_case()) {
    case onnx::TypeProto::kTensorType:
      if (tp.tensor_type().has_shape()) shape = &tp.tensor_type().shape();
      break;
    case onnx::TypeProto::kSparseTensorType:
      kind = ValueKind::kSparseTensor;
      if (tp.sparse_tensor_type().has_shape()) shape = &tp.sparse_tensor_type().shape();
      break;
    case onnx::TypeProto::kSequenceType: kind = ValueKind::kSequence; break;
    case onnx::TypeProto::kOptionalType: kind = ValueKind::kOptional; break;
    case onnx::TypeProto::kMapType: kind = ValueKind::kMap; break;
    case onnx::TypeProto::kOpaqueType: kind = ValueKind::kOpaque; break;
    default: return;  // no type declared
  }
  if (v.initializer && kind != ValueKind::kTensor) {
    problems.add_invalid(fmt::format("{} is an initializer (a tensor) but is declared a {}", who, kind_name(kind)));
    return;
  }
  v.kind = kind;

  if (int32_t code = innermost_elem_type(tp); code != 0) {
    auto dt = dtype_from_code(code);
    if (!dt.ok())
      problems.add(dt.status(), who);
    else if (v.dtype != DType::kUndefined && v.dtype != *dt)
      problems.add_invalid(fmt::format("{} is declared {} but is {} by {}", who, dtype_name(*dt),
                                       dtype_name(v.dtype), known_from));
    else
      v.dtype = *dt;
  }
  if (!shape) return;

  std::vector<Dim> dims;
  dims.reserve(static_cast<size_t>(shape->dim_size()));
  for (int i = 0; i < shape->dim_size(); ++i) {
    const auto& d = shape->dim(i);
    if (d.has_dim_value()) {
      if (d.dim_value() == -1) {
        // Some exporters write -1 for "unknown"; ONNX Runtime reads it so. Any other
        // negative value stays an error.
        problems.add_warning(fmt::format("{} declares dimension {} as -1; read as unknown", who, i));
        dims.push_back(Dim{});
      } else if (d.dim_value() < 0) {
        problems.add_invalid(fmt::format("{} declares dimension {} as {}, dimensions must be >= 0", who, i,
                                         d.dim_value()));
        dims.push_back(Dim{});
      } else {
        dims.push_back(Dim{d.dim_value(), {}});
      }
    } else if (d.has_dim_param()) {
      dims.push_back(Dim{-1, d.dim_param()});
    } else {
      dims.push_back(Dim{});
    }
  }
  if (!v.has_shape) {
    v.has_shape = true;
    v.dims = std::move(dims);
    return;
  }
  std::string conflict;
  if (v.dims.size() != dims.size()) {
    conflict = fmt::format("{} is declared with rank {} but has rank {} by {}", who, dims.size(), v.dims.size(),
                           known_from);
  } else {
    for (size_t i = 0; i < dims.size() && conflict.empty(); ++i)
      if (v.dims[i].known() && dims[i].known() && v.dims[i].value != dims[i].value)
        conflict = fmt::format("{} dimension {} is declared {} but is {} by {}", who, i, dim_str(dims[i]),
                               dim_str(v.dims[i]), known_from);
  }
  if (!conflict.empty()) {
    if (!shape_is_inferred) {
      problems.add_invalid(std::move(conflict));
      return;
    }
    // An initializer keeps its own shape; two declarations that disagree both
    // give way to inference.
    problems.add_warning(fmt::format("{}; the declared shape is ignored, shape inference decides", conflict));
    if (!v.initializer) {
      v.has_shape = false;
      v.dims.clear();
    }
    return;
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    Dim& have = v.dims[i];
    if (!have.known() && (dims[i].known() || have.symbol.empty())) have = dims[i];  // the more specific wins
  }
}

Result<HostTensor> constant_value(onnx::NodeProto& node, ExternalDataFiles& files, std::string_view what) {
  static constexpr const char* kForms[] = {"value",     "sparse_value", "value_float",  "value_floats",
                                           "value_int", "value_ints",   "value_string", "value_strings"};
  onnx::AttributeProto* a = nullptr;
  int count = 0;
  for (auto& attr : *node.mutable_attribute())
    for (const char* form : kForms)
      if (attr.name() == form) {
        a = &attr;
        ++count;
      }
  if (count != 1)
    return invalid_model("{}: a Constant needs exactly one of value, sparse_value, value_float(s), value_int(s), "
                         "value_string(s); it has {}",
                         what, count);
  const std::string& form = a->name();
  auto expect = [&](onnx::AttributeProto_AttributeType type) -> Status {
    if (a->type() != onnx::AttributeProto::UNDEFINED && a->type() != type)
      return invalid_model("{}: attribute '{}' has type {}, expected {}", what, form, static_cast<int>(a->type()),
                           static_cast<int>(type));
    return ok_status();
  };
  auto n = [](int size) { return Shape{static_cast<int64_t>(size)}; };
  if (form == "value") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::TENSOR));
    if (!a->has_t()) return invalid_model("{}: attribute 'value' holds no tensor", what);
    return decode_tensor(*a->mutable_t(), files, fmt::format("{} attribute 'value'", what));
  }
  if (form == "sparse_value") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::SPARSE_TENSOR));
    if (!a->has_sparse_tensor()) return invalid_model("{}: attribute 'sparse_value' holds no tensor", what);
    return decode_sparse_tensor(*a->mutable_sparse_tensor(), files, fmt::format("{} attribute 'sparse_value'", what));
  }
  if (form == "value_float") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::FLOAT));
    return HostTensor::from_vector(DType::kF32, {}, std::vector<float>{a->f()});
  }
  if (form == "value_floats") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::FLOATS));
    return HostTensor::from_vector(DType::kF32, n(a->floats_size()),
                                   std::vector<float>(a->floats().begin(), a->floats().end()));
  }
  if (form == "value_int") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::INT));
    return HostTensor::from_vector(DType::kI64, {}, std::vector<int64_t>{a->i()});
  }
  if (form == "value_ints") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::INTS));
    return HostTensor::from_vector(DType::kI64, n(a->ints_size()),
                                   std::vector<int64_t>(a->ints().begin(), a->ints().end()));
  }
  if (form == "value_string") {
    GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::STRING));
    return HostTensor::strings({}, {a->s()});
  }
  GK_RETURN_IF_ERROR(expect(onnx::AttributeProto::STRINGS));
  return HostTensor::strings(n(a->strings_size()), std::vector<std::string>(a->strings().begin(), a->strings().end()));
}

}  // namespace gk::loader

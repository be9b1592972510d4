#include "runtime/op_call.h"

#include "ops/core/op_eval.h"
#include "runtime/kit/element_convert.h"

namespace gk {

Attribute ints_attribute(std::vector<int64_t> v) {
  Attribute a;
  a.kind = Attribute::Kind::kInts;
  a.ints = std::move(v);
  return a;
}

Attribute int_attribute(int64_t v) {
  Attribute a;
  a.kind = Attribute::Kind::kInt;
  a.i = v;
  return a;
}

bool present(const NamedBuf& b) { return b.none || b.sequence || b.dtype() != DType::kUndefined; }

Result<NamedBuf> copy_buf(Kit& kit, const NamedBuf& b) {
  if (b.host || b.sequence || b.none) return b;
  GK_TRY(GkBuf buf, kit.alloc(b.buf.dtype(), b.buf.count()));
  if (buf.bytes()) GK_RETURN_IF_ERROR(kit.device().copy(buf.ptr(), b.buf.ptr(), buf.bytes()));
  return NamedBuf{b.name, std::move(buf), b.shape};
}

Result<NamedBuf> move_axis(Kit& kit, const NamedBuf& b, size_t from, size_t to) {
  if (from == to) return b;
  std::vector<int64_t> perm;
  for (size_t d = 0; d < b.shape.size(); ++d)
    if (d != from) perm.push_back(static_cast<int64_t>(d));
  perm.insert(perm.begin() + static_cast<std::ptrdiff_t>(to), static_cast<int64_t>(from));
  AttrMap attrs;
  attrs.set("perm", ints_attribute(perm));
  GK_TRY(std::vector<NamedBuf> out, call_op(kit, "Transpose", 21, attrs, {b}));
  out[0].name = b.name;
  return out[0];
}

Result<std::vector<int64_t>> read_i64(Kit& kit, const NamedBuf& b) {
  if (b.host || b.sequence || !kit_detail::decodable(b.dtype()))
    return internal_error("read_i64: a {} tensor cannot be read as integers", dtype_name(b.dtype()));
  GK_TRY(HostTensor h, download_tensor(kit, b.dtype(), b.shape, b.buf.ptr()));
  std::vector<int64_t> v(static_cast<size_t>(h.numel()));
  kit_detail::decode_i64(h.dtype(), h.raw(), v.data(), h.numel());
  return v;
}

Result<std::vector<NamedBuf>> call_op(Kit& kit, const std::string& op_type, int opset, const AttrMap& attrs,
                                      const std::vector<NamedBuf>& inputs,
                                      const std::vector<const HostTensor*>& values) {
  const OpSchema* schema = find_op("", op_type, opset);
  if (!schema) return internal_error("{}-{} is not in the registry", op_type, opset);
  NodeView view{op_type + "_call", op_type, "", opset, {}, 1, {true}, {}};
  for (const NamedBuf& in : inputs) view.input_present.push_back(in.dtype() != DType::kUndefined);
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(attrs, view));
  }
  InferContext ictx{view, parsed, {}, {}, {}, false, {}};
  std::vector<TensorRef> ins;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const NamedBuf& in = inputs[i];
    const HostTensor* value = i < values.size() ? values[i] : nullptr;
    ictx.inputs.push_back({in.dtype(), in.shape});
    ictx.values.push_back(value);
    ins.push_back({in.dtype(), in.shape, in.buf.ptr(), value});
  }
  ictx.outputs.resize(1);
  GK_RETURN_IF_ERROR(schema->impl->infer(ictx));
  if (ictx.dynamic_shape) return internal_error("{}: call_op cannot run dynamic-shape ops", view.describe());
  GK_TRY(int64_t count, checked_numel(ictx.outputs[0].shape));
  GK_TRY(GkBuf out, kit.alloc(ictx.outputs[0].dtype, count));
  GK_TRY(GkBuf flag, kit.alloc(DType::kI32, 1));
  GK_RETURN_IF_ERROR(kit.device().memset(flag.ptr(), 0, 4));
  TensorRef outs[] = {{ictx.outputs[0].dtype, ictx.outputs[0].shape, out.ptr(), nullptr}};
  KernelContext ctx(kit, view, parsed, ins, outs, flag.ptr(), nullptr, nullptr);
  if (count > 0) GK_RETURN_IF_ERROR(schema->impl->run(ctx));
  // The op's scratch and the flag die here, before the launch may have run.
  GK_RETURN_IF_ERROR(kit.sync());
  std::vector<NamedBuf> result;
  result.push_back({"", std::move(out), ictx.outputs[0].shape});
  return result;
}

}  // namespace gk

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
  static const OpSchema* const transpose = find_op("", "Transpose", 21);
  GK_TRY(std::vector<NamedBuf> out, call_op(kit, transpose, 21, attrs, {b}));
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

Result<std::vector<NamedBuf>> call_op(Kit& kit, const OpSchema* schema, int opset, const AttrMap& attrs,
                                      const std::vector<NamedBuf>& inputs,
                                      const std::vector<const HostTensor*>& values) {
  if (!schema) return internal_error("call_op: the op is not in the registry at opset {}", opset);
  NodeView view{std::string(schema->op_type) + "_call", schema->op_type, "", opset, {}, 1, {true}, {}};
  for (const NamedBuf& in : inputs) view.input_present.push_back(in.dtype() != DType::kUndefined);
  ParsedAttrs parsed;
  if (schema->impl->parse) {
    GK_TRY(parsed, schema->impl->parse(attrs, view));
  }
  std::vector<TensorRef> ins;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const NamedBuf& in = inputs[i];
    ins.push_back({in.dtype(), in.shape, in.buf.ptr(), i < values.size() ? values[i] : nullptr});
  }
  InferContext ictx{view, parsed, {}, {}, {}, false, {}};
  GK_RETURN_IF_ERROR(infer_node(*schema, ictx, ins, 1));
  if (ictx.dynamic_shape) return internal_error("{}: call_op cannot run dynamic-shape ops", view.describe());
  std::vector<GkBuf> owned;
  GK_TRY(std::vector<TensorRef> outs, allocate_outputs(kit, ictx, owned));
  GK_TRY(GkBuf flag, kit.alloc(DType::kI32, 1));
  GK_RETURN_IF_ERROR(kit.device().memset(flag.ptr(), 0, 4));
  if (outs[0].numel() > 0)
    GK_RETURN_IF_ERROR(invoke_node(InvokeEnv{kit, flag.ptr()}, NodeCall{*schema, view, parsed}, ins, outs, owned));
  // The op's scratch and the flag die here, before the launch may have run.
  GK_RETURN_IF_ERROR(kit.sync());
  std::vector<NamedBuf> result;
  result.push_back({"", std::move(owned.front()), ictx.outputs[0].shape});
  return result;
}

}  // namespace gk

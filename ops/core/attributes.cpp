#include "ops/core/attributes.h"

namespace gk {

const char* attribute_kind_name(Attribute::Kind kind) {
  switch (kind) {
    case Attribute::Kind::kInt: return "int";
    case Attribute::Kind::kFloat: return "float";
    case Attribute::Kind::kString: return "string";
    case Attribute::Kind::kInts: return "ints";
    case Attribute::Kind::kFloats: return "floats";
    case Attribute::Kind::kStrings: return "strings";
    case Attribute::Kind::kTensor: return "tensor";
    case Attribute::Kind::kGraph: return "graph";
    case Attribute::Kind::kOther: return "other";
  }
  return "unknown";
}

const Attribute* AttrMap::find(const std::string& name) const {
  auto it = attrs_.find(name);
  return it == attrs_.end() ? nullptr : &it->second;
}

namespace {
Status wrong_kind(const std::string& name, const Attribute& a, Attribute::Kind want) {
  return invalid_model("attribute '{}' is {}, expected {}", name, attribute_kind_name(a.kind),
                       attribute_kind_name(want));
}
}  // namespace

Result<int64_t> AttrMap::get_int(const std::string& name, int64_t dflt) const {
  const Attribute* a = find(name);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::kInt) return wrong_kind(name, *a, Attribute::Kind::kInt);
  return a->i;
}

Result<float> AttrMap::get_float(const std::string& name, float dflt) const {
  const Attribute* a = find(name);
  if (!a) return dflt;
  if (a->kind == Attribute::Kind::kInt) return static_cast<float>(a->i);
  if (a->kind != Attribute::Kind::kFloat) return wrong_kind(name, *a, Attribute::Kind::kFloat);
  return a->f;
}

Result<std::string> AttrMap::get_string(const std::string& name, std::string dflt) const {
  const Attribute* a = find(name);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::kString) return wrong_kind(name, *a, Attribute::Kind::kString);
  return a->s;
}

Result<std::vector<int64_t>> AttrMap::get_ints(const std::string& name, std::vector<int64_t> dflt) const {
  const Attribute* a = find(name);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::kInts) return wrong_kind(name, *a, Attribute::Kind::kInts);
  return a->ints;
}

Result<std::vector<float>> AttrMap::get_floats(const std::string& name, std::vector<float> dflt) const {
  const Attribute* a = find(name);
  if (!a) return dflt;
  if (a->kind != Attribute::Kind::kFloats) return wrong_kind(name, *a, Attribute::Kind::kFloats);
  return a->floats;
}

Result<int64_t> AttrMap::require_int(const std::string& name) const {
  if (!find(name)) return invalid_model("required attribute '{}' is missing", name);
  return get_int(name, 0);
}

Result<std::vector<int64_t>> AttrMap::require_ints(const std::string& name) const {
  if (!find(name)) return invalid_model("required attribute '{}' is missing", name);
  return get_ints(name);
}

Result<std::shared_ptr<const HostTensor>> AttrMap::require_tensor(const std::string& name) const {
  const Attribute* a = find(name);
  if (!a) return invalid_model("required attribute '{}' is missing", name);
  if (a->kind != Attribute::Kind::kTensor || !a->tensor)
    return wrong_kind(name, *a, Attribute::Kind::kTensor);
  return a->tensor;
}

}  // namespace gk

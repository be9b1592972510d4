// ONNX node attributes in a form ops can read without knowing the file format.
// The loader fills an AttrMap; each op parses it once into its own typed struct.
#pragma once

#include "backends/status.h"
#include "runtime/kit/host_tensor.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gk {

struct Attribute {
  enum class Kind { kInt, kFloat, kString, kInts, kFloats, kStrings, kTensor, kGraph, kOther };
  Kind kind = Kind::kOther;
  int64_t i = 0;
  float f = 0;
  std::string s;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<std::string> strings;
  std::shared_ptr<const HostTensor> tensor;
  std::shared_ptr<const void> graph;  // a graph/ subgraph, opaque here
};

const char* attribute_kind_name(Attribute::Kind kind);

class AttrMap {
 public:
  void set(std::string name, Attribute value) { attrs_[std::move(name)] = std::move(value); }
  bool has(const std::string& name) const { return attrs_.count(name) != 0; }
  const Attribute* find(const std::string& name) const;
  const std::map<std::string, Attribute>& all() const { return attrs_; }

  // Typed getters: absent → the default; present with another kind → InvalidModel
  // naming the attribute and both kinds.
  Result<int64_t> get_int(const std::string& name, int64_t dflt) const;
  Result<float> get_float(const std::string& name, float dflt) const;
  Result<std::string> get_string(const std::string& name, std::string dflt) const;
  Result<std::vector<int64_t>> get_ints(const std::string& name, std::vector<int64_t> dflt = {}) const;
  Result<std::vector<float>> get_floats(const std::string& name, std::vector<float> dflt = {}) const;
  // Required variants: absent → InvalidModel.
  Result<int64_t> require_int(const std::string& name) const;
  Result<std::vector<int64_t>> require_ints(const std::string& name) const;
  Result<std::shared_ptr<const HostTensor>> require_tensor(const std::string& name) const;

 private:
  std::map<std::string, Attribute> attrs_;
};

}  // namespace gk

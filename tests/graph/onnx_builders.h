// Builds ONNX models with ONNX's protobuf classes for the loader tests: small
// valid ones whose decoded values are known, and hostile ones.
#pragma once

#include "graph/loader.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace gk::test {
namespace fs = std::filesystem;

// A fresh folder under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() / fmt::format("gk_loader_test_{}_{}", ::getpid(), counter++);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

inline void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

template <typename T>
std::string bytes_of(const std::vector<T>& v) {
  std::string s(v.size() * sizeof(T), '\0');
  if (!v.empty()) std::memcpy(s.data(), v.data(), s.size());
  return s;
}

inline onnx::ModelProto make_model(int64_t ir_version = 8, int64_t opset = 13) {
  onnx::ModelProto m;
  m.set_ir_version(ir_version);
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  m.set_producer_name("gk-loader-test");
  m.mutable_graph()->set_name("g");
  return m;
}

inline void import_domain(onnx::ModelProto& m, const std::string& domain, int64_t version) {
  auto* o = m.add_opset_import();
  o->set_domain(domain);
  o->set_version(version);
}

// dims: >= 0 known, -1 unknown; a non-empty symbols[i] makes dim i symbolic.
inline onnx::ValueInfoProto* add_info(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* list,
                                      const std::string& name, int elem_type, const std::vector<int64_t>& dims,
                                      const std::vector<std::string>& symbols = {}) {
  auto* vi = list->Add();
  vi->set_name(name);
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  auto* shape = tt->mutable_shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    auto* d = shape->add_dim();
    if (i < symbols.size() && !symbols[i].empty())
      d->set_dim_param(symbols[i]);
    else if (dims[i] >= 0)
      d->set_dim_value(dims[i]);
  }
  return vi;
}

inline onnx::NodeProto* add_node(onnx::GraphProto* g, const std::string& op, const std::vector<std::string>& inputs,
                                 const std::vector<std::string>& outputs, const std::string& name = "",
                                 const std::string& domain = "") {
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name(name);
  n->set_domain(domain);
  for (const auto& i : inputs) n->add_input(i);
  for (const auto& o : outputs) n->add_output(o);
  return n;
}

inline onnx::TensorProto* add_initializer(onnx::GraphProto* g, const std::string& name, int elem_type,
                                          const std::vector<int64_t>& dims) {
  auto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(elem_type);
  for (int64_t d : dims) t->add_dims(d);
  return t;
}

// Marks `t` as stored outside the model: its external_data entries location and,
// where given, offset and length (strings, as the file stores them).
inline void set_external_data(onnx::TensorProto* t, const std::string& location, const std::string& offset = "",
                              const std::string& length = "") {
  t->set_data_location(onnx::TensorProto::EXTERNAL);
  auto add = [&](const char* k, const std::string& v) {
    auto* e = t->add_external_data();
    e->set_key(k);
    e->set_value(v);
  };
  add("location", location);
  if (!offset.empty()) add("offset", offset);
  if (!length.empty()) add("length", length);
}

inline Result<Model> load_in(const TempDir& dir, const onnx::ModelProto& m, const LoadOptions& options = {},
                             const std::string& file = "model.onnx") {
  std::string bytes;
  m.SerializeToString(&bytes);
  write_file(dir / file, bytes);
  return load_model((dir / file).string(), options);
}

inline LoadOptions allow_unsupported() {
  LoadOptions o;
  o.allow_unsupported = true;
  return o;
}

inline const Value& value_named(const Model& m, const std::string& name) {
  ValueId id = m.graph.find(name);
  if (id == kNoValue) throw std::runtime_error("no value named " + name);
  return m.graph.values[static_cast<size_t>(id)];
}

}  // namespace gk::test

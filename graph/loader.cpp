// load_model: parse (ONNX's protobuf classes only, never libonnx's checker or
// shape inference), check versions, convert and validate the graph.
#include "graph/loader.h"
#include "graph/loader_proto.h"

#include <filesystem>
#include <new>

namespace gk {
namespace {

std::string domain_label(const std::string& d) { return d.empty() ? "ai.onnx" : d; }

void read_model_header(const onnx::ModelProto& mp, Model& m, LoadProblems& problems) {
  m.ir_version = mp.ir_version();
  m.producer_name = mp.producer_name();
  m.producer_version = mp.producer_version();
  m.graph_doc = mp.graph().doc_string();
  for (const auto& kv : mp.metadata_props()) m.metadata[kv.key()] = kv.value();

  if (m.ir_version <= 0)
    problems.add_invalid(fmt::format("ir_version is {}; a model must declare its IR version", m.ir_version));
  else if (m.ir_version < kMinIrVersion || m.ir_version > kMaxIrVersion)
    problems.add_unsupported(fmt::format("IR version {} is outside the supported range [{}, {}]", m.ir_version,
                                         kMinIrVersion, kMaxIrVersion));

  for (const auto& o : mp.opset_import()) {
    std::string domain = o.domain() == "ai.onnx" ? std::string() : o.domain();
    if (m.opset(domain) != 0) {
      problems.add_invalid(fmt::format("opset_import lists domain '{}' twice", domain_label(domain)));
      continue;
    }
    if (o.version() <= 0) {
      problems.add_invalid(fmt::format("opset_import gives domain '{}' version {}; versions start at 1",
                                       domain_label(domain), o.version()));
      continue;
    }
    m.opsets.push_back(OpsetImport{domain, o.version()});
    if (domain.empty() && (o.version() < kMinOpset || o.version() > kMaxOpset))
      problems.add_unsupported(fmt::format("opset {} of domain ai.onnx is outside the supported range [{}, {}]",
                                           o.version(), kMinOpset, kMaxOpset));
  }
}

Result<Model> load_impl(const void* data, size_t size, const std::string& source, const std::string& base_dir,
                        const std::string& path, const LoadOptions& options) {
  try {
    onnx::ModelProto mp;
    GK_RETURN_IF_ERROR(loader::parse_message(mp, data, size, source));
    Model m;
    m.path = path;
    LoadProblems problems;
    if (!mp.has_graph()) {
      problems.add_invalid("the model has no graph");
      return problems.to_status(source, options.allow_unsupported);
    }
    read_model_header(mp, m, problems);
    ExternalDataFiles files(base_dir);
    loader::LoadContext ctx{m, files, problems, {}, {}};
    loader::inline_functions(mp, ctx);
    loader::convert_main_graph(*mp.mutable_graph(), m.graph, ctx);
    GK_RETURN_IF_ERROR(problems.to_status(source, options.allow_unsupported));
    for (const std::string& w : problems.warnings) m.warnings.push_back(fmt::format("{}: {}", source, w));
    return m;
  } catch (const std::bad_alloc&) {
    return resource_exhausted("{}: out of memory while loading the model", source);
  } catch (const std::exception& e) {
    return internal_error("{}: unexpected error while loading the model: {}", source, e.what());
  }
}

}  // namespace

Result<Model> load_model(const std::string& path, const LoadOptions& options) {
  auto file = MappedFile::open(path);
  if (!file.ok()) return invalid_argument("cannot read model: {}", file.status().message());
  std::string base_dir;
  try {
    base_dir = std::filesystem::path(path).parent_path().string();
  } catch (const std::exception& e) {
    return invalid_argument("model path '{}': {}", path, e.what());
  }
  if (base_dir.empty()) base_dir = ".";
  return load_impl((*file)->data(), (*file)->size(), path, base_dir, path, options);
}

Result<Model> load_model_from_memory(const void* data, size_t size, const std::string& base_dir,
                                     const LoadOptions& options) {
  return load_impl(data, size, "<memory>", base_dir, "", options);
}

}  // namespace gk
